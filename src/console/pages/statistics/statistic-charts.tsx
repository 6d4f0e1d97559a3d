/**
 * The two charts of a statistic (components/chart.tsx, ECharts with its aria description): the chosen
 * measure over time (a line or bars, one point per period) and by the chosen dimension (bars or a
 * pie of the largest groups). The tables below them (statistic-tables.tsx) hold the same numbers.
 */
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, Col, Empty, Row } from 'antd';
import type { MeasureDef, StatisticAnswer, StatisticDef } from '@/shared/statistics';
import { Chart } from '../../components/chart';
import { formatAxis, formatMeasure, formatPeriod } from './statistic-format';

/** Groups drawn by the dimension chart: a pie stays readable with few slices, bars with a few more. */
const PIE_GROUPS = 8;
const BAR_GROUPS = 15;

export interface StatisticChartsProps {
  def: StatisticDef;
  answer: StatisticAnswer;
  measure: MeasureDef;
  /** The readable name of each group of the answer, in its order. */
  groupLabels: readonly string[];
}

export function StatisticCharts({ def, answer, measure, groupLabels }: StatisticChartsProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const measureName = t(measure.label);
  const dimension = def.dimensions.find((d) => d.key === answer.by);
  const byKind = def.chart?.by ?? 'bar';
  const time = useMemo(
    () => ({
      categories: answer.series.map((s) => formatPeriod(s.period, answer.interval)),
      series: [{ name: measureName, values: answer.series.map((s) => s.values[measure.key] ?? 0) }],
    }),
    [answer, measure.key, measureName],
  );
  const groups = useMemo(() => {
    const shown = byKind === 'pie' ? PIE_GROUPS : BAR_GROUPS;
    return {
      categories: groupLabels.slice(0, shown),
      series: [{ name: measureName, values: answer.groups.slice(0, shown).map((g) => g.values[measure.key] ?? 0) }],
    };
  }, [answer, byKind, groupLabels, measure.key, measureName]);
  const axis = useCallback((v: number) => formatAxis(v, measure.format), [measure.format]);
  const value = useCallback((v: number) => formatMeasure(v, measure.format, locale), [measure.format, locale]);
  const timeTitle = t('statistics.page.timeChart', { measure: measureName });
  const byTitle = dimension ? t('statistics.page.byChart', { measure: measureName, dimension: t(dimension.label) }) : '';
  const byHeight = byKind === 'pie' ? 320 : Math.max(200, groups.categories.length * 28 + 40);
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} xl={dimension ? 14 : 24}>
        <Card size="small" title={timeTitle} data-testid="statistic-time-chart">
          <Chart kind={def.chart?.time ?? 'line'} title={timeTitle} categories={time.categories} series={time.series} formatAxis={axis} formatValue={value} />
        </Card>
      </Col>
      {dimension && (
        <Col xs={24} xl={10}>
          <Card size="small" title={byTitle} data-testid="statistic-by-chart">
            {groups.categories.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('statistics.page.empty')} />
            ) : (
              <Chart kind={byKind} horizontal={byKind === 'bar'} title={byTitle} categories={groups.categories} series={groups.series} formatAxis={axis} formatValue={value} height={byHeight} />
            )}
          </Card>
        </Col>
      )}
    </Row>
  );
}
