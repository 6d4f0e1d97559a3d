/**
 * Storage side of the non-CRUD calls of 001 7 (`x-resource.actions`, one generic kind each; see
 * schemas/meta/resource.schema.json): set and toggle on one row, set-all, count, sum, bulk update.
 * Lists, exports, children and create-child use resource-repository.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import { registry, type ResourceDef } from '../../shared/registry';
import type { FieldErrors } from '../../shared/validation';
import type { Database, Queryable } from '../db/database';
import { tableName, textExpr } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { listWhere, readListQuery, type Match } from './record-query';
import { toRow, type ResourceRow } from './record-shape';
import { keepRevisions, operationOf } from '../revisions/revision-writes';
import { audit, composeRecord, findRow, parseId, replaceData, type Actor } from './resource-repository';
import { validateFields } from './partial-validation';
import { checkWrite } from './write-checks';
import { checkFieldWrites } from '../revisions/field-access';
import { writeHooksOf } from './write-hooks';

/**
 * Changes one row of a city (kinds `set` and `toggle`): `change(data)` answers the values to store
 * over the stored data (server fields included). The result is validated like an update, and a
 * change of a field of `options.unwritable` (field permissions) is refused like an update's.
 * Answers the row with the version raised by one; with `keepUnchanged`, a change that leaves the
 * row as it is writes nothing and answers the row as stored. Errors: 404 `not_found`, 400
 * `validation`, 403 `forbidden` naming a field the caller may not write.
 */
export async function changeRecord(
  db: Database,
  def: ResourceDef,
  city: string,
  id: unknown,
  change: (data: Record<string, unknown>) => Record<string, unknown>,
  actor: Actor,
  options: { match?: Match; resources?: ReadonlyMap<string, ResourceDef>; auditAction: string; keepUnchanged?: boolean; unwritable?: readonly string[] },
): Promise<ResourceRow> {
  return db.transaction((tx) => changeRecordIn(tx, def, city, id, change, actor, { ...options, db }));
}

/**
 * `changeRecord` in the caller's transaction `tx` (a change that must commit with other writes, e.g.
 * mails); the resource's write hooks (./write-hooks.ts) run when `options.db` names their database.
 */
export async function changeRecordIn(
  tx: Queryable,
  def: ResourceDef,
  city: string,
  id: unknown,
  change: (data: Record<string, unknown>) => Record<string, unknown>,
  actor: Actor,
  options: { match?: Match; resources?: ReadonlyMap<string, ResourceDef>; auditAction: string; db?: Database; keepUnchanged?: boolean; unwritable?: readonly string[] },
): Promise<ResourceRow> {
  const key = parseId(id);
  const current = await findRow(tx, def, city, key, options.match, true);
  if (!current) throw new HttpError('not_found');
  const forced = change(current.data);
  const data = composeRecord(def, current.data, forced, current.data);
  if (options.unwritable?.length) checkFieldWrites(def, data, current.data, options.unwritable);
  // A `set` the row already holds changes nothing: the row as it is, no write, no audit entry.
  if (options.keepUnchanged && isDeepStrictEqual(data, current.data)) return toRow(def, current);
  await checkWrite(tx, def, city, data, current.data, options.resources ?? registry, options.match?.owner);
  const row = await replaceData(tx, def, city, key, data, actor, options.auditAction);
  return (options.db && (await writeHooksOf(options.db, def.name)?.updated?.(tx, city, current.data, row))) ?? row;
}

/**
 * Stores `set` on every row of a city matching `match` (kind `set-all`, e.g. mark all as read) in one
 * statement. `set` is checked against its fields' rules; naming a field of `unwritable` (field
 * permissions: one statement cannot tell which rows it would change) is refused. Answers the number
 * of rows changed. Errors: 400 `validation` when `set` breaks a field rule (a schema mistake), 403
 * `forbidden` naming a field the caller may not write.
 */
export async function setAll(
  db: Database,
  def: ResourceDef,
  city: string,
  set: Record<string, unknown>,
  match: Match,
  actor: Actor,
  auditAction: string,
  unwritable: readonly string[] = [],
): Promise<number> {
  const errors = validateFields(def, set, Object.keys(set));
  if (errors) throw new HttpError('validation', { fieldErrors: errors });
  if (unwritable.length) checkFieldWrites(def, set, 'any', unwritable);
  return db.transaction(async (tx) => {
    await keepRevisions(tx, actor.userId, operationOf(auditAction));
    const params: unknown[] = [city, JSON.stringify(set)];
    const where = listWhere(def, readListQuery(def, {}), match, params);
    const rows = await tx.query<{ n: number }>(
      `WITH changed AS (UPDATE ${tableName(def)} SET data = data || $2::jsonb, version = version + 1, updated_at = now() WHERE ${where.sql} RETURNING 1)
       SELECT count(*)::int AS n FROM changed`,
      params,
    );
    const n = Number(rows[0]?.n ?? 0);
    await audit(tx, actor, city, def, auditAction, null);
    return n;
  });
}

