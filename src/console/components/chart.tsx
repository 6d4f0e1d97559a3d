/**
 * The one place the console sets up Apache ECharts (docs/performance.md 'What each page loads':
 * heavy libraries load only on their own routes). Modular imports only: the line, bar and pie
 * charts, the grid, tooltip, legend, title (hidden: it names the chart for the aria text) and aria
 * components, and the SVG renderer. Imported only by the statistics page and the dashboard, which
 * are loaded lazily, so ECharts never reaches the login or list pages.
 *
 * - Accessibility: ECharts' aria component writes `role="img"` and an `aria-label` describing the
 *   chart (its title, series and values) on the chart's element, in the interface language
 *   (ECharts' own JA, EN, ZH and ES texts). The table beside a chart is the long form of the data.
 * - Colours come from the antd theme token (primary colour first, then antd's preset palette), so a
 *   theme colour or dark mode of the top bar's pickers (000 2.3) applies to the charts too.
 * - The chart follows its container's size (`useFollowSize`), except while its page is kept out of
 *   the document in a hidden tab (console-layout's kept pages): echarts-for-react's size sensor drew
 *   it again at 0 × 0 when the tab was left and at its size when it came back.
 */
import { useEffect, useMemo, useRef, type CSSProperties, type RefObject } from 'react';
import { theme as antdTheme } from 'antd';
import { useTranslation } from 'react-i18next';
// echarts-for-react's core component (no full ECharts bundled), from its ES module build: the CommonJS
// `lib/core` arrives in the built console as a module object instead of its default export.
import ReactEChartsCore from 'echarts-for-react/esm/core';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart, type BarSeriesOption, type LineSeriesOption, type PieSeriesOption } from 'echarts/charts';
import {
  AriaComponent,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
  type AriaComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type TitleComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import langJA from 'echarts/lib/i18n/langJA.js';
import langES from 'echarts/lib/i18n/langES.js';

echarts.use([LineChart, BarChart, PieChart, GridComponent, TooltipComponent, LegendComponent, TitleComponent, AriaComponent, SVGRenderer]);
// EN and ZH are built into ECharts; the other two interface languages are registered here.
echarts.registerLocale('JA', langJA);
echarts.registerLocale('ES', langES);

/** The ECharts locale of each interface language (locales/). */
const ECHARTS_LOCALES: Record<string, string> = { ja: 'JA', en: 'EN', zh: 'ZH', es: 'ES' };

type ChartOption = echarts.ComposeOption<
  LineSeriesOption | BarSeriesOption | PieSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption | TitleComponentOption | AriaComponentOption
>;

/** How the values are drawn: over categories (periods or groups) as lines or bars, or as a pie. */
export type ChartKind = 'line' | 'bar' | 'pie';

/** One series: its name (legend, tooltip, aria text) and one value per category. */
export interface ChartSeries {
  name: string;
  values: number[];
}

export interface ChartProps {
  kind: ChartKind;
  /** What the chart shows, in the interface language: ECharts' aria description starts with it. */
  title: string;
  /** The x-axis labels (line, bar) or slice names (pie), one per value of each series. */
  categories: string[];
  /** The series drawn; a pie draws the first. */
  series: ChartSeries[];
  /** The value axis' labels (e.g. the 001 9 suffixes k, M, G: formatCompactNumber); default as is. */
  formatAxis?: (value: number) => string;
  /** A value in the tooltip (e.g. ¥1,234), by series index; default as is. */
  formatValue?: (value: number, seriesIndex: number) => string;
  /** Bars grow to the right, categories down the side (long group names). */
  horizontal?: boolean;
  /** A sparkline: no axes, legend or tooltip, no margins (the dashboard's figures). */
  sparkline?: boolean;
  /** Height of the chart in px or CSS; default 320 (48 for a sparkline). Width follows the container. */
  height?: number | string;
  style?: CSSProperties;
  'data-testid'?: string;
}

/** The series colours of the current antd theme: the primary colour, then preset colours. */
function paletteOf(token: ReturnType<typeof antdTheme.useToken>['token'], dark: boolean): string[] {
  // antd's dark algorithm makes dark palettes (1 darkest, 10 lightest): step 7 reads on dark surfaces.
  const presets = dark
    ? [token.cyan7, token.gold7, token.purple7, token.green7, token.magenta7, token.volcano7, token.geekblue7, token.lime7]
    : [token.cyan6, token.gold6, token.purple6, token.green6, token.magenta6, token.volcano6, token.geekblue6, token.lime6];
  return [token.colorPrimary, ...presets];
}

/** Whether a `#rrggbb` / `rgb()` background is dark (dark mode). */
function isDark(background: string): boolean {
  const hex = background.startsWith('#') ? background.slice(1, 7) : '';
  if (hex.length !== 6) return false;
  const n = parseInt(hex, 16);
  return ((n >> 16) & 255) * 0.299 + ((n >> 8) & 255) * 0.587 + (n & 255) * 0.114 < 128;
}

/**
 * Draws the chart again at its element's new size when that changes; not while the element is out
 * of the document or has no size (a hidden tab's page), nor on its return at the size it had.
 */
function useFollowSize(chart: RefObject<ReactEChartsCore | null>): void {
  useEffect(() => {
    const element = chart.current?.ele;
    if (!element) return;
    let drawn = { width: element.clientWidth, height: element.clientHeight };
    const observer = new ResizeObserver(() => {
      const size = { width: element.clientWidth, height: element.clientHeight };
      if (!element.isConnected || size.width === 0 || size.height === 0) return;
      if (size.width === drawn.width && size.height === drawn.height) return;
      drawn = size;
      chart.current?.getEchartsInstance()?.resize({ width: 'auto', height: 'auto' });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [chart]);
}

/**
 * A chart of `series` over `categories` (see ChartProps), drawn by ECharts with the antd theme's
 * colours and an aria description in the interface language. Renders a `div` with `role="img"`
 * and that `aria-label` once drawn.
 */
export function Chart(props: ChartProps) {
  const { kind, title, categories, series, formatAxis, formatValue, horizontal = false, sparkline = false } = props;
  const { token } = antdTheme.useToken();
  const { i18n } = useTranslation();
  const locale = ECHARTS_LOCALES[i18n.language] ?? 'JA';
  const dark = isDark(token.colorBgContainer);
  const option = useMemo<ChartOption>(() => {
    const palette = paletteOf(token, dark);
    const text = { color: token.colorTextSecondary, fontFamily: token.fontFamily, fontSize: token.fontSizeSM };
    const base: ChartOption = {
      color: palette,
      backgroundColor: 'transparent',
      textStyle: { fontFamily: token.fontFamily },
      animation: !sparkline,
      title: { text: title, show: false },
      // On a category axis a point's values are its category's index and its value (x, y: the index
      // second when the bars are horizontal): the description reads the value only.
      aria: { enabled: true, decal: { show: false }, label: kind === 'pie' ? undefined : { data: { excludeDimensionId: [horizontal ? 1 : 0] } } },
    };
    const tooltip: TooltipComponentOption = {
      show: !sparkline,
      backgroundColor: token.colorBgElevated,
      borderColor: token.colorBorderSecondary,
      textStyle: { color: token.colorText, fontFamily: token.fontFamily },
      confine: true,
    };
    // Each series formats its own values in the tooltip (money and counts side by side).
    const seriesTooltip = (index: number) =>
      formatValue ? { valueFormatter: (value: unknown) => (typeof value === 'number' ? formatValue(value, index) : String(value ?? '')) } : undefined;
    if (kind === 'pie') {
      const first = series[0];
      return {
        ...base,
        tooltip: { ...tooltip, trigger: 'item' },
        legend: { show: !sparkline, type: 'scroll', bottom: 0, textStyle: text, pageTextStyle: text, pageIconColor: token.colorPrimary },
        series: [
          {
            type: 'pie',
            name: first?.name,
            tooltip: seriesTooltip(0),
            radius: sparkline ? ['50%', '90%'] : ['35%', '65%'],
            center: ['50%', '45%'],
            itemStyle: { borderColor: token.colorBgContainer, borderWidth: 1 },
            label: { show: !sparkline, color: token.colorText, overflow: 'truncate', width: 120 },
            data: categories.map((name, i) => ({ name, value: first?.values[i] ?? 0 })),
          },
        ],
      };
    }
    const categoryAxis = {
      type: 'category' as const,
      data: categories,
      show: !sparkline,
      boundaryGap: kind === 'bar',
      axisLine: { lineStyle: { color: token.colorBorder } },
      axisTick: { show: false },
      axisLabel: { ...text, hideOverlap: true, overflow: 'truncate' as const, width: horizontal ? 96 : undefined },
      inverse: horizontal,
    };
    const valueAxis = {
      type: 'value' as const,
      show: !sparkline,
      splitLine: { lineStyle: { color: token.colorBorderSecondary } },
      // Fewer, non-overlapping labels on a narrow value axis (bars to the right on a phone).
      splitNumber: horizontal ? 3 : undefined,
      axisLabel: { ...text, hideOverlap: true, formatter: formatAxis ? (v: number) => formatAxis(v) : undefined },
    };
    return {
      ...base,
      grid: sparkline ? { left: 0, right: 0, top: 2, bottom: 2 } : { left: 8, right: 16, top: series.length > 1 ? 36 : 16, bottom: 8, containLabel: true },
      tooltip: { ...tooltip, trigger: 'axis' },
      legend: { show: !sparkline && series.length > 1, type: 'scroll', top: 0, textStyle: text, pageTextStyle: text, pageIconColor: token.colorPrimary },
      xAxis: horizontal ? valueAxis : categoryAxis,
      yAxis: horizontal ? categoryAxis : valueAxis,
      series: series.map((s, i) =>
        kind === 'line'
          ? ({
              type: 'line',
              name: s.name,
              data: s.values,
              tooltip: seriesTooltip(i),
              showSymbol: !sparkline && categories.length <= 31,
              areaStyle: sparkline ? { opacity: 0.15 } : undefined,
            } satisfies LineSeriesOption)
          : ({ type: 'bar', name: s.name, data: s.values, tooltip: seriesTooltip(i), barMaxWidth: 32 } satisfies BarSeriesOption),
      ),
    };
  }, [kind, title, categories, series, formatAxis, formatValue, horizontal, sparkline, token, dark]);
  const height = props.height ?? (sparkline ? 48 : 320);
  const chart = useRef<ReactEChartsCore>(null);
  useFollowSize(chart);
  return (
    <ReactEChartsCore
      ref={chart}
      autoResize={false}
      echarts={echarts}
      option={option}
      notMerge
      lazyUpdate
      opts={{ renderer: 'svg', locale }}
      style={{ width: '100%', height, ...props.style }}
      data-testid={props['data-testid']}
    />
  );
}
