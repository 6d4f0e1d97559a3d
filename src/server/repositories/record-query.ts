/**
 * The SQL of list queries (001 7 Conventions; 001 9 Paging): WHERE clauses from the list query read
 * by the shared codec (src/shared/list-query.ts: search, declared filters, date ranges), from the
 * fixed values of a call (`where`, `exclude`), from a parent (children of a row) and from the
 * caller's own-row limits; ORDER BY from the decoded sort.
 * Every value is a parameter; field names are checked identifiers (db/resource-tables.ts).
 */
import type { OwnedRows } from '../../shared/ability';
import { isListField, isNumericField } from '../../shared/field-types';
import { decodeListQuery, isRefField, type DecodedListQuery } from '../../shared/list-query';
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
  /**
   * Fields the caller may not read (field permissions, `deniedFields` of src/shared/ability.ts): a
   * search does not look into them and a filter on one is ignored, so neither tells their values.
   */
  unreadable?: readonly string[];
  /**
   * How the caller reads the resources its reference fields (`x-ref`) name, or null where it may
   * not: a search on a reference field matches the referenced rows' titles, and a sort on one sorts
   * by them, only among the rows the caller may read (`referenceTitleSql`). Without it, neither.
   */
  references?: (resource: string) => ReferenceAccess | null;
}

/** How a caller reads a referenced resource: its definition, storage city key and conditions (own rows, unreadable fields). */
export interface ReferenceAccess {
  def: ResourceDef;
  city: string;
  match: Match;
}

/** Escapes LIKE wildcards (`\`, `%`, `_`) of user text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function badParam(param: string, key: string, params: Record<string, unknown>): HttpError {
  const fieldErrors: FieldErrors = { [param]: [{ key, params: { field: param, ...params } }] };
  return new HttpError('validation', { fieldErrors });
}

/**
 * A list query of `def` read with the shared codec (src/shared/list-query.ts `decodeListQuery`).
 * Errors: 400 `validation` with the codec's field errors (a period value not declared, a range end
 * that is not a date).
 */
export function readListQuery(def: ResourceDef, query: Readonly<Record<string, unknown>>): DecodedListQuery {
  const decoded = decodeListQuery(def, query);
  if (Object.keys(decoded.errors).length > 0) throw new HttpError('validation', { fieldErrors: decoded.errors });
  return decoded;
}

/** The text of a fixed value, as `data->>'field'` shows it. */
function asText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** `field` of `def` (or, for a list field, one of its items) is one of the texts of array parameter `param`. */
function inTextSql(def: ResourceDef, field: string, param: string): string {
  if (field === def.idField || !isListField(def.schema.properties[field])) return `${textExpr(def, field)} = ANY(${param})`;
  return `EXISTS (SELECT 1 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(data->'${field}') = 'array' THEN data->'${field}' ELSE '[]'::jsonb END) AS o(v) WHERE o.v = ANY(${param}))`;
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
    const isList = field !== def.idField && isListField(def.schema.properties[field]);
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
 * the declared search fields, the declared filters, the date ranges and `match`; `params` receives
 * the values. `filtered` says whether anything narrows the city's rows (then the total is counted
 * instead of read from `resource_counts`).
 *
 * Search: the decoded `search` is a case-insensitive substring of at least one search field the
 * caller may read (`match.unreadable`; a filter on an unreadable field is ignored):
 * `(<expr> ILIKE $n OR …)` over `searchExprs`, the very expressions of the GIN trigram index
 * (db/resource-tables.ts), so PostgreSQL and PGlite answer it with a bitmap scan of that index.
 * A term of fewer than 3 characters (more exactly, one whose words give pg_trgm no trigram: `ab`,
 * `神戸`, `%`) cannot be narrowed by the index. It is matched all the same, by reading the city's
 * rows until LIST_COUNT_CAP + 1 match (`listRecords`): the rarer the term, the more rows are read, up
 * to every row of the city for a term matching at most LIST_COUNT_CAP (about 0.2 s per 100,000 rows
 * on PGlite). Short terms are not refused: two-character words are common Japanese searches.
 * A search field with an `x-ref` matches the rows naming a referenced row whose title contains the
 * term, among the referenced rows the caller reads (`referenceTitleSql`; without `match.references`,
 * or where the caller may not read them, it matches nothing).
 *
 * Rows by id (`ids`) and reference filters (`<field>__in`, a list field: any of its items) narrow
 * by the ids the codec checked (src/shared/list-query.ts).
 *
 * Date ranges (000 4 lists; 001 9 date-range presets): both ends inclusive; a date field compares
 * days, a date-time field UTC instants (stored as UTC ISO strings, so text order is time order), the
 * created time as `timestamptz`.
 *
 * Errors: 400 `validation` for a number filter that is not a number.
 */
