/**
 * The chat's live stream (src/server/chat/chat-stream.ts), on PGlite and on PostgreSQL: a message
 * reaches the other side's stream with its event id; a stream resumed after Last-Event-ID (or
 * `last_event_id`) gets what it missed, once, then what comes next; a deletion is an event too;
 * nobody hears a conversation it takes no part in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCalls, type Conversation, type Message } from './chat-helpers';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';
import { eventsOf, readUntil } from './sse';

let t: TestApp;
let base: string;
let operator: Session;
let advertiser: Session;
let conv: Conversation;

beforeAll(async () => {
  t = await createTestApp({ CHAT_RATE_LIMIT: '0' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  operator = await login(t.app, 'operator');
  advertiser = await login(t.app, 'advertiser');
  conv = ((await chatCalls(t.app, advertiser).list()).json() as { content: Conversation[] }).content[0];
});
afterAll(() => t.close());

/** The ids of the events in `text`, in order. */
const idsOf = (text: string) => [...text.matchAll(/^id: (\d+)\nevent: /gm)].map((m) => Number(m[1]));

describe('chat stream', () => {
  it("delivers the advertiser's message to the operator's open stream, and a deletion", async () => {
    const abort = new AbortController();
    const res = await fetch(`${base}/kobe/api/chat/stream`, { headers: bearer(operator), signal: abort.signal });
    expect(res.status).toBe(200);
    const body = res.body!;
    expect(await readUntil(body, /: connected\nid: \d+\n\n/)).toMatch(/id: \d+/);
    const sent = (await chatCalls(t.app, advertiser).send(conv.id, { text: 'ライブで届く' })).json() as Message;
    const text = await readUntil(body, /ライブで届く[\s\S]*\n\n/);
    expect(eventsOf<Message>(text, 'message')).toEqual([expect.objectContaining({ id: sent.id, conversation_id: conv.id, text: 'ライブで届く' })]);
    expect(idsOf(text)).toHaveLength(1);
    await chatCalls(t.app, operator).remove(conv.id, sent.id);
    expect(eventsOf<Message>(await readUntil(body, /event: deleted\n.*\n\n/), 'deleted')).toEqual([expect.objectContaining({ id: sent.id, deleted: true, text: '' })]);
    abort.abort();
  });

  it('resumes after the last event id without loss or duplicate', async () => {
    const ad = chatCalls(t.app, advertiser);
    const abort = new AbortController();
    const first = (await fetch(`${base}/kobe/api/chat/stream`, { headers: bearer(operator), signal: abort.signal })).body!;
    await readUntil(first, /: connected\nid: \d+\n\n/);
    await ad.send(conv.id, { text: 'r1' });
    await ad.send(conv.id, { text: 'r2' });
    const seen = await readUntil(first, /"r2"[\s\S]*\n\n/);
    const lastSeen = idsOf(seen).at(-1)!;
    abort.abort();
    // sent while the operator is away
    for (const text of ['r3', 'r4', 'r5']) await ad.send(conv.id, { text });
    const again = new AbortController();
    const resumed = (await fetch(`${base}/kobe/api/chat/stream`, { headers: { ...bearer(operator), 'last-event-id': String(lastSeen) }, signal: again.signal })).body!;
    await ad.send(conv.id, { text: 'r6' });
    const text = await readUntil(resumed, /"r6"[\s\S]*\n\n/);
    expect(eventsOf<Message>(text, 'message').map((m) => m.text)).toEqual(['r3', 'r4', 'r5', 'r6']);
    const ids = idsOf(text);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id, i) => id > (i === 0 ? lastSeen : ids[i - 1]))).toBe(true);
    again.abort();
    // the query parameter does the same
    const byQuery = new AbortController();
    const q = (await fetch(`${base}/kobe/api/chat/stream?last_event_id=${lastSeen}`, { headers: bearer(operator), signal: byQuery.signal })).body!;
    expect(eventsOf<Message>(await readUntil(q, /"r6"[\s\S]*\n\n/), 'message').map((m) => m.text)).toEqual(['r3', 'r4', 'r5', 'r6']);
    byQuery.abort();
  });

  it("keeps a conversation from those who take no part in it", async () => {
    const abort = new AbortController();
    const teacherStream = (await fetch(`${base}/kobe/api/chat/stream`, { headers: bearer(await login(t.app, 'teacher')), signal: abort.signal })).body!;
    await readUntil(teacherStream, /: connected\nid: \d+\n\n/);
    const teacherConv = ((await chatCalls(t.app, await login(t.app, 'teacher')).list()).json() as { content: Conversation[] }).content[0];
    await chatCalls(t.app, advertiser).send(conv.id, { text: '店舗から市へ' });
    await chatCalls(t.app, await login(t.app, 'teacher')).send(teacherConv.id, { text: 'クラスへ' });
    const text = await readUntil(teacherStream, /クラスへ[\s\S]*\n\n/);
    expect(eventsOf<Message>(text, 'message').map((m) => m.text)).toEqual(['クラスへ']);
    abort.abort();
    expect((await fetch(`${base}/kobe/api/chat/stream`, { headers: bearer(await login(t.app, 'police')) })).status).toBe(403);
  });
});
