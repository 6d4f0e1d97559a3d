/**
 * How many rows a narrowed list counts (001 9 Paging: `total_length`): exactly up to LIST_COUNT_CAP,
 * else an estimate from PostgreSQL's planner. `listRecords` (resource-repository.ts) says what
 * `total_length` then means.
 */
import type { Database } from '../db/database';

/**
 * A narrowed list counts its rows exactly up to this many (001 9 Paging: `total_length`); above it,
 * `total_length` is an estimate (see `listRecords`). Nobody pages through more than a thousand rows,
 * and counting a large set exactly would read every matching row on every page.
 */
export const LIST_COUNT_CAP = 1000;

/** How many rows `from` (`FROM … WHERE …`) selects, counted up to LIST_COUNT_CAP + 1. */
export async function cappedCount(db: Database, from: string, params: unknown[]): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${LIST_COUNT_CAP + 1}) AS m`, params);
  return Number(row?.n ?? 0);
}

/**
 * `total_length` of a list of which more than LIST_COUNT_CAP rows match `select` (`SELECT 1 FROM …
 * WHERE …`), whose page at `offset` (of `limit`) has `count` rows: see `listRecords`.
 */
export async function estimatedTotal(db: Database, select: string, params: unknown[], limit: number, offset: number, count: number): Promise<number> {
  if (count > 0 && count < limit) return offset + count;
  const [plan] = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${select}`, params);
  const estimate = roundUp2(Math.max(plannedRows(plan?.['QUERY PLAN']), LIST_COUNT_CAP + 1));
  if (count === 0) return Math.max(LIST_COUNT_CAP + 1, Math.min(estimate, offset));
  return Math.max(estimate, offset + count + 1);
}

/** The top node's `Plan Rows` of an `EXPLAIN (FORMAT JSON)` answer (parsed or text), 0 when missing. */
function plannedRows(plan: unknown): number {
  const doc = typeof plan === 'string' ? (JSON.parse(plan) as unknown) : plan;
  const rows = Array.isArray(doc) ? (doc[0] as { Plan?: { 'Plan Rows'?: unknown } } | undefined)?.Plan?.['Plan Rows'] : undefined;
  return typeof rows === 'number' && Number.isFinite(rows) ? rows : 0;
}

/** `n` (> 0) rounded up to two significant digits: 1,001 → 1,100; 52,347 → 53,000. */
function roundUp2(n: number): number {
  const step = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.ceil(n / step) * step;
}