/** The number of rows of a list query (search, declared filters) that also match `match` (kind `count`). */
export async function countRecords(db: Database, def: ResourceDef, city: string, query: Record<string, unknown>, match: Match): Promise<number> {
  const params: unknown[] = [city];
  const where = listWhere(def, readListQuery(def, query), match, params);
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${tableName(def)} WHERE ${where.sql}`, params);
  return Number(rows[0]?.n ?? 0);
}

/** Totals of a sum: rows counted and the sum of each field (0 when no row has a number there). */
export interface Totals {
  count: number;
  sums: Record<string, number>;
}

/**
 * Totals of `fields` over the rows of a list query that match `match` (kind `sum`): `{count, sums}`,
 * or with `groupBy` one entry per value of that field, `{content: [{group, count, sums}]}` ordered by
 * group. Values that are not JSON numbers count as 0.
 */
export async function sumRecords(
  db: Database,
  def: ResourceDef,
  city: string,
  query: Record<string, unknown>,
  match: Match,
  fields: readonly string[],
  groupBy?: string,
): Promise<Totals | { content: Array<Totals & { group: unknown }> }> {
  const params: unknown[] = [city];
  const where = listWhere(def, readListQuery(def, query), match, params);
  const sums = fields.map((f, i) => {
    textExpr(def, f); // checks the name
    return `sum(CASE WHEN jsonb_typeof(data->'${f}') = 'number' THEN (data->>'${f}')::numeric END) AS s${i}`;
  });
  const select = ['count(*)::int AS n', ...sums].join(', ');
  const totals = (r: Record<string, unknown>): Totals => ({
    count: Number(r.n ?? 0),
    sums: Object.fromEntries(fields.map((f, i) => [f, Number(r[`s${i}`] ?? 0)])),
  });
  const t = tableName(def);
  if (!groupBy) {
    const [row] = await db.query<Record<string, unknown>>(`SELECT ${select} FROM ${t} WHERE ${where.sql}`, params);
    return totals(row ?? {});
  }
  textExpr(def, groupBy); // checks the name
  const g = groupBy === def.idField ? 'to_jsonb(id)' : groupBy === def.createdField ? 'to_jsonb(created_at)' : `data->'${groupBy}'`;
  const rows = await db.query<Record<string, unknown>>(`SELECT ${g} AS grp, ${select} FROM ${t} WHERE ${where.sql} GROUP BY 1 ORDER BY 1`, params);
  return { content: rows.map((r) => ({ group: r.grp ?? null, ...totals(r) })) };
}

/**
 * Updates the same fields of several rows of a city (kind `bulk-update`): body `{ids: [...], ...fields}`.
 * `fields` (default every writable field) are the fields a body may set; they are checked against
 * their rules, then each row is validated whole like an update. All or nothing.
 * Answers `{count, content}` (the updated rows, in the order of `ids`). A row whose field of
 * `options.unwritable` (field permissions) the body would change refuses the whole call.
 * Errors: 400 `validation` (no ids, more than 1000, a field not allowed or breaking a rule),
 * 404 `not_found` when an id is not a row of the city (nothing is changed then), 403 `forbidden`
 * naming a field the caller may not write.
 */
export async function bulkUpdate(
  db: Database,
  def: ResourceDef,
  city: string,
  body: unknown,
  allowed: readonly string[],
  actor: Actor,
  options: { match?: Match; resources?: ReadonlyMap<string, ResourceDef>; auditAction: string; unwritable?: readonly string[] },
): Promise<{ count: number; content: ResourceRow[] }> {
  const input = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const { ids: rawIds, version: _version, ...fields } = input;
  const idErrors: FieldErrors = {};
  const ids = Array.isArray(rawIds) ? rawIds.map((v) => (typeof v === 'number' || typeof v === 'string' ? Number(v) : NaN)) : [];
  if (!Array.isArray(rawIds) || ids.length === 0) idErrors.ids = [{ key: 'validation.generic.required', params: { field: 'ids' } }];
  else if (ids.length > 1000) idErrors.ids = [{ key: 'validation.generic.maxItems', params: { field: 'ids', limit: 1000, defaultValue: '{{limit}}件以内で指定してください。' } }];
  else if (!ids.every((n) => Number.isSafeInteger(n) && n > 0)) idErrors.ids = [{ key: 'validation.generic.type', params: { field: 'ids', type: 'integer' } }];
  const fieldErrors = validateFields(def, fields, allowed);
  if (Object.keys(idErrors).length > 0 || fieldErrors) throw new HttpError('validation', { fieldErrors: { ...idErrors, ...fieldErrors } });
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const rows = [];
    for (const id of unique) {
      const current = await findRow(tx, def, city, id, options.match, true);
      if (!current) throw new HttpError('not_found');
      rows.push(current);
    }
    const out: ResourceRow[] = [];
    for (const current of rows) {
      const data = composeRecord(def, { ...current.data, ...fields }, fields, current.data);
      if (options.unwritable?.length) checkFieldWrites(def, data, current.data, options.unwritable);
      await checkWrite(tx, def, city, data, current.data, options.resources ?? registry, options.match?.owner);
      out.push(await replaceData(tx, def, city, Number(current.id), data, actor, options.auditAction));
    }
    return { count: out.length, content: out };
  });
}
