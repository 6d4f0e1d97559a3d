/**
 * The figures of the dashboard (000 2.2 `/{city}/dashboard`, every role): one card per figure the
 * server answers (src/shared/dashboard.ts) — its value (yen with thousands separators for money,
 * 001 9), the change against the previous 30 days, that period's value, a sparkline of the 30 days
 * and, when the role's menu has its page, a link to it. A loading skeleton, an error with a retry.
 * The sparklines' chunk (ECharts) is asked for only after the figures are on the screen.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Col, Row, Skeleton, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { DASHBOARD_DAYS, type DashboardFigure } from '@/shared/dashboard';
import { DATE_FORMAT } from '../../resources/format-value';
import { FigureChange } from '../statistics/figure-change';
import { changePercent, formatChange, formatDay, formatMeasure } from '../statistics/statistic-format';
import { useDashboard } from './dashboard-api';

const DashboardSparkline = lazy(() => import('./dashboard-sparkline'));

/** Room kept for a sparkline while its chunk loads (no layout shift). */
const SPARKLINE_HEIGHT = 48;

function FigureCard({ figure, city, days, charts }: { figure: DashboardFigure; city: string; days: string[]; charts: boolean }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const locale = i18n.language;
  const title = t(figure.label);
  const change = changePercent(figure.value, figure.previous);
  const placeholder = <div style={{ height: SPARKLINE_HEIGHT }} />;
  return (
    <Card size="small" style={{ height: '100%' }} data-testid={`dashboard-figure-${figure.key}`}>
      <Typography.Text type="secondary" data-testid="figure-title">
        {figure.route ? <Link to={`/${city}/${figure.route}`}>{title}</Link> : title}
      </Typography.Text>
      <div style={{ fontSize: 24, fontWeight: 600, lineHeight: 1.4, overflowWrap: 'anywhere' }} data-testid="figure-value">
        {formatMeasure(figure.value, figure.format, locale)}
      </div>
      <FigureChange change={change} text={change === null ? t('dashboard.noComparison') : t('dashboard.change', { change: formatChange(change, locale) })} />
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }} data-testid="figure-previous">
        {t('dashboard.previous', { days: DASHBOARD_DAYS, value: formatMeasure(figure.previous, figure.format, locale) })}
      </Typography.Text>
      <div style={{ marginTop: 8, minHeight: SPARKLINE_HEIGHT }}>
        {charts ? (
          <Suspense fallback={placeholder}>
            <DashboardSparkline title={t('dashboard.trend', { figure: title })} days={days} values={figure.series} />
          </Suspense>
        ) : (
          placeholder
        )}
      </div>
    </Card>
  );
}

/** Columns of a figure card: two on a phone or a tablet, three or four on a desktop. */
const COLUMNS = { xs: 12, lg: 8, xxl: 6 } as const;

export function DashboardFigures({ city }: { city: string }) {
  const { t } = useTranslation();
  const { data, error, isPending, refetch, isFetching } = useDashboard(city);
  // The sparklines' chunk is asked for after the figures have been committed to the screen.
  const [charts, setCharts] = useState(false);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    if (data && !charts) setCharts(true);
  }, [data, charts]);
  const days = useMemo(
    () => (data ? Array.from({ length: DASHBOARD_DAYS }, (_, i) => dayjs(data.start_date).add(i, 'day').format(DATE_FORMAT)) : []),
    [data],
  );

  if (isPending) {
    return (
      <Row gutter={[16, 16]} role="status" aria-live="polite" aria-label={t('app.loading')} data-testid="dashboard-loading">
        {Array.from({ length: 4 }, (_, i) => (
          <Col key={i} {...COLUMNS}>
            <Card size="small">
              <Skeleton active paragraph={{ rows: 2 }} />
            </Card>
          </Col>
        ))}
      </Row>
    );
  }
  if (error || !data) {
    return (
      <Alert
        type="error"
        showIcon
        message={t('dashboard.loadError')}
        description={error?.message}
        action={
          <Button onClick={() => void refetch()} loading={isFetching}>
            {t('dashboard.retry')}
          </Button>
        }
        data-testid="dashboard-error"
      />
    );
  }
  if (data.figures.length === 0) return null;
  return (
    <section aria-labelledby="dashboard-figures-title" data-testid="dashboard-figures">
      <Typography.Title level={4} id="dashboard-figures-title" style={{ marginTop: 0 }}>
        {t(`dashboard.scope.${data.scope}`)}
      </Typography.Title>
      <Typography.Paragraph type="secondary" data-testid="dashboard-period">
        {t('dashboard.period', { days: DASHBOARD_DAYS, start: formatDay(data.start_date), end: formatDay(data.end_date) })}
      </Typography.Paragraph>
      <Row gutter={[12, 12]}>
        {data.figures.map((f) => (
          <Col key={f.key} {...COLUMNS}>
            <FigureCard figure={f} city={city} days={days} charts={charts} />
          </Col>
        ))}
      </Row>
    </section>
  );
}
