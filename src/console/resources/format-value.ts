/**
 * How a field's value reads in lists and detail pages: enum values by their translated
 * `x-enum-labels` (also inside arrays), dates and times in the formats of 001 9 (dates
 * `YYYY年MM月DD日`, date-times `YYYY/MM/DD HH:mm:ss` in list cells and `YYYY年MM月DD日 HH:mm:ss`
 * (a full-width space between) on detail pages, times of day `HH:mm`), creation times in lists relative to now (001 9 thresholds),
 * booleans as yes/no, numbers with thousands separators (001 9 Interface), arrays as a
 * comma-separated list. `displayKind` says which values are files: images get a thumbnail, PDFs a link.
 */
import dayjs from 'dayjs';
import type { FieldSchema } from '@/shared/registry';
import { baseType, enumLabelKeys, enumValues, itemsOf } from './field-kinds';

/** Input format of the date pickers of the list filters (typed as 2001/01/01). */
export const DATE_FORMAT = 'YYYY/MM/DD';

/** The formats of 001 9 (Time and timing), by use. */
export const FORMATS = {
  /** Times of day. */
  time: 'HH:mm',
  /** Dates in Japanese. */
  dateJa: 'YYYY年MM月DD日',
  /** Date-times to the second (list tooltips, exports). */
  dateTimeSeconds: 'YYYY/MM/DD HH:mm:ss',
  /** Date-times to the second in Japanese (a full-width space between date and time). */
  dateTimeJa: 'YYYY年MM月DD日\u3000HH:mm:ss',
  /** The API's instants. */
  iso: 'YYYY-MM-DDTHH:mm:ssZ',
} as const;

/** Where a value is shown: a list cell (compact) or a detail page (long form). */
export type DisplayPlace = 'list' | 'detail';

/** The 001 9 format of a date-time, by where it is shown. */
export const DATE_TIME_FORMATS: Record<DisplayPlace, string> = { list: FORMATS.dateTimeSeconds, detail: FORMATS.dateTimeJa };

/**
 * Whether a list column shows its date-times relative to now (with the absolute time in a tooltip):
 * the record's creation time, the resource's `createdField` (x-resource), when it is a date-time.
 */
export function isRelativeField(field: string, prop: FieldSchema | undefined, createdField: string | null): boolean {
  return !!createdField && field === createdField && prop?.format === 'date-time';
}

/** A day in ms (001 9). */
export const DAY_MS = 86_400_000;

/**
 * A date-time relative to `now` (001 9 thresholds 30 s, 1 hour, 1 day, 2 days): under 30 s 'just
 * now'; under an hour whole minutes ago (rounded up); under a day hours ago (rounded up); under two
 * days 'yesterday'; older (or in the future) the date as `YYYY/MM/DD HH:mm:ss`. `t` translates the
 * `lists.relative.*` keys; `value` is anything dayjs reads; an unreadable value answers ''.
 */
export function formatRelative(value: unknown, t: (key: string, params?: Record<string, unknown>) => string, now: number = Date.now()): string {
  const d = dayjs(value as string);
  if (!d.isValid()) return '';
  const seconds = (now - d.valueOf()) / 1000;
  if (seconds < 0 || seconds >= (2 * DAY_MS) / 1000) return d.format(FORMATS.dateTimeSeconds);
  if (seconds < 30) return t('lists.relative.justNow');
  if (seconds < 3600) return t('lists.relative.minutes', { count: Math.ceil(seconds / 60) });
  if (seconds < DAY_MS / 1000) return t('lists.relative.hours', { count: Math.ceil(seconds / 3600) });
  return t('lists.relative.yesterday');
}

const SI = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
];

/**
 * A number with the suffixes of 001 9 (k, M, G, T, P, E; powers of 1000) and at most `digits`
 * decimals, trailing zeros dropped: 1234 → '1.2k', 1_500_000 → '1.5M', 999 → '999', -2500 → '-2.5k'.
 */
export function formatCompactNumber(value: number, digits = 1): string {
  const abs = Math.abs(value);
  for (const { value: unit, symbol } of SI) {
    if (abs >= unit) {
      const text = (abs / unit).toFixed(digits).replace(/\.0+$|(\.\d*[1-9])0+$/, '$1');
      return `${value < 0 ? '-' : ''}${text}${symbol}`;
    }
  }
  return String(value);
}

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

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Thousands separators in the language's convention (`ja` → 1,234,567.5); one formatter per language. */
export function formatNumber(value: number, locale = 'ja'): string {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
    numberFormats.set(locale, format);
  }
  return format.format(value);
}

