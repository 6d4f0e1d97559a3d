/**
 * The calls of the CSV import pages (000 2.2 import/upload and import/history, 000 5 CSV rules;
 * 001 7.16, 9), as src/shared/csv-import.ts states them: the browser's checks of a file before it
 * is sent (the server checks again), the dry run and the import (multipart field `file`, sent by
 * XMLHttpRequest for upload progress through the console's one 401 rule), the import's state and
 * its cancel, the template and failed-rows downloads, and one page of an import's log.
 */
import {
  CSV_IMPORT_EXTENSION,
  CSV_IMPORT_MAX_BYTES,
  importPath,
  type DryRunAnswer,
  type ImportKind,
  type ImportState,
} from '@/shared/csv-import';
import { ApiRequestError } from '../../providers/api-error';
import { answerError, errorMessage, request, requestResponse, sendWithRefresh, withQuery } from '../../providers/http';
import { saveResponse } from '../../resources/download';
import { formatNumber } from '../../resources/format-value';
import { postWithProgress, type ProgressPostOptions } from '../../resources/upload';

/** How often a running import's state is read (ms). */
export const IMPORT_POLL_MS = 500;
/** Rows per page of an import's log and of the history (001 9: CSV rows, 20 a page). */
export const IMPORT_PAGE_SIZE = 20;

/** How many rows the import would bring in (rows without errors). */
export function importableRows(answer: Pick<DryRunAnswer, 'rows' | 'errors'>): number {
  return Math.max(0, answer.rows - answer.errors);
}

/** A refusal of the browser's checks: an i18n key of `imports.file.*` and its values. */
export interface FileProblem {
  key: string;
  params: Record<string, unknown>;
}

/** A byte count for people: bytes, KB or MB (1 MB = 1,048,576 bytes) with one decimal, in `locale`'s separators. */
export function formatBytes(bytes: number, locale = 'ja'): string {
  if (bytes < 1024) return `${formatNumber(bytes, locale)} B`;
  if (bytes < 1_048_576) return `${formatNumber(Math.round(bytes / 102.4) / 10, locale)} KB`;
  return `${formatNumber(Math.round(bytes / 104_857.6) / 10, locale)} MB`;
}

/**
 * The browser's checks of a chosen file (000 5: extension .csv, not empty, at most
 * CSV_IMPORT_MAX_BYTES): null when it may be sent, else the problem (`imports.file.badType`,
 * `imports.file.empty`, `imports.file.tooLarge` with its size and the limit).
 */
export function checkCsvFile(file: { name: string; size: number }, locale = 'ja'): FileProblem | null {
  const { name, size } = file;
  if (!name.toLowerCase().endsWith(CSV_IMPORT_EXTENSION)) return { key: 'imports.file.badType', params: { name } };
  if (size === 0) return { key: 'imports.file.empty', params: { name } };
  if (size > CSV_IMPORT_MAX_BYTES) {
    const params = { name, size: formatBytes(size, locale), max: formatBytes(CSV_IMPORT_MAX_BYTES, locale), bytes: formatNumber(CSV_IMPORT_MAX_BYTES, locale) };
    return { key: 'imports.file.tooLarge', params };
  }
  return null;
}

const city$ = (city: string) => encodeURIComponent(city);

/** GET /{city}/api/import-csv/template or /import-csv-mall/template: the kind's template (UTF-8 with BOM). */
export function templatePath(city: string, kind: ImportKind): string {
  return `${importPath(city, kind)}template`;
}

/** GET /{city}/api/import-csv/{id}/: an import's state, whatever its kind. */
export function importStatePath(city: string, id: number): string {
  return `/${city$(city)}/api/import-csv/${id}/`;
}

/** GET /{city}/api/logs-file-imported/{id}/: an import's log (offset, limit, level). */
export function importLogPath(city: string, id: number): string {
  return `/${city$(city)}/api/logs-file-imported/${id}/`;
}

function parsed<T>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiRequestError({ status: 500, code: 'server_error', detail: '', message: errorMessage(500, 'server_error', '') });
  }
}

async function sendCsv<T>(city: string, kind: ImportKind, file: File, query: Record<string, boolean | undefined>, options: ProgressPostOptions): Promise<T> {
  const path = withQuery(importPath(city, kind), query);
  const body = new FormData();
  body.append('file', file, file.name);
  const answer = await sendWithRefresh(() => postWithProgress(path, body, options));
  if (answer.status < 200 || answer.status >= 300) throw answerError(answer.status, answer.text);
  return parsed<T>(answer.text);
}

/**
 * The dry run (001 7.16): POST the file with `?dry_run=true`; the server writes nothing and answers
 * the counts and the first problems. Errors: `ApiRequestError` with the server's message (a refused
 * file: size, extension, encoding, header), an AbortError when `options.signal` aborts the upload.
 */
export function checkCsv(city: string, kind: ImportKind, file: File, options: ProgressPostOptions = {}): Promise<DryRunAnswer> {
  return sendCsv<DryRunAnswer>(city, kind, file, { dry_run: true }, options);
}

/**
 * Starts the import (001 7.16): POST the file without `dry_run` (`confirm_duplicate=true` for a file
 * imported before, else the server answers 409 `duplicate_file`); answers 202 with the running
 * import. Errors as `checkCsv`.
 */
export function startImport(city: string, kind: ImportKind, file: File, confirmDuplicate: boolean, options: ProgressPostOptions = {}): Promise<ImportState> {
  return sendCsv<ImportState>(city, kind, file, { confirm_duplicate: confirmDuplicate || undefined }, options);
}

/** An import's state and progress. Errors: `ApiRequestError`. */
export function fetchImportState(city: string, id: number, signal?: AbortSignal): Promise<ImportState> {
  // Read again every IMPORT_POLL_MS while it runs: no use of the session (BACKGROUND_HEADER).
  return request<ImportState>(importStatePath(city, id), { signal, background: true });
}

/** Cancels a running import: everything it wrote is rolled back; answers its state (`cancelled`). */
export function cancelImport(city: string, id: number): Promise<ImportState> {
  return request<ImportState>(`${importStatePath(city, id)}cancel`, { method: 'POST' });
}

/** Downloads the template of `kind`; answers the file name saved. Errors: `ApiRequestError`. */
export async function downloadTemplate(city: string, kind: ImportKind): Promise<string> {
  const res = await requestResponse(templatePath(city, kind), { accept: 'text/csv' });
  return saveResponse(res, kind === 'ads' ? 'import-csv-template' : 'import-csv-mall-template');
}

/** Downloads the rows of import `id` that were not imported, with their error column. Errors: `ApiRequestError`. */
export async function downloadFailedRows(city: string, id: number): Promise<string> {
  const res = await requestResponse(`${importStatePath(city, id)}failed-rows`, { accept: 'text/csv' });
  return saveResponse(res, `import-${id}-failed-rows`);
}
