/**
 * Generic storage of any registry resource (docs/architecture.md 'Storage'; 001 7, 7.17): list, show, create,
 * update, delete, every query scoped by city (global resources by the key `*`), so a row of another
 * city is simply not found (404). Writes are transactional, keep `resource_counts` and write an
 * audit log entry (../audit/audit-log.ts). Field extensions: see record-shape.ts (x-coerce, x-drop-null, server fields) and
 * write-checks.ts (x-ref, x-upload).
 */
import { listAnswer, type ListAnswer } from '../../shared/list-query';
import { registry, type ResourceDef } from '../../shared/registry';
import { checkStoredComparisons, validateRecord } from '../../shared/validation';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { cappedCount, estimatedTotal, LIST_COUNT_CAP } from './list-count';
import { listWhere, matchSql, orderSql, readListQuery, type Match } from './record-query';
import { prepareInput, shapeOf, toRow, type DbRow, type ResourceRow } from './record-shape';
import { announceCreated } from '../events/record-events';
import { checkWrite } from './write-checks';
import { writeHooksOf } from './write-hooks';
import { recordAudit } from '../audit/audit-log';
import { keepRevisions, operationOf } from '../revisions/revision-writes';
import { checkFieldWrites } from '../revisions/field-access';

export type { ResourceRow } from './record-shape';
export type { Match } from './record-query';
export { escapeLike } from './record-query';
export { LIST_COUNT_CAP } from './list-count';

/** A list answer of records (001 7 Conventions, 000 3 Lists; the envelope of src/shared/list-query.ts). */
export type ListPage<N extends string = string> = ListAnswer<ResourceRow<N>>;

/** Who writes, for the audit log. */
export interface Actor {
  userId: number | null;
}

/** Options of a write. */
export interface WriteOptions {
  /** Values stored whatever the payload says: a call's `where`, an action's `set`, a parent's id. */
  forced?: Readonly<Record<string, unknown>>;
  /**
   * Update and delete: only a row that also matches these (a call with `where`; the caller's own
   * rows), else 404. Create and update: the record must stay within `match.owner`, else 403.
   */
  match?: Match;
  /** Resources `x-ref` names resolve in (default: the registry). */
  resources?: ReadonlyMap<string, ResourceDef>;
  /** Skip the database checks of `x-ref` and `x-upload` (demo data of the seed). */
  trusted?: boolean;
  /** The audit action (default create, update, delete); also the revision's operation (`operationOf`). */
  auditAction?: string;
  /**
   * Fields the caller may not write (field permissions): a write changing one is refused with 403
   * naming it (../revisions/field-access.ts `checkFieldWrites`); an update that leaves one out of its
   * body keeps the stored value.
   */
  unwritable?: readonly string[];
  /** Fields the caller may not read: an update that leaves one out of its body keeps the stored value. */
  unreadable?: readonly string[];
}

/** The stored values of `fields` a body leaves out (a write keeps what the caller may not see or change). */
export function keptValues(body: unknown, stored: Readonly<Record<string, unknown>>, fields: readonly string[]): Record<string, unknown> {
  const sent = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return Object.fromEntries(fields.filter((f) => !(f in sent) && f in stored).map((f) => [f, stored[f]]));
}

const COLUMNS = 'id, data, version, created_at';

/**
 * One page of a city's records (001 7 Conventions; 001 9 Paging).
 * Query: `limit` (default the resource's pageSize, at most MAX_LIMIT), `offset` (default 0),
 * `search` (case-insensitive substring over the declared search fields, see `listWhere`), `order_by`
 * (`field` or `-field` among the declared sort fields; otherwise the default sort), and the declared
 * filters (`equals`; `period` with not_yet, showing, ended against now). `match` narrows further (a
 * call's `where` and `exclude`, a parent, the caller's own rows).
 *
 * `total_length` (rows; `page_length` = ceil(total_length / limit)):
 * - nothing narrows the city's rows: the exact number, read from `resource_counts`;
 * - at most LIST_COUNT_CAP (1,000) rows match: the exact number;
 * - more than 1,000 match: on a page that ends the set (neither full nor empty) `offset + count`,
 *   exact; otherwise PostgreSQL's planner estimate of the matches, rounded up to two significant
 *   digits and at least 1,100, raised to `offset + count + 1` on a full page (the pager always
 *   offers the page after a full one) and lowered to `offset` on an empty page past the end. It is
 *   not exact: pages the estimate promises may come back short or empty, and it may change from one
 *   page to the next.
 *
 * A narrowed list is read in one statement that collects at most LIST_COUNT_CAP + 1 matching rows
 * (in no order: the planner takes the trigram index, another index or a scan that stops early),
 * counts them and sorts the page out of them; only when more match is the page read again in the
 * list's order (and, for an empty page past the end, the matches counted up to the cap). So a set of
 * up to 1,000 rows is never found by walking the whole list in its order (slow when the matches are
 * old rows and the list is newest first).
 *
 * Errors: 400 `validation` for a period filter value that is not declared, a range end that is not
 * a date (`readListQuery`) or a number filter that is not a number (`listWhere`).
 */
