/**
 * CSV answers of the export calls (001 7.7 coupon-usage-conditions/export; the export of any list,
 * routes/list-export.ts), written as a stream: records are pulled only as fast as the reader takes
 * the bytes. RFC 4180 by csv-stringify (comma, CRLF, a cell with a comma, quote or line break quoted,
 * quotes doubled); formula-escaped: a cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage
 * return gets a leading `'` so it is never run as a formula (OWASP CSV injection). The bytes come
 * from iconv-lite's encode stream: UTF-8 with a byte order mark so spreadsheet software reads
 * Japanese, or Shift_JIS as Windows-31J (CP932, the Shift_JIS Japanese spreadsheet software reads,
 * with ①, ～ and the like).
 */
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import iconv from 'iconv-lite';
import type { CsvEncoding } from '../shared/list-export';

export { CSV_ENCODINGS, type CsvEncoding } from '../shared/list-export';

const FORMULA_START = /^[=+\-@\t\r]/;
/** csv-stringify's options for every CSV written here: CRLF, and a cell quoted only when it holds a comma, quote, CR or LF. */
const CSV_OPTIONS = { record_delimiter: 'windows', quote_record_delimiter: true, eof: true } as const;

/** The text of one cell before quoting: null/undefined → empty, objects and lists → JSON, then formula-escaped. */
export function cellText(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell as written in a CSV line: `cellText`, quoted when needed (RFC 4180). */
export function csvCell(value: unknown): string {
  return stringifySync([[cellText(value)]], { ...CSV_OPTIONS, eof: false });
}

/** The Content-Type of a CSV answer in `encoding`. */
export function csvContentType(encoding: CsvEncoding): string {
  return encoding === 'shift_jis' ? 'text/csv; charset=Shift_JIS' : 'text/csv; charset=utf-8';
}

async function* linesOf(header: readonly string[], records: AsyncIterable<readonly unknown[]>): AsyncGenerator<string[]> {
  yield header.map(cellText);
  for await (const record of records) yield record.map(cellText);
}

/**
 * A CSV document as a byte stream (send it as the reply): the `header` line, then one line per
 * record of `records` (cell values as `cellText` writes them), CRLF line ends; UTF-8 with a BOM, or
 * Shift_JIS (CP932) without one (a character CP932 lacks becomes `?`). `records` is read only as
 * the stream is read; destroying the stream (a reader gone) stops reading it. An error of `records`
 * destroys the stream with that error (the answer is cut short: its status was sent already).
 */
export function csvStream(header: readonly string[], records: AsyncIterable<readonly unknown[]>, encoding: CsvEncoding): NodeJS.ReadableStream {
  const text = stringify(CSV_OPTIONS).setEncoding('utf8'); // iconv-lite's encoder takes strings
  const encoder = iconv.encodeStream(encoding === 'shift_jis' ? 'CP932' : 'utf8', { addBOM: encoding === 'utf-8' });
  // Errors reach the reader as the last stream's 'error'; nothing else is to be done here.
  return pipeline(Readable.from(linesOf(header, records)), text, encoder, () => undefined);
}
