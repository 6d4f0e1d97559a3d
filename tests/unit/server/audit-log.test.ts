// The audit log (schemas/audit_log.schema.json, src/server/audit/audit-log.ts): every write and
// security event is an entry, read by Administrators only through the generated list and show
// calls, with search, the category filter and a date range; the audit table of the first releases
// is moved into it once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveFirstAuditTable } from '../../../src/server/audit/audit-log';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let admin: Session;
const LIST = '/kobe/api/audit-log/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, 'administrator');
});
afterAll(async () => {
  await t?.close();
});

async function list(query: string, session = admin) {
  return t.app.inject({ method: 'GET', url: `${LIST}?${query}`, headers: bearer(session) });
}

describe('the audit log', () => {
  it('holds a news row written by the Operator: who, what, which row, which city, newest first', async () => {
    const operator = await login(t.app, 'operator');
    const made = await t.app.inject({ method: 'POST', url: '/kobe/api/city/admin-news/', headers: bearer(operator), payload: { title: '監査ログの確認', description: 'x', attr: 'news' } });
    expect(made.statusCode).toBe(201);
    const res = await list('limit=5&offset=0&category=record');
    expect(res.statusCode).toBe(200);
    const [entry] = res.json().content as Array<Record<string, unknown>>;
    expect(entry).toMatchObject({ category: 'record', action: 'create', resource: 'news', record_id: made.json().id, city: 'kobe', username: 'operator' });
    expect(Date.now() - Date.parse(String(entry.created_at))).toBeLessThan(60_000);
    const shown = await t.app.inject({ method: 'GET', url: `${LIST}${entry.id}/`, headers: bearer(admin) });
    expect(shown.json()).toEqual(entry);
  });

  it('holds the sign-ins with their IP, found by the category filter and by searching the username', async () => {
    await t.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'police', password: 'wrong-password' }, remoteAddress: '203.0.113.9' });
    const res = await list('limit=50&offset=0&category=security&search=police');
    const entries = res.json().content as Array<Record<string, unknown>>;
    expect(entries[0]).toMatchObject({ category: 'security', action: 'sign_in_failed', username: 'police', ip: '203.0.113.9' });
    expect(entries.every((e) => e.category === 'security' && e.username === 'police')).toBe(true);
    expect(res.json().total_length).toBe(entries.length);
  });

  it('narrows to a date range, and refuses a category that is not one', async () => {
    const future = await list('limit=5&offset=0&created_at__from=2999-01-01');
    expect(future.statusCode).toBe(200);
    expect(future.json().content).toEqual([]);
    expect((await list('limit=5&offset=0&category=everything')).statusCode).toBe(400);
  });

  it('is read by Administrators only, and written by nobody through the API', async () => {
    expect((await list('limit=5', await login(t.app, 'operator'))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: LIST })).statusCode).toBe(401);
    const post = await t.app.inject({ method: 'POST', url: LIST, headers: bearer(admin), payload: { category: 'security', action: 'sign_in' } });
    expect([404, 405]).toContain(post.statusCode);
  });

  it('takes over the rows of the first releases’ audit table once, and drops it', async () => {
    await t.db.exec(`CREATE TABLE audit_log (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), user_id integer, city text,
      resource text NOT NULL, action text NOT NULL, record_id bigint, ip text, detail jsonb)`);
    await t.db.query(
      `INSERT INTO audit_log (at, user_id, city, resource, action, record_id, ip, detail) VALUES
        ('2020-01-02T03:04:05Z', (SELECT id FROM users WHERE username = 'operator'), 'kobe', 'news', 'update', 7, NULL, NULL),
        ('2020-01-02T03:04:06Z', NULL, NULL, 'security', 'sign_in_failed', NULL, '192.0.2.1', '{"username": "ghost"}')`,
    );
    const before = (await list('limit=1')).json().total_length as number;
    await moveFirstAuditTable(t.db);
    await moveFirstAuditTable(t.db);
    const res = await list('limit=5&created_at__to=2020-01-03T00:00:00Z');
    expect(res.json().content).toMatchObject([
      { category: 'security', action: 'sign_in_failed', ip: '192.0.2.1', detail: '{"username": "ghost"}', created_at: '2020-01-02T03:04:06.000Z' },
      { category: 'record', action: 'update', resource: 'news', record_id: 7, city: 'kobe', username: 'operator' },
    ]);
    expect((await list('limit=1')).json().total_length).toBe(before + 2);
    expect((await t.db.query<{ found: boolean }>(`SELECT to_regclass('audit_log') IS NOT NULL AS found`))[0].found).toBe(false);
  });
});
