/**
 * CSV answers of the export calls (001 7.7 coupon-usage-conditions/export; 001 7.16): RFC 4180
 * (comma, CRLF, quotes doubled), UTF-8 with a byte order mark so spreadsheet software reads Japanese,
 * and formula-escaped: a cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
 * leading `'` so it is never run as a formula (OWASP CSV injection).
 * Written here rather than with papaparse: papaparse is only a transitive dependency of refine and
 * has no types installed; these twenty lines are the whole need.
 */

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