export function listWhere(def: ResourceDef, query: DecodedListQuery, match: Match, params: unknown[]): { sql: string; filtered: boolean } {
  const parts = ['city = $1'];
  const hidden = new Set(match.unreadable ?? []);
  if (query.search) {
    params.push(`%${escapeLike(query.search)}%`);
    const p = `$${params.length}`;
    const exprs = searchExprs(def);
    const searched = def.list.search.flatMap((field, i) => {
      if (hidden.has(field)) return [];
      if (!isRefField(def, field)) return [`${exprs[i]} ILIKE ${p}`];
      // A reference field: the ids of the referenced rows (the caller reads) whose title matches.
      const title = referenceTitleSql(def, field, match, params);
      return title ? [inTextSql(def, field, `ARRAY(SELECT id::text ${title.from} AND ${title.title} ILIKE ${p})`)] : [];
    });
    if (searched.length > 0) parts.push(`(${searched.join(' OR ')})`);
    else {
      // Nothing to search (nothing was added after the pattern): no unused parameter, no row.
      params.pop();
      parts.push('FALSE');
    }
  }
  for (const { filter, value } of query.filters) {
    if (filter.kind === 'equals' ? hidden.has(filter.field) : hidden.has(filter.start) || hidden.has(filter.end)) continue;
    parts.push(filterSql(def, filter, value, params));
  }
  for (const { field, end, value } of query.ranges) {
    const expr = fieldExpr(def, field);
    params.push(value);
    parts.push(`${expr} ${end === 'from' ? '>=' : '<='} $${params.length}${expr === 'created_at' ? '::timestamptz' : ''}`);
  }
  if (query.ids) {
    params.push(query.ids);
    parts.push(`id = ANY($${params.length}::bigint[])`);
  }
  for (const { field, ids } of query.refs) {
    params.push(ids);
    parts.push(inTextSql(def, field, `$${params.length}::text[]`));
  }
  parts.push(...matchSql(def, match, params));
  return { sql: parts.join(' AND '), filtered: parts.length > 1 };
}

function filterSql(def: ResourceDef, filter: ListFilter, value: string, params: unknown[]): string {
  if (filter.kind === 'equals') {
    const expr = fieldExpr(def, filter.field);
    const numeric = expr === 'id' || isNumericField(def.schema.properties[filter.field]);
    if (numeric && !/^-?\d+(\.\d+)?$/.test(value.trim())) throw badParam(filter.param, 'validation.generic.type', { type: 'number' });
    if (expr === 'created_at') {
      if (Number.isNaN(Date.parse(value))) throw badParam(filter.param, 'validation.generic.format', { format: 'date-time' });
      params.push(new Date(value).toISOString());
      return `created_at = $${params.length}::timestamptz`;
    }
    params.push(numeric ? value.trim() : value);
    return `${expr} = $${params.length}`;
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

/**
 * The title of the row a reference field of `def` names, as the caller reads it (`match.references`),
 * or null when the field is a list, the referenced resource declares no `titleField`, or the caller
 * may not read that resource or its title field. `from` (`FROM r_<ref> AS r WHERE …`: the row's city
 * and the caller's conditions on it, values pushed onto `params`) selects the referenced rows the
 * caller reads, and `title` is their title; both name the columns unqualified, so they are the
 * referenced rows' inside the subquery (the alias also hides the table's name: a resource referring
 * to itself names the outer row by its table). The id is compared as text, as `<field>__in` does.
 */
export function referenceTitleSql(def: ResourceDef, field: string, match: Match, params: unknown[]): { from: string; title: string } | null {
  const ref = def.schema.properties[field]?.['x-ref'];
  const access = ref ? match.references?.(ref) : null;
  const title = access?.def.titleField;
  if (!access || !title || isListField(def.schema.properties[field]) || access.match.unreadable?.includes(title)) return null;
  params.push(access.city);
  const conditions = [`city = $${params.length}`, ...matchSql(access.def, access.match, params)];
  return { from: `FROM ${tableName(access.def)} AS r WHERE ${conditions.join(' AND ')}`, title: textExpr(access.def, title) };
}

/**
 * The ORDER BY of a decoded sort (the id breaks ties). A sort on a reference field sorts by the
 * referenced rows' titles as the caller reads them (`referenceTitleSql`; a row whose referenced row
 * the caller may not read, or that is gone, sorts as one without a title: last ascending), else by
 * the field's value; `params` receives the values, and `rows` names the listed rows in the statement
 * (their table, or the alias of a subquery of them).
 */
export function orderSql(def: ResourceDef, order: DecodedListQuery['order'], match: Match = {}, params: unknown[] = [], rows = tableName(def)): string {
  return orderBy(sortExpr(def, order.field, match, params, rows), order.desc);
}

/** The ORDER BY of rows sorted by `expr` (a `sortExpr`), the id breaking ties. */
export function orderBy(expr: string, desc: boolean): string {
  const dir = desc ? 'DESC' : 'ASC';
  return expr === 'id' ? `id ${dir}` : `${expr} ${dir}, id ${dir}`;
}

/** The expression a list of `def` is sorted by on `field` (see `orderSql`; `rows`: the listed rows' table or alias). */
export function sortExpr(def: ResourceDef, field: string, match: Match, params: unknown[], rows = tableName(def)): string {
  const ref = isRefField(def, field) ? referenceTitleSql(def, field, match, params) : null;
  if (ref) return `(SELECT ${ref.title} ${ref.from} AND id::text = ${textExpr(def, field).replace('(data', `(${rows}.data`)})`;
  return fieldExpr(def, field);
}
