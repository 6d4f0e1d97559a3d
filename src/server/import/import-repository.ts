/**
 * The storage of imports (000 2.2 import/history; 001 7.16): the history entry (a `csv_import` row,
 * schemas/csv_import.schema.json: counts, progress, SHA-256, header, job), its log (`csv_import_log`
 * rows: row number, column, level, message, and an error line's cells as uploaded) and the writes of
 * one batch of rows: one INSERT … VALUES of the created records and one UPDATE of the changed ones,
 * journaled for the job's undo (src/server/jobs/job-writes.ts), with the list counts and audit rows
 * every write keeps (src/server/repositories/resource-repository.ts).
 */
import { keepRevisions } from '../revisions/revision-writes';
import type { ImportProblem, ImportState } from '../../shared/csv-import';
import type { ResourceDef } from '../../shared/registry';
import type { Queryable } from '../db/database';
import { fieldExpr, tableName } from '../db/resource-tables';
import { announceCreated } from '../events/record-events';
import { HttpError } from '../http-error';
import { journalChanged, journalCreated } from '../jobs/job-writes';
import { addCount, audit, parseId, type Actor } from '../repositories/resource-repository';
import type { ImportRow } from './import-pass';
import { recordAudit } from '../audit/audit-log';

/** A history entry as stored (the fields of schemas/csv_import.schema.json the import writes) and its id. */
export interface ImportRecord {
  id: number;
  file_name: string;
  kind: ImportState['kind'];
  status: ImportState['status'];
  encoding: ImportState['encoding'];
  file_size?: number;
  total_rows: number;
  done_rows?: number;
  created_rows?: number;
  updated_rows?: number;
  success_rows?: number;
  error_rows?: number;
  warning_rows?: number;
  imported_by?: string;
  sha256?: string;
  header?: string[];
  job?: number;
}

/** An entry as the import calls answer it (`ImportState` of src/shared/csv-import.ts). */
export function stateOf(r: ImportRecord): ImportState {
  return {
    id: r.id,
    kind: r.kind,
    file_name: r.file_name,
    encoding: r.encoding,
    status: r.status,
    total: r.total_rows ?? 0,
    done: r.done_rows ?? 0,
    created: r.created_rows ?? 0,
    updated: r.updated_rows ?? 0,
    errors: r.error_rows ?? 0,
    warnings: r.warning_rows ?? 0,
  };
}

/** Stores a new history entry in `city` (in `tx`); resolves to its id. */
export async function createImport(tx: Queryable, def: ResourceDef, city: string, data: Omit<ImportRecord, 'id'>, actor: Actor): Promise<number> {
  const [row] = await tx.query<{ id: number }>(`INSERT INTO ${tableName(def)} (city, data) VALUES ($1, $2::jsonb) RETURNING id`, [city, JSON.stringify(data)]);
  const id = Number(row.id);
  await addCount(tx, def, city, 1);
  await audit(tx, actor, city, def, 'create', id);
  return id;
}

/** The history entry `id` of `city`. Errors: 404 `not_found`. */
export async function readImport(q: Queryable, def: ResourceDef, city: string, id: unknown): Promise<ImportRecord> {
  const [row] = await q.query<{ id: number; data: Omit<ImportRecord, 'id'> }>(`SELECT id, data FROM ${tableName(def)} WHERE id = $1 AND city = $2`, [
    parseId(id),
    city,
  ]);
  if (!row) throw new HttpError('not_found');
  return { ...row.data, id: Number(row.id) };
}

/** Merges `patch` into the data of the history entry `id` (no version change: the server's own fields). */
export async function patchImport(q: Queryable, def: ResourceDef, id: number, patch: Partial<ImportRecord>): Promise<void> {
  await q.query(`UPDATE ${tableName(def)} SET data = data || $2::jsonb, updated_at = now() WHERE id = $1`, [id, JSON.stringify(patch)]);
}

