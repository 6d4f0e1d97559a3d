/**
 * The figures of the dashboard (000 2.2 `/{city}/dashboard`; 000 6 roles and own rows): which
 * figure each scope shows, where its numbers come from and which page it links to, and how they are
 * computed over the last 30 Tokyo days and the 30 before.
 *
 * A figure is one of:
 * - `statistics`: measures of declared statistics (src/shared/statistics.ts), added up, computed by
 *   the engine (./aggregate.ts `aggregate`), with fixed equality filters;
 * - `rows`: the rows of a resource matching fixed values, counted by `rowCounts` (one query): `flow`
 *   counts the rows made in the period, `stock` how many there are at its end (a backlog such as
 *   unread reports, or a school's classes);
 * - `members`: the users with the Member permission assigned to the city (000 3 Profile), made in the period.
 * A figure is left out when the caller may not read one of its resources (`authorize` rules; own-row
 * limits apply to what it counts).
 */
import type { AppAbility } from '../../shared/ability';
import type { DashboardFigure, DashboardScope } from '../../shared/dashboard';
import { routeEntriesFor, type Manifest, type MenuEntry } from '../../shared/manifest';
import type { ResourceDef } from '../../shared/registry';
import type { Role } from '../../shared/roles';
import { STATISTICS, STATISTIC_TIME_ZONE } from '../../shared/statistics';
import { ownedRowsOf } from '../../shared/ability';
import type { Database } from '../db/database';
import { storageCity, tableName } from '../db/resource-tables';
import { matchSql, type Match } from '../repositories/record-query';
import { aggregate } from './aggregate';
import { addDays } from './aggregate-sql';

/** Where a figure's numbers come from. */
type FigureSource =
  | { statistics: Array<{ name: string; measure: string }>; filters?: Record<string, string> }
  | { rows: string; where?: Record<string, string | boolean>; kind: 'flow' | 'stock' }
  | { members: true };

/** The page a figure links to: the first menu entry of the role showing this statistic, resource or page. */
type FigureLink = { statistic: string } | { resource: string } | { page: string };

interface FigureDecl {
  key: string;
  format: 'yen' | 'number';
  source: FigureSource;
  link: FigureLink;
}

const sold = { status: 'purchased' };
const passes = (measure: string) => [
  { name: 'pass-purchases', measure },
  { name: 'passport-purchases', measure },
];

/** The figures of each scope, in the order the dashboard shows them. */
export const DASHBOARD_FIGURES: Readonly<Record<DashboardScope, readonly FigureDecl[]>> = {
  city: [
    { key: 'new_members', format: 'number', source: { members: true }, link: { page: 'users' } },
    { key: 'pushes_sent', format: 'number', source: { rows: 'notification', where: { push_status: 'sent' }, kind: 'flow' }, link: { resource: 'notification' } },
    { key: 'coupons_used', format: 'number', source: { statistics: [{ name: 'timesale-coupon-usage', measure: 'used_count' }] }, link: { statistic: 'timesale-coupon-usage' } },
    { key: 'passes_sold', format: 'number', source: { statistics: passes('count'), filters: sold }, link: { statistic: 'pass-purchases' } },
    { key: 'pass_revenue', format: 'yen', source: { statistics: passes('total_money'), filters: sold }, link: { statistic: 'pass-purchases' } },
    { key: 'voucher_uses', format: 'number', source: { statistics: [{ name: 'voucher-usage', measure: 'count' }] }, link: { statistic: 'voucher-usage' } },
    { key: 'clicks', format: 'number', source: { statistics: [{ name: 'user-clicks', measure: 'count' }] }, link: { statistic: 'user-clicks' } },
    { key: 'open_reports', format: 'number', source: { rows: 'dish_report', where: { read: false }, kind: 'stock' }, link: { statistic: 'report-ranking' } },
    { key: 'unread_notices', format: 'number', source: { rows: 'notify_operator', where: { read: false }, kind: 'stock' }, link: { resource: 'notify_operator' } },
    { key: 'imports', format: 'number', source: { rows: 'csv_import', kind: 'flow' }, link: { page: 'csv-import-history' } },
  ],
  shops: [
    { key: 'shop_coupons_used', format: 'number', source: { statistics: [{ name: 'timesale-coupon-usage', measure: 'used_count' }] }, link: { statistic: 'timesale-coupon-usage' } },
    { key: 'menu_purchases', format: 'number', source: { statistics: [{ name: 'menu-purchases', measure: 'count' }] }, link: { statistic: 'menu-purchases' } },
    { key: 'menu_revenue', format: 'yen', source: { statistics: [{ name: 'menu-purchases', measure: 'total_price' }] }, link: { statistic: 'menu-purchases' } },
    { key: 'favourites', format: 'number', source: { rows: 'favorite_ad', kind: 'flow' }, link: { resource: 'favorite_ad' } },
    { key: 'reviews', format: 'number', source: { statistics: [{ name: 'review-ranking', measure: 'count' }] }, link: { statistic: 'review-ranking' } },
    { key: 'reservations', format: 'number', source: { rows: 'reservation', kind: 'flow' }, link: { resource: 'reservation' } },
    { key: 'shop_reports', format: 'number', source: { rows: 'dish_report', kind: 'flow' }, link: { statistic: 'report-ranking' } },
  ],
  school: [
    { key: 'classes', format: 'number', source: { rows: 'school_class', kind: 'stock' }, link: { resource: 'school_class' } },
    { key: 'teachers', format: 'number', source: { rows: 'teacher', kind: 'stock' }, link: { resource: 'teacher' } },
    { key: 'registered_parents', format: 'number', source: { rows: 'family', where: { parent_registered: true }, kind: 'stock' }, link: { resource: 'family' } },
    { key: 'school_notifications', format: 'number', source: { rows: 'school_notification', kind: 'flow' }, link: { resource: 'school_notification' } },
  ],
};

