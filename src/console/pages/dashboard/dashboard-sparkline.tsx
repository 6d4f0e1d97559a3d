/**
 * The sparkline of a dashboard figure: its 30 daily values as a small line (src/console/components/
 * chart.tsx, ECharts with its aria description). Its own chunk, loaded once the figures are on the
 * screen (dashboard-figures.tsx), so ECharts never delays them (docs/performance.md 'What each page
 * loads').
 */
import { useMemo } from 'react';
import { Chart } from '../../components/chart';

export interface SparklineProps {
  /** What the line shows, for its aria description (e.g. パス売上の推移). */
  title: string;
  /** The days, oldest first, as shown in the description (YYYY/MM/DD). */
  days: string[];
  values: number[];
}

export default function DashboardSparkline({ title, days, values }: SparklineProps) {
  const series = useMemo(() => [{ name: title, values }], [title, values]);
  return (
    <div data-testid="figure-sparkline">
      <Chart kind="line" sparkline title={title} categories={days} series={series} height={48} />
    </div>
  );
}
