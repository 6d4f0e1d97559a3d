/**
 * The journal of what a job wrote into resource tables (docs/architecture.md 'Jobs'), so that a
 * cancel, a failed attempt or a crash undoes it: the ids of the rows it created (one entry per
 * batch) and, for every row it changed, the data and version the row had before. A job journals
 * in the very transaction of its write, so the journal never misses a committed write nor names a
 * rolled-back one. `undoWrites` walks it newest first, batch by batch, each batch in its own short
 * transaction that also deletes its entries: it never holds the one PGlite connection for long,
 * and it can run again after a crash in the middle (it goes on where it stopped).
 */
import { keepRevisions } from '../revisions/revision-writes';
import type { ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { addCount, type Actor } from '../repositories/resource-repository';
import { recordAudit } from '../audit/audit-log';

/** Rows undone per transaction (about). */
export const UNDO_BATCH_ROWS = 1000;

interface Entry {
  id: number;
  resource: string;
  city: string;
  created_ids: Array<number | string> | null;
  row_id: number | null;
  previous: Record<string, unknown> | null;
  previous_version: number | null;
}

/** Journals rows of `def` in city key `city` that job `jobId` created (in the creating transaction `tx`). */
export async function journalCreated(tx: Queryable, jobId: number, def: ResourceDef, city: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query('INSERT INTO job_writes (job_id, resource, city, created_ids) VALUES ($1, $2, $3, $4::bigint[])', [jobId, def.name, city, ids]);
}

/**
 * Journals rows of `def` in `city` that job `jobId` is about to change, as they are now (call it in
 * the changing transaction `tx`, before the change). Ids of no row of the city are skipped.
 */
export async function journalChanged(tx: Queryable, jobId: number, def: ResourceDef, city: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    `INSERT INTO job_writes (job_id, resource, city, row_id, previous, previous_version)
     SELECT $1, $2, $3, id, data, version FROM ${tableName(def)} WHERE city = $3 AND id = ANY($4::bigint[]) ORDER BY id`,
    [jobId, def.name, city, ids],
  );
}

/** Forgets the journal of a job whose writes stay (it succeeded), in `tx`. */
export async function forgetWrites(tx: Queryable, jobId: number): Promise<void> {
  await tx.query('DELETE FROM job_writes WHERE job_id = $1', [jobId]);
}

/** The first entries of `entries` worth about UNDO_BATCH_ROWS rows (at least one). */
function batchOf(entries: Entry[]): Entry[] {
  let rows = 0;
  const out: Entry[] = [];
  for (const e of entries) {
    const n = e.created_ids?.length ?? 1;
    if (out.length > 0 && rows + n > UNDO_BATCH_ROWS) break;
    out.push(e);
    rows += n;
  }
  return out;
}

async function undoEntry(tx: Queryable, def: ResourceDef, e: Entry, actor: Actor): Promise<void> {
  const t = tableName(def);
  if (e.created_ids) {
    const gone = await tx.query(`DELETE FROM ${t} WHERE city = $1 AND id = ANY($2::bigint[]) RETURNING id`, [e.city, e.created_ids]);
    if (gone.length > 0) await addCount(tx, def, e.city, -gone.length);
    await recordAudit(tx, { category: 'record', action: 'undo_create_many', userId: actor.userId, city: e.city, resource: def.name });
    return;
  }
  if (e.row_id === null || e.previous === null) return;
  await tx.query(`UPDATE ${t} SET data = $3::jsonb, version = version + 1, updated_at = now() WHERE id = $1 AND city = $2`, [
    e.row_id,
    e.city,
    JSON.stringify(e.previous),
  ]);
  await recordAudit(tx, { category: 'record', action: 'undo_update', userId: actor.userId, city: e.city, resource: def.name, recordId: e.row_id });
}

/**
 * Undoes every journaled write of job `jobId`, newest first: created rows are deleted (the list
 * counts lowered), changed rows get their previous data back (version + 1); each undone batch
 * writes an audit row (`undo_create_many`, `undo_update`) and deletes its entries in its own
 * transaction. Resolves to the number of rows undone. An entry of a resource `resources` does not
 * know is dropped. Errors: database errors (what was undone so far stays undone; run it again).
 */
export async function undoWrites(db: Database, jobId: number, resources: ReadonlyMap<string, ResourceDef>, actor: Actor = { userId: null }): Promise<number> {
  let undone = 0;
  for (;;) {
    const entries = await db.query<Entry>(
      'SELECT id, resource, city, created_ids, row_id, previous, previous_version FROM job_writes WHERE job_id = $1 ORDER BY id DESC LIMIT 50',
      [jobId],
    );
    if (entries.length === 0) return undone;
    const batch = batchOf(entries);
    await db.transaction(async (tx) => {
      // Revisions of the undoing, as part of the import (rows an undone import created are gone for
      // good: the recycle bin lists deletes only).
      await keepRevisions(tx, actor.userId, 'import');
      for (const e of batch) {
        const def = resources.get(e.resource);
        if (def) await undoEntry(tx, def, e, actor);
        undone += e.created_ids?.length ?? 1;
      }
      await tx.query('DELETE FROM job_writes WHERE id = ANY($1::bigint[])', [batch.map((e) => e.id)]);
    });
  }
}