/**
 * Makes the language's number formatter now. A page's first `Intl.NumberFormat` loads the locale's
 * ICU data, about 30 to 70 ms of main thread: the console asks for it in a task of its own while a
 * list's rows are on their way (console-app.tsx), not in the list's first render.
 */
export function prepareNumberFormat(locale: string): void {
  formatNumber(0, locale);
}

const TIME_OF_DAY = /^(\d{1,2}):(\d{2})(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/**
 * A date, date-time or time of day (JSON Schema `format` date, date-time, time) in its 001 9 format:
 * dates `YYYY年MM月DD日`, date-times as `DATE_TIME_FORMATS[place]`, times `HH:mm`. An unreadable value
 * answers undefined.
 */
export function formatDateValue(format: string, value: unknown, place: DisplayPlace = 'list'): string | undefined {
  if (format === 'time') {
    const m = TIME_OF_DAY.exec(String(value));
    return m ? `${m[1].padStart(2, '0')}:${m[2]}` : undefined;
  }
  const d = dayjs(String(value));
  if (!d.isValid()) return undefined;
  return d.format(format === 'date' ? FORMATS.dateJa : DATE_TIME_FORMATS[place]);
}

function formatOne(prop: FieldSchema | undefined, value: unknown, t: (key: string) => string, locale: string, place: DisplayPlace): string {
  if (value === undefined || value === null || value === '') return '';
  const values = prop ? enumValues(prop) : undefined;
  const labels = prop ? enumLabelKeys(prop) : undefined;
  if (values && labels) {
    const i = values.findIndex((v) => String(v) === String(value));
    if (i >= 0 && labels[i]) return t(labels[i]);
  }
  // The JSON Schema format, else the date or time widget's (a string stored as 'YYYY-MM-DD' / 'HH:mm').
  const widget = prop?.['x-widget'] === 'date' || prop?.['x-widget'] === 'time' ? prop['x-widget'] : undefined;
  const format = prop?.format ?? widget ?? (prop && baseType(prop) === 'array' ? itemsOf(prop).format : undefined);
  if (format === 'date-time' || format === 'date' || format === 'time') return formatDateValue(format, value, place) ?? String(value);
  if (typeof value === 'boolean') return t(value ? 'actions.yes' : 'actions.no');
  if (typeof value === 'number') return formatNumber(value, locale);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * One list column's cell text: `(value) => string`, or null for a value shown otherwise (an image or
 * a PDF: field-value.tsx). Each distinct value is formatted once per formatter (keyed by the value,
 * an array by its JSON): 20 rows sharing a status, a genre or a date reuse one string, and a table
 * rendering its cells again formats nothing anew. Make one per column, `t` and locale (the list's
 * column definitions do); the text goes into the cell as a string, no component per cell.
 */
export function cellFormatter(prop: FieldSchema | undefined, t: (key: string) => string, locale = 'ja'): (value: unknown) => string | null {
  const made = new Map<unknown, string>();
  return (value) => {
    const items = Array.isArray(value) ? value : [value];
    if (items.some((v) => displayKind(prop, v) !== 'text')) return null;
    const key = Array.isArray(value) ? JSON.stringify(value) : value;
    let text = made.get(key);
    if (text === undefined) {
      text = formatValue(prop, value, t, locale, 'list');
      made.set(key, text);
    }
    return text;
  };
}

/**
 * The text of `value` for a field described by `prop`, translated with `t`; `locale` is the
 * interface language (number separators); `place` picks the date-time format (list or detail).
 * Arrays read as 'a, b, c'.
 */
export function formatValue(prop: FieldSchema | undefined, value: unknown, t: (key: string) => string, locale = 'ja', place: DisplayPlace = 'list'): string {
  if (Array.isArray(value)) {
    return value
      .map((v) => formatOne(prop, v, t, locale, place))
      .filter((s) => s !== '')
      .join(', ');
  }
  return formatOne(prop, value, t, locale, place);
}
