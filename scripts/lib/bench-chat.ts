/**
 * The chat figures of `npm run bench -- chat` (docs/architecture.md 'Chat'): on a fresh PGlite in
 * .bench-data/ (and, when DATABASE_URL is set, on PostgreSQL in a schema of its own, dropped at the
 * end):
 * 1. BENCH_CHAT_CONVERSATIONS (1,000) shops of kobe, each with a conversation of
 *    BENCH_CHAT_MESSAGES (100) messages, written by SQL (one INSERT … SELECT generate_series each);
 * 2. autocannon (loopback, in a child process) for BENCH_SECONDS (10) at 10 connections against the
 *    Operator's conversation list (GET /kobe/api/chat/conversations/) and a page of a conversation
 *    in its middle (GET …/{id}/messages/?before=…): p50/p95/p99 (budget p95 ≤ 50 ms each); then
 *    the list again while the demo Advertiser sends a message every 100 ms (on PGlite each one ends
 *    the answers kept since the last write: src/server/db/read-cache.ts);
 * 3. delivery latency: BENCH_CHAT_DELIVERIES (200) messages sent one after another through a second
 *    server instance (its own pool and LISTEN connection) and timed until they arrive on the
 *    Operator's stream of the first: p50/p95/max (budget p95 ≤ 300 ms on PostgreSQL; on PGlite the
 *    two sides share one instance, printed only).
 * Prints only; asserts nothing.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import type { Database } from '../../src/server/db/database';
import { openDatabase } from '../../src/server/db/open-database';
import { prepareDatabase } from '../../src/server/db/prepare';
import { dropSchema } from './local-postgres';
import { limitRow, ms, type BudgetRow } from './budget';
import { formatRow, measureApart as measure } from './load';

/** Budgets: the list and a page p95 at 10 connections; delivery p95 between two processes on PostgreSQL (ms). */
export const CHAT_READ_P95_MS = 50;
export const CHAT_DELIVERY_P95_MS = 300;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function seedChat(db: Database, conversations: number, messages: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.exec(`
      CREATE TEMP TABLE bench_shops ON COMMIT DROP AS
        WITH made AS (
          INSERT INTO r_advertisement (city, data)
          SELECT 'kobe', jsonb_build_object('name', 'ベンチ店舗 ' || i, 'user_name', 'advertiser', 'photos', jsonb_build_array('https://placehold.jp/64x64.png'))
          FROM generate_series(1, ${conversations}) i RETURNING id)
        SELECT id FROM made;
      INSERT INTO chat_conversations (city, kind, shop_id) SELECT 'kobe', 'shop', id FROM bench_shops;
      INSERT INTO chat_participants (conversation_id, user_id, side)
        SELECT c.id, u.id, 'city' FROM chat_conversations c JOIN users u ON u.username = 'operator' WHERE c.shop_id IN (SELECT id FROM bench_shops);
      INSERT INTO chat_messages (conversation_id, sender_id, sender_name, side, text, created_at)
        SELECT c.id, NULL, 'ベンチ', CASE WHEN n % 2 = 0 THEN 'shop' ELSE 'city' END, 'ベンチのメッセージ ' || n || ' です。https://example.jp/' || n,
               now() - ((${messages} - n) * interval '7 minutes') - (c.id % 97) * interval '1 minute'
        FROM chat_conversations c CROSS JOIN generate_series(1, ${messages}) n
        WHERE c.shop_id IN (SELECT id FROM bench_shops)
        ORDER BY n, c.id;
      UPDATE chat_conversations c SET last_message_id = m.id, last_message_at = m.created_at
        FROM (SELECT DISTINCT ON (conversation_id) conversation_id, id, created_at FROM chat_messages ORDER BY conversation_id, id DESC) m
        WHERE m.conversation_id = c.id;
      UPDATE chat_participants SET unread = (conversation_id % 5) WHERE side = 'city';
    `);
  });
  await db.exec('ANALYZE');
}

