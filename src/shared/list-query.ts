/**
 * The list-query codec (001 7 Conventions, 001 9 Paging and date-range presets): the one module that
 * knows the contract's list query (`limit`, `offset`, `search`, `order_by`, the declared filter
 * parameters, `<field>__from`/`<field>__to`) and its answer envelope (`{content, total_length,
 * count, limit, offset, page_length}`).
 *
 * - The console's data provider turns Refine's pagination, sorters and filters into the query with
 *   `encodeListQuery`; the list view builds its filters with `searchFilter` and `rangeFilters` and
 *   never names a parameter.
 * - The server reads the query back with `decodeListQuery` (then builds SQL from it:
 *   src/server/repositories/record-query.ts) and answers with `listAnswer`.
 * The Refine shapes are declared here structurally (a subset of `@refinedev/core`'s `Pagination`,
 * `CrudSort`, `CrudFilter`), so the server needs no console library.
 */
import { MAX_LIMIT, PAGE_SIZE } from './constants';
import type { ListFilter, ResourceDef } from './registry';
import type { FieldErrors } from './validation';

/** The free-text search parameter. */
export const SEARCH_PARAM = 'search';
/** Suffixes of the date-range parameters (`create_at__from`, `create_at__to`; both ends inclusive). */
export const RANGE_SUFFIX = { from: '__from', to: '__to' } as const;
export type RangeEnd = keyof typeof RANGE_SUFFIX;
/**
 * Rows by id (ours): `ids=3,7,12` answers those rows only (a page of referenced rows: the console's
 * `getMany` asks once per referenced resource and page, as react-admin's `ReferenceField` batches).
 */
export const IDS_PARAM = 'ids';
/** Suffix of a reference filter (ours): `advertisement__in=1,4` keeps rows whose `x-ref` field names one of those rows. */
export const REF_IN_SUFFIX = '__in';
/** The most ids one `ids` or `<field>__in` parameter takes. */
export const MAX_IDS = 100;

/** One page of a list: `limit` rows (1…MAX_LIMIT) from row `offset` (0-based). */
export interface ListPage {
  limit: number;
  offset: number;
}

/** A list answer of the contract (001 7.17): one page of rows and how many there are in all. */
export interface ListAnswer<T = Record<string, unknown>> {
  content: T[];
  total_length: number;
  count: number;
  limit: number;
  offset: number;
  page_length: number;
}

/** Refine's pagination (pages count from 1; `mode: 'off'` asks for everything, MAX_LIMIT rows). */
export interface ListPagination {
  currentPage?: number;
  pageSize?: number;
  mode?: 'off' | 'server' | 'client';
}
/** Refine's sorter. */
export interface ListSorter {
  field: string;
  order: 'asc' | 'desc';
}
/** Refine's filter: a field filter, or a logical one (`or`/`and`, ignored by lists). */
export type ListQueryFilter = { field: string; operator: string; value: unknown } | { operator: 'or' | 'and'; value: unknown[]; key?: string };

/** What a list asks for, in Refine's terms. */
export interface ListParams {
  pagination?: ListPagination;
  sorters?: readonly ListSorter[];
  filters?: readonly ListQueryFilter[];
}

/** The query string of a list call: parameter → value. */
export type ListQuery = Record<string, string | number | undefined>;

function intOf(value: unknown): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? v : undefined;
  return typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : undefined;
}

/**
 * The page of a `limit` and `offset` as a client sent them (numbers or digit strings; anything else
 * is the default): `limit` defaults to `pageSize` and is held to 1…MAX_LIMIT, `offset` defaults to 0.
 */
export function clampPage(limit: unknown, offset: unknown, pageSize: number = PAGE_SIZE): ListPage {
  return { limit: Math.min(Math.max(intOf(limit) ?? pageSize, 1), MAX_LIMIT), offset: intOf(offset) ?? 0 };
}

