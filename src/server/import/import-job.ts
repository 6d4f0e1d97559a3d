/**
 * The import as a job of the one job runner (src/server/jobs/job-runner.ts; 000 2.2 import/upload;
 * 001 7.16): one attempt reads the uploaded file again (./import-pass.ts) and writes it batch by
 * batch, each batch in its own transaction with its log lines and the entry's progress (done_rows
 * of total_rows, the counts), the cancel asked for checked between two. Rows with errors are skipped
 * and logged. It ends:
 * - `success` (no row skipped), `partial` (some skipped), `failed` (every row skipped), with a
 *   summary line in the log, when the attempt succeeds;
 * - `cancelled` after a cancel, `failed` after an error: the runner has undone every batch written
 *   (the journal), so nothing half-written stays; a log line says why. An error is not tried again
 *   (it would only repeat).
 * - When the server stops (SIGTERM) or dies (its lease, JOB_STALE_MS, runs out and another process,
 *   or the same one started again, takes the job over) during an attempt, the batches it wrote are
 *   undone and the import starts again from the first row as a new attempt, at most IMPORT_ATTEMPTS
 *   in all, then `failed`. The restart is visible: progress and counts go back to 0, the log lines of
 *   the undone attempt are replaced by one line saying the import starts again. So an import is
 *   all-or-nothing and every row is stored once.
 * The uploaded file waits in the file store (the local folder, or the bucket that every process
 * reads: the attempt may run in any process, docs/deployment.md); an attempt fetches it into its
 * process's import folder. It is removed from the store when the import ends; a large import queues
 * the statistics refresh of its table (src/server/jobs/housekeeping.ts).
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CsvImportEncoding, ImportKind } from '../../shared/csv-import';
import { importDeclaration } from '../../shared/csv-import';
import type { ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import type { FileStore } from '../files/file-store';
import { HttpError } from '../http-error';
import { ANALYZE_AFTER_ROWS, ANALYZE_DELAY_MS, ANALYZE_JOB } from '../jobs/housekeeping';
import type { JobKind, JobRunner, StopReason } from '../jobs/job-runner';
import { keepNoRevisions } from '../revisions/revision-writes';
import { translatorFor } from '../translator';
import { bulkLoading, clearLogs, patchImport, readImport, writeBatch, writeLogs } from './import-repository';
import { fetchImportFile } from './import-file';
import { runImportPass } from './pass-thread';

/** The kind of the import jobs. */
export const IMPORT_JOB = 'csv_import';
/** Attempts of an import: the first, and new ones after the server stopped or died during one. */
export const IMPORT_ATTEMPTS = 3;

/**
 * How long an import file no queued or running import job names is kept before housekeeping removes
 * it, ms: far longer than the moment between an upload's storing and the commit of its job (or an
 * attempt's read of its copy), and than the clocks of the processes and the bucket differ.
 */
export const ORPHAN_IMPORT_FILE_MS = 60 * 60_000;

/**
 * The hourly housekeeping chore of the import (src/server/jobs/housekeeping.ts `HousekeepingChore`):
 * removes what a process that died or failed between two steps left behind, once older than
 * `olderThanMs` (ms):
 * - files `import-<hex>.csv` of the file store that no queued or running import job names (stored by
 *   an upload whose job was never committed, or left by a job that ended without removing it);
 * - files of this process's import folder `dir` (an upload being received, an attempt's copy) that no
 *   such job names (jobs queued by earlier versions name their file there).
 * The jobs are read after the files are listed, so a job committed meanwhile still keeps its file.
 * Resolves to the number of files removed; `between` runs after every 100. Errors: the store's, the
 * database's.
 */