/** Time between the messages sent while the list is measured a third time (ms): 10 a second city-wide. */
const SEND_EVERY_MS = 100;

/** Sends a message to conversation `id` through `app` every `everyMs` until the returned stop is called; it resolves to the count sent. */
function sendEvery(app: FastifyInstance, auth: Record<string, string>, id: number, everyMs: number): () => Promise<number> {
  let sent = 0;
  let last: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    last = app.inject({ method: 'POST', url: `/kobe/api/chat/conversations/${id}/messages/`, headers: auth, payload: { text: `bench ${sent}` } }).then((r) => {
      if (r.statusCode !== 201) throw new Error(`send: ${r.statusCode} ${r.body}`);
      sent++;
    });
  }, everyMs);
  return async () => {
    clearInterval(timer);
    await last;
    return sent;
  };
}

async function tokenOf(app: FastifyInstance, username: string): Promise<Record<string, string>> {
  const login = await app.inject({ method: 'POST', url: '/default/api/login', payload: { username, password: 'demo1234' } });
  return { authorization: `Bearer ${(login.json() as { token: string }).token}` };
}

/** Times `count` messages sent through `sender` until each arrives on `address`'s stream; sorted ms. */
async function deliveries(address: string, receiver: Record<string, string>, sender: FastifyInstance, senderAuth: Record<string, string>, conversationId: number, count: number): Promise<number[]> {
  const abort = new AbortController();
  const res = await fetch(`${address}/kobe/api/chat/stream`, { headers: receiver, signal: abort.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const waiting = new Map<string, (at: number) => void>();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (const m of buffer.matchAll(/"text":"(d\d+)"/g)) waiting.get(m[1])?.(performance.now());
      buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
    }
  })();
  await new Promise((r) => setTimeout(r, 200));
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const text = `d${i}`;
    const arrived = new Promise<number>((resolve) => waiting.set(text, resolve));
    const start = performance.now();
    const sent = await sender.inject({ method: 'POST', url: `/kobe/api/chat/conversations/${conversationId}/messages/`, headers: senderAuth, payload: { text } });
    if (sent.statusCode !== 201) throw new Error(`send: ${sent.statusCode} ${sent.body}`);
    times.push((await arrived) - start);
    waiting.delete(text);
  }
  abort.abort();
  return times.sort((a, b) => a - b);
}

