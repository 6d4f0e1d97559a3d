/**
 * Daily rollups of the statistics (docs/architecture.md 'Adding a statistic'): a plain GROUP BY over
 * 1,000,000 jsonb rows takes seconds on PGlite, so each append-only resource counted by a statistic
 * (src/shared/statistics.ts) keeps, per city, in the write's own transaction (statement triggers on
 * its table, so every write path counts: API, CSV import, seeds, SQL):
 * - `sd_<resource>`: one row per Tokyo day and combination of the dimension values (`c_<field>`: every
 *   dimension, label, filter, fixed and owner field of its statistics) with the row count `n` and the
 *   sums `s_<field>` of the summed fields: the level `g = 0`;
 * - in the same table, coarser levels of those day rows: per day and combination of fewer fields (the
 *   `levels` of the rollup: none, each filter, each dimension), the
 *   other fields NULL, `g` the bit mask of the fields left out (SQL's `GROUPING()`). They are made
 *   again from the level-0 rows of the days a write touched, and let a query read a day's few rows
 *   of the one level that keeps the fields it filters and groups by (3 months of a city's purchases
 *   by platform: 180 rows, not 3,600; docs/performance.md 'Statistics');
 * - per distinct-counted field (`uf`, e.g. user_name) a column `u_<uf>` of that day row: the set of
 *   values seen, as a bit string over the values' numbers (bit i: the value numbered i);
 * - `sv_<resource>`: the numbers of the values, dense from 0 per city and field.
 *   The distinct users of any range, filter and group are then `bit_count(bit_or(u_<uf>))` over the
 *   day rows selected: a few thousand rows of a few hundred bytes, exact, whatever the number of rows
 *   counted.
 * Inserts add to them; an update or delete (rare: these rows come from the app) rebuilds the rollups
 * of the cities it touched. A resource that may be edited (review, dish_report) has no rollup: its
 * statistics read the table (./aggregate.ts). A new or changed declaration rebuilds its rollups at
 * start (`ensureStatisticRollups`, keyed by a signature in `stat_rollups`).
 */
