/**
 * The date-range presets of every date filter of the generated lists (001 9: today, last week, last
 * month, last 3 months) and the values of a chosen range (the filters of src/shared/list-query.ts
 * `rangeFilters`). Ranges are whole local days, both ends inclusive.
 */
import dayjs, { type Dayjs } from 'dayjs';

/** The presets in the order they are offered, with their i18n keys (lists.json). */
export const DATE_PRESETS = [
  { key: 'today', label: 'lists.dates.today' },
  { key: 'lastWeek', label: 'lists.dates.lastWeek' },
  { key: 'lastMonth', label: 'lists.dates.lastMonth' },
  { key: 'last3Months', label: 'lists.dates.last3Months' },
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number]['key'];

/**
 * The range of a preset seen at `now`: from the start of the first day to the end of today. Last
 * week starts 7 days ago, last month one calendar month ago, last 3 months three calendar months ago.
 */
export function presetRange(preset: DatePreset, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const end = now.endOf('day');
  const start = { today: now, lastWeek: now.subtract(7, 'day'), lastMonth: now.subtract(1, 'month'), last3Months: now.subtract(3, 'month') }[preset];
  return [start.startOf('day'), end];
}

/**
 * The filter values of a range on `field`: `format: 'date'` fields take `YYYY-MM-DD`, others ISO
 * instants (start of the first day, end of the last day). Answers [from, to] as the API wants them.
 */
export function rangeValues(range: [Dayjs, Dayjs], format: string | undefined): [string, string] {
  const [a, b] = range;
  if (format === 'date') return [a.format('YYYY-MM-DD'), b.format('YYYY-MM-DD')];
  return [a.startOf('day').toISOString(), b.endOf('day').toISOString()];
}
