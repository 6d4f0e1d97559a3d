// Health checks for a load balancer (src/server/routes/health.ts) and the graceful stop of a
// process (src/server/main.ts `drain`; docs/deployment.md 'Health checks', 'Rolling a new version').
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/server/main';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '2' });
});
afterAll(async () => {
  await t?.close();
});

describe('/healthz and /readyz', () => {
  it('answer 200 without sign-in, and are not rate-limited', async () => {
    for (let i = 0; i < 30; i++) {
      const live = await t.app.inject({ url: '/healthz' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      const ready = await t.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
      expect(ready.headers['cache-control']).toBe('no-store');
    }
  });

  it('/readyz answers 503 with the reason while a migration is pending, and while draining', async () => {
    const [last] = await t.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1');
    await t.db.query('DELETE FROM schema_migrations WHERE name = $1', [last.name]);
    try {
      const r = await t.app.inject({ url: '/readyz' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ status: 'not_ready', reason: 'migrations', pending: [last.name] });
    } finally {
      await t.db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [last.name]);
    }
    t.app.draining = true;
    try {
      const r = await t.app.inject({ url: '/readyz' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ status: 'not_ready', reason: 'draining' });
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      t.app.draining = false;
    }
  });

  it('are in /openapi.json without security', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/readyz'].get.security).toEqual([]);
    expect(Object.keys(doc.paths['/readyz'].get.responses)).toEqual(expect.arrayContaining(['200', '503']));
  });
});

describe('a graceful stop (SIGTERM)', () => {
  it('stops being ready, ends the event streams so clients reconnect elsewhere, and closes', async () => {
    const running = await main({ env: { DATA_DIR: 'memory://', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SHUTDOWN_GRACE_MS: '5000' }, onSignals: false, quiet: true });
    const session = await login(running.app, 'operator');
    const stream = await fetch(`${running.url}/kobe/api/notify-operator/stream`, { headers: bearer(session) });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain(': connected');
    const drained = running.drain();
    expect(running.app.draining).toBe(true);
    // The stream ends (a browser's EventSource then reconnects, through the proxy, to another process).
    let done = false;
    while (!done) done = (await reader.read()).done;
    await drained;
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  });
});
