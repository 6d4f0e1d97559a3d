/**
 * Who a push reaches (src/server/push/targeting.ts; 001 7.9): every targeting mode on a hand-made
 * set of members of akita (no demo member there) gives exactly the expected users, through the
 * count call and the selection the delivery uses: a point 1 m inside and 1 m outside a circle and a
 * polygon, home or last location within the days, ages at their bounds, gender, municipality, pass
 * holders, favourite genres and shops, named users. On PGlite and PostgreSQL (DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../../src/shared/registry';
import { EARTH_RADIUS_M, recipientSql, type Targeting } from '../../../src/server/push/targeting';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;
let auth: Record<string, string>;
let akita: number;
const ids = new Map<string, number>();
let year: number;

const C = { lat: 39.72, lng: 140.1 };
/** Degrees of latitude for `m` metres along a meridian on the sphere of the great-circle distance. */
const north = (m: number) => C.lat + ((m / EARTH_RADIUS_M) * 180) / Math.PI;

async function member(name: string, f: Record<string, unknown> = {}): Promise<void> {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (username, password_hash, permission, assign_city, birth_year, gender, home_municipality, home_point, last_point, last_located_at)
     VALUES ($1, '', $2, $3::int[], $4, $5, $6, CASE WHEN $7::float8 IS NULL THEN NULL ELSE point($8::float8, $7::float8) END,
             CASE WHEN $9::float8 IS NULL THEN NULL ELSE point($10::float8, $9::float8) END, now() - make_interval(days => $11::int)) RETURNING id`,
    [
      name,
      f.permission ?? 'Member',
      f.cities ?? [akita],
      f.birth_year ?? null,
      f.gender ?? null,
      f.municipality ?? null,
      f.home_lat ?? null,
      f.home_lng ?? null,
      f.last_lat ?? null,
      f.last_lng ?? null,
      f.last_days ?? 0,
    ],
  );
  ids.set(name, Number(row.id));
}

async function row(resource: string, data: Record<string, unknown>): Promise<number> {
  const [r] = await t.db.query<{ id: number }>(`INSERT INTO r_${resource} (city, data) VALUES ('akita', $1::jsonb) RETURNING id`, [JSON.stringify(data)]);
  return Number(r.id);
}

/** The names a targeting selects (the delivery's SQL) and the count call's answer. */
async function reach(body: Targeting): Promise<{ names: string[]; count: number }> {
  const params: unknown[] = [];
  const rows = await t.db.query<{ id: number }>(recipientSql(body, { id: akita, name: 'akita', resources: registry }, params), params);
  const byId = new Map([...ids].map(([n, i]) => [i, n]));
  const names = rows.map((r) => byId.get(Number(r.id)) ?? `#${r.id}`).sort();
  const res = await t.app.inject({ method: 'POST', url: '/akita/api/notification/recipient-count/', headers: auth, payload: { title: 't', body: 'b', ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return { names, count: res.json().count };
}

beforeAll(async () => {
  t = await createTestApp();
  auth = bearer(await login(t.app, 'administrator'));
  [{ id: akita }] = await t.db.query<{ id: number }>(`SELECT id FROM cities WHERE name = 'akita'`);
  [{ y: year }] = await t.db.query<{ y: number }>(`SELECT extract(year from now() AT TIME ZONE 'Asia/Tokyo')::int AS y`);
  const [{ id: kobe }] = await t.db.query<{ id: number }>(`SELECT id FROM cities WHERE name = 'kobe'`);
  await member('in_circle', { home_lat: north(999), home_lng: C.lng, birth_year: year - 20, gender: 'female', municipality: '05201' });
  await member('out_circle', { home_lat: north(1001), home_lng: C.lng, birth_year: year - 21, gender: 'male', municipality: '05201' });
  await member('in_poly', { home_lat: 39.65, home_lng: 140.0999, birth_year: year - 30, gender: 'female', municipality: '05202' });
  await member('out_poly', { home_lat: 39.65, home_lng: 140.1001, birth_year: year - 31, gender: 'other' });
  await member('last_recent', { last_lat: north(500), last_lng: C.lng, last_days: 2 });
  await member('last_old', { last_lat: north(500), last_lng: C.lng, last_days: 40 });
  await member('operator_in_circle', { permission: 'Operator', home_lat: C.lat, home_lng: C.lng });
  await member('kobe_member', { cities: [kobe], home_lat: C.lat, home_lng: C.lng, birth_year: year - 20 });
  const genre = await row('genre', { name: '和食', type: 20 });
  const ad1 = await row('advertisement', { name: '店A', genre });
  const ad2 = await row('advertisement', { name: '店B', genre: genre + 1000 });
  await row('favorite_ad', { user_name: 'in_circle', advertisement: ad1 });
  await row('favorite_ad', { user_name: 'in_poly', advertisement: ad2 });
  await row('passport_transaction', { user_name: 'out_circle', status: 'purchased', pass_type: 7 });
  await row('passport_transaction', { user_name: 'in_poly', status: 'refunded', pass_type: 7 });
  await row('passport_transaction', { user_name: 'out_poly', status: 'purchased', pass_type: 8 });
  ids.set('ad1', ad1);
  ids.set('ad2', ad2);
  ids.set('genre', genre);
}, 120_000);
afterAll(() => t?.close());

const MEMBERS = ['in_circle', 'in_poly', 'last_old', 'last_recent', 'out_circle', 'out_poly'];
const SQUARE = [
  { lat: 39.6, lng: 140.0 },
  { lat: 39.7, lng: 140.0 },
  { lat: 39.7, lng: 140.1 },
  { lat: 39.6, lng: 140.1 },
];

describe('targeting', () => {
  it('all: the members of the city, not its staff nor other cities', async () => {
    expect(await reach({ type: 'all' })).toEqual({ names: MEMBERS, count: 6 });
    // the conditions belong to the condition and map modes
    expect(await reach({ type: 'all', gender: 'other', age_min: 99 })).toEqual({ names: MEMBERS, count: 6 });
  });

  it('map circle on the home point: 999 m in, 1001 m out', async () => {
    expect(await reach({ type: 'map', lat: C.lat, lng: C.lng, radius_m: 1000 })).toEqual({ names: ['in_circle'], count: 1 });
  });

  it('map polygon on the home point: 0.0001° inside and outside its edge', async () => {
    expect(await reach({ type: 'map', polygon: SQUARE })).toEqual({ names: ['in_poly'], count: 1 });
  });

  it('map on the last location within the days', async () => {
    expect(await reach({ type: 'map', lat: C.lat, lng: C.lng, radius_m: 1000, location_source: 'last', location_days: 30 })).toEqual({ names: ['last_recent'], count: 1 });
    expect((await reach({ type: 'map', lat: C.lat, lng: C.lng, radius_m: 1000, location_source: 'last', location_days: 41 })).names).toEqual(['last_old', 'last_recent']);
  });

  it('condition: ages at their bounds, gender, municipality, combined', async () => {
    expect((await reach({ type: 'condition', age_min: 21, age_max: 30 })).names).toEqual(['in_poly', 'out_circle']);
    expect((await reach({ type: 'condition', age_min: 20, age_max: 20 })).names).toEqual(['in_circle']);
    expect((await reach({ type: 'condition', gender: 'female' })).names).toEqual(['in_circle', 'in_poly']);
    expect((await reach({ type: 'condition', municipalities: ['05201'] })).names).toEqual(['in_circle', 'out_circle']);
    expect((await reach({ type: 'condition', municipalities: ['05201'], gender: 'male', age_max: 21 })).names).toEqual(['out_circle']);
  });

  it('condition: holders of a purchased pass, favourites of a genre', async () => {
    expect((await reach({ type: 'condition', pass_types: [7] })).names).toEqual(['out_circle']);
    expect((await reach({ type: 'condition', genres: [ids.get('genre')!] })).names).toEqual(['in_circle']);
  });

  it('favourite shops, passport holders, named users', async () => {
    expect((await reach({ type: 'favorite', advertisements: [ids.get('ad1')!, ids.get('ad2')!] })).names).toEqual(['in_circle', 'in_poly']);
    expect((await reach({ type: 'passport' })).names).toEqual(['out_circle', 'out_poly']);
    expect((await reach({ type: 'users', users: [ids.get('operator_in_circle')!, ids.get('last_old')!, ids.get('kobe_member')!] })).names).toEqual([
      'last_old',
      'operator_in_circle',
    ]);
  });

  it('a condition narrows a map push', async () => {
    expect((await reach({ type: 'map', polygon: SQUARE.map((p) => ({ ...p, lng: p.lng + 0.1 })), gender: 'other' })).names).toEqual(['out_poly']);
  });

  it('refuses bad targeting with field errors', async () => {
    const count = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/akita/api/notification/recipient-count/', headers: auth, payload: { title: 't', body: 'b', ...body } });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'map', polygon: [] }, 'polygon'],
      [{ type: 'map', polygon: [SQUARE[0], SQUARE[1], { lat: 39.8, lng: 140.0 }] }, 'polygon'],
      [{ type: 'map', lat: 86, lng: 140, radius_m: 100 }, 'lat'],
      [{ type: 'map', polygon: [...SQUARE.slice(0, 3), { lat: 39.6, lng: 181 }] }, 'polygon'],
      [{ type: 'map' }, '_'],
      [{ type: 'users' }, 'users'],
      [{ type: 'favorite', advertisements: [] }, 'advertisements'],
      [{ type: 'condition' }, '_'],
      [{ type: 'condition', age_min: 30, age_max: 20 }, 'age_max'],
    ];
    for (const [body, field] of cases) {
      const res = await count(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}).some((k) => k === field || k.startsWith(field)), `${JSON.stringify(body)} → ${res.body}`).toBe(true);
    }
  });

  it('the count needs the permission to create a notification', async () => {
    const member = await t.app.inject({ method: 'POST', url: '/akita/api/notification/recipient-count/', payload: { title: 't', body: 'b', type: 'all' } });
    expect(member.statusCode).toBe(401);
  });
});
