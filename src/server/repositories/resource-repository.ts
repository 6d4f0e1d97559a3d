/**
 * Generic storage of any registry resource (DESIGN.md Storage; 001 7, 7.17): list, show, create,
 * update, delete, every query scoped by city, so a row of another city is simply not found (404).
 * Writes are transactional, keep `resource_counts` and write an `audit_log` row.
 */
import { MAX_LIMIT } from '../../shared/constants';
import type { ListFilter, ResourceDef } from '../../shared/registry';
import { validateRecord, type FieldErrors } from '../../shared/validation';
import type { Database, Queryable } from '../db/database';
import { fieldExpr, tableName } from '../db/resource-tables';
import { HttpError } from '../http-error';

/** A record as answered: its data plus `[idField]`, `[createdField]` (ISO 8601, UTC) and `version`. */
export type ResourceRow = Record<string, unknown> & { version: number };

/** A list answer (001 7 Conventions, 000 3 Lists). `page_length` is the number of pages. */
export interface ListPage {
  content: ResourceRow[];
  total_length: number;
  count: number;
  limit: number;
  offset: number;
  page_length: number;
}

/** Who writes, for the audit log. */
export interface Actor {
  userId: number | null;
}

interface DbRow {
  id: number;
  data: Record<string, unknown>;
  version: number;
  created_at: Date | string;
}

const RESERVED = new Set(['limit', 'offset', 'search', 'order_by']);
const COLUMNS = 'id, data, version, created_at';

function toRow(def: ResourceDef, r: DbRow): ResourceRow {
  const row: ResourceRow = { ...r.data, [def.idField]: Number(r.id), version: r.version };
  if (def.createdField) row[def.createdField] = new Date(r.created_at).toISOString();
  return row;
}

function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function intOr(value: unknown, fallback: number): number {
  const s = first(value);
  if (s === undefined || !/^\d+$/.test(s.trim())) return fallback;
  return Number(s);
}

/** Escapes LIKE wildcards (`\`, `%`, `_`) of user text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function badParam(param: string, key: string, params: Record<string, unknown>): HttpError {
  const fieldErrors: FieldErrors = { [param]: [{ key, params: { field: param, ...params } }] };
  return new HttpError('validation', { fieldErrors });
}

/** Builds the WHERE clause of a list query; `params` receives the values (`$1` is the city). */
function whereOf(def: ResourceDef, query: Record<string, unknown>, params: unknown[]): { sql: string; filtered: boolean } {
  const parts = ['city = $1'];
  const search = first(query.search)?.trim().slice(0, 200);
  if (search && def.list.search.length > 0) {
    params.push(`%${escapeLike(search)}%`);
    const p = `$${params.length}`;
    parts.push(`(${def.list.search.map((f) => `${fieldExpr(def, f)} ILIKE ${p}`).join(' OR ')})`);
  }
  for (const filter of def.list.filters) {
    if (RESERVED.has(filter.param)) continue;
    const value = first(query[filter.param]);
    if (value === undefined || value === '') continue;
    parts.push(filterSql(def, filter, value, params));
  }
  return { sql: parts.join(' AND '), filtered: parts.length > 1 };
}

function filterSql(def: ResourceDef, filter: ListFilter, value: string, params: unknown[]): string {
  if (filter.kind === 'equals') {
    params.push(value);
    return `${fieldExpr(def, filter.field)} = $${params.length}`;
  }
  if (!(filter.values as string[]).includes(value)) {
    throw badParam(filter.param, 'validation.generic.enum', { allowedValues: filter.values });
  }
  // Date-time fields are stored as UTC ISO strings (see `normalize`), so text order is time order.
  params.push(new Date().toISOString());
  const now = `$${params.length}`;
  const start = fieldExpr(def, filter.start);
  const end = fieldExpr(def, filter.end);
  if (value === 'not_yet') return `${start} > ${now}`;
  if (value === 'showing') return `${start} <= ${now} AND ${end} >= ${now}`;
  return `${end} < ${now}`;
}

function orderOf(def: ResourceDef, orderBy: string | undefined): string {
  let field = def.list.defaultSort.field;
  let desc = def.list.defaultSort.order === 'desc';
  if (orderBy) {
    const name = orderBy.startsWith('-') ? orderBy.slice(1) : orderBy;
    if (def.list.sort.includes(name)) {
      field = name;
      desc = orderBy.startsWith('-');
    }
  }
  const dir = desc ? 'DESC' : 'ASC';
  const expr = fieldExpr(def, field);
  return expr === 'id' ? `id ${dir}` : `${expr} ${dir}, id ${dir}`;
}

