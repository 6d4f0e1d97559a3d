/**
 * Every row of a list query, read in batches for the CSV exports (routes/csv-export.ts; 001 7 export
 * calls), so that no more than one batch is held at a time. The rows come in the list's order
 * (`orderSql`: the sort field, then the id) and are read by keyset, not by offset: each batch starts
 * after the last row of the one before (its sort value and id), so a batch costs the same whether it
 * is the first or the hundredth, and the index a list's sort uses (db/resource-tables.ts) serves
 * every batch. No transaction or cursor is held between batches (PGlite has one connection), so rows
 * written while an export runs may or may not be in it; none is answered twice.
 */
import { isNumericField } from '../../shared/field-types';
import type { ResourceDef } from '../../shared/registry';
import type { Queryable } from '../db/database';
import { fieldExpr, tableName } from '../db/resource-tables';
import { listWhere, orderBy, readListQuery, sortExpr, type Match } from './record-query';
import { toRow, type DbRow, type ResourceRow } from './record-shape';

/** Rows read per batch by default. */
export const BATCH_ROWS = 1000;

/** How a read in batches goes. */
export interface BatchOptions {
  /** Rows per batch (default BATCH_ROWS). */
  batchRows?: number;
  /** Stop after this many rows in all (default: every matching row). */
  maxRows?: number;
}

type KeyedRow = DbRow & { sort_key?: string | null };

/**
 * The condition "comes after `last`" in the order `expr` (ascending or `desc`), then id the same
 * way. PostgreSQL puts NULLs last in ascending and first in descending order, and so does this.
 * `values` receives the parameters.
 */
function afterSql(expr: string, cast: string, desc: boolean, last: KeyedRow, values: unknown[]): string {
  values.push(String(last.id));
  const idAfter = `id ${desc ? '<' : '>'} $${values.length}::bigint`;
  if (expr === 'id') return idAfter;
  if (last.sort_key === null || last.sort_key === undefined) return desc ? `(${expr} IS NOT NULL OR ${idAfter})` : `(${expr} IS NULL AND ${idAfter})`;
  values.push(last.sort_key);
  const key = `$${values.length}::${cast}`;
  const beyond = `${expr} ${desc ? '<' : '>'} ${key} OR (${expr} = ${key} AND ${idAfter})`;
  return desc ? `(${beyond})` : `(${expr} IS NULL OR ${beyond})`;
}

/**
 * The rows of a list query of `city` (search, declared filters, date ranges, order: the list's
 * query string, paging ignored) that also match `match`, as an iterator of batches of at most
 * `batchRows` rows, each read when the one before was taken. The query is read at once: a bad one
 * throws here, before any row is read. Errors: 400 `validation` (see `listWhere`); the database's,
 * from the iterator.
 */
export function recordBatches(
  db: Queryable,
  def: ResourceDef,
  city: string,
  query: Record<string, unknown>,
  match: Match,
  options: BatchOptions = {},
): AsyncGenerator<ResourceRow[], void, undefined> {
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const decoded = readListQuery(def, query);
  const params: unknown[] = [city];
  const where = listWhere(def, decoded, match, params);
  const { field, desc } = decoded.order;
  const expr = sortExpr(def, field, match, params);
  const order = orderBy(expr, desc);
  const cast = expr === 'created_at' ? 'timestamptz' : expr === fieldExpr(def, field) && isNumericField(def.schema.properties[field]) ? 'numeric' : 'text';
  const select = `SELECT id, data, version, created_at${expr === 'id' ? '' : `, (${expr})::text AS sort_key`} FROM ${tableName(def)} WHERE ${where.sql}`;
  return (async function* batches() {
    let last: KeyedRow | null = null;
    for (let read = 0; read < maxRows; ) {
      const limit = Math.min(batchRows, maxRows - read);
      const values = [...params];
      const after: string = last ? ` AND ${afterSql(expr, cast, desc, last, values)}` : '';
      values.push(limit);
      const rows: KeyedRow[] = await db.query<KeyedRow>(`${select}${after} ORDER BY ${order} LIMIT $${values.length}`, values);
      if (rows.length === 0) return;
      read += rows.length;
      last = rows[rows.length - 1];
      yield rows.map((r) => toRow(def, r));
      if (rows.length < limit) return;
    }
  })();
}
