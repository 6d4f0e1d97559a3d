/**
 * Resources with `singleton: true` (settings: coupon settings, help-centre city info, 001 7.3, 7.7):
 * one record per city (global singletons: one record), read without an id and written by upsert.
 */
import { registry, type ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { defaultsOf, toRow, type DbRow, type ResourceRow } from './record-shape';
import { keepRevisions } from '../revisions/revision-writes';
import { addCount, audit, composeRecord, insertRecord, keptValues, replaceData, type Actor, type WriteOptions } from './resource-repository';
import { checkFieldWrites } from '../revisions/field-access';
import { checkWrite } from './write-checks';

const COLUMNS = 'id, data, version, created_at';

async function current(db: Queryable, def: ResourceDef, city: string, lock: boolean): Promise<DbRow | null> {
  const rows = await db.query<DbRow>(`SELECT ${COLUMNS} FROM ${tableName(def)} WHERE city = $1 ORDER BY id LIMIT 1${lock ? ' FOR UPDATE' : ''}`, [city]);
  return rows[0] ?? null;
}

/** The city's record, or the schema's defaults (version 0, no id) while there is none. */
export async function getSingleton(db: Queryable, def: ResourceDef, city: string): Promise<ResourceRow> {
  const row = await current(db, def, city, false);
  return row ? toRow(def, row) : defaultsOf(def);
}

/**
 * Creates or replaces the city's record: `partial` merges the body into the stored record (or the
 * defaults). A `version` in the body must equal the stored one when a record exists. Writers of one
 * city are serialised by an advisory lock, so two first writes make one record. Field permissions as
 * in `updateRecord` (the first write as in `createRecord`): fields of `options.unwritable` or
 * `options.unreadable` the body leaves out keep their stored values, and a change of one of
 * `options.unwritable` is refused.
 * Errors: 400 `validation`, 409 `conflict`, 403 `forbidden` naming a field the caller may not write.
 */
export async function upsertSingleton(
  db: Database,
  def: ResourceDef,
  city: string,
  body: unknown,
  actor: Actor,
  options: WriteOptions & { partial?: boolean } = {},
): Promise<ResourceRow> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${tableName(def)}:${city}`]);
    const row = await current(tx, def, city, true);
    const sent = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).version : undefined;
    if (row && sent !== undefined && sent !== null && Number(sent) !== row.version) throw new HttpError('conflict');
    const base = row ? row.data : (({ version: _v, ...d }) => d)(defaultsOf(def));
    const kept = row ? keptValues(body, row.data, [...(options.unwritable ?? []), ...(options.unreadable ?? [])]) : {};
    const input = typeof body === 'object' && body !== null ? { ...(options.partial ? base : kept), ...body } : body;
    const data = composeRecord(def, input, options.forced, row?.data ?? null);
    if (options.unwritable?.length) checkFieldWrites(def, data, row?.data ?? null, options.unwritable);
    if (!options.trusted) await checkWrite(tx, def, city, data, row?.data ?? null, options.resources ?? registry);
    return row ? replaceData(tx, def, city, Number(row.id), data, actor) : insertRecord(tx, def, city, data, actor);
  });
}

/** Removes the city's record (its answers are the defaults again). Errors: 404 `not_found` when there is none. */
export async function deleteSingleton(db: Database, def: ResourceDef, city: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    await keepRevisions(tx, actor.userId, 'delete');
    const rows = await tx.query<{ id: number }>(`DELETE FROM ${tableName(def)} WHERE city = $1 RETURNING id`, [city]);
    if (rows.length === 0) throw new HttpError('not_found');
    await addCount(tx, def, city, -rows.length);
    await audit(tx, actor, city, def, 'delete', Number(rows[0].id));
  });
}
