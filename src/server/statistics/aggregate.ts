/**
 * The aggregation engine of the statistics (docs/architecture.md 'Adding a statistic'; 000 3
 * statistic rows; 001 7.8, 7.14 totals): one declaration of src/shared/statistics.ts over the rows of
 * a city, in SQL. Days are Tokyo days (`AT TIME ZONE 'Asia/Tokyo'`); a range is whole days, both
 * ends inclusive. Totals, the previous period of the same length, a zero-filled series of days,
 * weeks (from Monday) or months, and groups by a dimension, main measure descending.
 *
 * Two sources give the same numbers: the daily rollups (./rollups.ts) when the query only filters on
 * fields they keep (the usual case, and the one that must be fast), else the resource's table itself
 * (a search, a list filter the rollups do not keep, own rows through another resource, an editable
 * resource). Every value is a parameter; field names come from declarations checked against the
 * registry (scripts/validate.ts) and from `fieldExpr`/`textExpr`.
 */
import type { ResourceDef } from '../../shared/registry';
import { registry } from '../../shared/registry';
import { STATISTIC_MAX_GROUPS, type DimensionDef, type StatisticAnswer, type StatisticDef, type StatisticInterval, type StatisticValues } from '../../shared/statistics';
import type { Database } from '../db/database';
import { HttpError } from '../http-error';
import type { Match } from '../repositories/record-query';
import { dayNumber, dayText, rawSource, rollupSource, type DayRange, type Source } from './aggregate-sql';
import { rollupOf } from './rollups';

/** What to aggregate. Dates are Tokyo days `YYYY-MM-DD`, both inclusive; both absent: every row (spec calls only). */
export interface StatisticQuery {
  start_date?: string;
  end_date?: string;
  interval?: StatisticInterval;
  /** A dimension key of the declaration; null: no groups. */
  by?: string | null;
  /** Equality filters by field (declared filters; the text of the value, as `data->>'field'` shows it). */
  filters?: Record<string, string>;
  /**
   * A list query of the resource (search, its declared list filters; src/shared/list-query.ts), for
   * the spec's calls that take a list's parameters (001 7.8 search, platform, status, user_name).
   */
  list?: Record<string, unknown>;
  /** The groups' field when it is not a dimension of the declaration (a spec call's rows per user_name). */
  group?: DimensionDef;
  /** Read the resource's table even where the rollups would do (the tests compare both sources). */
  fromTable?: boolean;
}

/** Totals and groups without the series (the spec's calls). */
export interface StatisticTotals {
  totals: StatisticValues;
  groups: StatisticAnswer['groups'];
  /** The number of groups before paging. */
  total_length: number;
}

const checkedRollups = new WeakMap<Database, Promise<Set<string>>>();

async function rollupsOf(db: Database): Promise<Set<string>> {
  let known = checkedRollups.get(db);
  if (!known) {
    known = db
      .query<{ resource: string }>('SELECT resource FROM stat_rollups')
      .then((rows) => new Set(rows.map((r) => r.resource)))
      .catch(() => new Set<string>());
    checkedRollups.set(db, known);
  }
  return known;
}

/** The registry resource a declaration counts. Errors: 404 when the registry has none (a test registry). */
export function resourceOfStatistic(stat: StatisticDef, resources: ReadonlyMap<string, ResourceDef> = registry): ResourceDef {
  const def = resources.get(stat.resource);
  if (!def) throw new HttpError('not_found');
  return def;
}

function dimensionOf(stat: StatisticDef, query: Pick<StatisticQuery, 'by' | 'group'>): DimensionDef | null {
  if (query.group) return query.group;
  const by = query.by;
  if (by === null || by === undefined) return null;
  const dim = stat.dimensions.find((d) => d.key === by);
  if (!dim) throw new HttpError('validation', { fieldErrors: { by: [{ key: 'validation.generic.enum', params: { field: 'by' } }] } });
  return dim;
}

/** Picks the rollup when it keeps every field the query needs, else the table. */
async function sourceOf(db: Database, stat: StatisticDef, def: ResourceDef, city: string, query: StatisticQuery, match: Match): Promise<Source> {
  const where = { ...(stat.fixed ?? {}), ...(query.filters ?? {}), ...(match.where ?? {}) };
  const dim = dimensionOf(stat, query);
  const rollup = rollupOf(def);
  const listParams = Object.entries(query.list ?? {}).filter(([, v]) => v !== undefined && v !== '');
  const usable =
    rollup !== null &&
    !query.fromTable &&
    (await rollupsOf(db)).has(def.name) &&
    listParams.length === 0 &&
    !match.parent &&
    Object.keys(match.exclude ?? {}).length === 0 &&
    Object.keys(where).every((f) => rollup.columns.includes(f)) &&
    (match.owner ?? []).every((o) => !o.through && rollup.columns.includes(o.field)) &&
    (!dim || (rollup.columns.includes(dim.field) && (!dim.labelField || rollup.columns.includes(dim.labelField))));
  if (rollup && usable) return rollupSource(stat, rollup, city, where, match.owner ?? []);
  return rawSource(stat, def, city, query.list ?? {}, { ...match, where });
}

function valuesOf(stat: StatisticDef, row: Record<string, unknown> | undefined): StatisticValues {
  return Object.fromEntries(stat.measures.map((m, i) => [m.key, Number(row?.[`m${i}`] ?? 0)]));
}