import { STATISTICS, STATISTIC_TIME_ZONE, type StatisticDef } from '../../shared/statistics';
import type { ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';

/** Day 0 of the bit strings. */
export const DAY_ZERO = '2000-01-01';
const LOCK_ROLLUPS = 7_412_013;
const VERSION = 6;
/**
 * The value sets of a city's day rows all have one width, a multiple of this many bits above the
 * largest value number, so that `bit_or` takes them as they are (padding each row at query time
 * cost more than the rest of the query); a new value past the width widens every row of its city.
 */
const WIDTH_STEP = 1024;

/** The rollup of one resource: its tables and columns. */
export interface Rollup {
  resource: string;
  days: string;
  /** The numbers of the distinct-counted values. */
  values: string;
  /** Fields kept as `c_<field>` columns. */
  columns: string[];
  /** Fields summed as `s_<field>`. */
  sums: string[];
  /** Fields counted distinct (`uf`). */
  distinct: string[];
  /** The coarser levels kept besides every column's: each a sorted list of columns, fewest first. */
  levels: string[][];
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/** Whether rows of `def` are only ever inserted by the console's calls (no update, delete or changing action). */
export function isAppendOnly(def: ResourceDef): boolean {
  const reading = new Set(['count', 'export', 'sum', 'statistic', 'children', 'show']);
  return !def.api.update && !def.api.delete && !def.api.create && def.actions.every((a) => reading.has(a.kind));
}

/** The fields a statistic may filter or group its rows by (dimensions, labels, filters, fixed values). */
export function statisticFields(stat: StatisticDef): string[] {
  return [...stat.dimensions.flatMap((d) => (d.labelField ? [d.field, d.labelField] : [d.field])), ...stat.filters, ...Object.keys(stat.fixed ?? {})];
}

/**
 * The rollup of `def` made from the statistics counting it, or null when none does, its rows may be
 * edited, or a field is not a plain identifier.
 */
export function rollupOf(def: ResourceDef, statistics: readonly StatisticDef[] = Object.values(STATISTICS)): Rollup | null {
  const mine = statistics.filter((s) => s.resource === def.name);
  if (mine.length === 0 || !isAppendOnly(def)) return null;
  const owner = def.owner.filter((o) => !o.through).map((o) => o.field);
  const columns = [...new Set([...mine.flatMap(statisticFields), ...owner])].filter((f) => f !== def.idField && f !== def.createdField).sort();
  const sums = [...new Set(mine.flatMap((s) => s.measures.filter((m) => m.kind === 'sum').map((m) => m.field ?? '')))].sort();
  const distinct = [...new Set(mine.flatMap((s) => s.measures.filter((m) => m.kind === 'distinct').map((m) => m.field ?? '')))].sort();
  if (![def.name, ...columns, ...sums, ...distinct].every((f) => IDENT.test(f))) return null;
  const t = def.name;
  return { resource: t, days: `sd_${t}`, values: `sv_${t}`, columns, sums, distinct, levels: levelsOf(mine, columns) };
}

/**
 * The levels a statistic's queries read: its fixed fields with nothing, with each filter, and with
 * each dimension (and its label); sorted, fewest columns first, the
 * full set of `columns` left out (it is level 0). Empty when the rollup has no column, or more than
 * SQL's `GROUPING()` takes (31).
 */
function levelsOf(statistics: readonly StatisticDef[], columns: readonly string[]): string[][] {
  const found = new Map<string, string[]>();
  for (const stat of statistics) {
    const base = Object.keys(stat.fixed ?? {});
    const parts = [[], ...stat.filters.map((f) => [f]), ...stat.dimensions.map((d) => (d.labelField ? [d.field, d.labelField] : [d.field]))];
    for (const part of parts) {
      const level = [...new Set([...base, ...part])].filter((c) => columns.includes(c)).sort();
      if (level.length < columns.length) found.set(level.join(), level);
    }
  }
  return columns.length === 0 || columns.length > 31 ? [] : [...found.values()].sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
}

/**
 * The `g` of a level of `r`: SQL's `GROUPING(c_<column>…)` over its columns in order, a bit per
 * column (the first the highest) set when the level leaves that column out. 0 is every column.
 */
export function levelMask(r: Rollup, level: readonly string[]): number {
  return r.columns.reduce((mask, c, i) => (level.includes(c) ? mask : mask | (1 << (r.columns.length - 1 - i))), 0);
}

/**
 * The level of `r` that a query filtering or grouping by `fields` reads: the one with the fewest
 * columns that keeps them all; every column's (level 0) when no coarser one does.
 */
export function levelFor(r: Rollup, fields: Iterable<string>): string[] {
  const need = [...new Set(fields)];
  return r.levels.find((level) => need.every((f) => level.includes(f))) ?? r.columns;
}

const num = (f: string) => `CASE WHEN jsonb_typeof(data->'${f}') = 'number' THEN (data->>'${f}')::numeric END`;

/** SQL of the helper functions on bit strings of days (created once per schema). */
const HELPERS = `
CREATE OR REPLACE FUNCTION stat_width(top int) RETURNS int LANGUAGE sql IMMUTABLE AS $f$
  SELECT (top / ${WIDTH_STEP} + 1) * ${WIDTH_STEP}
$f$;
CREATE OR REPLACE FUNCTION stat_set(ns int[], width int) RETURNS varbit LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE b varbit := repeat('0', width)::varbit; n int;
BEGIN
  IF ns IS NULL THEN RETURN NULL; END IF;
  FOREACH n IN ARRAY ns LOOP b := set_bit(b, n, 1); END LOOP;
  RETURN b;
END $f$;
CREATE OR REPLACE FUNCTION stat_pad(b varbit, len int) RETURNS varbit LANGUAGE sql IMMUTABLE AS $f$
  SELECT b || repeat('0', greatest(len - length(b), 0))::varbit
$f$;
CREATE OR REPLACE FUNCTION stat_union(a varbit, b varbit) RETURNS varbit LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE WHEN a IS NULL THEN b WHEN b IS NULL THEN a
    ELSE stat_pad(a, greatest(length(a), length(b))) | stat_pad(b, greatest(length(a), length(b))) END
$f$;
CREATE TABLE IF NOT EXISTS stat_rollups (resource text PRIMARY KEY, signature text NOT NULL);
`;

/** The Tokyo day of `created_at` as days since DAY_ZERO. */
export const DAY_NUMBER = `((created_at AT TIME ZONE '${STATISTIC_TIME_ZONE}')::date - date '${DAY_ZERO}')`;

/**
 * The statements adding the rows of `source` (a SELECT of city, created_at, data) to the rollup:
 * numbers for the values not seen before, then per day and combination the count, the sums and the
 * set of values (merged into the day row already there); then the sets of the other day rows of the
 * cities whose values outgrew the width are widened (WIDTH_STEP).
 */
export function applySql(r: Rollup, source: string, levels = true): string {
  const cols = r.columns.map((c) => `c_${c}`);
  const colExprs = r.columns.map((c) => `data->>'${c}' AS c_${c}`);
  const parts = [`s AS (SELECT city, ${DAY_NUMBER} AS d, data FROM (${source}) src)`];
  const key = ['city', 'd', ...cols];
  const sets: string[] = [];
  const joins: string[] = [];
  const widen: string[] = [];
  r.distinct.forEach((uf, i) => {
    const uv = `data->>'${uf}'`;
    // The largest number so far is read once per city, before the insert: read per new value, its
    // index scan would step over every entry the same statement had inserted (quadratic).
    parts.push(
      `top_v${i} AS MATERIALIZED (SELECT city, max(n) AS top FROM ${r.values} WHERE uf = '${uf}' AND city IN (SELECT DISTINCT city FROM s) GROUP BY city)`,
      `new_v${i} AS (INSERT INTO ${r.values} (city, uf, uv, n)
        SELECT k.city, '${uf}', k.uv, coalesce(t.top, -1) + row_number() OVER (PARTITION BY k.city ORDER BY k.uv)
        FROM (SELECT DISTINCT city, ${uv} AS uv FROM s WHERE ${uv} IS NOT NULL) k LEFT JOIN top_v${i} t ON t.city = k.city
        WHERE NOT EXISTS (SELECT 1 FROM ${r.values} v WHERE v.city = k.city AND v.uf = '${uf}' AND v.uv = k.uv)
        RETURNING city, uv, n)`,
      `all_v${i} AS (SELECT city, uv, n FROM ${r.values} WHERE uf = '${uf}' AND city IN (SELECT DISTINCT city FROM s) UNION ALL SELECT city, uv, n FROM new_v${i})`,
      `w${i} AS (SELECT city, stat_width(max(n)) AS width FROM all_v${i} GROUP BY city)`,
    );
    joins.push(`LEFT JOIN all_v${i} v${i} ON v${i}.city = s.city AND v${i}.uv = s.data->>'${uf}' LEFT JOIN w${i} ON w${i}.city = s.city`);
    sets.push(`stat_set(array_agg(DISTINCT n${i}) FILTER (WHERE n${i} IS NOT NULL), max(width${i})) AS u_${uf}`);
    widen.push(`UPDATE ${r.days} d SET u_${uf} = stat_pad(d.u_${uf}, w.width)
      FROM (SELECT city, stat_width(max(n)) AS width FROM ${r.values} WHERE uf = '${uf}' AND city IN (SELECT DISTINCT city FROM (${source}) src) GROUP BY city) w
      WHERE d.city = w.city AND length(d.u_${uf}) < w.width`);
  });
  const rows = `SELECT s.city, s.d, ${[...colExprs, ...r.sums.map((f) => `${num(f)} AS ${f}`), ...r.distinct.flatMap((_, i) => [`v${i}.n AS n${i}`, `w${i}.width AS width${i}`])].join(', ')} FROM s ${joins.join(' ')}`;
  const main = `INSERT INTO ${r.days} (city, day, ${[...cols, 'n', ...r.sums.map((f) => `s_${f}`), ...r.distinct.map((f) => `u_${f}`)].join(', ')})
      SELECT city, date '${DAY_ZERO}' + d, ${[...cols, 'count(*)', ...r.sums.map((f) => `coalesce(sum(${f}), 0)`), ...sets].join(', ')}
      FROM (${rows}) x GROUP BY ${key.join(', ')}
      ON CONFLICT (city, g, day${cols.map((c) => `, ${c}`).join('')}) DO UPDATE SET n = ${r.days}.n + EXCLUDED.n${r.sums.map((f) => `, s_${f} = ${r.days}.s_${f} + EXCLUDED.s_${f}`).join('')}${r.distinct.map((f) => `, u_${f} = stat_union(${r.days}.u_${f}, EXCLUDED.u_${f})`).join('')}`;
  return [`WITH ${parts.join(',\n')}\n${main}`, ...widen, ...(levels ? levelsSql(r, source) : [])].join(';\n');
}

/**
 * A setting of the session: while it is 'on' (`SET LOCAL`, one transaction), inserts leave the
 * coarser levels as they are, for a bulk load of many statements (the demo data) to make them once
 * at its end (`refreshStatisticLevels`).
 */
export const DEFER_LEVELS = 'stat.defer_levels';

/**
 * Makes again every coarser level of the rollups of `resources` from their full rows: the end of a
 * bulk load that deferred them (DEFER_LEVELS) in the same transaction `tx`.
 */
export async function refreshStatisticLevels(tx: Queryable, resources: Iterable<ResourceDef>): Promise<void> {
  for (const def of resources) {
    const r = rollupOf(def);
    for (const sql of r ? levelsSql(r, null) : []) await tx.exec(sql);
  }
}

/**
 * The statement making again the coarser levels' rows of the (city, day)s of `source` (null: of
 * every day) from their level-0 rows (after those were written and widened: `bit_or` takes sets of
 * one width).
 */
function levelsSql(r: Rollup, source: string | null): string[] {
  if (r.levels.length === 0) return [];
  const cols = r.columns.map((c) => `c_${c}`);
  const sets = r.levels.map((level) => `(${level.map((c) => `c_${c}`).join(', ')})`).join(', ');
  const measures = ['n', ...r.sums.map((f) => `s_${f}`), ...r.distinct.map((f) => `u_${f}`)];
  return [
    `INSERT INTO ${r.days} (city, g, day, ${[...cols, ...measures].join(', ')})
      SELECT city, GROUPING(${cols.join(', ')}), day, ${[...cols, 'sum(n)', ...r.sums.map((f) => `sum(s_${f})`), ...r.distinct.map((f) => `bit_or(u_${f})`)].join(', ')}
      FROM ${r.days} WHERE g = 0${source === null ? '' : ` AND (city, day) IN (SELECT DISTINCT city, (created_at AT TIME ZONE '${STATISTIC_TIME_ZONE}')::date FROM (${source}) src)`}
      GROUP BY city, day, GROUPING SETS (${sets})
      ON CONFLICT (city, g, day${cols.map((c) => `, ${c}`).join('')}) DO UPDATE SET ${measures.map((m) => `${m} = EXCLUDED.${m}`).join(', ')}`,
  ];
}

/** The statements that (re)create the rollup of `def`: tables, unique keys, trigger functions and triggers. */
export function rollupDdl(def: ResourceDef, r: Rollup): string[] {
  const t = tableName(def);
  const cols = r.columns.map((c) => `c_${c}`);
  const colDefs = cols.map((c) => `${c} text`).join(', ');
  // Numbers of new values are the largest so far plus one: concurrent writers of one resource (several
  // PostgreSQL connections) take turns, until their transaction ends.
  const lock = `PERFORM pg_advisory_xact_lock(${LOCK_ROLLUPS}, hashtext('${r.days}'));`;
  const rebuild = (cities: string) => `
    DELETE FROM ${r.days} WHERE city IN (${cities}); DELETE FROM ${r.values} WHERE city IN (${cities});
    ${applySql(r, `SELECT city, created_at, data FROM ${t} WHERE city IN (${cities})`)};`;
  return [
    ...dropDdl(def, r),
    `CREATE TABLE ${r.days} (city text NOT NULL, g int NOT NULL DEFAULT 0, day date NOT NULL, ${colDefs ? `${colDefs}, ` : ''}n bigint NOT NULL${r.sums.map((f) => `, s_${f} numeric NOT NULL`).join('')}${r.distinct.map((f) => `, u_${f} varbit`).join('')})`,
    `CREATE UNIQUE INDEX ${r.days}_key ON ${r.days} (city, g, day${cols.map((c) => `, ${c}`).join('')}) NULLS NOT DISTINCT`,
    `CREATE TABLE ${r.values} (city text NOT NULL, uf text NOT NULL, uv text NOT NULL, n int NOT NULL, PRIMARY KEY (city, uf, uv), UNIQUE (city, uf, n))`,
    `CREATE FUNCTION ${r.days}_ins() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN ${lock} ${applySql(r, 'SELECT city, created_at, data FROM nt', false)};
      IF current_setting('${DEFER_LEVELS}', true) IS DISTINCT FROM 'on' THEN ${levelsSql(r, 'SELECT city, created_at, data FROM nt').join(';') || 'NULL'}; END IF;
      RETURN NULL; END $f$`,
    `CREATE FUNCTION ${r.days}_upd() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN ${lock} ${rebuild('SELECT city FROM ot UNION SELECT city FROM nt')} RETURN NULL; END $f$`,
    `CREATE FUNCTION ${r.days}_del() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN ${lock} ${rebuild('SELECT city FROM ot')} RETURN NULL; END $f$`,
    `CREATE TRIGGER ${r.days}_ins AFTER INSERT ON ${t} REFERENCING NEW TABLE AS nt FOR EACH STATEMENT EXECUTE FUNCTION ${r.days}_ins()`,
    `CREATE TRIGGER ${r.days}_upd AFTER UPDATE ON ${t} REFERENCING OLD TABLE AS ot NEW TABLE AS nt FOR EACH STATEMENT EXECUTE FUNCTION ${r.days}_upd()`,
    `CREATE TRIGGER ${r.days}_del AFTER DELETE ON ${t} REFERENCING OLD TABLE AS ot FOR EACH STATEMENT EXECUTE FUNCTION ${r.days}_del()`,
    applySql(r, `SELECT city, created_at, data FROM ${t}`),
  ];
}

function dropDdl(def: ResourceDef, r: Rollup): string[] {
  const t = tableName(def);
  return [
    ...['ins', 'upd', 'del'].map((k) => `DROP TRIGGER IF EXISTS ${r.days}_${k} ON ${t}`),
    ...['ins', 'upd', 'del'].map((k) => `DROP FUNCTION IF EXISTS ${r.days}_${k}()`),
    ...[r.days, r.values, `su_${r.resource}`, `sa_${r.resource}`, `sn_${r.resource}`].map((x) => `DROP TABLE IF EXISTS ${x}`),
  ];
}

/**
 * Makes the rollups of every resource of `resources` counted by a statistic: creates them when
 * missing or when their declaration changed (then fills them from the rows already stored), under an
 * advisory lock in one transaction. The table of each resource must exist (db/resource-tables.ts).
 */
export async function ensureStatisticRollups(db: Database, resources: Iterable<ResourceDef>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ROLLUPS]);
    await tx.exec(HELPERS);
    const stored = new Map((await tx.query<{ resource: string; signature: string }>('SELECT resource, signature FROM stat_rollups')).map((r) => [r.resource, r.signature]));
    for (const def of resources) {
      const r = rollupOf(def);
      const signature = r ? JSON.stringify({ VERSION, ...r }) : null;
      if ((stored.get(def.name) ?? null) === signature) continue;
      await replaceRollup(tx, def, r, signature);
    }
  });
}

async function replaceRollup(tx: Queryable, def: ResourceDef, r: Rollup | null, signature: string | null): Promise<void> {
  if (!r || !signature) {
    const old: Rollup = { resource: def.name, days: `sd_${def.name}`, values: `sv_${def.name}`, columns: [], sums: [], distinct: [], levels: [] };
    for (const sql of dropDdl(def, old)) await tx.exec(sql);
    await tx.query('DELETE FROM stat_rollups WHERE resource = $1', [def.name]);
    return;
  }
  for (const sql of rollupDdl(def, r)) await tx.exec(sql);
  await tx.query('INSERT INTO stat_rollups (resource, signature) VALUES ($1, $2) ON CONFLICT (resource) DO UPDATE SET signature = EXCLUDED.signature', [def.name, signature]);
}
