/**
 * The SQL of the aggregation engine (./aggregate.ts), for its two sources: the resource's table (any
 * list query; `listWhere` of repositories/record-query.ts) and the daily rollups (./rollups.ts). A
 * source answers statements whose rows carry the measures they compute as `m<i>` (i: the index of
 * the measure in the declaration), with `p` (a period, YYYY-MM-DD), `k` (a group key) and `l` (its
 * label); the engine merges them. Days are Tokyo days as numbers since 2000-01-01 (`DayRange`).
 */
import type { OwnedRows } from '../../shared/ability';
import type { ResourceDef } from '../../shared/registry';
import { STATISTIC_TIME_ZONE, type DimensionDef, type MeasureDef, type StatisticDef, type StatisticInterval } from '../../shared/statistics';
import { tableName, textExpr } from '../db/resource-tables';
import { listWhere, readListQuery, type Match } from '../repositories/record-query';
import { DAY_ZERO, levelFor, levelMask, type Rollup } from './rollups';

/** Tokyo days since 2000-01-01, both inclusive. */
export interface DayRange {
  lo: number;
  hi: number;
}

/** One statement and its parameters. */
export interface Part {
  sql: string;
  params: unknown[];
}

/** What a source answers. */
export interface Source {
  totals(range: DayRange | null): Part[];
  series(range: DayRange, interval: StatisticInterval): Part[];
  groups(range: DayRange | null, dim: DimensionDef): Part[];
}

const DAY_MS = 86_400_000;
const ZERO_MS = Date.UTC(2000, 0, 1);

/** `YYYY-MM-DD` → days since 2000-01-01; NaN for anything that is not a calendar day. */
export function dayNumber(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return NaN;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === text ? Math.round((ms - ZERO_MS) / DAY_MS) : NaN;
}