/** Orders groups as the answer does: main measure descending, then the key (text order, no key last). */
function byMainMeasure(stat: StatisticDef) {
  const main = stat.measures[0].key;
  return (a: StatisticAnswer['groups'][number], b: StatisticAnswer['groups'][number]) => {
    const d = (b.values[main] ?? 0) - (a.values[main] ?? 0);
    if (d !== 0) return d;
    if (a.key === null || b.key === null) return a.key === null ? (b.key === null ? 0 : 1) : -1;
    const x = String(a.key);
    const y = String(b.key);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

async function groupsOf(db: Database, stat: StatisticDef, def: ResourceDef, source: Source, range: DayRange | null, query: StatisticQuery) {
  const dim = dimensionOf(stat, query);
  if (!dim) return [];
  const numeric = ['integer', 'number'].includes(String([def.schema.properties[dim.field]?.type].flat().find((t) => t !== 'null')));
  const parts = source.groups(range, dim);
  const rows = await Promise.all(parts.map((p) => db.query<Record<string, unknown>>(p.sql, p.params)));
  const byKey = new Map<string | null, { label: string | null; row: Record<string, unknown> }>();
  rows.forEach((list) => {
    for (const r of list) {
      const k = r.k === null || r.k === undefined ? null : String(r.k);
      const entry = byKey.get(k) ?? { label: null, row: {} };
      entry.label = entry.label ?? (r.l === null || r.l === undefined ? null : String(r.l));
      Object.assign(entry.row, Object.fromEntries(Object.entries(r).filter(([c]) => c.startsWith('m'))));
      byKey.set(k, entry);
    }
  });
  return [...byKey.entries()]
    .map(([k, e]) => ({ key: k === null ? null : numeric && /^-?\d+(\.\d+)?$/.test(k) ? Number(k) : k, label: e.label, values: valuesOf(stat, e.row) }))
    .sort(byMainMeasure(stat));
}

async function totalsOf(db: Database, stat: StatisticDef, source: Source, range: DayRange | null): Promise<StatisticValues> {
  const rows = await Promise.all(source.totals(range).map((p) => db.query<Record<string, unknown>>(p.sql, p.params)));
  return valuesOf(stat, Object.assign({}, ...rows.map((r) => r[0] ?? {})) as Record<string, unknown>);
}

/** The day range of a query, or null for every row. Errors: 400 for a date that is not a day. */
export function rangeOf(query: Pick<StatisticQuery, 'start_date' | 'end_date'>): DayRange | null {
  if (!query.start_date && !query.end_date) return null;
  const lo = query.start_date ? dayNumber(query.start_date) : -100_000;
  const hi = query.end_date ? dayNumber(query.end_date) : 100_000;
  const bad = (field: string) => new HttpError('validation', { fieldErrors: { [field]: [{ key: 'validation.generic.format', params: { field } }] } });
  if (Number.isNaN(lo)) throw bad('start_date');
  if (Number.isNaN(hi)) throw bad('end_date');
  return { lo, hi };
}

/**
 * The answer of a statistic (`GET /{city}/api/statistics/{name}/`): totals and the previous period's
 * (the same number of days just before), every period of the range zero-filled, and up to 100
 * groups by `query.by` (default: none). `match` narrows the rows (own rows of the caller, fixed
 * values). Dates are required here; the route has checked them (./routes.ts `readStatisticQuery`).
 * Errors: 400 for an unknown `by` or a date that is not a day; 404 when the registry lacks the resource.
 */
export async function aggregate(db: Database, stat: StatisticDef, city: string, query: StatisticQuery, match: Match, resources?: ReadonlyMap<string, ResourceDef>): Promise<StatisticAnswer> {
  const def = resourceOfStatistic(stat, resources);
  const range = rangeOf(query);
  if (!range || !query.start_date || !query.end_date) throw new HttpError('validation', { fieldErrors: { start_date: [{ key: 'validation.generic.required', params: { field: 'start_date' } }] } });
  const interval = query.interval ?? 'day';
  const days = range.hi - range.lo + 1;
  const previous = { lo: range.lo - days, hi: range.lo - 1 };
  const source = await sourceOf(db, stat, def, city, query, match);
  const seriesParts = source.series(range, interval);
  const [totals, before, seriesRows, groups] = await Promise.all([
    totalsOf(db, stat, source, range),
    totalsOf(db, stat, source, previous),
    Promise.all(seriesParts.map((p) => db.query<Record<string, unknown>>(p.sql, p.params))),
    groupsOf(db, stat, def, source, range, query),
  ]);
  const periods = new Map<string, Record<string, unknown>>();
  for (const rows of seriesRows) for (const r of rows) periods.set(String(r.p), { ...periods.get(String(r.p)), ...r });
  return {
    name: stat.name,
    start_date: dayText(range.lo),
    end_date: dayText(range.hi),
    previous_start_date: dayText(previous.lo),
    previous_end_date: dayText(previous.hi),
    interval,
    by: query.by ?? null,
    totals,
    previous: before,
    series: [...periods.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([period, r]) => ({ period, values: valuesOf(stat, r) })),
    groups: groups.slice(0, STATISTIC_MAX_GROUPS),
  };
}

/**
 * Totals and groups of a statistic without a series (the spec's statistic calls, 001 7.8, 7.14):
 * over `start_date`–`end_date` when given (either may be absent), the list parameters of
 * `query.list` (search, list filters) and `match`; groups by `query.by`, paged by `page`.
 * Errors: as `aggregate`.
 */
export async function aggregateTotals(
  db: Database,
  stat: StatisticDef,
  city: string,
  query: StatisticQuery,
  match: Match,
  page: { limit: number; offset: number },
  resources?: ReadonlyMap<string, ResourceDef>,
): Promise<StatisticTotals> {
  const def = resourceOfStatistic(stat, resources);
  const range = rangeOf(query);
  const source = await sourceOf(db, stat, def, city, query, match);
  const [totals, groups] = await Promise.all([totalsOf(db, stat, source, range), groupsOf(db, stat, def, source, range, query)]);
  return { totals, groups: groups.slice(page.offset, page.offset + page.limit), total_length: groups.length };
}
