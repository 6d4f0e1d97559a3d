// The per-IP limits counted in the database (src/server/plugins/rate-limit-store.ts): two processes
// on one PostgreSQL allow the limit once, not twice. The store itself runs on either database; the
// two-app test needs PostgreSQL (DATABASE_URL), where app.ts uses the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { databaseRateLimitStore } from '../../../src/server/plugins/rate-limit-store';
import { createTestApp, testConfig, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
});
afterAll(async () => {
  await t?.close();
});

type Store = InstanceType<ReturnType<typeof databaseRateLimitStore>>;
const incr = (store: Store, key: string, windowMs: number) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) => store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), windowMs, 3));
const read = (store: Store, key: string) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) => store.read(key, (err, res) => (err ? reject(err) : resolve(res!)), 60_000, 3));

describe('the database rate-limit store', () => {
  it('counts the hits of one key once for two processes, per route, in fixed windows', async () => {
    const Store = databaseRateLimitStore(t.db);
    const route = { routeInfo: { method: 'POST', url: '/:city/api/login' } };
    const a = new Store().child(route);
    const b = new Store().child(route);
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push((await incr(a, '10.0.0.1', 60_000)).current, (await incr(b, '10.0.0.1', 60_000)).current);
    expect(hits).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await read(a, '10.0.0.1')).toMatchObject({ current: 6 });
    const { ttl } = await incr(a, '10.0.0.1', 60_000);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Another IP, another route: counted apart.
    expect((await incr(b, '10.0.0.2', 60_000)).current).toBe(1);
    const other = new Store().child({ routeInfo: { method: 'POST', url: '/:city/api/password-reset' } });
    expect((await incr(other, '10.0.0.1', 60_000)).current).toBe(1);
    expect(await read(other, '10.0.0.9')).toEqual({ current: 0, ttl: 0 });
  });

  it('starts a new window once the old one has expired', async () => {
    const store = new (databaseRateLimitStore(t.db))();
    await incr(store, 'k', 60_000);
    await incr(store, 'k', 60_000);
    await t.db.query(`UPDATE rate_limits SET expires_at = now() - interval '1 second' WHERE key = 'k'`);
    expect(await incr(store, 'k', 60_000)).toMatchObject({ current: 1 });
  });
});

describe.skipIf(!process.env.DATABASE_URL)('two processes on one PostgreSQL', () => {
  it('allow LOGIN_RATE_LIMIT sign-ins per IP together, not each', async () => {
    const other = await buildApp({ db: t.db, config: testConfig({ LOGIN_RATE_LIMIT: '3' }) });
    await other.ready();
    try {
      const apps = [t.app, other];
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await apps[i % 2].inject({ method: 'POST', url: '/default/api/login', remoteAddress: '10.9.9.9', payload: { username: 'operator', password: 'wrong-password' } });
        statuses.push(r.statusCode);
      }
      expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
      expect(statuses.slice(3)).toEqual([429, 429, 429]);
    } finally {
      await other.close();
    }
  });
});
