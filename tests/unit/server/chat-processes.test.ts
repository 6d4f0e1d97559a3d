/**
 * Chat across two server processes on one PostgreSQL (docs/architecture.md 'Chat'; the pattern of
 * notice-stream-processes.test.ts): a message sent through one process arrives on the other's
 * stream; after the listening connection is killed and back, the open stream catches up on what
 * was sent meanwhile, once. PostgreSQL only (DATABASE_URL): PGlite is one process by design.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app';
import type { Database } from '../../../src/server/db/database';
import { LISTENER_APP_NAME } from '../../../src/server/db/pg-listener';
import { openPostgres } from '../../../src/server/db/postgres';
import { badge, chatCalls, type Conversation, type Message } from './chat-helpers';
import { bearer, createTestApp, login, testConfig, type TestApp } from './helpers';
import { eventsOf, readUntil } from './sse';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('chat across two server processes on one PostgreSQL', () => {
  let first: TestApp;
  let secondDb: Database;
  let second: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    first = await createTestApp({ CHAT_RATE_LIMIT: '0' });
    const [{ schema }] = await first.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    secondDb = await openPostgres(url!, { schema });
    second = await buildApp({ db: secondDb, config: testConfig({ CHAT_RATE_LIMIT: '0' }) });
    await second.ready();
    base = await first.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
    await first?.close();
  });

  it("delivers a message sent through the other process, and the operator's badge", async () => {
    const operator = await login(first.app, 'operator');
    const advertiser = await login(second, 'advertiser');
    const ad = chatCalls(second, advertiser);
    const conv = ((await ad.list()).json() as { content: Conversation[] }).content[0];
    const abort = new AbortController();
    const stream = (await fetch(`${base}/kobe/api/chat/stream`, { headers: bearer(operator), signal: abort.signal })).body!;
    await readUntil(stream, /: connected\nid: \d+\n\n/);
    const unread = (await fetch(`${base}/default/api/users/chat-unread/stream`, { headers: bearer(operator), signal: abort.signal })).body!;
    await readUntil(unread, /event: chat-unread\ndata: .*\n\n/);
    const before = await badge(first.app, operator);
    const sent = (await ad.send(conv.id, { text: '別プロセスから' })).json() as Message;
    expect(eventsOf<Message>(await readUntil(stream, /別プロセスから[\s\S]*\n\n/), 'message')).toEqual([expect.objectContaining({ id: sent.id })]);
    expect(eventsOf(await readUntil(unread, new RegExp(`"count":${before + 1}\\}\\n\\n`)), 'chat-unread')).toContainEqual({ count: before + 1 });
    abort.abort();
  });

  it('catches up after the listening connection was lost, without a duplicate', async () => {
    const operator = await login(first.app, 'operator');
    const ad = chatCalls(second, await login(second, 'advertiser'));
    const conv = ((await ad.list()).json() as { content: Conversation[] }).content[0];
    const abort = new AbortController();
    const stream = (await fetch(`${base}/kobe/api/chat/stream`, { headers: bearer(operator), signal: abort.signal })).body!;
    await readUntil(stream, /: connected\nid: \d+\n\n/);
    await ad.send(conv.id, { text: 'l1' });
    await readUntil(stream, /"l1"[\s\S]*\n\n/);
    const listeners = async () =>
      (await first.db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%' AND state = 'idle'", [LISTENER_APP_NAME])).map((r) => r.pid);
    // One LISTEN connection per process (each also listens for the session cache's drops): both are cut.
    const before = await listeners();
    expect(before).toHaveLength(2);
    await first.db.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);
    // sent while the listener is down: its notification is lost, the catch-up read finds it
    await ad.send(conv.id, { text: 'l2' });
    await expect.poll(async () => (await listeners()).filter((pid) => !before.includes(pid)).length, { timeout: 20_000 }).toBe(2);
    await ad.send(conv.id, { text: 'l3' });
    const text = await readUntil(stream, /"l3"[\s\S]*\n\n/);
    expect(eventsOf<Message>(text, 'message').map((m) => m.text)).toEqual(['l2', 'l3']);
    abort.abort();
  });
});
