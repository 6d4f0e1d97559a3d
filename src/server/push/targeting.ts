/**
 * Who a push reaches (000 2.2 notification, 3 Notification; 001 7.9 create_and_push_all,
 * create_notification_users, create_notification_by_condition, create_notification_by_map,
 * create_notification_for_user_favorite, passport pushes): the targeting fields of a notification
 * record (schemas/notification.schema.json) turned into one SQL selection of user ids, the same for
 * the count preview and for the delivery. The members of a city are the users with permission
 * `Member` assigned to it (db/migrations.ts 0007 holds what targeting reads of them).
 *
 * Modes (`type`): `all` the city's members; `users` the named users of the city (any role);
 * `condition` members matching the conditions; `map` members whose home point (`location_source`
 * `home`, the default) or last location within `location_days` days (`last`, default 30 days) lies
 * in the circle (`lat`, `lng`, `radius_m`: great-circle distance on a sphere of radius
 * EARTH_RADIUS_M, the boundary included) or the polygon (`polygon`, vertices in order; planar in
 * longitude/latitude, PostgreSQL's `point <@ polygon`); `favorite` members who favourited one of
 * `advertisements`; `passport` members with a purchased passport. The conditions (`age_min`,
 * `age_max`: age = the current Tokyo year − birth year, both bounds included; `gender`;
 * `municipalities`: home municipality codes; `pass_types`: holders of a purchased pass of those
 * types; `genres`: members who favourited a shop of those genres) select in mode `condition` and
 * narrow mode `map`; the other modes ignore them.
 */
import type { ResourceDef } from '../../shared/registry';
import type { FieldErrors } from '../../shared/validation';
import type { Queryable } from '../db/database';
import { storageCity, tableName } from '../db/resource-tables';

/** The sphere of the great-circle distance (m; the IUGG mean Earth radius). */
export const EARTH_RADIUS_M = 6_371_008.8;
/** Days of `last` locations when `location_days` is not given. */
export const DEFAULT_LOCATION_DAYS = 30;

/** A vertex of a map polygon (degrees). */
export interface LatLng {
  lat: number;
  lng: number;
}

/** The targeting fields of a notification record. */
export interface Targeting {
  type?: string;
  users?: number[];
  advertisements?: number[];
  lat?: number;
  lng?: number;
  radius_m?: number;
  polygon?: LatLng[];
  location_source?: 'home' | 'last';
  location_days?: number;
  age_min?: number;
  age_max?: number;
  gender?: string;
  municipalities?: string[];
  pass_types?: number[];
  genres?: number[];
}

/** Where the selection runs: the city's id and name and the resource definitions it reads. */
export interface TargetCity {
  id: number;
  name: string;
  resources: ReadonlyMap<string, ResourceDef>;
}

const CONDITIONS = ['age_min', 'age_max', 'gender', 'municipalities', 'pass_types', 'genres'] as const;

const err = (key: string, params: Record<string, unknown> = {}) => [{ key, params }];

/** Twice the signed area of a polygon in degree units (shoelace). */
function doubleArea(points: readonly LatLng[]): number {
  let a = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const q = points[(i + 1) % points.length];
    a += p.lng * q.lat - q.lng * p.lat;
  }
  return a;
}

/** Whether a condition field is set (a non-empty list or a value). */
function isSet(v: unknown): boolean {
  return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null && v !== '';
}

/**
 * The targeting errors of a record that passed its schema (which holds the limits of 000 5:
 * latitude −85…85, longitude −180…180, 3…100 vertices), or null: what each mode needs, a polygon
 * with a surface (at least 3 distinct vertices, a non-zero area), age bounds in order.
 */
export function targetingErrors(t: Targeting): FieldErrors | null {
  const out: FieldErrors = {};
  switch (t.type) {
    case 'users':
      if (!isSet(t.users)) out.users = err('validation.content.users_required');
      break;
    case 'favorite':
      if (!isSet(t.advertisements)) out.advertisements = err('validation.content.ads_required');
      break;
    case 'condition':
      if (!CONDITIONS.some((c) => isSet(t[c]))) out._ = err('validation.content.condition_required');
      break;
    case 'map': {
      const circle = t.lat !== undefined && t.lng !== undefined && t.radius_m !== undefined;
      if (t.polygon !== undefined) {
        const distinct = new Set(t.polygon.map((p) => `${p.lat},${p.lng}`));
        if (distinct.size < 3 || Math.abs(doubleArea(t.polygon)) < 1e-12) out.polygon = err('validation.content.polygon_degenerate');
      } else if (!circle) out._ = err('validation.content.map_area_required');
      break;
    }
  }
  if (t.age_min !== undefined && t.age_max !== undefined && t.age_max < t.age_min) out.age_max = err('validation.content.age_order');
  return Object.keys(out).length > 0 ? out : null;
}

/** `$n` for `value` pushed on `params`. */
function param(params: unknown[], value: unknown): string {
  params.push(value);
  return `$${params.length}`;
}

/**
 * SQL condition: point column `col` (x = lng, y = lat) within `r` metres of (lat, lng) along the
 * great circle. A bounding box first (the GiST index; the exact longitude reach of a spherical cap,
 * widened by 1e-9°), then the haversine distance, the boundary included. A circle across the
 * ±180° meridian is cut at it.
 */
