// The データ点検 call (docs/architecture.md 'Changing an entity'; GET /{city}/api/data-check/): on the
// real registry and its demo data, a scene stored under an older schema (no category, a name past 64
// characters) is named with its field, rule, message key and the path of its form; the demo data
// itself passes; only Administrators may ask. PGlite, and PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let admin: Session;
let operator: Session;
let broken: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin, operator] = await Promise.all([login(t.app, 'administrator'), login(t.app, 'operator')]);
  // Written as an older release would have: no category, a longer name (not through the API, which refuses it).
  const [row] = await t.db.query<{ id: number }>(`INSERT INTO r_scene (city, data) VALUES ('kobe', $1::jsonb) RETURNING id`, [JSON.stringify({ name: 'あ'.repeat(70) })]);
  broken = Number(row.id);
  await t.db.query(`UPDATE resource_counts SET n = n + 1 WHERE resource = 'scene' AND city = 'kobe'`);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, session: Session) => t.app.inject({ method: 'GET', url, headers: bearer(session) });

describe('GET /{city}/api/data-check/', () => {
  it('names the failing row of the only resource that has one, with the path of its form', async () => {
    const r = await get('/kobe/api/data-check/', admin);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.resources_checked).toBeGreaterThan(50);
    expect(body.rows_checked).toBeGreaterThan(100);
    // The demo data passes its schemas (dates past their x-future are no failure).
    expect(body.resources.map((x: { resource: string }) => x.resource)).toEqual(['scene']);
    const [scene] = body.resources;
    expect(scene).toMatchObject({ resource: 'scene', label: 'resources.scene', failing: 1, sampled: false });
    expect(scene.failures).toEqual([
      { id: broken, city: 'kobe', field: 'category', rule: 'required', key: 'validation.scene.category', params: expect.objectContaining({ field: 'category', missingProperty: 'category' }), path: `/kobe/scenes/edit/${broken}` },
      { id: broken, city: 'kobe', field: 'name', rule: 'maxLength', key: 'validation.name.maxLength', params: { field: 'name', limit: 64, max: 64, min: 1 }, path: `/kobe/scenes/edit/${broken}` },
    ]);
  });

  it('reads every row of one resource when asked', async () => {
    const r = await get('/kobe/api/data-check/?resource=scene', admin);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ resources_checked: 1, resources: [{ resource: 'scene', failing: 1, sampled: false }] });
    expect((await get('/kobe/api/data-check/?resource=no_such', admin)).statusCode).toBe(400);
  });

  it('is the Administrator\'s only', async () => {
    expect((await get('/kobe/api/data-check/', operator)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/kobe/api/data-check/' })).statusCode).toBe(401);
  });
});
