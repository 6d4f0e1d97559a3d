/**
 * The CSV import of shops (advertisements) and malls, as both sides see it (000 1, 2.2 import/upload
 * and import/history, 000 5 CSV rules; 001 7.16, 8, 9): the calls, the limits, the kinds and the
 * shapes of the answers. The server (src/server/import/) serves them, the console
 * (src/console/pages/import/) calls them.
 *
 * Calls (every one for Administrators and Operators of the city only; 403 for anyone else):
 * - POST /{city}/api/import-csv/?dry_run=true (multipart, field `file`) → 200 `DryRunAnswer`: the
 *   check, nothing written. Same for /{city}/api/import-csv-mall/.
 * - POST /{city}/api/import-csv/ (same body; `confirm_duplicate=true` to import a file whose SHA-256
 *   was imported before, else 409 `duplicate_file`) → 202 `ImportState`: the import runs in the
 *   background as a durable job.
 * - GET /{city}/api/import-csv/{id}/ (ours) → 200 `ImportState` (progress: `done` of `total`).
 * - POST /{city}/api/import-csv/{id}/cancel (ours) → 200 `ImportState` (`cancelled`, everything the
 *   import wrote rolled back).
 * - GET /{city}/api/import-csv/{id}/failed-rows (ours) → text/csv: the rows that were not imported,
 *   as uploaded, with an error column; UTF-8 with BOM.
 * - GET /{city}/api/import-csv/template and /{city}/api/import-csv-mall/template (ours) → text/csv:
 *   the header and two example rows, UTF-8 with BOM.
 * - GET /{city}/api/admin-tools/list-imported/ (file_name, search, offset; 20 a page) → the history
 *   (resource `csv_import`); DELETE /{city}/api/city/list-imported/{id}/ removes an entry (not the
 *   shops); GET /{city}/api/logs-file-imported/{id}/ (offset, level; 20 a page) → its log
 *   (resource `csv_import_log`).
 */

/** What a file imports: shops (`ads`, one advertisement a row) or malls (`mall`, a genre of type 24). */
export type ImportKind = 'ads' | 'mall';

/** The upload path of a kind, the city filled in. */
export function importPath(city: string, kind: ImportKind): string {
  return `/${encodeURIComponent(city)}/api/${kind === 'ads' ? 'import-csv' : 'import-csv-mall'}/`;
}

/** Largest CSV file: 10,485,760 bytes (10 MB; 001 9). */
export const CSV_IMPORT_MAX_BYTES = 10_485_760;
/** The file's extension (000 5). */
export const CSV_IMPORT_EXTENSION = '.csv';
/** The encodings a file may have (000 5): UTF-8 (with or without a BOM) or Shift_JIS (Windows). */
export const CSV_IMPORT_ENCODINGS = ['utf-8', 'shift_jis'] as const;
export type CsvImportEncoding = (typeof CSV_IMPORT_ENCODINGS)[number];
/** How many problems a dry run answers at most (the counts cover them all). */
export const DRY_RUN_PROBLEMS_MAX = 100;
/** The warning of a category the city does not have (001 8): the row is imported without it. */
export const INVALID_CATEGORY_WARNING = 'このカテゴリが無効なものです';

/** The states of an import (resource `csv_import`, field `status`). */
export type ImportStatus = 'processing' | 'success' | 'partial' | 'failed' | 'cancelled';

/** One problem of a row: its number in the file (the header is row 1), the column and the message. */
export interface ImportProblem {
  row: number;
  column: string | null;
  level: 'error' | 'warning';
  message: string;
}

/** The answer of a dry run: what the import would do, writing nothing. */
export interface DryRunAnswer {
  dry_run: true;
  kind: ImportKind;
  file_name: string;
  encoding: CsvImportEncoding;
  /** Data rows (the header not counted). */
  rows: number;
  create: number;
  update: number;
  /** Rows with at least one error (skipped by the import). */
  errors: number;
  /** Rows with a warning only (imported). */
  warnings: number;
  /** The first DRY_RUN_PROBLEMS_MAX problems, in row order. */
  problems: ImportProblem[];
  /** The id of an earlier import of the same file (same SHA-256), or null. */
  duplicate_of: number | null;
}

/** An import as it runs and ends (a `csv_import` row with its progress). */
export interface ImportState {
  id: number;
  kind: ImportKind;
  file_name: string;
  encoding: CsvImportEncoding;
  status: ImportStatus;
  /** Data rows of the file. */
  total: number;
  /** Rows handled so far (imported or skipped); equals `total` when the import has ended. */
  done: number;
  created: number;
  updated: number;
  errors: number;
  warnings: number;
}