export function inCircleSql(col: string, lat: number, lng: number, r: number, params: unknown[]): string {
  const delta = r / EARTH_RADIUS_M;
  const dLat = (delta * 180) / Math.PI + 1e-9;
  const s = Math.sin(delta);
  const c = Math.cos((Math.min(85, Math.abs(lat) + dLat) * Math.PI) / 180);
  const dLng = s >= c ? 180 : (Math.asin(s / c) * 180) / Math.PI + 1e-9;
  const box = `box(point(${param(params, lng - dLng)}, ${param(params, lat - dLat)}), point(${param(params, lng + dLng)}, ${param(params, lat + dLat)}))`;
  const la = param(params, lat);
  const lo = param(params, lng);
  const dist = `2 * ${EARTH_RADIUS_M} * asin(least(1, sqrt(power(sin(radians(${col}[1] - ${la}::float8) / 2), 2) + cos(radians(${la}::float8)) * cos(radians(${col}[1])) * power(sin(radians(${col}[0] - ${lo}::float8) / 2), 2))))`;
  return `${col} <@ ${box} AND ${dist} <= ${param(params, r)}::float8`;
}

/** SQL condition: point column `col` inside (or on) the polygon of `vertices`. */
export function inPolygonSql(col: string, vertices: readonly LatLng[], params: unknown[]): string {
  const text = `(${vertices.map((v) => `(${v.lng},${v.lat})`).join(',')})`;
  return `${col} <@ ${param(params, text)}::polygon`;
}

/** The user names of rows of resource `name` in the city (`where` over `d`, the row's data). */
function namesOf(city: TargetCity, name: string, where: string): string {
  const def = city.resources.get(name);
  if (!def) return 'SELECT NULL::text WHERE false';
  return `SELECT d.data->>'user_name' FROM ${tableName(def)} d WHERE d.city = '${storageCity(def, city.name).replace(/'/g, "''")}' AND ${where}`;
}

/** The SQL conditions (over `u`, a users row) of the conditions of `t`. */
function conditionSql(t: Targeting, city: TargetCity, params: unknown[]): string[] {
  const out: string[] = [];
  const year = `extract(year from now() AT TIME ZONE 'Asia/Tokyo')::int`;
  if (t.age_min !== undefined) out.push(`u.birth_year <= ${year} - ${param(params, t.age_min)}::int`);
  if (t.age_max !== undefined) out.push(`u.birth_year >= ${year} - ${param(params, t.age_max)}::int`);
  if (t.gender) out.push(`u.gender = ${param(params, t.gender)}`);
  if (isSet(t.municipalities)) out.push(`u.home_municipality = ANY(${param(params, t.municipalities)}::text[])`);
  if (isSet(t.pass_types)) {
    const types = param(params, t.pass_types);
    out.push(`u.username IN (${namesOf(city, 'passport_transaction', `d.data->>'status' = 'purchased' AND (d.data->>'pass_type')::bigint = ANY(${types}::bigint[])`)})`);
  }
  if (isSet(t.genres)) {
    const ad = city.resources.get('advertisement');
    const genres = param(params, t.genres);
    const inGenre = ad
      ? `(d.data->>'advertisement')::bigint IN (SELECT a.id FROM ${tableName(ad)} a WHERE a.city = '${storageCity(ad, city.name)}' AND (a.data->>'genre')::bigint = ANY(${genres}::bigint[]))`
      : 'false';
    out.push(`u.username IN (${namesOf(city, 'favorite_ad', inGenre)})`);
  }
  return out;
}

/**
 * The SQL selecting the user ids (`id`) a notification with targeting `t` reaches in `city`, its
 * values pushed on `params`. Call `targetingErrors` first: a mode without what it needs selects no one.
 */
export function recipientSql(t: Targeting, city: TargetCity, params: unknown[]): string {
  const cityId = param(params, city.id);
  if (t.type === 'users') return `SELECT u.id FROM users u WHERE u.assign_city @> ARRAY[${cityId}::int] AND u.id = ANY(${param(params, t.users ?? [])}::int[])`;
  const where = [`u.permission = 'Member'`, `u.assign_city @> ARRAY[${cityId}::int]`];
  if (t.type === 'map') {
    const last = t.location_source === 'last';
    const col = last ? 'u.last_point' : 'u.home_point';
    if (last) where.push(`u.last_located_at >= now() - make_interval(days => ${param(params, t.location_days ?? DEFAULT_LOCATION_DAYS)}::int)`);
    if (t.polygon) where.push(inPolygonSql(col, t.polygon, params));
    else if (t.lat !== undefined && t.lng !== undefined && t.radius_m !== undefined) where.push(inCircleSql(col, t.lat, t.lng, t.radius_m, params));
    else where.push('false');
  }
  if (t.type === 'favorite') {
    const ads = param(params, t.advertisements ?? []);
    where.push(`u.username IN (${namesOf(city, 'favorite_ad', `(d.data->>'advertisement')::bigint = ANY(${ads}::bigint[])`)})`);
  }
  if (t.type === 'passport') where.push(`u.username IN (${namesOf(city, 'passport_transaction', `d.data->>'status' = 'purchased'`)})`);
  if (t.type === 'condition' || t.type === 'map') where.push(...conditionSql(t, city, params));
  return `SELECT u.id FROM users u WHERE ${where.join(' AND ')}`;
}

/** How many users a notification with targeting `t` reaches in `city` (the count preview). Errors: database errors. */
export async function countRecipients(q: Queryable, t: Targeting, city: TargetCity): Promise<number> {
  const params: unknown[] = [];
  const [row] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${recipientSql(t, city, params)}) r`, params);
  return Number(row?.n ?? 0);
}