/** The scope of a role's dashboard (000 6: an Advertiser's shops, a President's or Teacher's school). */
export function scopeOf(role: Role): DashboardScope {
  if (role === 'Advertiser') return 'shops';
  if (role === 'President' || role === 'Teacher') return 'school';
  return 'city';
}

/** What computing a figure needs about the caller and the period. */
export interface FigureContext {
  db: Database;
  resources: ReadonlyMap<string, ResourceDef>;
  manifests: Readonly<Record<string, Manifest>>;
  ability: AppAbility;
  role: Role;
  city: { id: number; name: string };
  /** The period's first and last Tokyo days (YYYY-MM-DD); the previous period is the 30 days before. */
  start: string;
  end: string;
  days: number;
}

/**
 * Rows per Tokyo day from `from` to `to` (both inclusive; `counts[i]` is day `from + i`) and the rows
 * made before `from` (`before`, only with `stock`), of `def` in `city` matching `match`. One query.
 */
async function rowCounts(db: Database, def: ResourceDef, city: string, match: Match, from: string, to: string, stock: boolean): Promise<{ before: number; counts: number[] }> {
  return countByDay(db, tableName(def), 'city = $1', [storageCity(def, city)], match, def, from, to, stock);
}

async function countByDay(
  db: Database,
  table: string,
  scope: string,
  scopeParams: unknown[],
  match: Match | null,
  def: ResourceDef | null,
  from: string,
  to: string,
  stock: boolean,
): Promise<{ before: number; counts: number[] }> {
  const params: unknown[] = [...scopeParams, from, addDays(to, 1)];
  const lo = `($${scopeParams.length + 1}::date::timestamp AT TIME ZONE '${STATISTIC_TIME_ZONE}')`;
  const hi = `($${scopeParams.length + 2}::date::timestamp AT TIME ZONE '${STATISTIC_TIME_ZONE}')`;
  const conditions = [scope, `created_at < ${hi}`, ...(stock ? [] : [`created_at >= ${lo}`]), ...(match && def ? matchSql(def, match, params) : [])];
  const rows = await db.query<{ i: number; n: number }>(
    `SELECT CASE WHEN created_at < ${lo} THEN -1 ELSE (created_at AT TIME ZONE '${STATISTIC_TIME_ZONE}')::date - $${scopeParams.length + 1}::date END AS i, count(*)::int AS n
     FROM ${table} WHERE ${conditions.join(' AND ')} GROUP BY 1`,
    params,
  );
  const counts = Array.from({ length: Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1 }, () => 0);
  let before = 0;
  for (const r of rows) {
    if (Number(r.i) < 0) before += Number(r.n);
    else if (Number(r.i) < counts.length) counts[Number(r.i)] += Number(r.n);
  }
  return { before, counts };
}

