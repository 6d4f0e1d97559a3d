/**
 * The SQL of list queries (001 7 Conventions; 001 9 Paging): WHERE clauses from the query string
 * (search, declared filters), from the fixed values of a call (`where`, `exclude`) and from a parent
 * (children of a row); ORDER BY from `order_by`; paging from `limit` and `offset`.
 * Every value is a parameter; field names are checked identifiers (db/resource-tables.ts).
 */
import type { OwnedRows } from '../../shared/ability';
import { MAX_LIMIT } from '../../shared/constants';
import type { ListFilter, ResourceDef } from '../../shared/registry';
import type { FieldErrors } from '../../shared/validation';
import { registry } from '../../shared/registry';
import { fieldExpr, searchExprs, tableName, textExpr } from '../db/resource-tables';
import { HttpError } from '../http-error';

/** Fixed conditions on rows beyond the city: a call's `where`/`exclude`, a parent's id. */
export interface Match {
  /** Only rows whose field has this value (compared as text: 24 matches 24 and "24"). */
  where?: Readonly<Record<string, unknown>>;
  /** Leave out rows whose field has one of these values (rows without the field stay). */
  exclude?: Readonly<Record<string, readonly unknown[]>>;
  /** Only rows whose `field` is `id`, or is a list holding `id` (children of a parent row). */
  parent?: { field: string; id: number };
  /**
   * Own-row limits of the caller (000 6; `ownedRows` of src/shared/ability.ts): only rows whose
   * field holds one of the values (a list field: one of its items), or with `through` whose field
   * refers to a row of that resource whose `through.field` does; no values, no row.
   */
  owner?: readonly OwnedRows[];
}

const RESERVED = new Set(['limit', 'offset', 'search', 'order_by']);

/** The first value of a query parameter, as text. */
export function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function intOr(value: unknown, fallback: number): number {
  const s = first(value);
  if (s === undefined || !/^\d+$/.test(s.trim())) return fallback;
  return Number(s);
}

/** `limit` (default the page size, 1…MAX_LIMIT) and `offset` (default 0) of a list query. */
export function pageOf(def: ResourceDef, query: Record<string, unknown>): { limit: number; offset: number } {
  return { limit: Math.min(Math.max(intOr(query.limit, def.list.pageSize), 1), MAX_LIMIT), offset: intOr(query.offset, 0) };
}

/** Escapes LIKE wildcards (`\`, `%`, `_`) of user text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function badParam(param: string, key: string, params: Record<string, unknown>): HttpError {
  const fieldErrors: FieldErrors = { [param]: [{ key, params: { field: param, ...params } }] };
  return new HttpError('validation', { fieldErrors });
}

/** The text of a fixed value, as `data->>'field'` shows it. */
function asText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The conditions of a `Match`; `params` receives the values. */
export function matchSql(def: ResourceDef, match: Match, params: unknown[]): string[] {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(match.where ?? {})) {
    params.push(asText(value));
    parts.push(`${textExpr(def, field)} = $${params.length}`);
  }
  for (const [field, values] of Object.entries(match.exclude ?? {})) {
    if (values.length === 0) continue;
    params.push(values.map(asText));
    const e = textExpr(def, field);
    parts.push(`(${e} IS NULL OR NOT (${e} = ANY($${params.length}::text[])))`);
  }
  for (const { field, values, through } of match.owner ?? []) {
    if (values.length === 0) {
      parts.push('FALSE');
      continue;
    }
    params.push(values.map(String));
    const n = params.length;
    const target = through ? registry.get(through.resource) : undefined;
    if (through && target) {
      parts.push(`${textExpr(def, field)} IN (SELECT id::text FROM ${tableName(target)} WHERE ${textExpr(target, through.field)} = ANY($${n}::text[]))`);
      continue;
    }
    const type = def.schema.properties[field]?.type;
    const isList = field !== def.idField && (Array.isArray(type) ? type : [type]).includes('array');
    parts.push(
      isList
        ? `EXISTS (SELECT 1 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(data->'${field}') = 'array' THEN data->'${field}' ELSE '[]'::jsonb END) AS o(v) WHERE o.v = ANY($${n}::text[]))`
        : `${textExpr(def, field)} = ANY($${n}::text[])`,
    );
  }
  if (match.parent) {
    const { field, id } = match.parent;
    const e = textExpr(def, field);
    params.push(String(id), JSON.stringify([id]), JSON.stringify([String(id)]));
    const n = params.length;
    parts.push(`(${e} = $${n - 2} OR data->'${field}' @> $${n - 1}::jsonb OR data->'${field}' @> $${n}::jsonb)`);
  }
  return parts;
}

