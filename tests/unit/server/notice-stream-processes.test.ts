/**
 * Live operator notices across server processes (000 6 'Operator gets live admin-notice updates';
 * docs/architecture.md 'Storage': several processes share one PostgreSQL): two apps, each with its own pool and
 * LISTEN connection, on the same PostgreSQL schema; a stream opened on one hears a notice created
 * through the other, and a bulk create through the other; the same for a user's chat unread count;
 * a listener connection that is killed comes back, the open streams then send `resync` (the notices)
 * or the current count (the chat), and the stream goes on.
 * PostgreSQL only (DATABASE_URL, as in
 * `npm test`'s second run): PGlite is one process by design.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { registry } from '../../../src/shared/registry';
import { buildApp } from '../../../src/server/app';
import type { Database } from '../../../src/server/db/database';
import { LISTENER_APP_NAME } from '../../../src/server/db/pg-listener';
import { openPostgres } from '../../../src/server/db/postgres';
import { createRecords } from '../../../src/server/repositories/resource-repository';
import { bearer, createTestApp, login, testConfig, type TestApp } from './helpers';
import { eventsOf, readUntil } from './sse';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('notice stream across two server processes on one PostgreSQL', () => {
  let first: TestApp;
  let secondDb: Database;
  let second: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    first = await createTestApp();
    const [{ schema }] = await first.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    secondDb = await openPostgres(url!, { schema });
    second = await buildApp({ db: secondDb, config: testConfig() });
    await second.ready();
    base = await first.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
    await first?.close();
  });

  it('pushes a notice created through the other process, and each row of its bulk create', async () => {
    const operator = await login(first.app, 'operator');
    const admin = await login(second, 'administrator');
    const abort = new AbortController();
    const res = await fetch(`${base}/kobe/api/notify-operator/stream`, { headers: bearer(operator), signal: abort.signal });
    expect(res.status).toBe(200);
    const body = res.body!;
    await readUntil(body, /: connected/);

    const made = await second.inject({ method: 'POST', url: '/kobe/api/notify-operator/', headers: bearer(admin), payload: { title: '別プロセスのお知らせ', description: '本文', operator: 2 } });
    expect(made.statusCode).toBe(201);
    const text = await readUntil(body, /別プロセスのお知らせ[\s\S]*\n\n/);
    expect(eventsOf<{ id: number; title: string; read: boolean }>(text, 'notice')).toEqual([
      expect.objectContaining({ id: (made.json() as { id: number }).id, title: '別プロセスのお知らせ', read: false }),
    ]);

    const ids = await createRecords(secondDb, registry.get('notify_operator')!, 'kobe', [1, 2, 3].map((i) => ({ title: `一括${i}`, description: '本文', operator: 2 })), { userId: null });
    const bulk = await readUntil(body, /"一括3"[\s\S]*\n\n/);
    expect(eventsOf<{ id: number }>(bulk, 'notice').map((e) => e.id)).toEqual(ids);
    abort.abort();
  });

  it("pushes the chat unread count set through the other process to the user's stream", async () => {
    const operator = await login(first.app, 'operator');
    const admin = await login(second, 'administrator');
    const abort = new AbortController();
    const res = await fetch(`${base}/default/api/users/chat-unread/stream`, { headers: bearer(operator), signal: abort.signal });
    expect(res.status).toBe(200);
    const body = res.body!;
    // the current count comes first
    await readUntil(body, /event: chat-unread\ndata: .*\n\n/);
    const set = await second.inject({ method: 'PUT', url: '/default/api/users/chat-unread/', headers: bearer(admin), payload: { username: 'operator', count: 12 } });
    expect(set.statusCode).toBe(200);
    expect(eventsOf(await readUntil(body, /"count":12\}\n\n/), 'chat-unread')).toEqual([{ count: 12 }]);
    abort.abort();
  });

  it('reconnects a lost listener connection; the open streams say what may have been missed and hear the next notice', async () => {
    const operator = await login(first.app, 'operator');
    const admin = await login(second, 'administrator');
    const abort = new AbortController();
    const res = await fetch(`${base}/kobe/api/notify-operator/stream`, { headers: bearer(operator), signal: abort.signal });
    const body = res.body!;
    await readUntil(body, /: connected/);
    const chat = (await fetch(`${base}/default/api/users/chat-unread/stream`, { headers: bearer(operator), signal: abort.signal })).body!;
    await readUntil(chat, /event: chat-unread\ndata: .*\n\n/);
    // The backends of this process's LISTEN connections that have finished a LISTEN.
    const listeners = async () =>
      (await first.db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%' AND state = 'idle'", [LISTENER_APP_NAME])).map((r) => r.pid);
    // One LISTEN connection per process, whatever the number of its streams (each also listens for
    // the session cache's drops, plugins/auth.ts): both are cut.
    const before = await listeners();
    expect(before).toHaveLength(2);
    const killed = await first.db.query<{ ok: boolean }>('SELECT pg_terminate_backend(pid) AS ok FROM unnest($1::int[]) AS pid', [before]);
    expect(killed).toEqual([{ ok: true }, { ok: true }]);
    // set while the listener is down (it reconnects after 1 s): its notification is lost ...
    expect((await second.inject({ method: 'PUT', url: '/default/api/users/chat-unread/', headers: bearer(admin), payload: { username: 'operator', count: 31 } })).statusCode).toBe(200);
    await expect.poll(async () => (await listeners()).filter((pid) => !before.includes(pid)).length, { timeout: 20_000 }).toBe(2);
    // ... and once it is back, the notice stream says `resync` (the console reads its counts again)
    // and the chat stream sends the current count.
    expect(eventsOf(await readUntil(body, /event: resync\n.*\n\n/), 'resync')).toEqual([{}]);
    expect(eventsOf(await readUntil(chat, /"count":31\}\n\n/), 'chat-unread')).toContainEqual({ count: 31 });
    const made = await second.inject({ method: 'POST', url: '/kobe/api/notify-operator/', headers: bearer(admin), payload: { title: '再接続後のお知らせ', description: '本文', operator: 2 } });
    expect(made.statusCode).toBe(201);
    expect(await readUntil(body, /再接続後のお知らせ[\s\S]*\n\n/)).toContain('event: notice');
    abort.abort();
  });
});