/** The page of a Refine pagination: page n of `pageSize` (default the resource's page size). */
export function pageOfPagination(pagination: ListPagination | undefined, pageSize: number = PAGE_SIZE): ListPage {
  if (pagination?.mode === 'off') return { limit: MAX_LIMIT, offset: 0 };
  const { limit } = clampPage(pagination?.pageSize, 0, pageSize);
  return { limit, offset: (Math.max(1, pagination?.currentPage ?? 1) - 1) * limit };
}

/** The answer envelope of one page of `total` rows (`page_length` = ceil(total / limit)). */
export function listAnswer<T>(content: T[], total: number, page: ListPage): ListAnswer<T> {
  return { content, total_length: total, count: content.length, limit: page.limit, offset: page.offset, page_length: Math.ceil(total / page.limit) };
}

/**
 * The total of a list answer: `total_length`, or without it the full-page rule (001 9): a page that
 * came back full may have a next one, so one more row than seen is counted.
 */
export function totalOf(answer: Pick<ListAnswer, 'content'> & { total_length?: number }, limit: number, offset: number): number {
  if (typeof answer.total_length === 'number') return answer.total_length;
  const seen = offset + answer.content.length;
  return answer.content.length >= limit ? seen + 1 : seen;
}

/** The first value of a query parameter, as text (a repeated parameter: its first value). */
export function firstValue(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** Whether `field` of `def` names rows of another resource (`x-ref`): a reference column, filtered by `<field>__in`. */
export function isRefField(def: ResourceDef, field: string): boolean {
  return !!def.schema.properties[field]?.['x-ref'] && field !== def.idField;
}

/** The ids of a comma-separated list parameter (`1,2,3`; a repeated parameter's values joined), or null when one is not a row id. */
/**
 * The row ids of an `ids` or `<field>__in` parameter (`1,4` or repeated): distinct decimal ids of at
 * most 15 digits, in the order given; null when a part is not such an id. Pure.
 */
export function idsOf(value: unknown): string[] | null {
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).split(',') : []));
  const ids = parts.map((p) => p.trim()).filter((p) => p !== '');
  return ids.every((id) => /^\d{1,15}$/.test(id)) ? [...new Set(ids)] : null;
}

/** Whether `field` of `def` holds dates a list can be narrowed to a range of (date, date-time or the created time). */
export function isDateField(def: ResourceDef, field: string): boolean {
  if (field === def.createdField) return true;
  const format = def.schema.properties[field]?.format;
  return format === 'date' || format === 'date-time';
}

/** The field and end of a date-range parameter of `def` (`create_at__from` → create_at, from), else null. */
export function rangeParamOf(def: ResourceDef, param: string): { field: string; end: RangeEnd } | null {
  for (const end of ['from', 'to'] as const) {
    if (!param.endsWith(RANGE_SUFFIX[end])) continue;
    const field = param.slice(0, -RANGE_SUFFIX[end].length);
    return field in def.schema.properties && isDateField(def, field) ? { field, end } : null;
  }
  return null;
}

// ── The console's side: Refine filters ──────────────────────────────────────────────────────────

/** The filter of a free-text search. */
export function searchFilter(text: string): ListQueryFilter {
  return { field: SEARCH_PARAM, operator: 'contains', value: text };
}

/** Whether `f` is the free-text search (`search`, or Refine's conventional `q`). */
export function isSearchFilter(f: ListQueryFilter): boolean {
  return 'field' in f && (f.field === SEARCH_PARAM || f.field === 'q');
}

/** The filters of a date range on `field`, both ends inclusive (values as the API takes them). */
export function rangeFilters(field: string, from: string, to: string): ListQueryFilter[] {
  return [
    { field, operator: 'gte', value: from },
    { field, operator: 'lte', value: to },
  ];
}

/**
 * The date range among `filters` of `def`: its field and ends, or null. Reads the filters of
 * `rangeFilters` and the `<field>__from`/`<field>__to` fields that saved views and addresses made
 * before kept.
 */