export async function removeOrphanImportFiles(
  db: Queryable,
  files: { store: FileStore; dir: string },
  olderThanMs = ORPHAN_IMPORT_FILE_MS,
  between: () => Promise<void> = async () => {},
): Promise<number> {
  const before = Date.now() - olderThanMs;
  const stored: string[] = [];
  for await (const f of files.store.imports()) if (f.lastModified.getTime() < before) stored.push(f.name);
  const local: string[] = [];
  for (const name of await readdir(files.dir).catch(() => [] as string[])) {
    const s = await stat(join(files.dir, name)).catch(() => null);
    if (s?.isFile() && s.mtimeMs < before) local.push(join(files.dir, name));
  }
  if (stored.length + local.length === 0) return 0;
  const named = await db.query<{ stored: string | null; path: string | null }>(
    `SELECT payload->>'stored' AS stored, payload->>'path' AS path FROM jobs WHERE kind = $1 AND state IN ('queued', 'running')`,
    [IMPORT_JOB],
  );
  const kept = new Set(named.flatMap((j) => [j.stored, j.path].filter((n): n is string => n !== null)));
  let removed = 0;
  const remove = async (gone: Promise<unknown>) => {
    await gone;
    if (++removed % 100 === 0) await between();
  };
  for (const name of stored) if (!kept.has(name)) await remove(files.store.remove(name));
  for (const path of local) if (!kept.has(path)) await remove(rm(path, { force: true }));
  return removed;
}

/** What an import job carries. */
export interface ImportPayload {
  import: number;
  kind: ImportKind;
  /** The city key of the rows. */
  city: string;
  /** The uploaded file's name in the file store (IMPORT_FILE_NAME; ./import-file.ts `storeImportFile`). */
  stored?: string;
  /** The uploaded file in the import folder of the process that received it (jobs queued by earlier versions). */
  path?: string;
  encoding: CsvImportEncoding;
  /** The uploader's Accept-Language (the log's language). */
  language: string | null;
  /** The uploader (audit rows). */
  user: number | null;
  /** The resource the rows go to (another import of it keeps its index in bulk loading). */
  resource: string;
}

function defsOf(resources: ReadonlyMap<string, ResourceDef>, resource: string): { def: ResourceDef; imports: ResourceDef; log: ResourceDef } {
  const get = (name: string) => {
    const def = resources.get(name);
    if (!def) throw new Error(`the CSV import needs the resource '${name}'`);
    return def;
  };
  return { def: get(resource), imports: get('csv_import'), log: get('csv_import_log') };
}

