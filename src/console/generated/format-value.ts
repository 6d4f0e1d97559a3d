/**
 * How a field's value reads in lists and detail pages: enum values by their translated
 * `x-enum-labels` (also inside arrays), date-times as `YYYY/MM/DD HH:mm` (001 9 formats), dates as
 * `YYYY/MM/DD`, booleans as yes/no, numbers with thousands separators (001 9 Interface), arrays as a
 * comma-separated list. `displayKind` says which values are files: images get a thumbnail, PDFs a link.
 */
import dayjs from 'dayjs';
import type { FieldSchema } from '@/shared/registry';
import { baseType, enumLabelKeys, enumValues, itemsOf } from './field-kinds';

/** Display format of date-times in lists and detail pages. */
export const DATE_TIME_FORMAT = 'YYYY/MM/DD HH:mm';
/** Display format of dates. */
export const DATE_FORMAT = 'YYYY/MM/DD';

const IMAGE_URL = /\.(jpe?g|png|gif|webp|svg)(\?.*)?$/i;
const PDF_URL = /\.pdf(\?.*)?$/i;

/** How a value is shown: a thumbnail, a PDF link, or text. */
export type DisplayKind = 'image' | 'pdf' | 'text';

/** The display kind of one (non-array) value of a field. */
export function displayKind(prop: FieldSchema | undefined, value: unknown): DisplayKind {
  if (typeof value !== 'string' || !value) return 'text';
  const upload = prop?.['x-upload']?.kind;
  if (upload === 'pdf') return 'pdf';
  if (upload === 'image') return 'image';
  if (upload === 'image-or-pdf') return PDF_URL.test(value) ? 'pdf' : 'image';
  if (prop?.['x-widget'] === 'image-url') return 'image';
  if (/^(https?:\/\/|\/)/.test(value)) {
    if (PDF_URL.test(value)) return 'pdf';
    if (IMAGE_URL.test(value)) return 'image';
  }
  return 'text';
}

/** Thousands separators in the language's convention (`ja` → 1,234,567.5). */
export function formatNumber(value: number, locale = 'ja'): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(value);
}

function formatOne(prop: FieldSchema | undefined, value: unknown, t: (key: string) => string, locale: string): string {
  if (value === undefined || value === null || value === '') return '';
  const values = prop ? enumValues(prop) : undefined;
  const labels = prop ? enumLabelKeys(prop) : undefined;
  if (values && labels) {
    const i = values.findIndex((v) => String(v) === String(value));
    if (i >= 0 && labels[i]) return t(labels[i]);
  }
  const format = prop?.format ?? (prop && baseType(prop) === 'array' ? itemsOf(prop).format : undefined);
  if (format === 'date-time' || format === 'date') {
    const d = dayjs(String(value));
    return d.isValid() ? d.format(format === 'date' ? DATE_FORMAT : DATE_TIME_FORMAT) : String(value);
  }
  if (typeof value === 'boolean') return t(value ? 'actions.yes' : 'actions.no');
  if (typeof value === 'number') return formatNumber(value, locale);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The text of `value` for a field described by `prop`, translated with `t`; `locale` is the
 * interface language (number separators). Arrays read as 'a, b, c'.
 */
export function formatValue(prop: FieldSchema | undefined, value: unknown, t: (key: string) => string, locale = 'ja'): string {
  if (Array.isArray(value)) {
    return value
      .map((v) => formatOne(prop, v, t, locale))
      .filter((s) => s !== '')
      .join(', ');
  }
  return formatOne(prop, value, t, locale);
}