export function rangeOf(def: ResourceDef, filters: readonly ListQueryFilter[]): { field: string; from?: string; to?: string } | null {
  let out: { field: string; from?: string; to?: string } | null = null;
  for (const f of filters) {
    const r = rangeEndOf(def, f);
    if (!r || (out && out.field !== r.field)) continue;
    out ??= { field: r.field };
    out[r.end] = String((f as { value: unknown }).value);
  }
  return out;
}

/** Whether `f` is one end of a date range of `def`. */
export function isRangeFilter(def: ResourceDef, f: ListQueryFilter): boolean {
  return rangeEndOf(def, f) !== null;
}

function rangeEndOf(def: ResourceDef, f: ListQueryFilter): { field: string; end: RangeEnd } | null {
  if (!('field' in f)) return null;
  const legacy = rangeParamOf(def, f.field);
  if (legacy) return legacy;
  if ((f.operator === 'gte' || f.operator === 'lte') && f.field in def.schema.properties && isDateField(def, f.field)) {
    return { field: f.field, end: f.operator === 'gte' ? 'from' : 'to' };
  }
  return null;
}

/**
 * The contract's query of a list of `def` asked for in Refine's terms: `limit`/`offset` of the
 * pagination; `order_by` (`field` or `-field`) of the first sorter on a declared sort field; `search`
 * of a search filter; a declared filter's parameter for a filter on it (by parameter or field); the
 * `<field>__from`/`__to` of a date range. Other filters, and empty values, are left out.
 */
export function encodeListQuery(def: ResourceDef, params: ListParams): ListQuery {
  const { limit, offset } = pageOfPagination(params.pagination, def.list.pageSize);
  const out: ListQuery = { limit, offset };
  for (const f of params.filters ?? []) {
    if (!('field' in f)) continue;
    const value = Array.isArray(f.value) ? f.value[0] : f.value;
    if (value === undefined || value === null || value === '') continue;
    const range = rangeEndOf(def, f);
    if (f.operator === 'in' && Array.isArray(f.value)) {
      // Rows by id (getMany), or a reference column narrowed to chosen rows.
      if (f.value.length === 0) continue;
      if (f.field === 'id' || f.field === def.idField) out[IDS_PARAM] = f.value.join(',');
      else if (isRefField(def, f.field)) out[`${f.field}${REF_IN_SUFFIX}`] = f.value.join(',');
      continue;
    }
    if (isSearchFilter(f)) out[SEARCH_PARAM] = String(value);
    else if (range) out[`${range.field}${RANGE_SUFFIX[range.end]}`] = String(value);
    else {
      const declared = def.list.filters.find((d) => d.param === f.field || (d.kind === 'equals' && d.field === f.field));
      if (declared) out[declared.param] = String(value);
    }
  }
  const sorter = (params.sorters ?? []).find((s) => def.list.sort.includes(s.field));
  if (sorter) out.order_by = `${sorter.order === 'desc' ? '-' : ''}${sorter.field}`;
  return out;
}

// ── The server's side: the query read back ──────────────────────────────────────────────────────

/** A list query of `def` read back: every value checked as far as the schema tells. */
export interface DecodedListQuery {
  page: ListPage;
  /** The search text (trimmed, at most 200 characters), when the resource has search fields. */
  search?: string;
  /** The sort: `order_by` on a declared sort field, else the resource's default sort. */
  order: { field: string; desc: boolean };
  /** The declared filters given a value (`period` values checked against the declared ones). */
  filters: Array<{ filter: ListFilter; value: string }>;
  /** Date-range ends: a date field's day `YYYY-MM-DD`, or an ISO instant (UTC). */
  ranges: Array<{ field: string; end: RangeEnd; value: string }>;
  /** Only these row ids (`ids`), when asked. */
  ids?: string[];
  /** Reference filters (`<field>__in`): rows whose `x-ref` field names one of `ids`. */
  refs: Array<{ field: string; ids: string[] }>;
  /** Values that are not what their parameter takes (the server answers 400 `validation`). */
  errors: FieldErrors;
}