/**
 * One page of a city's records (001 7 Conventions; 001 9 Paging).
 * Query: `limit` (default the resource's pageSize, at most MAX_LIMIT), `offset` (default 0),
 * `search` (case-insensitive substring over the declared search fields), `order_by` (`field` or
 * `-field` among the declared sort fields; otherwise the default sort), and the declared filters
 * (`equals`; `period` with not_yet, showing, ended against now). `total_length` of an unfiltered
 * list comes from `resource_counts` (no count(*) over a large table).
 * Errors: 400 `validation` for a period filter value that is not declared.
 */
export async function listRecords(db: Database, def: ResourceDef, city: string, query: Record<string, unknown>): Promise<ListPage> {
  const limit = Math.min(Math.max(intOr(query.limit, def.list.pageSize), 1), MAX_LIMIT);
  const offset = intOr(query.offset, 0);
  const params: unknown[] = [city];
  const where = whereOf(def, query, params);
  const t = tableName(def);
  const order = orderOf(def, first(query.order_by));
  const page = `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
  let rows: Array<DbRow & { total?: number }>;
  let total: number;
  if (where.filtered) {
    const [listed, counted] = await Promise.all([
      db.query<DbRow>(`SELECT ${COLUMNS} FROM ${t} WHERE ${where.sql} ORDER BY ${order} ${page}`, [...params, limit, offset]),
      db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t} WHERE ${where.sql}`, params),
    ]);
    rows = listed;
    total = Number(counted[0]?.n ?? 0);
  } else {
    // One round trip: the count rides along as an uncorrelated subquery (evaluated once).
    const countSql = `SELECT n FROM resource_counts WHERE resource = $${params.length + 3} AND city = $1`;
    rows = await db.query<DbRow & { total: number }>(
      `SELECT ${COLUMNS}, (${countSql}) AS total FROM ${t} WHERE ${where.sql} ORDER BY ${order} ${page}`,
      [...params, limit, offset, def.name],
    );
    if (rows.length > 0) total = Number(rows[0].total ?? 0);
    else total = Number((await db.query<{ n: number }>('SELECT n FROM resource_counts WHERE resource = $1 AND city = $2', [def.name, city]))[0]?.n ?? 0);
  }
  return {
    content: rows.map((r) => toRow(def, r)),
    total_length: total,
    count: rows.length,
    limit,
    offset,
    page_length: Math.ceil(total / limit),
  };
}

function parseId(id: unknown): number {
  const s = String(id);
  if (!/^\d{1,15}$/.test(s) || Number(s) < 1) throw new HttpError('not_found');
  return Number(s);
}

/** One record of a city. Errors: 404 `not_found` when it does not exist in that city. */
export async function getRecord(db: Queryable, def: ResourceDef, city: string, id: unknown): Promise<ResourceRow> {
  const rows = await db.query<DbRow>(`SELECT ${COLUMNS} FROM ${tableName(def)} WHERE id = $1 AND city = $2`, [parseId(id), city]);
  if (rows.length === 0) throw new HttpError('not_found');
  return toRow(def, rows[0]);
}

/**
 * Validates a client body for a write: drops `version` and read-only fields (id, created field),
 * checks it with the shared `validateRecord`, and stores date-times as UTC ISO strings.
 * Errors: 400 `validation` with the field errors.
 */
export function cleanBody(def: ResourceDef, body: unknown): Record<string, unknown> {
  let input = body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { version: _version, ...rest } = body as Record<string, unknown>;
    input = rest;
  }
  const result = validateRecord(def, input);
  if (!result.ok) throw new HttpError('validation', { fieldErrors: result.errors });
  return normalize(def, result.value);
}

function normalize(def: ResourceDef, value: Record<string, unknown>): Record<string, unknown> {
  const out = { ...value };
  for (const [field, prop] of Object.entries(def.schema.properties)) {
    const v = out[field];
    if (prop.format === 'date-time' && typeof v === 'string' && !Number.isNaN(Date.parse(v))) out[field] = new Date(v).toISOString();
  }
  return out;
}

async function audit(tx: Queryable, actor: Actor, city: string, def: ResourceDef, action: string, recordId: number | null): Promise<void> {
  await tx.query('INSERT INTO audit_log (user_id, city, resource, action, record_id) VALUES ($1, $2, $3, $4, $5)', [
    actor.userId,
    city,
    def.name,
    action,
    recordId,
  ]);
}

