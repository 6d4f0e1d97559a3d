/**
 * CSV answers of the export calls (001 7.7 coupon-usage-conditions/export; 001 7.16): RFC 4180
 * (comma, CRLF, quotes doubled), UTF-8 with a byte order mark so spreadsheet software reads Japanese,
 * and formula-escaped: a cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
 * leading `'` so it is never run as a formula (OWASP CSV injection).
 * Written here rather than with papaparse: papaparse is only a transitive dependency of refine and
 * has no types installed; these twenty lines are the whole need. Shift_JIS bytes come from iconv-lite
 * (Windows-31J, the Shift_JIS that Japanese spreadsheet software reads, with ①, ～ and the like).
 */
import iconv from 'iconv-lite';
import type { CsvEncoding } from '../shared/list-export';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: null/undefined → empty, objects and lists → JSON, then formula-escaped and quoted when needed. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: BOM, the header line, one line per row, CRLF line ends. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  const lines = [header.map(csvCell).join(','), ...rows.map((r) => r.map(csvCell).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export { CSV_ENCODINGS, type CsvEncoding } from '../shared/list-export';

/**
 * The bytes of a CSV document made by `toCsv`: UTF-8 with its BOM as is, or Shift_JIS (CP932)
 * without a BOM (a character CP932 lacks becomes `?`). Answers the bytes and the Content-Type.
 */
export function encodeCsv(csv: string, encoding: CsvEncoding): { bytes: Buffer; contentType: string } {
  if (encoding === 'shift_jis') return { bytes: iconv.encode(csv.replace(/^\uFEFF/, ''), 'CP932'), contentType: 'text/csv; charset=Shift_JIS' };
  return { bytes: Buffer.from(csv, 'utf8'), contentType: 'text/csv; charset=utf-8' };
}
