/**
 * Refine data provider built from the registry (DESIGN.md 'Console'; 001 7, 7.17). Every resource
 * of `schemas/` works through the same code; nothing here names an entity.
 * - getList: Refine pagination (`currentPage`, `pageSize`) → `limit`/`offset`; the first sorter on a
 *   declared sort field → `order_by=field|-field`; a filter on `search` (or `q`) → `search`; filters
 *   on the resource's declared filter params (or their fields) → those params; date ranges
 *   (`<field>__from`, `<field>__to`) as they are; reads `content` and `total_length`.
 * - getOne/getMany/create/update/deleteOne: the resource's paths with the current city and the id.
 * - Rows get Refine's `id` from the resource's idField (e.g. `event_id`); writes drop `id`, the
 *   idField and read-only fields, and keep `version` for optimistic concurrency (409 when stale).
 * - Failures are `ApiRequestError`s: Refine `HttpError`s whose `errors` are the server's `fields`.
 * - Bodies follow `x-coerce`/`x-drop-null` and carry the call's fixed `where` values; a delete
 *   answered 209 says so (`kept`, `detail`): the row stays (001 7.2).
 */
import type { BaseKey, BaseRecord, CrudFilter, CrudSort, DataProvider, MetaQuery, Pagination } from '@refinedev/core';
import { MAX_LIMIT } from '@/shared/constants';
import { fillPath, getResource, type ApiOperation, type ResourceDef } from '@/shared/registry';
import { coerceOut } from '../resources/coerce';
import { request, requestWithStatus, type RequestOptions } from './http';
import { getCity } from './session';

/** A list answer of the contract (001 7.17). */
export interface ListAnswer<T = Record<string, unknown>> {
  content: T[];
  total_length: number;
  count?: number;
  limit?: number;
  offset?: number;
  page_length?: number;
}

type Query = NonNullable<RequestOptions['query']>;
/** Filter fields that mean the free-text search. */
export const SEARCH_FIELDS = ['search', 'q'];

function cityOf(meta: MetaQuery | undefined): string {
  const fromMeta = meta && typeof meta.city === 'string' ? meta.city : null;
  const city = fromMeta ?? getCity();
  if (!city) throw new Error('no city chosen');
  return city;
}

function path(def: ResourceDef, op: ApiOperation, city: string, id?: BaseKey): { method: RequestOptions['method']; path: string } {
  const call = op === 'list' ? def.api.list : def.api[op];
  if (!call) throw new Error(`resource '${def.name}' has no '${op}' call`);
  return { method: call.method, path: fillPath(call.path, { city, id }) };
}

/** A row of the API as Refine wants it: `id` copied from the resource's idField. */
export function toRecord(def: ResourceDef, row: Record<string, unknown>): BaseRecord {
  return { ...row, id: row[def.idField] as BaseKey };
}

/**
 * The body of a create or update: writable schema fields plus `version`, never ids or read-only
 * fields; `x-coerce: array` fields as lists, `x-drop-null` fields left out when null (000 3); the
 * call's fixed `where` values (e.g. a mall's genre type 24) added.
 */
export function toBody(def: ResourceDef, values: Record<string, unknown>, op: 'create' | 'update' = 'create'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of def.writableFields) {
    if (field === def.idField) continue;
    if (values[field] !== undefined) out[field] = values[field];
  }
  const partial = op === 'update' && def.api.update?.method === 'PATCH';
  const body = { ...coerceOut(def.schema.properties, out, !partial), ...(def.api[op]?.where ?? {}) };
  if (values.version !== undefined) body.version = values.version;
  return body;
}

/**
 * The total of a list answer: `total_length`, or without it the full-page rule (001 9): a page that
 * came back full may have a next one, so one more row than seen is counted.
 */
export function totalOf(answer: Pick<ListAnswer, 'content' | 'total_length'>, limit: number, offset: number): number {
  if (typeof answer.total_length === 'number') return answer.total_length;
  const seen = offset + answer.content.length;
  return answer.content.length >= limit ? seen + 1 : seen;
}

/** Status of a delete the server declined and kept the row (001 7.2: users answer 209). */
export const DELETE_KEPT_STATUS = 209;

/** What `deleteOne` answers: the id, and when the server kept the row (209) its message. */
export interface DeleteAnswer {
  id: BaseKey;
  kept?: boolean;
  detail?: string;
}

/** Limit and offset of a Refine pagination (pages count from 1); `mode: 'off'` asks for MAX_LIMIT rows. */
export function toPage(def: ResourceDef, pagination: Pagination | undefined): { limit: number; offset: number } {
  if (pagination?.mode === 'off') return { limit: MAX_LIMIT, offset: 0 };
  const limit = Math.min(Math.max(1, pagination?.pageSize ?? def.list.pageSize), MAX_LIMIT);
  const page = Math.max(1, pagination?.currentPage ?? 1);
  return { limit, offset: (page - 1) * limit };
}