/** Days since 2000-01-01 → `YYYY-MM-DD`. */
export function dayText(n: number): string {
  return new Date(ZERO_MS + n * DAY_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` moved by `days`. */
export function addDays(text: string, days: number): string {
  return dayText(dayNumber(text) + days);
}

const ALL: DayRange = { lo: -100_000, hi: 100_000 };
const num = (f: string) => `CASE WHEN jsonb_typeof(data->'${f}') = 'number' THEN (data->>'${f}')::numeric END`;
const periodsSql = (interval: StatisticInterval, lo: string, hi: string) =>
  `SELECT to_char(g, 'YYYY-MM-DD') AS p, g::date AS p_lo, (g + interval '1 ${interval}')::date - 1 AS p_hi
   FROM generate_series(date_trunc('${interval}', (date '${DAY_ZERO}' + ${lo})::timestamp), (date '${DAY_ZERO}' + ${hi})::timestamp, interval '1 ${interval}') g`;

/**
 * The table as source: `list` is a list query of the resource (search, list filters, date ranges),
 * `match` its fixed values and own rows. Each measure in SQL: count(*), the sum of the number
 * values, count(DISTINCT text).
 */
export function rawSource(stat: StatisticDef, def: ResourceDef, city: string, list: Record<string, unknown>, match: Match): Source {
  const decoded = readListQuery(def, list);
  const t = tableName(def);
  const measure = (m: MeasureDef) => (m.kind === 'count' ? 'count(*)' : m.kind === 'sum' ? `coalesce(sum(${num(m.field ?? '')}), 0)` : `count(DISTINCT ${textExpr(def, m.field ?? '')})`);
  const measures = stat.measures.map((m, i) => `${measure(m)} AS m${i}`).join(', ');
  const where = (range: DayRange | null) => {
    const params: unknown[] = [city];
    const w = listWhere(def, decoded, match, params);
    let sql = w.sql;
    if (range) {
      params.push(range.lo, range.hi);
      const n = params.length;
      sql += ` AND created_at >= ((date '${DAY_ZERO}' + $${n - 1}::int)::timestamp AT TIME ZONE '${STATISTIC_TIME_ZONE}') AND created_at < ((date '${DAY_ZERO}' + $${n}::int + 1)::timestamp AT TIME ZONE '${STATISTIC_TIME_ZONE}')`;
    }
    return { sql, params };
  };
  return {
    totals(range) {
      const w = where(range);
      return [{ sql: `SELECT ${measures} FROM ${t} WHERE ${w.sql}`, params: w.params }];
    },
    series(range, interval) {
      const w = where(range);
      const n = w.params.length;
      const day = `date_trunc('${interval}', created_at AT TIME ZONE '${STATISTIC_TIME_ZONE}')::date`;
      return [
        {
          sql: `SELECT ps.p, ${stat.measures.map((_, i) => `coalesce(a.m${i}, 0) AS m${i}`).join(', ')} FROM (${periodsSql(interval, `$${n - 1}::int`, `$${n}::int`)}) ps
                LEFT JOIN (SELECT ${day} AS d, ${measures} FROM ${t} WHERE ${w.sql} GROUP BY 1) a ON a.d = ps.p_lo ORDER BY ps.p`,
          params: w.params,
        },
      ];
    },
    groups(range, dim) {
      const w = where(range);
      const label = dim.labelField ? `max(${textExpr(def, dim.labelField)})` : 'NULL';
      return [{ sql: `SELECT ${textExpr(def, dim.field)} AS k, ${label} AS l, ${measures} FROM ${t} WHERE ${w.sql} GROUP BY 1`, params: w.params }];
    },
  };
}

/**
 * The rollups as source: `where` holds equality filters on kept fields (text values), `owner` the
 * caller's own-row limits on kept fields. Every measure from the day table: counts and sums added
 * up, distinct values as the number of bits of the union of the day rows' value sets (of one width
 * in a city: ./rollups.ts WIDTH_STEP). Each statement reads the coarsest level of day rows that
 * keeps the fields it filters and groups by (./rollups.ts `levelFor`).
 */
export function rollupSource(stat: StatisticDef, r: Rollup, city: string, where: Record<string, unknown>, owner: readonly OwnedRows[]): Source {
  const conditions = (params: unknown[]) => {
    const parts: string[] = [];
    for (const [f, v] of Object.entries(where)) {
      params.push(typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
      parts.push(`c_${f} = $${params.length}`);
    }
    for (const o of owner) {
      if (o.values.length === 0) parts.push('FALSE');
      else {
        params.push(o.values.map(String));
        parts.push(`c_${o.field} = ANY($${params.length}::text[])`);
      }
    }
    return parts.map((p) => ` AND ${p}`).join('');
  };
  const measure = (m: MeasureDef) => {
    if (m.kind === 'count') return 'coalesce(sum(n), 0)';
    if (m.kind === 'sum') return `coalesce(sum(s_${m.field}), 0)`;
    return `coalesce(bit_count(bit_or(u_${m.field})), 0)`;
  };
  const measures = stat.measures.map((m, i) => `${measure(m)} AS m${i}`).join(', ');
  const filtered = [...Object.keys(where), ...owner.map((o) => o.field)];
  const dayPart = (range: DayRange | null, select: string, groupBy: string, dim?: DimensionDef): Part => {
    const g = range ?? ALL;
    const params: unknown[] = [city, g.lo, g.hi];
    const level = levelMask(r, levelFor(r, [...filtered, ...(dim ? [dim.field, ...(dim.labelField ? [dim.labelField] : [])] : [])]));
    const sql = `SELECT ${select}, ${measures} FROM ${r.days} WHERE city = $1 AND g = ${level} AND day BETWEEN date '${DAY_ZERO}' + $2::int AND date '${DAY_ZERO}' + $3::int${conditions(params)}${groupBy}`;
    return { sql, params };
  };
  return {
    totals(range) {
      return [dayPart(range, '1 AS one', '')];
    },
    series(range, interval) {
      const day = dayPart(range, `date_trunc('${interval}', day::timestamp)::date AS d`, ' GROUP BY 1');
      const n = day.params.length + 1;
      return [
        {
          sql: `SELECT ps.p, ${stat.measures.map((_, i) => `coalesce(a.m${i}, 0) AS m${i}`).join(', ')} FROM (${periodsSql(interval, `$${n}::int`, `$${n + 1}::int`)}) ps
                LEFT JOIN (${day.sql}) a ON a.d = ps.p_lo ORDER BY ps.p`,
          params: [...day.params, range.lo, range.hi],
        },
      ];
    },
    groups(range, dim) {
      const label = dim.labelField ? `max(c_${dim.labelField})` : 'NULL';
      return [dayPart(range, `c_${dim.field} AS k, ${label} AS l`, ' GROUP BY 1', dim)];
    },
  };
}
