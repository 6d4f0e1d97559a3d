/**
 * The layout of a generated form (000 2.3: mobile below 1024 px): a form of more than
 * TWO_COLUMNS_FROM fields takes two columns on a wide screen, short inputs side by side and wide
 * ones (texts, uploads, lists, maps, business hours, videos, periods) across; one column below 1024 px.
 * It is the antd RJSF theme's own `colSpan` of its object template (by widget, by field, by type).
 */

/** More fields than this, on a wide screen: two columns. */
export const TWO_COLUMNS_FROM = 8;

/** What takes the whole width in two columns: widgets, custom fields and types. */
const ACROSS = ['textarea', 'upload', 'map-area', 'geo-point', 'tags', 'businessHours', 'videoLinks', 'periodList', 'array', 'object'];
/** What takes half of it. */
const HALF = ['text', 'select', 'updown', 'switch', 'clock', 'ref', 'lookup', 'date', 'date-time', 'color', 'password', 'dateTimeRange', 'string', 'number', 'integer', 'boolean', 'null'];

/**
 * The antd theme's `colSpan` (24 columns) for a form of `fields` fields: a number (24: one column)
 * or spans by widget, field and type name.
 */
export function formColumns(fields: number, mobile: boolean): number | Record<string, number> {
  if (mobile || fields <= TWO_COLUMNS_FROM) return 24;
  return Object.fromEntries([...ACROSS.map((k) => [k, 24] as const), ...HALF.map((k) => [k, 12] as const)]);
}
