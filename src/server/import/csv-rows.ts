/**
 * The rows of an import's CSV file (000 5 CSV import: correct header format), read by csv-parse from
 * the decoded text (./import-file.ts `decodedText`), streamed: only the rows being worked on are in
 * memory. RFC 4180 (comma, quoted cells with doubled quotes and line breaks, CRLF or LF); a stray
 * quote inside an unquoted cell is kept as text; empty lines are skipped. Row numbers count the
 * records: the header is row 1, the first data row 2 (a spreadsheet's row numbers when the file has no
 * empty line).
 *
 * The header (row 1) names the columns by their Japanese label or their key (any case, any order;
 * `ImportColumn` of src/shared/csv-import.ts, declared by the schema's `x-import`); a header cell left
 * empty is ignored with its cells. A required column missing, a cell naming no column, or two cells
 * naming one column refuse the file before any row is read, naming those columns.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import type { CsvImportEncoding, ImportColumn, ImportDeclaration } from '../../shared/csv-import';
import { HttpError } from '../http-error';
import { translatorFor } from '../translator';
import { decodedText, refusal, type Language } from './import-file';

/** One record of the file: its row number (the header is 1) and its cells as written. */
export interface CsvRow {
  number: number;
  cells: string[];
}

/** The columns of a file: for each position of its header, the column it names (null: ignored). */
export interface Header {
  /** The header cells as written. */
  cells: string[];
  columns: Array<ImportColumn | null>;
}

// A record ends at CRLF or LF alike (csv-parse would otherwise keep to the first one it meets).
const OPTIONS = { relax_quotes: true, relax_column_count: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'] };

/**
 * Every record of a file in `encoding` (the header first), streamed. Errors: 400 `validation`
 * `malformed` naming the line of a quote never closed (or another CSV error); TypeError for bytes
 * not in `encoding` (the encoding was found before: `fileEncoding`).
 */
export async function* csvRows(path: string, encoding: CsvImportEncoding, language: Language): AsyncGenerator<CsvRow> {
  const parser = parse(OPTIONS);
  // One decoded chunk waits for the parser at a time: what waits in a stream lives long enough to
  // fill the server's old generation (README 'Other commands': the import bench's memory).
  const piped = pipeline(Readable.from(decodedText(path, encoding), { highWaterMark: 1 }), parser);
  piped.catch(() => undefined); // the same error ends the iteration below
  let number = 0;
  try {
    for await (const record of parser) {
      number += 1;
      yield { number, cells: record as string[] };
    }
    await piped;
  } catch (err) {
    if (err instanceof CsvError) throw refusal(language, 'malformed', { line: (err as CsvError & { lines?: number }).lines ?? number + 1 });
    throw err;
  } finally {
    parser.destroy();
  }
}

/**
 * The number of records of CSV text as `csvRows` reads them (the header included), counted by a
 * scan of the characters without making cells: quoted cells (a quote that opens a cell, doubled
 * quotes inside), a quote inside an unquoted cell as text, empty lines skipped. A quote never closed
 * counts as closed at the end (`csvRows` refuses that file when the rows are read).
 */
export async function countRecords(chunks: AsyncIterable<string>): Promise<number> {
  let count = 0;
  let quoted = false;
  let closing = false; // a quote seen inside a quoted cell: its end, or the first of a doubled quote
  let cellStart = true;
  let content = false;
  for await (const text of chunks) {
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (quoted) {
        if (closing) {
          closing = false;
          if (c === 0x22) continue;
          quoted = false;
        } else {
          if (c === 0x22) closing = true;
          continue;
        }
      }
      if (c === 0x0a) {
        if (content) count += 1;
        content = false;
        cellStart = true;
      } else if (c === 0x2c) {
        cellStart = true;
        content = true;
      } else if (c !== 0x0d) {
        if (c === 0x22 && cellStart) quoted = true;
        cellStart = false;
        content = true;
      }
    }
  }
  return content ? count + 1 : count;
}

/**
 * The columns `cells` (a header row) name among `declaration`'s. Errors: 400 `validation` naming
 * the required columns missing, the unknown cells and the columns named twice (all in one answer).
 */
export function readHeader(cells: readonly string[], declaration: ImportDeclaration, language: Language): Header {
  const columns: Array<ImportColumn | null> = [];
  const seen = new Set<ImportColumn>();
  const unknown: string[] = [];
  const twice: string[] = [];
  for (const raw of cells) {
    const text = raw.trim();
    if (!text) {
      columns.push(null);
      continue;
    }
    const lower = text.toLowerCase();
    const column = declaration.columns.find((c) => c.label === text || c.key === lower) ?? null;
    if (!column) unknown.push(text);
    else if (seen.has(column)) twice.push(text);
    else seen.add(column);
    columns.push(column && !twice.includes(text) ? column : null);
  }
  const missing = declaration.columns.filter((c) => c.required && !seen.has(c)).map((c) => c.label);
  const problems: Array<[string, string[]]> = [
    ['missingColumns', missing],
    ['unknownColumns', unknown],
    ['duplicateColumns', twice],
  ];
  const found = problems.filter(([, list]) => list.length > 0);
  if (found.length === 0) return { cells: [...cells], columns };
  const t = translatorFor(language);
  const errors = found.map(([key, list]) => ({ key: `validation.import.${key}`, params: { field: 'file', columns: list.join('、') } }));
  throw new HttpError('validation', { detail: errors.map((e) => t(e.key, e.params)).join(' '), fieldErrors: { file: errors } });
}
