/**
 * The rules a push form relies on (schemas/notification.schema.json; src/shared/visibility.ts;
 * docs/architecture.md 'One schema per entity'): targeting fields that do not apply to the push's
 * type (`x-visible-when`) are neither validated nor stored, ones that apply still are; the server's
 * fields (`push_status`, `read`, the counts) are `readOnly` and ignored on write; the recipient count
 * is answered before a title or body is typed; the OpenAPI payload declares the same rules as
 * `if`/`then`. On PGlite and PostgreSQL (DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;
let auth: Record<string, string>;
let akita: number;

beforeAll(async () => {
  t = await createTestApp();
  auth = bearer(await login(t.app, 'administrator'));
  [{ id: akita }] = await t.db.query<{ id: number }>(`SELECT id FROM cities WHERE name = 'akita'`);
  await t.db.query(
    `INSERT INTO users (username, password_hash, permission, assign_city, home_point)
     SELECT 'form_rule_' || g, '', 'Member', ARRAY[$1::int], point(140.1, 39.7) FROM generate_series(1, 3) g`,
    [akita],
  );
}, 120_000);
afterAll(() => t?.close());

const create = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/akita/api/notification/list-notify/', headers: auth, payload: { title: 'お知らせ', body: '本文', ...body } });
const stored = async (id: number) =>
  (await t.db.query<{ data: Record<string, unknown> }>(`SELECT data FROM r_notification WHERE id = $1`, [id]))[0].data;

describe('push form rules', () => {
  it('a push to everyone ignores the targeting fields of other types, even invalid ones', async () => {
    const res = await create({ type: 'all', users: [999_999], polygon: [], lat: 999, radius_m: -1, advertisements: [999_999], gender: 'x' });
    expect(res.statusCode, res.body).toBe(201);
    const data = await stored(res.json().id);
    for (const f of ['users', 'polygon', 'lat', 'radius_m', 'advertisements', 'gender']) expect(data, f).not.toHaveProperty(f);
    expect(res.json().recipients).toBe(3);
  });

  it('fields that apply are validated as before', async () => {
    const users = await create({ type: 'users', users: [] });
    expect(users.statusCode).toBe(400);
    expect(Object.keys(users.json().fields)).toContain('users');
    const map = await create({ type: 'map', polygon: [] });
    expect(map.statusCode).toBe(400);
    expect(Object.keys(map.json().fields).some((k) => k.startsWith('polygon'))).toBe(true);
    const favorite = await create({ type: 'favorite', advertisements: [999_999] });
    expect(favorite.statusCode).toBe(400);
    expect(Object.keys(favorite.json().fields)).toContain('advertisements');
  });

  it('the server owns push_status, read and the counts: a write of them is ignored', async () => {
    const res = await create({ type: 'all', push_status: 'sent', read: true, recipients: 99, delivered: 99 });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({ read: false, recipients: 3 });
    expect(['queued', 'sending', 'sent']).toContain(made.push_status);
    const before = await stored(made.id);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/akita/api/notification/list-notify/${made.id}/`,
      headers: auth,
      payload: { title: '変更', body: '本文', type: 'all', version: made.version, push_status: 'cancelled', read: true, opened: 50 },
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = await stored(made.id);
    expect(after.title).toBe('変更');
    expect(after.read).toBe(before.read);
    expect(after.opened).toBe(before.opened);
    expect(after.push_status === 'cancelled' && before.push_status !== 'cancelled').toBe(false);
  });

  it('the recipient count is answered before a title or body is typed', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/akita/api/notification/recipient-count/', headers: auth, payload: { type: 'all' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().count).toBe(3);
    const empty = await t.app.inject({ method: 'POST', url: '/akita/api/notification/recipient-count/', headers: auth, payload: { type: 'users', users: [] } });
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().fields)).toEqual(['users']);
  });

  it('the OpenAPI payload holds the same rules as if/then', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const payload = doc.components.schemas.NotificationPayload;
    expect(payload.properties.push_status.readOnly).toBe(true);
    expect(payload.properties.read.readOnly).toBe(true);
    const users = payload.allOf.find((r: { if: { properties: { type: { enum: string[] } } } }) => r.if.properties.type.enum.join() === 'users');
    expect(users).toMatchObject({ if: { required: ['type'] }, then: { properties: { users: { title: 'fields.content.users' } } } });
    expect(payload.properties.users.description).toMatch(/applies when type is users/);
  });
});
