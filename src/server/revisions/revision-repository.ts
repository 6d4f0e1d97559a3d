/**
 * Revisions and the recycle bin (docs/architecture.md 'Revisions and the recycle bin'): reading a
 * row's revisions, writing a row back as it was after one of them, listing the deleted rows of a
 * resource and bringing one back. The revisions themselves are kept by the trigger of every
 * resource table (./revision-migrations.ts) in the transaction of each write.
 */
import { registry, type ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { announceCreated } from '../events/record-events';
import { HttpError } from '../http-error';
import { matchSql, type Match } from '../repositories/record-query';
import { addCount, audit, composeRecord, findRow, parseId, updateRecord, type Actor, type ResourceRow } from '../repositories/resource-repository';
import { toRow, type DbRow } from '../repositories/record-shape';
import { checkWrite } from '../repositories/write-checks';
import { checkFieldWrites } from './field-access';
import { keepRevisions } from './revision-writes';
import { REVISION_PAGE, type DeletedRow, type FieldChange, type Revision, type RevisionAuthor, type RevisionOperation } from '../../shared/revisions';

export { REVISION_PAGE, type DeletedRow, type FieldChange, type Revision, type RevisionAuthor } from '../../shared/revisions';

interface RevisionRow {
  revision: number;
  at: Date | string;
  user_id: number | null;
  username: string | null;
  user_name: string | null;
  operation: RevisionOperation;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  city: string;
  row_created: Date | string | null;
  total?: number;
}

/** What narrows what a caller sees: own-row limits and fields it may not read. */
export interface RevisionAccess {
  owner?: Match['owner'];
  unreadable?: readonly string[];
}

function iso(value: Date | string | null): string {
  return new Date(value ?? 0).toISOString();
}

function authorOf(r: Pick<RevisionRow, 'user_id' | 'username' | 'user_name'>): RevisionAuthor {
  return { id: r.user_id, username: r.username, name: r.user_name };
}

/** The changed fields of a revision, in schema order then any others, without `hidden` ones. */
export function changesOf(def: Pick<ResourceDef, 'schema'>, before: Record<string, unknown> | null, after: Record<string, unknown> | null, hidden: readonly string[] = []): FieldChange[] {
  const b = before ?? {};
  const a = after ?? {};
  const keys = new Set([...Object.keys(b), ...Object.keys(a)]);
  const order = [...Object.keys(def.schema.properties).filter((k) => keys.has(k)), ...[...keys].filter((k) => !(k in def.schema.properties))];
  return order.filter((k) => !hidden.includes(k)).map((field) => ({ field, before: b[field] ?? null, after: a[field] ?? null }));
}

/** A page number of a query: `page` (1-based, default 1). Errors: 400 for anything else. */
export function pageOf(query: Readonly<Record<string, unknown>>): number {
  const raw = query.page ?? 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new HttpError('validation', { fieldErrors: { page: [{ key: 'validation.generic.minimum', params: { min: 1 } }] } });
  return n;
}

/** Whether the row data `data` of `def` (id `id`) is within `owner` (the SQL of the lists, on one row). */
async function withinOwner(q: Queryable, def: ResourceDef, id: number, data: Record<string, unknown>, owner: Match['owner']): Promise<boolean> {
  if (!owner || owner.length === 0) return true;
  const params: unknown[] = [id, JSON.stringify(data)];
  const conds = matchSql(def, { owner }, params);
  const rows = await q.query(`SELECT 1 FROM (SELECT $1::bigint AS id, $2::jsonb AS data) AS r WHERE ${conds.join(' AND ')}`, params);
  return rows.length > 0;
}

/** The newest revision of a row (any operation), or null. */
async function newestRevision(q: Queryable, def: ResourceDef, id: number): Promise<RevisionRow | null> {
  const [row] = await q.query<RevisionRow>(
    'SELECT revision, at, user_id, username, user_name, operation, before, after, city, row_created FROM revisions WHERE resource = $1 AND row_id = $2 ORDER BY revision DESC LIMIT 1',
    [def.name, id],
  );
  return row ?? null;
}

/**
 * Makes sure the caller may see the history of row `id` of `def` in city key `city`: the row exists
 * there within `owner`, or it was deleted there (its newest revision is the delete) and its last
 * data was within `owner`. Errors: 404 `not_found` otherwise (another city's, another shop's).
 */
async function requireVisible(q: Queryable, def: ResourceDef, city: string, id: number, owner: Match['owner']): Promise<void> {
  if (await findRow(q, def, city, id, { owner })) return;
  const newest = await newestRevision(q, def, id);
  if (!newest || newest.operation !== 'delete' || newest.city !== city) throw new HttpError('not_found');
  if (await findRow(q, def, city, id)) throw new HttpError('not_found');
  if (!(await withinOwner(q, def, id, newest.before ?? {}, owner))) throw new HttpError('not_found');
}

/**
 * The revisions of row `id` of `def` in city key `city`, newest first, REVISION_PAGE a page (`page`
 * 1-based): `{content: Revision[], total_length}`. A deleted row's history stays readable while it is
 * in the recycle bin. Fields of `access.unreadable` are left out of `changes` (a revision that
 * changed only those shows no change). Errors: 404 `not_found` (no such row, another city's,
 * outside `access.owner`).
 */
export async function listRevisions(db: Database, def: ResourceDef, city: string, id: unknown, page: number, access: RevisionAccess = {}): Promise<{ content: Revision[]; total_length: number }> {
  const key = parseId(id);
  await requireVisible(db, def, city, key, access.owner);
  const rows = await db.query<RevisionRow>(
    `SELECT revision, at, user_id, username, user_name, operation, before, after, city, row_created, count(*) OVER ()::int AS total
       FROM revisions WHERE resource = $1 AND row_id = $2 AND city = $3 ORDER BY revision DESC LIMIT $4 OFFSET $5`,
    [def.name, key, city, REVISION_PAGE, (page - 1) * REVISION_PAGE],
  );
  const total = rows.length > 0 ? Number(rows[0].total) : Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM revisions WHERE resource = $1 AND row_id = $2 AND city = $3', [def.name, key, city]))[0]?.n ?? 0);
  return {
    content: rows.map((r) => ({ revision: r.revision, at: iso(r.at), by: authorOf(r), operation: r.operation, changes: changesOf(def, r.before, r.after, access.unreadable) })),
    total_length: total,
  };
}

/**
 * The data of row `id` as it was right after revision `revision`: the stored data with the
 * revisions after it undone, newest first (each changed field set back to its `before`, or removed
 * when it had none). Errors: 404 `not_found` when the row or the revision does not exist (in
 * `city`), 400 `validation` on `revision` for a revision after which the row did not exist (a delete).
 */
export async function dataAfter(q: Queryable, def: ResourceDef, city: string, id: number, revision: number): Promise<{ data: Record<string, unknown>; version: number }> {
  const row = await findRow(q, def, city, id);
  if (!row) throw new HttpError('not_found');
  const later = await q.query<RevisionRow>(
    'SELECT revision, operation, before, after FROM revisions WHERE resource = $1 AND row_id = $2 AND city = $3 AND revision >= $4 ORDER BY revision DESC',
    [def.name, id, city, revision],
  );
  const target = later.find((r) => r.revision === revision);
  if (!target) throw new HttpError('not_found');
  if (target.operation === 'delete') throw new HttpError('validation', { fieldErrors: { revision: [{ key: 'validation.history.deleted_revision', params: {} }] } });
  const data: Record<string, unknown> = { ...row.data };
  for (const r of later) {
    if (r.revision === revision) break;
    const before = r.before ?? {};
    for (const k of new Set([...Object.keys(before), ...Object.keys(r.after ?? {})])) {
      if (k in before) data[k] = before[k];
      else delete data[k];
    }
  }
  return { data, version: row.version };
}

/**
 * Writes row `id` back as it was after revision `revision` (`dataAfter`), as a new revision
 * (operation `restore`), through the update's checks: the schema as it is now (a value it refuses
 * is a 400 naming the field), the x-ref and upload checks, own-row limits and field permissions
 * (fields the caller may not write keep their values when they did not change, else 403).
 * `version` must be the row's version (409 when it changed since). Answers the stored row.
 * Errors: 400 `validation`, 403 `forbidden`, 404 `not_found`, 409 `conflict`.
 */
export async function restoreRevision(
  db: Database,
  def: ResourceDef,
  city: string,
  id: unknown,
  revision: number,
  version: number,
  actor: Actor,
  options: { owner?: Match['owner']; unwritable?: readonly string[]; unreadable?: readonly string[]; resources?: ReadonlyMap<string, ResourceDef> } = {},
): Promise<ResourceRow> {
  const key = parseId(id);
  if (!(await findRow(db, def, city, key, { owner: options.owner }))) throw new HttpError('not_found');
  const { data } = await dataAfter(db, def, city, key, revision);
  // Unreadable fields are not the caller's to restore: they keep their stored values.
  const body: Record<string, unknown> = { ...data, version };
  for (const f of options.unreadable ?? []) delete body[f];
  return updateRecord(db, def, city, key, body, actor, {
    auditAction: 'restore',
    match: { owner: options.owner },
    unwritable: options.unwritable,
    unreadable: options.unreadable,
    resources: options.resources,
  });
}

/**
 * The recycle bin of `def` in city key `city`: rows whose newest revision is their delete, newest
 * delete first, REVISION_PAGE a page, within `access.owner` (judged on the data they had), without
 * the fields of `access.unreadable`. `{content: DeletedRow[], total_length}`.
 */
export async function listDeleted(db: Database, def: ResourceDef, city: string, page: number, access: RevisionAccess = {}): Promise<{ content: DeletedRow[]; total_length: number }> {
  const params: unknown[] = [def.name, city];
  const owner = matchSql(def, { owner: access.owner }, params);
  const rows = await db.query<RevisionRow & { id: number }>(
    `SELECT id, revision, at, user_id, username, user_name, operation, before, after, city, row_created, count(*) OVER ()::int AS total
       FROM (SELECT rv.row_id AS id, rv.before AS data, rv.revision, rv.at, rv.user_id, rv.username, rv.user_name, rv.operation, rv.before, rv.after, rv.city, rv.row_created FROM revisions rv
              WHERE rv.resource = $1 AND rv.city = $2 AND rv.operation = 'delete'
                AND NOT EXISTS (SELECT 1 FROM revisions n WHERE n.resource = rv.resource AND n.row_id = rv.row_id AND n.revision > rv.revision)
                AND NOT EXISTS (SELECT 1 FROM ${tableName(def)} t WHERE t.id = rv.row_id)) AS r
      ${owner.length > 0 ? `WHERE ${owner.join(' AND ')}` : ''}
      ORDER BY at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, REVISION_PAGE, (page - 1) * REVISION_PAGE],
  );
  const hidden = access.unreadable ?? [];
  return {
    content: rows.map((r) => {
      const record = toRow(def, { id: Number(r.id), data: r.before ?? {}, version: r.revision, created_at: r.row_created ?? r.at }) as Record<string, unknown>;
      for (const f of hidden) delete record[f];
      delete record.version;
      return { id: Number(r.id), revision: r.revision, deleted_at: iso(r.at), deleted_by: authorOf(r), record };
    }),
    total_length: rows.length > 0 ? Number(rows[0].total) : 0,
  };
}

/**
 * Brings row `id` of `def` back from the recycle bin into city key `city`, with its id, creation
 * time and the data it had, as a new revision (operation `undelete`), through the create's checks:
 * the schema as it is now (400 naming the field), x-ref and uploads, own-row limits (403), field
 * permissions (403 for a field the caller may not write holding another value than its default).
 * A singleton whose city has a record again is a 409 naming `_`. Answers the stored row.
 * Errors: 400 `validation`, 403 `forbidden`, 404 `not_found` (not in the bin of that city), 409 `conflict`.
 */
export async function undeleteRow(
  db: Database,
  def: ResourceDef,
  city: string,
  id: unknown,
  actor: Actor,
  options: { owner?: Match['owner']; unwritable?: readonly string[]; resources?: ReadonlyMap<string, ResourceDef> } = {},
): Promise<ResourceRow> {
  const key = parseId(id);
  return db.transaction(async (tx) => {
    // One undelete of a row at a time (two at once would both find it deleted).
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`undelete:${def.name}:${key}`]);
    const newest = await newestRevision(tx, def, key);
    if (!newest || newest.operation !== 'delete' || newest.city !== city) throw new HttpError('not_found');
    if (await findRow(tx, def, city, key)) throw new HttpError('not_found');
    if (!(await withinOwner(tx, def, key, newest.before ?? {}, options.owner))) throw new HttpError('not_found');
    const data = composeRecord(def, newest.before ?? {}, {}, newest.before ?? {});
    if (options.unwritable?.length) checkFieldWrites(def, data, null, options.unwritable);
    if (def.singleton && (await tx.query(`SELECT 1 FROM ${tableName(def)} WHERE city = $1 LIMIT 1`, [city])).length > 0) {
      throw new HttpError('conflict', { fieldErrors: { _: [{ key: 'validation.history.taken', params: { field: '_' } }] } });
    }
    await checkWrite(tx, def, city, data, null, options.resources ?? registry, options.owner);
    await keepRevisions(tx, actor.userId, 'undelete');
    const [row] = await tx.query<DbRow>(
      `INSERT INTO ${tableName(def)} (id, city, data, version, created_at) VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING id, data, version, created_at`,
      [key, city, JSON.stringify(data), newest.revision + 1, newest.row_created ?? new Date()],
    );
    await addCount(tx, def, city, 1);
    await audit(tx, actor, city, def, 'undelete', key);
    await announceCreated(tx, def, city, [key]);
    return toRow(def, row);
  });
}