export async function listRecords<N extends string>(db: Database, def: ResourceDef<N>, city: string, query: Record<string, unknown>, match: Match = {}): Promise<ListPage<N>> {
  const decoded = readListQuery(def, query);
  const { limit, offset } = decoded.page;
  const params: unknown[] = [city];
  const where = listWhere(def, decoded, match, params);
  const t = tableName(def);
  // The rows are `m` in every statement that sorts them (a sort by a referenced title names the row),
  // and the sort's own values follow the WHERE's: statements that sort take `sorted`, the others `params`.
  const sorted = [...params];
  const order = orderSql(def, decoded.order, match, sorted, 'm');
  const page = `LIMIT $${sorted.length + 1} OFFSET $${sorted.length + 2}`;
  let rows: Array<DbRow & { total?: number }>;
  let total: number;
  if (where.filtered) {
    const from = `FROM ${t} WHERE ${where.sql}`;
    const cap = LIST_COUNT_CAP;
    // The page sorted out of at most cap + 1 matches, each row carrying how many there are.
    const head = await db.query<DbRow & { total: number }>(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM (SELECT ${COLUMNS} ${from} LIMIT ${cap + 1}) AS m ORDER BY ${order} ${page}`,
      [...sorted, limit, offset],
    );
    const matched = head.length > 0 ? Number(head[0].total) : offset === 0 ? 0 : await cappedCount(db, from, params);
    if (matched <= cap) {
      rows = head;
      total = matched;
    } else {
      rows = await db.query<DbRow>(`SELECT ${COLUMNS} FROM ${t} AS m WHERE ${where.sql} ORDER BY ${order} ${page}`, [...sorted, limit, offset]);
      total = await estimatedTotal(db, `SELECT 1 ${from}`, params, limit, offset, rows.length);
    }
  } else {
    // One round trip: the count rides along as an uncorrelated subquery (evaluated once).
    const countSql = `SELECT n FROM resource_counts WHERE resource = $${sorted.length + 3} AND city = $1`;
    rows = await db.query<DbRow & { total: number }>(
      `SELECT ${COLUMNS}, (${countSql}) AS total FROM ${t} AS m WHERE ${where.sql} ORDER BY ${order} ${page}`,
      [...sorted, limit, offset, def.name],
    );
    if (rows.length > 0) total = Number(rows[0].total ?? 0);
    else total = Number((await db.query<{ n: number }>('SELECT n FROM resource_counts WHERE resource = $1 AND city = $2', [def.name, city]))[0]?.n ?? 0);
  }
  return listAnswer(rows.map((r) => toRow(def, r)), total, decoded.page);
}

/** The id of a path, or 404 `not_found` when it cannot be one. */
export function parseId(id: unknown): number {
  const s = String(id);
  if (!/^\d{1,15}$/.test(s) || Number(s) < 1) throw new HttpError('not_found');
  return Number(s);
}

/** The stored row `id` of a city matching `match`, or null; `lock` takes a row lock (FOR UPDATE). */
export async function findRow(db: Queryable, def: ResourceDef, city: string, id: unknown, match: Match = {}, lock = false): Promise<DbRow | null> {
  const params: unknown[] = [parseId(id), city];
  const extra = matchSql(def, match, params).map((c) => ` AND ${c}`).join('');
  const rows = await db.query<DbRow>(`SELECT ${COLUMNS} FROM ${tableName(def)} WHERE id = $1 AND city = $2${extra}${lock ? ' FOR UPDATE' : ''}`, params);
  return rows[0] ?? null;
}

/** One record of a city. Errors: 404 `not_found` when it does not exist in that city (or does not match `match`). */
export async function getRecord<N extends string>(db: Queryable, def: ResourceDef<N>, city: string, id: unknown, match: Match = {}): Promise<ResourceRow<N>> {
  const row = await findRow(db, def, city, id, match);
  if (!row) throw new HttpError('not_found');
  return toRow(def, row);
}

function normalize(def: ResourceDef, value: Record<string, unknown>): Record<string, unknown> {
  const out = { ...value };
  for (const [field, prop] of Object.entries(def.schema.properties)) {
    const v = out[field];
    if (prop.format === 'date-time' && typeof v === 'string' && !Number.isNaN(Date.parse(v))) out[field] = new Date(v).toISOString();
  }
  return out;
}

/**
 * The record to store from a client body (000 5; 001 9): `version`, read-only and null `x-drop-null`
 * fields dropped, `x-coerce` fields made lists, the writable `forced` values put over the body,
 * checked with the shared `validateRecord` (defaults filled in), date-times stored as UTC ISO
 * strings; then the server fields (readOnly, not id or created) taken from `keep` (the stored row of
 * an update) and the `forced` values, and the comparisons with those server fields checked
 * (`checkStoredComparisons`: voucher number not below the shared count, time sale limit above the
 * taken count). Errors: 400 `validation` with the field errors.
 */
export function composeRecord(
  def: ResourceDef,
  body: unknown,
  forced: Readonly<Record<string, unknown>> = {},
  keep: Readonly<Record<string, unknown>> | null = null,
): Record<string, unknown> {
  const { serverFields } = shapeOf(def);
  const writable: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(forced)) if (!serverFields.includes(k)) writable[k] = v;
  let input = prepareInput(def, body);
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) input = { ...input, ...writable };
  const result = validateRecord(def, input);
  if (!result.ok) throw new HttpError('validation', { fieldErrors: result.errors });
  const out = normalize(def, result.value);
  for (const f of serverFields) {
    if (keep && f in keep) out[f] = keep[f];
    if (f in forced) out[f] = forced[f];
  }
  const stored = checkStoredComparisons(def, out);
  if (stored) throw new HttpError('validation', { fieldErrors: stored });
  return out;
}

/** Writes the audit entry of a write of a row of `def` (../audit/audit-log.ts). */
export async function audit(tx: Queryable, actor: Actor, city: string, def: ResourceDef, action: string, recordId: number | null): Promise<void> {
  await recordAudit(tx, { category: 'record', action, userId: actor.userId, city, resource: def.name, recordId });
}

/** Adds `delta` to the list count of a resource in a city. */
export async function addCount(tx: Queryable, def: ResourceDef, city: string, delta: number): Promise<void> {
  await tx.query(
    `INSERT INTO resource_counts (resource, city, n) VALUES ($1, $2, $3)
     ON CONFLICT (resource, city) DO UPDATE SET n = resource_counts.n + EXCLUDED.n`,
    [def.name, city, delta],
  );
}

/** Inserts one checked record, keeping its revision, announced after the commit (events/record-events.ts); answers the stored row. */
export async function insertRecord<N extends string>(tx: Queryable, def: ResourceDef<N>, city: string, data: Record<string, unknown>, actor: Actor, auditAction = 'create'): Promise<ResourceRow<N>> {
  await keepRevisions(tx, actor.userId, operationOf(auditAction));
  const [row] = await tx.query<DbRow>(`INSERT INTO ${tableName(def)} (city, data) VALUES ($1, $2::jsonb) RETURNING ${COLUMNS}`, [city, JSON.stringify(data)]);
  await addCount(tx, def, city, 1);
  await audit(tx, actor, city, def, auditAction, Number(row.id));
  await announceCreated(tx, def, city, [Number(row.id)]);
  return toRow(def, row);
}

/** Replaces the data of a stored row (version + 1), keeping its revision; answers the stored row. */
export async function replaceData(tx: Queryable, def: ResourceDef, city: string, id: number, data: Record<string, unknown>, actor: Actor, auditAction = 'update'): Promise<ResourceRow> {
  await keepRevisions(tx, actor.userId, operationOf(auditAction));
  const [row] = await tx.query<DbRow>(
    `UPDATE ${tableName(def)} SET data = $3::jsonb, version = version + 1, updated_at = now() WHERE id = $1 AND city = $2 RETURNING ${COLUMNS}`,
    [id, city, JSON.stringify(data)],
  );
  await audit(tx, actor, city, def, auditAction, id);
  return toRow(def, row);
}

/**
 * Creates a record in a city (001 7 POST calls). The created field is set by the server; `forced`
 * values (a call's `where`, a parent) are stored whatever the body says.
 * Answers the stored row with version 1, announced after the commit (events/record-events.ts).
 * Errors: 400 `validation` (also for x-ref and x-upload), 403 `forbidden` for a record outside
 * `options.match.owner` (another shop's, another school's) or naming a field of `options.unwritable`
 * with another value than its default.
 */
export async function createRecord<N extends string>(db: Database, def: ResourceDef<N>, city: string, body: unknown, actor: Actor, options: WriteOptions = {}): Promise<ResourceRow<N>> {
  const data = composeRecord(def, body, options.forced);
  if (options.unwritable?.length) checkFieldWrites(def, data, null, options.unwritable);
  return db.transaction(async (tx) => {
    if (!options.trusted) await checkWrite(tx, def, city, data, null, options.resources ?? registry, options.match?.owner);
    const row = await insertRecord(tx, def, city, data, actor, options.auditAction);
    // A capability's work in the same transaction (write-hooks.ts: a notification's recipients).
    return ((await writeHooksOf(db, def.name)?.created?.(tx, city, row as ResourceRow)) ?? row) as ResourceRow<N>;
  });
}

/**
 * Creates many records of one city in batches of 1000 (seeds, benchmarks, imports). Each record is
 * validated like `createRecord` (without the database checks of x-ref and x-upload); the table is
 * analyzed after 1000 or more. Each batch's rows are announced after its commit, like a single create
 * (events/record-events.ts). Each batch keeps its revisions in one statement (../revisions/), unless
 * `options.revisions` is false (demo data). Resolves to the ids created, in order. Errors: 400
 * `validation` for the first bad record (nothing of its batch is stored).
 */
export async function createRecords(db: Database, def: ResourceDef, city: string, bodies: readonly unknown[], actor: Actor, options: { revisions?: boolean } = {}): Promise<number[]> {
  const t = tableName(def);
  const ids: number[] = [];
  for (let i = 0; i < bodies.length; i += 1000) {
    const batch = bodies.slice(i, i + 1000).map((b) => composeRecord(def, b));
    await db.transaction(async (tx) => {
      if (options.revisions !== false) await keepRevisions(tx, actor.userId, 'create');
      const rows = await tx.query<{ id: number }>(
        `INSERT INTO ${t} (city, data) SELECT $1, d FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(d, i) ORDER BY i RETURNING id`,
        [city, JSON.stringify(batch)],
      );
      // Ids are drawn in the order of the SELECT: ascending ids are the order of `bodies`.
      const created = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
      ids.push(...created);
      await addCount(tx, def, city, batch.length);
      await audit(tx, actor, city, def, 'create_many', null);
      await announceCreated(tx, def, city, created);
    });
  }
  // PGlite runs no autovacuum: refresh the planner statistics after a large load.
  if (bodies.length >= 1000) await db.exec(`ANALYZE ${t}`);
  return ids;
}

/**
 * Updates a record of a city (001 7 PUT calls): `partial` false replaces the data (PUT), true merges
 * the body into it (PATCH); server fields keep their stored values. A `version` in the body must
 * equal the stored one (optimistic concurrency). Answers the stored row with the version raised by one.
 * Field permissions: fields the caller may not write or read that the body leaves out keep their
 * stored values; a change of one it may not write is refused.
 * Errors: 404 `not_found` (also for a row of another city), 409 `conflict`, 400 `validation`, 403
 * `forbidden` naming a field the caller may not write, or for a record outside `options.match.owner`.
 */
export async function updateRecord(
  db: Database,
  def: ResourceDef,
  city: string,
  id: unknown,
  body: unknown,
  actor: Actor,
  options: WriteOptions & { partial?: boolean } = {},
): Promise<ResourceRow> {
  const key = parseId(id);
  return db.transaction(async (tx) => {
    const current = await findRow(tx, def, city, key, options.match, true);
    if (!current) throw new HttpError('not_found');
    const sent = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).version : undefined;
    if (sent !== undefined && sent !== null && Number(sent) !== current.version) throw new HttpError('conflict');
    const kept = keptValues(body, current.data, [...(options.unwritable ?? []), ...(options.unreadable ?? [])]);
    const input = typeof body === 'object' && body !== null ? { ...(options.partial ? current.data : kept), ...body } : body;
    const data = composeRecord(def, input, options.forced, current.data);
    if (options.unwritable?.length) checkFieldWrites(def, data, current.data, options.unwritable);
    if (!options.trusted) await checkWrite(tx, def, city, data, current.data, options.resources ?? registry, options.match?.owner);
    const row = await replaceData(tx, def, city, key, data, actor, options.auditAction);
    return (await writeHooksOf(db, def.name)?.updated?.(tx, city, current.data, row)) ?? row;
  });
}

/**
 * Deletes a record of a city (001 7 DELETE calls): the row leaves the table (every list, count, export,
 * statistic and push), its whole data kept by its `delete` revision for the recycle bin
 * (../revisions/revision-repository.ts). Errors: 404 `not_found`.
 */
export async function deleteRecord(db: Database, def: ResourceDef, city: string, id: unknown, actor: Actor, options: Pick<WriteOptions, 'match'> = {}): Promise<void> {
  const key = parseId(id);
  await db.transaction(async (tx) => {
    await keepRevisions(tx, actor.userId, 'delete');
    const params: unknown[] = [key, city];
    const extra = matchSql(def, options.match ?? {}, params).map((c) => ` AND ${c}`).join('');
    const rows = await tx.query(`DELETE FROM ${tableName(def)} WHERE id = $1 AND city = $2${extra} RETURNING id`, params);
    if (rows.length === 0) throw new HttpError('not_found');
    await addCount(tx, def, city, -1);
    await audit(tx, actor, city, def, 'delete', key);
  });
}
