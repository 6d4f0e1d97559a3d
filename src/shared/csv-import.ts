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
 * The columns of each kind are declared beside the schema they fill (`x-import`: `importDeclaration`).
 */
import { registry, type ResourceDef } from './registry';

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

/**
 * A row of the history as the console reads it (GET /{city}/api/admin-tools/list-imported/, resource
 * `csv_import`, schemas/csv_import.schema.json): `created_rows` and `updated_rows` are the
 * `created` and `updated` of `ImportState` (together `success_rows`); the console shows '—' for a
 * count a row lacks. A `processing` row's progress is read from GET /{city}/api/import-csv/{id}/.
 */
export interface ImportHistoryRow {
  id: number;
  file_name: string;
  kind: ImportKind;
  status: ImportStatus;
  encoding?: CsvImportEncoding;
  total_rows?: number;
  success_rows?: number;
  created_rows?: number;
  updated_rows?: number;
  warning_rows?: number;
  error_rows?: number;
  /** Who imported it (the user's name or username). */
  imported_by?: string;
  created_at: string;
}

/**
 * One column of an import, as the schema the kind fills declares it (`x-import.columns` of
 * schemas/advertisement.schema.json and schemas/genre.schema.json; docs/architecture.md 'One schema per
 * entity'). A header cell names it by its Japanese `label` or its `key` (any case), in any order.
 */
export interface ImportColumn {
  /** The field of the record the cell fills. */
  field: string;
  /** The column's key (default the field): `parent` for the field `parent_id`. */
  key: string;
  /** The Japanese header of the template, e.g. 店舗名. */
  label: string;
  /** The header must have it and every row a value (000 5: name, phone, address, genre, category). */
  required: boolean;
  /**
   * The cell names a row of the field's `x-ref` resource: `path` (names from a root, `>` between
   * them, e.g. グルメ>ラーメン), `name`, or `advertiser` (the username of an Advertiser of the city).
   */
  lookup?: 'path' | 'name' | 'advertiser';
  /** Fixed values of the rows the lookup finds (malls: type 24). */
  where?: Record<string, unknown>;
  /** A value the lookup does not find: an error, or a warning with the row imported without it (category, 001 8). */
  unknown: 'error' | 'warning';
}

/** The import of a kind as its schema declares it (`x-import`). */
export interface ImportDeclaration {
  kind: ImportKind;
  /** The resource the rows are stored in: `advertisement` or `genre`. */
  resource: string;
  /** Values every imported row stores (a mall is a genre of type 24). */
  set: Record<string, unknown>;
  columns: ImportColumn[];
  /** The two example rows of the template: cell texts by column key. */
  examples: Array<Record<string, string>>;
}

interface XImport {
  kind: ImportKind;
  set?: Record<string, unknown>;
  columns: Array<Omit<ImportColumn, 'key' | 'required' | 'unknown'> & Partial<Pick<ImportColumn, 'key' | 'required' | 'unknown'>>>;
  examples: Array<Record<string, string>>;
}

/**
 * The import of `kind` from the schema that declares it (`x-import`, with the defaults filled in).
 * Errors: throws when no schema of `resources` declares the kind (a programming error).
 */
export function importDeclaration(kind: ImportKind, resources: ReadonlyMap<string, ResourceDef> = registry): ImportDeclaration {
  for (const def of resources.values()) {
    const x = (def.schema as { 'x-import'?: XImport })['x-import'];
    if (x?.kind !== kind) continue;
    return {
      kind,
      resource: def.name,
      set: x.set ?? {},
      columns: x.columns.map((c) => ({ ...c, key: c.key ?? c.field, required: c.required ?? false, unknown: c.unknown ?? 'error' })),
      examples: x.examples,
    };
  }
  throw new Error(`no schema declares the CSV import '${kind}' (x-import)`);
}

/** The template download of a kind (the header and two example rows, UTF-8 with BOM), the city filled in. */
export function templatePath(city: string, kind: ImportKind): string {
  return `${importPath(city, kind)}template`;
}

/** The state (GET), cancel (POST `cancel`) and failed rows (GET `failed-rows`) paths of an import; `what` empty for the state. */
export function importStatePath(city: string, id: number, what: '' | 'cancel' | 'failed-rows' = ''): string {
  return `/${encodeURIComponent(city)}/api/import-csv/${id}/${what}`;
}
