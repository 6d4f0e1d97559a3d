// Publication status calls without a city prefix (001 7.5: PUT /advertiser/api/status/{id}/ and
// PUT /advertiser/api/status/bulk/): the advertisement is found in whatever city it is stored and the
// call is authorized in that city through authorize(). Real server, real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '../../../src/shared/registry';
import { tableName } from '../../../src/server/db/resource-tables';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let admin: Session;
let operator: Session;
let advertiser: Session;
let member: Session;

beforeAll(async () => {
  t = await createTestApp();
  [admin, operator, advertiser, member] = await Promise.all(['administrator', 'operator', 'advertiser', 'member'].map((u) => login(t.app, u)));
});
afterAll(async () => {
  await t?.close();
});

const put = (s: Session, url: string, payload: unknown) => t.app.inject({ method: 'PUT', url, headers: bearer(s), payload: payload as Record<string, unknown> });

/** Ids of advertisements stored in `city` (at most `n`). */
async function adsOf(city: string, n: number): Promise<number[]> {
  const rows = await t.db.query<{ id: number }>(`SELECT id FROM ${tableName(getResource('advertisement'))} WHERE city = $1 ORDER BY id LIMIT $2`, [city, n]);
  return rows.map((r) => Number(r.id));
}

async function statusOf(id: number): Promise<unknown> {
  return (await t.db.query<{ s: unknown }>(`SELECT data->>'status' AS s FROM ${tableName(getResource('advertisement'))} WHERE id = $1`, [id]))[0]?.s;
}

describe('PUT /advertiser/api/status/{id}/', () => {
  it('changes the status of an ad stored in kobe, for the Operator of kobe and the Administrator', async () => {
    const [id] = await adsOf('kobe', 1);
    const r = await put(operator, `/advertiser/api/status/${id}/`, { status: 'private' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ id, status: 'private' });
    expect(await statusOf(id)).toBe('private');
    const again = await put(admin, `/advertiser/api/status/${id}/`, { status: 'private' });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('is refused in a city the caller may not enter (403), for an unknown ad (404) and for other fields (400)', async () => {
    const [fukuoka] = await adsOf('fukuoka', 1);
    expect((await put(advertiser, `/advertiser/api/status/${fukuoka}/`, { status: 'private' })).statusCode).toBe(403);
    const [kobe] = await adsOf('kobe', 1);
    expect((await put(member, `/advertiser/api/status/${kobe}/`, { status: 'private' })).statusCode).toBe(403);
    const missing = await put(admin, '/advertiser/api/status/99999999/', { status: 'private' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found' });
    const bad = await put(admin, `/advertiser/api/status/${kobe}/`, { status: 'hidden', name: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['name', 'status']);
  });
});

describe('PUT /advertiser/api/status/bulk/', () => {
  it('changes the status of several kobe ads for the Operator of kobe', async () => {
    const ids = await adsOf('kobe', 3);
    const r = await put(operator, '/advertiser/api/status/bulk/', { ids, status: 'private' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().count).toBe(3);
    for (const id of ids) expect(await statusOf(id)).toBe('private');
  });

  it('refuses ads of a city the caller may not enter, ids of two cities, and unknown ids', async () => {
    const [fukuoka] = await adsOf('fukuoka', 1);
    const [kobe] = await adsOf('kobe', 1);
    expect((await put(advertiser, '/advertiser/api/status/bulk/', { ids: [fukuoka], status: 'private' })).statusCode).toBe(403);
    const mixed = await put(admin, '/advertiser/api/status/bulk/', { ids: [kobe, fukuoka], status: 'private' });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().fields.ids).toEqual(['同じ市区町村のデータを指定してください。']);
    expect((await put(admin, '/advertiser/api/status/bulk/', { ids: [99999999], status: 'private' })).statusCode).toBe(404);
  });
});