const RESERVED = new Set(['limit', 'offset', SEARCH_PARAM, 'order_by', IDS_PARAM]);

function badParam(errors: FieldErrors, param: string, key: string, params: Record<string, unknown>): void {
  (errors[param] ??= []).push({ key, params: { field: param, ...params } });
}

/**
 * Reads a list query of `def` (001 9): the page (`clampPage` with the resource's page size), the
 * search, the sort, the declared filters and the date ranges. Unknown parameters are ignored.
 * Errors are returned, not thrown: a `period` value not declared or an `equals` value outside its
 * field's `enum` (`validation.generic.enum`), a range
 * end that is not a date (`validation.generic.format`), an `ids` or `<field>__in` value that is not
 * a list of at most MAX_IDS row ids (`validation.generic.format`, `validation.generic.maxItems`).
 */
export function decodeListQuery(def: ResourceDef, query: Readonly<Record<string, unknown>>): DecodedListQuery {
  const errors: FieldErrors = {};
  const search = def.list.search.length > 0 ? firstValue(query[SEARCH_PARAM])?.trim().slice(0, 200) : undefined;
  const orderBy = firstValue(query.order_by);
  const name = orderBy?.startsWith('-') ? orderBy.slice(1) : orderBy;
  const order =
    name && def.list.sort.includes(name) ? { field: name, desc: orderBy!.startsWith('-') } : { field: def.list.defaultSort.field, desc: def.list.defaultSort.order === 'desc' };
  const filters: DecodedListQuery['filters'] = [];
  for (const filter of def.list.filters) {
    if (RESERVED.has(filter.param)) continue;
    const value = firstValue(query[filter.param]);
    if (value === undefined || value === '') continue;
    const allowed = filter.kind === 'period' ? (filter.values as string[]) : (def.schema.properties[filter.field]?.enum as unknown[] | undefined)?.map(String);
    if (allowed && !allowed.includes(value)) {
      badParam(errors, filter.param, 'validation.generic.enum', { allowedValues: allowed });
      continue;
    }
    filters.push({ filter, value });
  }
  const ranges: DecodedListQuery['ranges'] = [];
  for (const [param, raw] of Object.entries(query)) {
    const range = rangeParamOf(def, param);
    const value = range ? firstValue(raw)?.trim() : undefined;
    if (!range || !value) continue;
    if (Number.isNaN(Date.parse(value))) {
      badParam(errors, param, 'validation.generic.format', { format: 'date-time' });
      continue;
    }
    const day = def.schema.properties[range.field].format === 'date' && range.field !== def.createdField;
    const iso = new Date(value).toISOString();
    ranges.push({ ...range, value: day ? (/^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : iso.slice(0, 10)) : iso });
  }
  const idList = (param: string): string[] | undefined => {
    if (query[param] === undefined) return undefined;
    const ids = idsOf(query[param]);
    if (!ids) badParam(errors, param, 'validation.generic.format', { format: 'ids' });
    else if (ids.length > MAX_IDS) badParam(errors, param, 'validation.generic.maxItems', { limit: MAX_IDS });
    else return ids.length > 0 ? ids : undefined;
    return undefined;
  };
  const ids = idList(IDS_PARAM);
  const refs: DecodedListQuery['refs'] = [];
  for (const param of Object.keys(query)) {
    if (!param.endsWith(REF_IN_SUFFIX)) continue;
    const field = param.slice(0, -REF_IN_SUFFIX.length);
    if (!isRefField(def, field)) continue;
    const values = idList(param);
    if (values?.length) refs.push({ field, ids: values });
  }
  return { page: clampPage(query.limit, query.offset, def.list.pageSize), search: search || undefined, order, filters, ranges, ...(ids ? { ids } : {}), refs, errors };
}
