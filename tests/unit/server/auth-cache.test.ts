// The (token → profile) cache of src/server/plugins/auth.ts under concurrent calls
// (docs/performance.md 'Under load'): the calls that come while a token's profile is being read
// wait for that one reading, and a revocation during a reading is not undone by it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helpers';

const PROFILE_READ = /^\s*SELECT u\.id, u\.username/;

let t: TestApp;
let reads = 0;

beforeAll(async () => {
  t = await createTestApp();
  const query = t.db.query.bind(t.db);
  t.db.query = (async (sql: string, params?: unknown[]) => {
    if (PROFILE_READ.test(sql)) reads++;
    return query(sql, params);
  }) as typeof t.db.query;
}, 60_000);
afterAll(async () => t?.close());

describe('auth cache', () => {
  it('reads a token’s profile once for calls that arrive together', async () => {
    const session = await login(t.app, 'operator');
    reads = 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: '/kobe/api/events/?limit=1', headers: bearer(session) })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(reads).toBe(1);
  });

  it('does not keep a reading begun before a logout', async () => {
    const session = await login(t.app, 'operator');
    const call = () => t.app.inject({ method: 'GET', url: '/kobe/api/events/?limit=1', headers: bearer(session) });
    // The reading starts, the logout revokes the session meanwhile, then the reading ends.
    const during = call();
    const logout = await t.app.inject({ method: 'POST', url: '/default/login/logout', headers: bearer(session), payload: { refresh_token: session.refreshToken } });
    expect(logout.statusCode).toBeLessThan(300);
    await during;
    expect((await call()).statusCode).toBe(401);
  });
});