async function othersRunning(q: Queryable, job: number, resource: string): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM jobs WHERE kind = $1 AND state = 'running' AND id <> $2 AND payload->>'resource' = $3 LIMIT 1`, [
    IMPORT_JOB,
    job,
    resource,
  ]);
  return rows.length > 0;
}

const STOP_MESSAGE: Record<StopReason, string> = {
  cancelled: 'validation.import.cancelled',
  interrupted: 'validation.import.interrupted',
  error: 'validation.import.failed',
};

/** The import job kind over `resources`, run by `jobs` (see the top of this file). */
export function importJob(
  db: Database,
  resources: ReadonlyMap<string, ResourceDef>,
  jobs: JobRunner,
  files: { store: FileStore; dir: string },
): JobKind<ImportPayload> {
  /** Removes the uploaded file once the import has ended (from the store, or an earlier version's local one). */
  const removeFile = async (p: ImportPayload) => {
    if (p.stored) await files.store.remove(p.stored);
    if (p.path) await rm(p.path, { force: true });
  };
  return {
    kind: IMPORT_JOB,
    maxAttempts: IMPORT_ATTEMPTS,
    retryAfter: ['interrupted'],
    // Another process (or this one) takes an interrupted import up at once.
    backoffMs: () => 0,
    async run({ job, checkpoint }) {
      const p = job.payload;
      const { def, imports, log } = defsOf(resources, p.resource);
      const entry = await readImport(db, imports, p.city, p.import);
      const counts = { done_rows: 0, created_rows: 0, updated_rows: 0, success_rows: 0, error_rows: 0, warning_rows: 0 };
      // The file as this process reads it: fetched from the file store into the import folder.
      const path = p.stored ? await fetchImportFile(files.store, p.stored, files.dir) : p.path!;
      await bulkLoading(db, def, true);
      try {
        await runImportPass(db, {
          def,
          declaration: importDeclaration(p.kind, resources),
          city: p.city,
          path,
          encoding: p.encoding,
          language: p.language ?? undefined,
          resources,
          writes: true,
          onBatch: async (rows) => {
            for (const r of rows) {
              counts.done_rows += 1;
              if (r.action === 'create') counts.created_rows += 1;
              if (r.action === 'update') counts.updated_rows += 1;
              if (r.action === 'skip') counts.error_rows += 1;
              else if (r.problems.length > 0) counts.warning_rows += 1;
            }
            counts.success_rows = counts.created_rows + counts.updated_rows;
            const cells = new Map(rows.flatMap((r) => (r.cells ? [[r.number, r.cells] as const] : [])));
            return db.transaction(async (tx) => {
              // The batch is written only while this attempt holds the job (a takeover waits for it).
              // This one checkpoint also sees a cancel or a stop: another one before the transaction,
              // an UPDATE committed on its own, cost a WAL flush per batch on PostgreSQL
              // (docs/performance.md 'The CSV import with revisions').
              await checkpoint(tx);
              const created = await writeBatch(tx, def, p.city, job.id, rows, { userId: p.user });
              await writeLogs(
                tx,
                log,
                p.city,
                p.import,
                rows.flatMap((r) => r.problems),
                cells,
              );
              // The progress is the server's bookkeeping: no revision of the history row per batch.
              await keepNoRevisions(tx);
              await patchImport(tx, imports, p.import, { ...counts, total_rows: Math.max(entry.total_rows, counts.done_rows) });
              return created;
            });
          },
        });
      } catch (err) {
        // A file found malformed only now (the answer before the job counted its rows without parsing them).
        if (err instanceof HttpError && err.detail) await writeLogs(db, log, p.city, p.import, [{ row: 0, column: null, level: 'error', message: err.detail }]);
        throw err;
      } finally {
        if (p.stored) await rm(path, { force: true });
        await bulkLoading(db, def, false, await othersRunning(db, job.id, p.resource)).catch(() => undefined);
      }
    },
    async completed(tx, job) {
      const p = job.payload;
      const { imports, log } = defsOf(resources, p.resource);
      const entry = await readImport(tx, imports, p.city, p.import);
      const imported = (entry.created_rows ?? 0) + (entry.updated_rows ?? 0);
      const status = (entry.error_rows ?? 0) === 0 ? 'success' : imported === 0 ? 'failed' : 'partial';
      // The rows read are the file's rows (the count before the job is made without parsing cells).
      await patchImport(tx, imports, p.import, { status, total_rows: entry.done_rows ?? entry.total_rows, done_rows: entry.done_rows ?? entry.total_rows });
      // Fresh planner statistics after a large load, as housekeeping a moment after the import has ended.
      if (imported >= ANALYZE_AFTER_ROWS) await jobs.enqueue(tx, ANALYZE_JOB, { resource: p.resource }, { delayMs: ANALYZE_DELAY_MS });
      const t = translatorFor(p.language ?? undefined);
      const summary = { created: entry.created_rows ?? 0, updated: entry.updated_rows ?? 0, errors: entry.error_rows ?? 0, warnings: entry.warning_rows ?? 0 };
      await writeLogs(tx, log, p.city, p.import, [{ row: 0, column: null, level: 'info', message: t('validation.import.summary', summary) }]);
      await removeFile(p);
    },
    async settled(tx, job, end, reason) {
      const p = job.payload;
      const { imports, log } = defsOf(resources, p.resource);
      if (end === 'retry') {
        // The undone attempt's progress and log give way to the new attempt's (see the top of this file).
        await clearLogs(tx, log, p.city, p.import);
        await patchImport(tx, imports, p.import, { done_rows: 0, created_rows: 0, updated_rows: 0, success_rows: 0, error_rows: 0, warning_rows: 0 });
        const t = translatorFor(p.language ?? undefined);
        await writeLogs(tx, log, p.city, p.import, [{ row: 0, column: null, level: 'info', message: t('validation.import.restarted') }]);
        return;
      }
      const entry = await readImport(tx, imports, p.city, p.import);
      await patchImport(tx, imports, p.import, { status: end, done_rows: entry.total_rows, created_rows: 0, updated_rows: 0, success_rows: 0 });
      const t = translatorFor(p.language ?? undefined);
      await writeLogs(tx, log, p.city, p.import, [
        { row: 0, column: null, level: reason === 'cancelled' ? 'info' : 'error', message: t(STOP_MESSAGE[reason]) },
      ]);
      await removeFile(p);
    },
  };
}