/** `order_by` of the first sorter on a declared sort field: `field` ascending, `-field` descending. */
export function toOrderBy(def: ResourceDef, sorters: CrudSort[] | undefined): string | undefined {
  const s = (sorters ?? []).find((x) => def.list.sort.includes(x.field));
  return s ? `${s.order === 'desc' ? '-' : ''}${s.field}` : undefined;
}

/**
 * Query parameters of Refine filters: `search` for a search filter, the declared parameter for a
 * filter whose field is a declared filter's param or field; anything else is left out.
 */
export function toFilterQuery(def: ResourceDef, filters: CrudFilter[] | undefined): Query {
  const out: Query = {};
  for (const f of filters ?? []) {
    if (!('field' in f)) continue;
    const value = Array.isArray(f.value) ? f.value[0] : f.value;
    if (value === undefined || value === null || value === '') continue;
    if (SEARCH_FIELDS.includes(f.field)) {
      out.search = String(value);
      continue;
    }
    const declared = def.list.filters.find((d) => d.param === f.field || (d.kind === 'equals' && d.field === f.field));
    if (declared) out[declared.param] = String(value);
    else if (isDateRangeParam(def, f.field)) out[f.field] = String(value);
  }
  return out;
}

/**
 * Whether `param` is a date-range parameter of the list (`<field>__from`/`<field>__to` on a date or
 * date-time field or the created time; the server's record-query.ts reads them).
 */
export function isDateRangeParam(def: ResourceDef, param: string): boolean {
  const m = /^(.+)__(from|to)$/.exec(param);
  if (!m || !(m[1] in def.schema.properties)) return false;
  const format = def.schema.properties[m[1]].format;
  return m[1] === def.createdField || format === 'date' || format === 'date-time';
}

/** The query string of a list call. */
export function listQuery(def: ResourceDef, params: { pagination?: Pagination; sorters?: CrudSort[]; filters?: CrudFilter[] }): Query {
  const { limit, offset } = toPage(def, params.pagination);
  return { limit, offset, ...toFilterQuery(def, params.filters), order_by: toOrderBy(def, params.sorters) };
}

export const dataProvider: DataProvider = {
  getApiUrl: () => '',

  async getList({ resource, pagination, sorters, filters, meta }) {
    const def = getResource(resource);
    const call = path(def, 'list', cityOf(meta));
    const query = listQuery(def, { pagination, sorters, filters });
    const answer = await request<ListAnswer>(call.path, { query });
    const content = answer.content ?? [];
    return { data: content.map((r) => toRecord(def, r)) as never[], total: totalOf({ ...answer, content }, Number(query.limit), Number(query.offset)) };
  },

  async getOne({ resource, id, meta }) {
    const def = getResource(resource);
    const call = path(def, 'show', cityOf(meta), id);
    const row = await request<Record<string, unknown>>(call.path, { method: call.method });
    return { data: toRecord(def, row) as never };
  },

  async getMany({ resource, ids, meta }) {
    const def = getResource(resource);
    const city = cityOf(meta);
    const rows = await Promise.all(
      ids.map((id) => {
        const call = path(def, 'show', city, id);
        return request<Record<string, unknown>>(call.path, { method: call.method });
      }),
    );
    return { data: rows.map((r) => toRecord(def, r)) as never[] };
  },

  async create({ resource, variables, meta }) {
    const def = getResource(resource);
    const call = path(def, 'create', cityOf(meta));
    const row = await request<Record<string, unknown>>(call.path, { method: call.method, body: toBody(def, variables as Record<string, unknown>, 'create') });
    return { data: toRecord(def, row) as never };
  },

  async update({ resource, id, variables, meta }) {
    const def = getResource(resource);
    const call = path(def, 'update', cityOf(meta), id);
    const row = await request<Record<string, unknown>>(call.path, { method: call.method, body: toBody(def, variables as Record<string, unknown>, 'update') });
    return { data: toRecord(def, row) as never };
  },

  async deleteOne({ resource, id, meta }) {
    const def = getResource(resource);
    const call = path(def, 'delete', cityOf(meta), id);
    const { status, data } = await requestWithStatus<{ detail?: unknown } | undefined>(call.path, { method: call.method });
    const answer: DeleteAnswer = { id };
    if (status === DELETE_KEPT_STATUS) {
      answer.kept = true;
      answer.detail = typeof data?.detail === 'string' ? data.detail : '';
    }
    return { data: answer as never };
  },

  async custom({ url, method, payload, query }) {
    const data = await request<unknown>(url, {
      method: method.toUpperCase() as RequestOptions['method'],
      body: payload,
      query: query as Query | undefined,
    });
    return { data: data as never };
  },
};
