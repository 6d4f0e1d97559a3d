/**
 * Refine data provider built from the registry (docs/architecture.md 'Console'; 001 7, 7.17). Every resource
 * of `schemas/` works through the same code; nothing here names an entity.
 * - getList: Refine's pagination, sorters and filters become the contract's list query through the
 *   shared codec (src/shared/list-query.ts `encodeListQuery`, which the server reads back with
 *   `decodeListQuery`); reads `content` and `total_length`.
 * - getOne/getMany/create/update/deleteOne: the resource's paths with the current city and the id.
 * - Rows get Refine's `id` from the resource's idField (e.g. `event_id`); writes drop `id`, the
 *   idField and read-only fields, and keep `version` for optimistic concurrency (409 when stale).
 * - Failures are `ApiRequestError`s: Refine `HttpError`s whose `errors` are the server's `fields`.
 * - Bodies follow `x-coerce`/`x-drop-null` and carry the call's fixed `where` values; a delete
 *   answered 209 says so (`kept`, `detail`): the row stays (001 7.2).
 * - A list page's first request can be asked for before the page renders (`prefetchList`, on a
 *   sidebar click): the page then renders with its rows at once (`prefetchedList`) or its first
 *   getList takes the answer on its way, instead of asking only after the page was drawn
 *   (docs/performance.md).
 */
import type { BaseKey, BaseRecord, DataProvider, GetListParams, GetListResponse, MetaQuery } from '@refinedev/core';
import { encodeListQuery, MAX_IDS, totalOf, type ListAnswer } from '@/shared/list-query';
import { fillPath, getResource, type ApiOperation, type ResourceDef } from '@/shared/registry';
import { coerceOut } from '@/shared/coerce';
import { request, requestWithStatus, type RequestOptions } from './http';
import { getCity, getSession, subscribe } from './session';

type Query = NonNullable<RequestOptions['query']>;

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

/** Whether rows of `def` are asked by id through its list (`ids`): a GET list whose path names nothing but the city. */
export function batchable(def: ResourceDef): boolean {
  return !def.singleton && def.api.list.method === 'GET' && !/\{(?!city\})[^}]+\}/.test(def.api.list.path);
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

/** Status of a delete the server declined and kept the row (001 7.2: users answer 209). */
export const DELETE_KEPT_STATUS = 209;

/** What `deleteOne` answers: the id, and when the server kept the row (209) its message. */
export interface DeleteAnswer {
  id: BaseKey;
  kept?: boolean;
  detail?: string;
}

/** The parts of a list request that decide its answer. */
export type ListRequest = Pick<GetListParams, 'resource' | 'pagination' | 'sorters' | 'filters' | 'meta'>;

/** How long an answer asked for ahead (`prefetchList`) waits for its page once it has arrived, ms (a pending one always waits). */
export const PREFETCH_TTL_MS = 3000;

interface Prefetched {
  answer: Promise<GetListResponse>;
  /** The answer once it arrived. */
  settled: GetListResponse | null;
  /** When it arrived (ms since the epoch). */
  settledAt: number;
}

/** Answers asked for ahead, by request (path and query). */
const prefetched = new Map<string, Prefetched>();

/** Forgets every answer asked for ahead (on sign-out: the next user never gets the last one's). */
export function forgetPrefetchedLists(): void {
  prefetched.clear();
}
subscribe(() => {
  if (getSession().signedOut) forgetPrefetchedLists();
});

/** The request's call, query and key (the path with the query: two requests with one key answer alike). */
function listCall({ resource, pagination, sorters, filters, meta }: ListRequest) {
  const def = getResource(resource);
  const call = path(def, 'list', cityOf(meta));
  const query = encodeListQuery(def, { pagination, sorters, filters });
  return { def, path: call.path, query, key: `${call.path}?${new URLSearchParams(query as Record<string, string>).toString()}` };
}

async function fetchList({ def, path: at, query }: ReturnType<typeof listCall>): Promise<GetListResponse> {
  const answer = await request<ListAnswer>(at, { query });
  const content = answer.content ?? [];
  return { data: content.map((r) => toRecord(def, r)) as never[], total: totalOf({ ...answer, content }, Number(query.limit), Number(query.offset)) };
}

/**
 * The fresh prefetch of `key`: still on its way, or arrived at most PREFETCH_TTL_MS ago (a slow
 * answer or a slow page's code must not make the page ask a second time); older ones are forgotten.
 */
function freshPrefetch(key: string): Prefetched | undefined {
  const now = Date.now();
  for (const [k, p] of prefetched) if (p.settled && now - p.settledAt > PREFETCH_TTL_MS) prefetched.delete(k);
  return prefetched.get(key);
}

/**
 * Asks for a list's answer ahead of the page that will ask for it (the same `ListRequest` as that
 * page's first getList). The answer is kept PREFETCH_TTL_MS for one getList of the same request
 * and for `prefetchedList`; a failed one is forgotten (the page asks again and shows its error).
 * Throws like getList when the resource is unknown or no city is chosen.
 */
export function prefetchList(req: ListRequest): void {
  const call = listCall(req);
  if (freshPrefetch(call.key)) return;
  const entry: Prefetched = { answer: fetchList(call), settled: null, settledAt: 0 };
  entry.answer.then(
    (answer) => {
      entry.settled = answer;
      entry.settledAt = Date.now();
    },
    () => prefetched.delete(call.key),
  );
  prefetched.set(call.key, entry);
}

/** The answer of a fresh prefetch of `req` once it has arrived, and when it arrived (ms since the epoch); else undefined. */
export function prefetchedList(req: ListRequest): { answer: GetListResponse; at: number } | undefined {
  const entry = freshPrefetch(listCall(req).key);
  return entry?.settled ? { answer: entry.settled, at: entry.settledAt } : undefined;
}

export const dataProvider: DataProvider = {
  getApiUrl: () => '',

  async getList(params) {
    const call = listCall(params);
    const early = freshPrefetch(call.key);
    if (early) {
      prefetched.delete(call.key);
      return early.answer as never;
    }
    return fetchList(call) as never;
  },

  async getOne({ resource, id, meta }) {
    const def = getResource(resource);
    const call = path(def, 'show', cityOf(meta), id);
    const row = await request<Record<string, unknown>>(call.path, { method: call.method });
    return { data: toRecord(def, row) as never };
  },

  /**
   * Rows by id. A resource whose list path names nothing but the city is asked once, through its list
   * with `ids` (chunks of MAX_IDS: one request per referenced resource and page, as react-admin's
   * `ReferenceField` batches); rows the caller may not read, or deleted ones, are simply absent.
   * Other resources are asked one show call per id.
   */
  async getMany({ resource, ids, meta }) {
    const def = getResource(resource);
    const city = cityOf(meta);
    if (batchable(def)) {
      const unique = [...new Set(ids.map(String))];
      const pages = await Promise.all(
        Array.from({ length: Math.ceil(unique.length / MAX_IDS) }, (_, i) => {
          const chunk = unique.slice(i * MAX_IDS, (i + 1) * MAX_IDS);
          return fetchList(listCall({ resource, meta: { city }, pagination: { currentPage: 1, pageSize: chunk.length, mode: 'server' }, filters: [{ field: 'id', operator: 'in', value: chunk }] }));
        }),
      );
      return { data: pages.flatMap((p) => p.data) as never[] };
    }
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