/** The newest entry of `city` that imported (or is importing) a file of this SHA-256, or null. */
export async function findDuplicate(q: Queryable, def: ResourceDef, city: string, sha256: string): Promise<number | null> {
  const [row] = await q.query<{ id: number }>(
    `SELECT id FROM ${tableName(def)} WHERE city = $1 AND data->>'sha256' = $2 AND data->>'status' IN ('processing', 'success', 'partial') ORDER BY id DESC LIMIT 1`,
    [city, sha256],
  );
  return row ? Number(row.id) : null;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A log line: a row's problem, or a line of the import as a whole (row 0, level `info` too). */
export type LogLine = Omit<ImportProblem, 'level'> & { level: ImportProblem['level'] | 'info' };

/**
 * Writes log lines of import `importId` in `city`, one per line; the first error line of a row also
 * keeps the row's cells as uploaded (`cells`: by row number), for the failed rows CSV.
 */
export async function writeLogs(
  tx: Queryable,
  def: ResourceDef,
  city: string,
  importId: number,
  problems: readonly LogLine[],
  cells: ReadonlyMap<number, string[]> = new Map(),
): Promise<void> {
  if (problems.length === 0) return;
  const kept = new Set<number>();
  const lines = problems.map((p) => {
    const line: Record<string, unknown> = { csv_import: importId, row_number: p.row, level: p.level, message: clip(p.message, 1000) };
    if (p.column) line.column = clip(p.column, 64);
    const rowCells = cells.get(p.row);
    if (p.level === 'error' && rowCells && !kept.has(p.row)) {
      kept.add(p.row);
      line.cells = rowCells;
    }
    return line;
  });
  await tx.query(`INSERT INTO ${tableName(def)} (city, data) SELECT $1, d FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(d, i) ORDER BY i`, [
    city,
    JSON.stringify(lines),
  ]);
  await addCount(tx, def, city, lines.length);
}

/** Deletes every log line of import `importId` in `city` (in `tx`), the list count lowered. Resolves to their number. */
export async function clearLogs(tx: Queryable, def: ResourceDef, city: string, importId: number): Promise<number> {
  const gone = await tx.query(`DELETE FROM ${tableName(def)} WHERE city = $1 AND ${fieldExpr(def, 'csv_import')} = $2 RETURNING id`, [city, importId]);
  if (gone.length > 0) await addCount(tx, def, city, -gone.length);
  return gone.length;
}

/**
 * Records per statement: a batch of 1,000 rows in one statement, each record its own parameter. A
 * statement costs its parse, describe and bind (on PGlite about a millisecond of the server's one
 * thread), and no parameter is a long string (the records joined) that would outlive V8's young
 * generation (the server's memory, README 'Other commands': the import bench).
 */
export const ROWS_PER_STATEMENT = 1000;

/** `list` in pieces of ROWS_PER_STATEMENT. */
function pieces<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += ROWS_PER_STATEMENT) out.push(list.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/** The VALUES rows of `count` records, each of `types.length` parameters (cast to `types`), numbered from `$first` on. */
function valuesOf(count: number, first: number, types: readonly string[]): string {
  const rows: string[] = [];
  for (let i = 0; i < count; i += 1) rows.push(`(${types.map((type, j) => `$${first + i * types.length + j}::${type}`).join(', ')})`);
  return rows.join(', ');
}

/**
 * Writes one batch of checked rows of `def` in `city` (in `tx`) for job `jobId`: the created records
 * by multi-row INSERTs, the updated ones by multi-row UPDATEs (version + 1), ROWS_PER_STATEMENT
 * records each, both journaled; list counts, audit rows (`import_create_many`, one `import_update`
 * per row). Resolves to the created ids in row order.
 */
export async function writeBatch(tx: Queryable, def: ResourceDef, city: string, jobId: number, rows: readonly ImportRow[], actor: Actor): Promise<number[]> {
  const t = tableName(def);
  const creates = rows.filter((r) => r.action === 'create' && r.json !== null).map((r) => r.json as string);
  const updates = rows.filter((r) => r.action === 'update' && r.json !== null && r.id !== null);
  const created: number[] = [];
  // One revision statement per INSERT and UPDATE statement (../revisions/revision-migrations.ts).
  await keepRevisions(tx, actor.userId, 'import');
  if (creates.length > 0) {
    for (const piece of pieces(creates)) {
      const inserted = await tx.query<{ id: number }>(
        `INSERT INTO ${t} (city, data) SELECT $1, d FROM (VALUES ${valuesOf(piece.length, 2, ['jsonb'])}) AS e(d) RETURNING id`,
        [city, ...piece],
      );
      // Ids are drawn in the order of the VALUES: ascending ids are the order of the rows.
      created.push(...inserted.map((r) => Number(r.id)).sort((a, b) => a - b));
    }
    await journalCreated(tx, jobId, def, city, created);
    await addCount(tx, def, city, created.length);
    await audit(tx, actor, city, def, 'import_create_many', null);
    await announceCreated(tx, def, city, created);
  }
  if (updates.length > 0) {
    const ids = updates.map((u) => u.id as number);
    await journalChanged(tx, jobId, def, city, ids);
    for (const piece of pieces(updates)) {
      await tx.query(
        `UPDATE ${t} AS r SET data = u.data, version = r.version + 1, updated_at = now()
         FROM (VALUES ${valuesOf(piece.length, 2, ['bigint', 'jsonb'])}) AS u(id, data)
         WHERE r.city = $1 AND r.id = u.id`,
        [city, ...piece.flatMap((u) => [u.id, u.json])],
      );
    }
    await recordAudit(
      tx,
      ids.map((id) => ({ category: 'record' as const, action: 'import_update', userId: actor.userId, city, resource: def.name, recordId: Number(id) })),
    );
  }
  return created;
}

/**
 * While an import loads rows into `def`, its trigram search index (db/resource-tables.ts, made with
 * `fastupdate = off` for steady search times) takes new entries in its pending list, which is tens of
 * times faster than one entry at a time; at the end the list is merged (`gin_clean_pending_list`) and
 * the index set back, unless another import of the resource is still running (`others`).
 */
export async function bulkLoading(q: Queryable, def: ResourceDef, on: boolean, others = false): Promise<void> {
  const index = `${tableName(def)}_search`;
  const [found] = await q.query(`SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1`, [index]);
  if (!found) return;
  if (on) await q.exec(`ALTER INDEX ${index} SET (fastupdate = on)`);
  else if (!others) {
    await q.query(`SELECT gin_clean_pending_list($1::regclass)`, [index]);
    await q.exec(`ALTER INDEX ${index} SET (fastupdate = off)`);
  }
}