/**
 * The WHERE clause of a list query of `city` (`$1`; 001 7 Conventions, 001 9 Paging): search over
 * the declared search fields, the declared filters, and `match`; `params` receives the values.
 * `filtered` says whether anything narrows the city's rows (then the total is counted instead of
 * read from `resource_counts`).
 *
 * Search: `search` (trimmed, at most 200 characters) is a case-insensitive substring of at least one
 * search field: `(<expr> ILIKE $n OR …)` over `searchExprs`, the very expressions of the GIN trigram
 * index (db/resource-tables.ts), so PostgreSQL and PGlite answer it with a bitmap scan of that index.
 * A term of fewer than 3 characters (more exactly, one whose words give pg_trgm no trigram: `ab`,
 * `神戸`, `%`) cannot be narrowed by the index. It is matched all the same, by reading the city's
 * rows until LIST_COUNT_CAP + 1 match (`listRecords`): the rarer the term, the more rows are read, up
 * to every row of the city for a term matching at most LIST_COUNT_CAP (about 0.2 s per 100,000 rows
 * on PGlite). Short terms are not refused: two-character words are common Japanese searches.
 *
 * Errors: 400 `validation` for a period value that is not declared or a number filter that is not a number.
 */
export function listWhere(def: ResourceDef, query: Record<string, unknown>, match: Match, params: unknown[]): { sql: string; filtered: boolean } {
  const parts = ['city = $1'];
  const search = first(query.search)?.trim().slice(0, 200);
  if (search && def.list.search.length > 0) {
    params.push(`%${escapeLike(search)}%`);
    const p = `$${params.length}`;
    parts.push(`(${searchExprs(def).map((e) => `${e} ILIKE ${p}`).join(' OR ')})`);
  }
  for (const filter of def.list.filters) {
    if (RESERVED.has(filter.param)) continue;
    const value = first(query[filter.param]);
    if (value === undefined || value === '') continue;
    parts.push(filterSql(def, filter, value, params));
  }
  parts.push(...dateRangeSql(def, query, params));
  parts.push(...matchSql(def, match, params));
  return { sql: parts.join(' AND '), filtered: parts.length > 1 };
}

/** Suffixes of the date-range parameters of a list (`create_at__from`, `create_at__to`). */
export const DATE_RANGE_FROM = '__from';
export const DATE_RANGE_TO = '__to';

/** Whether `field` of `def` holds dates a list can be narrowed to a range of (date, date-time or the created time). */
export function isDateField(def: ResourceDef, field: string): boolean {
  if (field === def.createdField) return true;
  const format = def.schema.properties[field]?.format;
  return format === 'date' || format === 'date-time';
}

/**
 * Date-range conditions (000 4 lists; 001 9 date-range presets): `<field>__from` and `<field>__to`,
 * both inclusive, on the date and date-time fields of the resource. A date field takes `YYYY-MM-DD`
 * (a longer value is cut to its day); a date-time field any instant `Date.parse` reads (compared in
 * UTC, as stored). Unknown fields are ignored like any unknown parameter.
 * Errors: 400 `validation` for a value that is not a date.
 */
export function dateRangeSql(def: ResourceDef, query: Record<string, unknown>, params: unknown[]): string[] {
  const parts: string[] = [];
  for (const [param, raw] of Object.entries(query)) {
    const suffix = param.endsWith(DATE_RANGE_FROM) ? DATE_RANGE_FROM : param.endsWith(DATE_RANGE_TO) ? DATE_RANGE_TO : null;
    if (!suffix) continue;
    const field = param.slice(0, -suffix.length);
    if (!(field in def.schema.properties) || !isDateField(def, field)) continue;
    const value = first(raw)?.trim();
    if (!value) continue;
    const op = suffix === DATE_RANGE_FROM ? '>=' : '<=';
    const expr = fieldExpr(def, field);
    if (Number.isNaN(Date.parse(value))) throw badParam(param, 'validation.generic.format', { format: 'date-time' });
    if (expr === 'created_at') {
      params.push(new Date(value).toISOString());
      parts.push(`created_at ${op} $${params.length}::timestamptz`);
    } else if (def.schema.properties[field].format === 'date') {
      params.push(/^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : new Date(value).toISOString().slice(0, 10));
      parts.push(`${expr} ${op} $${params.length}`);
    } else {
      // Date-times are stored as UTC ISO strings (see `normalize`): text order is time order.
      params.push(new Date(value).toISOString());
      parts.push(`${expr} ${op} $${params.length}`);
    }
  }
  return parts;
}

function filterSql(def: ResourceDef, filter: ListFilter, value: string, params: unknown[]): string {
  if (filter.kind === 'equals') {
    const expr = fieldExpr(def, filter.field);
    const numeric = expr === 'id' || expr.endsWith('::numeric)');
    if (numeric && !/^-?\d+(\.\d+)?$/.test(value.trim())) throw badParam(filter.param, 'validation.generic.type', { type: 'number' });
    if (expr === 'created_at') {
      if (Number.isNaN(Date.parse(value))) throw badParam(filter.param, 'validation.generic.format', { format: 'date-time' });
      params.push(new Date(value).toISOString());
      return `created_at = $${params.length}::timestamptz`;
    }
    params.push(numeric ? value.trim() : value);
    return `${expr} = $${params.length}`;
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

/** The ORDER BY of `order_by` (`field` or `-field` among the declared sort fields), else the default sort. */
export function orderOf(def: ResourceDef, orderBy: string | undefined): string {
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
