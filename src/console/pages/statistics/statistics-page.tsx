/**
 * The one statistics page (000 2.2: every statistic route, e.g. /{city}/special-voucher/statistic,
 * membership/in-app-purchase-statistic 購入集計, user-usage-statistic 利用集計, menu/list-purchase,
 * user-click-statistic, report-ranking; docs/architecture.md 'Adding a statistic'). The menu entry
 * names the statistic (`statistic`, a declaration of src/shared/statistics.ts) and may fix some of its
 * filters (`statistic_filters`); the page asks the server for the aggregates of the chosen range,
 * periods, dimension and filters and draws them: headline figures with the change against the
 * previous period, a chart over time and one by dimension (ECharts, components/chart.tsx), the same
 * numbers as sortable tables with a total row, and the CSV export. The server computes, the page
 * draws; what a role sees is the read permission and own-row limits of the statistic's resource.
 */
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Flex, Result, Segmented, Spin, Tabs, Typography } from 'antd';
import type { MenuEntry } from '@/shared/manifest';
import { statisticOf, type StatisticDef } from '@/shared/statistics';
import { Loading } from '../../components/loading';
import { RequireAbility } from '../../layout/require-ability';
import { presetRange } from '../../resources/date-presets';
import { PageCard } from '../../resources/page-card';
import { useStatistic, type StatisticQuery } from './statistic-api';
import { StatisticCharts } from './statistic-charts';
import { StatisticControls } from './statistic-controls';
import { formatDay, groupLabel } from './statistic-format';
import { refOf, useRefOptions } from './statistic-refs';
import { StatisticHeadline } from './statistic-headline';
import { GroupTable, PeriodTable } from './statistic-tables';
import { StatisticExportButton } from './statistic-export-button';

/** The range a statistics page opens with (a preset of 001 9). */
const DEFAULT_PRESET = 'lastWeek';

/** The statistics page of a menu entry (`entry.statistic`); an entry without a known statistic shows a 404 result. */
export function StatisticsPage({ entry }: { entry?: MenuEntry }) {
  const { t } = useTranslation();
  const def = entry?.statistic ? statisticOf(entry.statistic) : undefined;
  if (!def) return <Result status="404" title={t('statistics.page.unknown')} data-testid="statistic-unknown" />;
  // Whoever may read the statistic's resource may see it (src/shared/pages.ts); the server applies the own-row limits.
  return (
    <RequireAbility action="read" subject={def.resource}>
      <StatisticView key={def.name} def={def} fixed={entry?.statistic_filters ?? {}} />
    </RequireAbility>
  );
}

function StatisticView({ def, fixed }: { def: StatisticDef; fixed: Record<string, string | number | boolean> }) {
  const { t, i18n } = useTranslation();
  const { city = '' } = useParams();
  const fixedFilters = useMemo(() => Object.fromEntries(Object.entries(fixed).map(([k, v]) => [k, String(v)])), [fixed]);
  const [query, setQuery] = useState<StatisticQuery>(() => ({
    range: presetRange(DEFAULT_PRESET),
    interval: 'day',
    by: def.dimensions[0]?.key ?? '',
    filters: {},
  }));
  const [measureKey, setMeasureKey] = useState(def.measures[0].key);
  const sent = useMemo(() => ({ ...query, filters: { ...query.filters, ...fixedFilters } }), [query, fixedFilters]);
  const { data: answer, error, isFetching, isPending, refetch } = useStatistic(city, def.name, sent);
  const measure = def.measures.find((m) => m.key === measureKey) ?? def.measures[0];
  const dimension = def.dimensions.find((d) => d.key === answer?.by);
  // Groups of a reference (a voucher, a pass, a shop) are named by the row they point at.
  const refs = useRefOptions(dimension?.labelField ? undefined : refOf(def.resource, dimension?.field), city);
  const groupLabels = useMemo(() => {
    const names = new Map(refs.map((o) => [String(o.value), o.label]));
    const none = t('statistics.page.none');
    return (answer?.groups ?? []).map((g) => groupLabel(def, answer?.by ?? '', g, t, i18n.language, none, names));
  }, [answer, def, refs, t, i18n.language]);

  return (
    <PageCard title={t(def.title)} extra={<StatisticExportButton city={city} name={def.name} query={sent} />}>
      <Flex vertical gap={16} data-testid="statistics-page" data-statistic={def.name}>
        <StatisticControls def={def} query={query} onChange={setQuery} fixedFilters={Object.keys(fixedFilters)} />
        {error && (
          <Alert
            type="error"
            showIcon
            message={t('statistics.page.error')}
            description={(error as Error).message}
            action={<Button onClick={() => void refetch()}>{t('statistics.page.retry')}</Button>}
            data-testid="statistic-error"
          />
        )}
        {isPending && !error && <Loading />}
        {answer && (
          <Spin spinning={isFetching} delay={200}>
            <Flex vertical gap={16}>
              <Typography.Text type="secondary" data-testid="statistic-period">
                {t('statistics.page.range', { start: formatDay(answer.start_date), end: formatDay(answer.end_date) })}
                {'　'}
                {t('statistics.page.previousRange', { start: formatDay(answer.previous_start_date), end: formatDay(answer.previous_end_date) })}
              </Typography.Text>
              <StatisticHeadline def={def} answer={answer} />
              {def.measures.length > 1 && (
                <Flex wrap gap={8} align="center">
                  <Typography.Text id="statistic-measure-label">{t('statistics.page.measure')}</Typography.Text>
                  <Segmented
                    aria-labelledby="statistic-measure-label"
                    value={measure.key}
                    options={def.measures.map((m) => ({ value: m.key, label: t(m.label) }))}
                    onChange={(v) => setMeasureKey(String(v))}
                    style={{ maxWidth: '100%', overflowX: 'auto' }}
                    data-testid="statistic-measure"
                  />
                </Flex>
              )}
              <StatisticCharts def={def} answer={answer} measure={measure} groupLabels={groupLabels} />
              <Tabs
                items={[
                  { key: 'period', label: t('statistics.page.byPeriod'), children: <PeriodTable def={def} answer={answer} /> },
                  ...(dimension
                    ? [{ key: 'group', label: t('statistics.page.byDimension', { dimension: t(dimension.label) }), children: <GroupTable def={def} answer={answer} labels={groupLabels} /> }]
                    : []),
                ]}
                defaultActiveKey={def.ranking ? 'group' : 'period'}
                data-testid="statistic-tables"
              />
            </Flex>
          </Spin>
        )}
      </Flex>
    </PageCard>
  );
}