async function benchOn(root: string, kind: 'pglite' | 'postgres', conversations: number, messages: number, seconds: number, count: number): Promise<BudgetRow[]> {
  const dataDir = join(root, '.bench-data', `chat-${Date.now()}`);
  const schema = `bench_chat_${process.pid}`;
  const env = kind === 'pglite' ? { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir } : { ...process.env, DATABASE_SCHEMA: schema };
  if (kind === 'pglite') await mkdir(dataDir, { recursive: true });
  const config: Config = loadConfig({ ...env, PORT: '0', LOGIN_RATE_LIMIT: '0', CHAT_RATE_LIMIT: '0', NODE_ENV: 'development' }, root);
  const db = await openDatabase(config, { handleSignals: false });
  const label = kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const out: BudgetRow[] = [];
  let second: { db: Database; app: FastifyInstance } | null = null;
  try {
    let t = performance.now();
    await prepareDatabase(db, { demo: true });
    console.log(`${kind}: prepare (migrations, tables, seed): ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    await seedChat(db, conversations, messages);
    console.log(`${kind}: ${conversations} conversations of ${messages} messages: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const app = await buildApp({ db, config });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const auth = await tokenOf(app, 'operator');
      const [mid] = await db.query<{ id: number; m: number }>(
        `SELECT c.id, (SELECT id FROM chat_messages WHERE conversation_id = c.id ORDER BY id LIMIT 1 OFFSET ${Math.floor(messages / 2)}) AS m
         FROM chat_conversations c WHERE c.kind = 'shop' ORDER BY c.id DESC LIMIT 1 OFFSET ${Math.floor(conversations / 2)}`,
      );
      const list = `${address}/kobe/api/chat/conversations/`;
      const page = `${address}/kobe/api/chat/conversations/${mid.id}/messages/?before=${mid.m}`;
      const probe = await fetch(list, { headers: auth });
      console.log(`${kind}: probe ${probe.status}, total_length ${((await probe.json()) as { total_length?: number }).total_length}`);
      // A list kept until the next write (src/server/db/read-cache.ts, PGlite) is read again after
      // each message: the third figure has a message sent every SEND_EVERY_MS meanwhile.
      const advertiser = await tokenOf(app, 'advertiser');
      const [own] = await db.query<{ id: number }>("SELECT id FROM chat_conversations WHERE kind = 'shop' AND city = 'kobe' ORDER BY id LIMIT 1");
      for (const [name, url, sending] of [
        ['conversation list', list, false],
        ['a page of a conversation', page, false],
        [`conversation list, a message every ${SEND_EVERY_MS} ms`, list, true],
      ] as const) {
        const stop = sending ? sendEvery(app, advertiser, Number(own.id), SEND_EVERY_MS) : async () => 0;
        const r = await measure(name, url, 10, seconds, auth);
        const sent = await stop();
        console.log(`${formatRow(r)}${sending ? `  (${sent} messages sent)` : ''}`);
        const figure = `chat ${name} p95, ${conversations.toLocaleString('en')}×${messages}, c=10, ${label}`;
        out.push(r.requests === 0 || r.non2xx > 0 ? limitRow(figure, null, 'max', CHAT_READ_P95_MS, ms, `${r.non2xx} of ${r.requests} not 2xx`) : limitRow(figure, r.p95, 'max', CHAT_READ_P95_MS, ms));
      }
      // Delivery: sent through another server instance (PostgreSQL: its own pool and LISTEN connection).
      let sender = app;
      if (kind === 'postgres') {
        const db2 = await openDatabase(config, { handleSignals: false });
        second = { db: db2, app: await buildApp({ db: db2, config }) };
        await second.app.ready();
        sender = second.app;
      }
      const times = await deliveries(address, auth, sender, await tokenOf(sender, 'advertiser'), Number((await db.query<{ id: number }>("SELECT id FROM chat_conversations WHERE kind = 'shop' ORDER BY id LIMIT 1"))[0].id), count);
      const p95 = percentile(times, 95);
      console.log(`${kind}: delivery of ${count} messages${kind === 'postgres' ? ' between two server instances' : ' (one instance)'}: p50 ${ms(percentile(times, 50))}, p95 ${ms(p95)}, max ${ms(times[times.length - 1])}`);
      if (kind === 'postgres') out.push(limitRow(`chat delivery p95 between two server instances, ${label}`, p95, 'max', CHAT_DELIVERY_P95_MS, ms));
    } finally {
      await second?.app.close();
      await second?.db.close();
      await app.close();
    }
  } finally {
    await db.close();
    if (kind === 'pglite') await rm(dataDir, { recursive: true, force: true });
    else {
      await dropSchema(process.env.DATABASE_URL!, schema);
    }
  }
  return out;
}

/**
 * Runs the chat part in `root` (the project folder): PGlite, then PostgreSQL when DATABASE_URL is
 * set. Prints details; resolves to the budget rows. Database files are removed.
 */
export async function runChatBench(root: string): Promise<BudgetRow[]> {
  const conversations = Number(process.env.BENCH_CHAT_CONVERSATIONS ?? 1000);
  const messages = Number(process.env.BENCH_CHAT_MESSAGES ?? 100);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const count = Number(process.env.BENCH_CHAT_DELIVERIES ?? 200);
  const out = await benchOn(root, 'pglite', conversations, messages, seconds, count);
  if (process.env.DATABASE_URL) out.push(...(await benchOn(root, 'postgres', conversations, messages, seconds, count)));
  return out;
}