async function addCount(tx: Queryable, def: ResourceDef, city: string, delta: number): Promise<void> {
  await tx.query(
    `INSERT INTO resource_counts (resource, city, n) VALUES ($1, $2, $3)
     ON CONFLICT (resource, city) DO UPDATE SET n = resource_counts.n + EXCLUDED.n`,
    [def.name, city, delta],
  );
}

/**
 * Creates a record in a city (001 7 POST calls). The created field is set by the server.
 * Answers the stored row with version 1. Errors: 400 `validation`.
 */
export async function createRecord(db: Database, def: ResourceDef, city: string, body: unknown, actor: Actor): Promise<ResourceRow> {
  const data = cleanBody(def, body);
  return db.transaction(async (tx) => {
    const [row] = await tx.query<DbRow>(
      `INSERT INTO ${tableName(def)} (city, data) VALUES ($1, $2::jsonb) RETURNING ${COLUMNS}`,
      [city, JSON.stringify(data)],
    );
    await addCount(tx, def, city, 1);
    await audit(tx, actor, city, def, 'create', Number(row.id));
    return toRow(def, row);
  });
}

/**
 * Creates many records of one city in batches of 1000 (seeds, benchmarks, imports). Each record is
 * validated like `createRecord`; the table is analyzed after 1000 or more. Resolves to the number created. Errors: 400 `validation` for the
 * first bad record (nothing of its batch is stored).
 */
export async function createRecords(db: Database, def: ResourceDef, city: string, bodies: readonly unknown[], actor: Actor): Promise<number> {
  const t = tableName(def);
  for (let i = 0; i < bodies.length; i += 1000) {
    const batch = bodies.slice(i, i + 1000).map((b) => cleanBody(def, b));
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO ${t} (city, data) SELECT $1, d FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(d, i) ORDER BY i`,
        [city, JSON.stringify(batch)],
      );
      await addCount(tx, def, city, batch.length);
      await audit(tx, actor, city, def, 'create_many', null);
    });
  }
  // PGlite runs no autovacuum: refresh the planner statistics after a large load.
  if (bodies.length >= 1000) await db.exec(`ANALYZE ${t}`);
  return bodies.length;
}

/**
 * Updates a record of a city (001 7 PUT calls): `partial` false replaces the data (PUT), true merges
 * the body into it (PATCH). A `version` in the body must equal the stored one (optimistic
 * concurrency). Answers the stored row with the version raised by one.
 * Errors: 404 `not_found` (also for a row of another city), 409 `conflict`, 400 `validation`.
 */
export async function updateRecord(
  db: Database,
  def: ResourceDef,
  city: string,
  id: unknown,
  body: unknown,
  actor: Actor,
  options: { partial?: boolean } = {},
): Promise<ResourceRow> {
  const key = parseId(id);
  const t = tableName(def);
  return db.transaction(async (tx) => {
    const [current] = await tx.query<DbRow>(`SELECT ${COLUMNS} FROM ${t} WHERE id = $1 AND city = $2 FOR UPDATE`, [key, city]);
    if (!current) throw new HttpError('not_found');
    const sent = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).version : undefined;
    if (sent !== undefined && sent !== null && Number(sent) !== current.version) throw new HttpError('conflict');
    const input = options.partial && typeof body === 'object' && body !== null ? { ...current.data, ...body } : body;
    const data = cleanBody(def, input);
    const [row] = await tx.query<DbRow>(
      `UPDATE ${t} SET data = $3::jsonb, version = version + 1, updated_at = now() WHERE id = $1 AND city = $2 RETURNING ${COLUMNS}`,
      [key, city, JSON.stringify(data)],
    );
    await audit(tx, actor, city, def, 'update', key);
    return toRow(def, row);
  });
}

/** Deletes a record of a city (001 7 DELETE calls). Errors: 404 `not_found`. */
export async function deleteRecord(db: Database, def: ResourceDef, city: string, id: unknown, actor: Actor): Promise<void> {
  const key = parseId(id);
  await db.transaction(async (tx) => {
    const rows = await tx.query(`DELETE FROM ${tableName(def)} WHERE id = $1 AND city = $2 RETURNING id`, [key, city]);
    if (rows.length === 0) throw new HttpError('not_found');
    await addCount(tx, def, city, -1);
    await audit(tx, actor, city, def, 'delete', key);
  });
}
