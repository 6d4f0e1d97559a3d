/**
 * How the statistics page writes its numbers and periods (001 9 Interface and Time): money in yen
 * with thousands separators (¥1,234), counts with thousands separators, axis labels with the
 * suffixes k, M, G, T, P, E (`formatCompactNumber`), periods as YYYY/MM/DD (a month as YYYY/MM),
 * ranges as YYYY年MM月DD日, and the change against the previous period in %.
 */
import dayjs from 'dayjs';
import type { MeasureDef, StatisticDef, StatisticInterval } from '@/shared/statistics';
import { getResource } from '@/shared/registry';
import { DATE_FORMAT, FORMATS, formatCompactNumber, formatNumber, formatValue } from '../../resources/format-value';

/** A measure's value for people: `¥1,234` for yen (whole yen), else `1,234.5`; in `locale`'s separators. */
export function formatMeasure(value: number, format: MeasureDef['format'], locale = 'ja'): string {
  if (format === 'yen') {
    const yen = formatNumber(Math.abs(Math.round(value)), locale);
    return value < 0 ? `-¥${yen}` : `¥${yen}`;
  }
  return formatNumber(Math.round(value * 100) / 100, locale);
}

/** A value axis' label: the 001 9 suffixes (1.2k, 3M), `¥` before money. */
export function formatAxis(value: number, format: MeasureDef['format']): string {
  const text = formatCompactNumber(value);
  return format === 'yen' ? (value < 0 ? `-¥${text.slice(1)}` : `¥${text}`) : text;
}

/**
 * The change from `previous` to `current` in % (one decimal), or null when there is nothing to
 * compare with (previous 0): 120 after 100 → 20, 80 after 100 → -20.
 */
export function changePercent(current: number, previous: number): number | null {
  if (!previous) return null;
  return Math.round(((current - previous) / Math.abs(previous)) * 1000) / 10;
}

/** A change in % for people: `+20.0%`, `-3.5%`, `±0.0%`. */
export function formatChange(change: number, locale = 'ja'): string {
  const text = `${new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.abs(change))}%`;
  return change > 0 ? `+${text}` : change < 0 ? `-${text}` : `±${text}`;
}

/**
 * The label of a period of a series (`period` is its first day, YYYY-MM-DD): a day or a week as
 * YYYY/MM/DD (a week with 〜 after its first day), a month as YYYY/MM.
 */
export function formatPeriod(period: string, interval: StatisticInterval): string {
  const d = dayjs(period);
  if (interval === 'month') return d.format('YYYY/MM');
  return interval === 'week' ? `${d.format(DATE_FORMAT)}〜` : d.format(DATE_FORMAT);
}

/** A day of the API (YYYY-MM-DD) as YYYY年MM月DD日 (001 9). */
export function formatDay(day: string): string {
  return dayjs(day).format(FORMATS.dateJa);
}

/**
 * The readable name of a group of dimension `by`: the answer's label (the declaration's labelField),
 * else the name of the row it refers to (`refs`: id → label, for an `x-ref` field), else the key as
 * the field shows it (an enum's translated label, a boolean as yes/no), else `none` for a group
 * without a value.
 */
export function groupLabel(
  def: StatisticDef,
  by: string,
  group: { key: string | number | null; label: string | null },
  t: (key: string) => string,
  locale: string,
  none: string,
  refs?: ReadonlyMap<string, string>,
): string {
  if (group.label) return group.label;
  if (group.key === null || group.key === '') return none;
  const ref = refs?.get(String(group.key));
  if (ref) return ref;
  const field = def.dimensions.find((d) => d.key === by)?.field ?? by;
  const prop = getResource(def.resource).schema.properties[field];
  return formatValue(prop, group.key, t, locale) || String(group.key);
}
