/**
 * The session cache of src/server/plugins/auth.ts across two server processes on one PostgreSQL
 * (docs/deployment.md 'Per-process caches'): a sign-out through one process ends the session in
 * the other at once, though the other's cache would keep it for AUTH_CACHE_MS (a minute here): the
 * NOTIFY on `auth_cache` drops it. PostgreSQL only (DATABASE_URL): PGlite is one process by design.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import type { Database } from '../../../src/server/db/database';
import { openPostgres } from '../../../src/server/db/postgres';
import { bearer, createTestApp, login, testConfig, type TestApp } from './helpers';

const url = process.env.DATABASE_URL;
const env = { AUTH_CACHE_MS: '60000' };

describe.skipIf(!url)('the session cache across two server processes on one PostgreSQL', () => {
  let first: TestApp;
  let secondDb: Database;
  let second: FastifyInstance;

  beforeAll(async () => {
    first = await createTestApp(env);
    const [{ schema }] = await first.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    secondDb = await openPostgres(url!, { schema });
    second = await buildApp({ db: secondDb, config: testConfig(env) });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
    await first?.close();
  });

  it('a sign-out through one process is refused by the other at once', async () => {
    const session = await login(first.app, 'operator');
    const events = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/kobe/api/events/?limit=1', headers: bearer(session) });
    // The second process has the session's profile in its cache.
    expect((await events(second)).statusCode).toBe(200);
    const out = await first.app.inject({ method: 'POST', url: '/default/login/logout', headers: bearer(session), payload: {} });
    expect(out.statusCode).toBe(200);
    expect((await events(first.app)).statusCode).toBe(401);
    await expect.poll(async () => (await events(second)).statusCode, { timeout: 5000, interval: 20 }).toBe(401);
  });
});