/** A figure from daily counts over both periods (previous first): flow sums, stock running totals. */
function fromCounts(before: number, counts: number[], days: number, stock: boolean): Pick<DashboardFigure, 'value' | 'previous' | 'series'> {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const previousDays = counts.slice(0, days);
  const currentDays = counts.slice(days);
  if (!stock) return { value: sum(currentDays), previous: sum(previousDays), series: currentDays };
  const atPreviousEnd = before + sum(previousDays);
  let running = atPreviousEnd;
  const series = currentDays.map((n) => (running += n));
  return { value: running, previous: atPreviousEnd, series };
}

/** The own-row limits of the caller on `def`, or null when it may not read it (000 6). */
function readable(ctx: FigureContext, def: ResourceDef | undefined): Match | null {
  if (!def || !ctx.ability.can('read', def.name)) return null;
  const owner = ownedRowsOf(ctx.ability, 'read', def.name, def);
  return owner ? { where: def.api.list.where, exclude: def.api.list.exclude, owner } : null;
}

async function computeValues(ctx: FigureContext, source: FigureSource): Promise<Pick<DashboardFigure, 'value' | 'previous' | 'series'> | null> {
  const from = addDays(ctx.start, -ctx.days);
  if ('members' in source) {
    if (!ctx.ability.can('read', 'user')) return null;
    const { before, counts } = await countByDay(ctx.db, 'users', "permission = 'Member' AND $1 = ANY(assign_city)", [ctx.city.id], null, null, from, ctx.end, false);
    return fromCounts(before, counts, ctx.days, false);
  }
  if ('rows' in source) {
    const def = ctx.resources.get(source.rows);
    const match = readable(ctx, def);
    if (!def || !match) return null;
    const stock = source.kind === 'stock';
    const { before, counts } = await rowCounts(ctx.db, def, ctx.city.name, { ...match, where: { ...match.where, ...source.where } }, from, ctx.end, stock);
    return fromCounts(before, counts, ctx.days, stock);
  }
  const parts = source.statistics.map((s) => ({ ...s, stat: STATISTICS[s.name], def: ctx.resources.get(STATISTICS[s.name]?.resource ?? '') }));
  const matches = parts.map((p) => readable(ctx, p.def));
  if (parts.some((p, i) => !p.stat || !p.def || !matches[i])) return null;
  const answers = await Promise.all(
    parts.map((p, i) =>
      aggregate(ctx.db, p.stat, storageCity(p.def!, ctx.city.name), { start_date: ctx.start, end_date: ctx.end, interval: 'day', by: null, filters: source.filters }, matches[i]!, ctx.resources),
    ),
  );
  const out = { value: 0, previous: 0, series: Array.from({ length: ctx.days }, () => 0) };
  answers.forEach((a, i) => {
    const m = parts[i].measure;
    out.value += a.totals[m] ?? 0;
    out.previous += a.previous[m] ?? 0;
    a.series.slice(0, ctx.days).forEach((s, d) => (out.series[d] += s.values[m] ?? 0));
  });
  return out;
}

/**
 * The route of the first entry (hidden ones too) of the role's menu in the city that shows `link`,
 * an entry without `statistic_filters` first.
 */
function routeOf(ctx: FigureContext, link: FigureLink): string | undefined {
  const entries = routeEntriesFor(ctx.role, ctx.city.name, ctx.manifests);
  const matches = (e: MenuEntry) =>
    'statistic' in link ? e.page === 'statistics' && e.statistic === link.statistic : 'resource' in link ? e.resource === link.resource : e.page === link.page;
  const found = entries.filter((e) => matches(e) && e.route);
  // A statistic's entry without fixed filters shows all its rows; one with filters (report-ranking/menu) is next best.
  return (found.find((e) => !e.statistic_filters) ?? found[0])?.route;
}

/**
 * The figures of `scope` the caller may read, computed for the period of `ctx` (000 2.2 dashboard):
 * each with its value, the previous period's, a daily series and its page's route when the role's
 * menu has one. Errors: the database's; 400 from the engine cannot happen (the declarations name
 * known measures and filters, checked by the dashboard's test).
 */
export async function dashboardFigures(ctx: FigureContext, scope: DashboardScope): Promise<DashboardFigure[]> {
  const computed = await Promise.all(DASHBOARD_FIGURES[scope].map(async (f) => ({ f, values: await computeValues(ctx, f.source) })));
  return computed.flatMap(({ f, values }) => {
    if (!values) return [];
    const route = routeOf(ctx, f.link);
    return [{ key: f.key, label: `dashboard.figure.${f.key}`, format: f.format, ...values, ...(route ? { route } : {}) }];
  });
}
