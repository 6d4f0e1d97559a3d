/**
 * How a field's value reads in lists and detail pages: enum values by their translated
 * `x-enum-labels`, date-times as `YYYY/MM/DD HH:mm` (001 9 formats), booleans as yes/no.
 */
import dayjs from 'dayjs';
import type { FieldSchema } from '@/shared/registry';

/** Display format of date-times in lists and detail pages. */
export const DATE_TIME_FORMAT = 'YYYY/MM/DD HH:mm';

/** The text of `value` for a field described by `prop`, translated with `t`. */
export function formatValue(prop: FieldSchema | undefined, value: unknown, t: (key: string) => string): string {
  if (value === undefined || value === null || value === '') return '';
  if (prop?.enum && prop['x-enum-labels']) {
    const i = prop.enum.indexOf(String(value));
    if (i >= 0 && prop['x-enum-labels'][i]) return t(prop['x-enum-labels'][i]);
  }
  if (prop?.format === 'date-time' || prop?.format === 'date') {
    const d = dayjs(String(value));
    return d.isValid() ? d.format(prop.format === 'date' ? 'YYYY/MM/DD' : DATE_TIME_FORMAT) : String(value);
  }
  if (typeof value === 'boolean') return t(value ? 'actions.yes' : 'actions.no');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
