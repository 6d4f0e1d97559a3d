/**
 * The chat calls (src/server/chat/; 000 2.2 chat, group/chat; 000 6 Specifics; 001 9 page size 20),
 * on PGlite and on PostgreSQL: only participants read or write (others 404), unread counts and the
 * city side's badge after sends and reads, paging backwards stable while messages arrive, hostile
 * text kept as text, images only as the sender's uploads, an Operator's delete, the rate limit, the
 * class chat and its history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addParticipants } from '../../../src/server/chat/chat-repository';
import { badge, chatCalls, type Conversation, type Message } from './chat-helpers';
import { png } from './test-images';
import { createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let operator: Session;
let advertiser: Session;
let teacher: Session;
let shopConv: Conversation;

beforeAll(async () => {
  t = await createTestApp({ CHAT_RATE_LIMIT: '1000' });
  operator = await login(t.app, 'operator');
  advertiser = await login(t.app, 'advertiser');
  teacher = await login(t.app, 'teacher');
  const list = await chatCalls(t.app, advertiser).list();
  expect(list.statusCode).toBe(200);
  shopConv = (list.json() as { content: Conversation[] }).content[0];
});
afterAll(() => t.close());

describe('chat between the city and a shop', () => {
  it("lists the advertiser's own shops' conversations with the shop's name", async () => {
    const body = (await chatCalls(t.app, advertiser).list()).json() as { content: Conversation[]; total_length: number };
    expect(body.total_length).toBeGreaterThanOrEqual(2);
    expect(body.content.every((c) => c.kind === 'shop' && c.access === 'write' && typeof c.shop_name === 'string')).toBe(true);
  });

  it('lets only participants read or write: another shop, a teacher 404; a role without chat 403', async () => {
    const [other] = await t.db.query<{ id: number }>(
      `INSERT INTO chat_conversations (city, kind, shop_id) SELECT 'kobe', 'shop', id FROM r_advertisement WHERE city = 'kobe' AND id <> ALL($1::bigint[]) ORDER BY id LIMIT 1 RETURNING id`,
      [(await t.db.query<{ a: number[] }>("SELECT advertisements AS a FROM users WHERE username = 'advertiser'"))[0].a],
    );
    await addParticipants(t.db, Number(other.id));
    const id = Number(other.id);
    const ad = chatCalls(t.app, advertiser);
    expect((await ad.show(id)).statusCode).toBe(404);
    expect((await ad.page(id)).statusCode).toBe(404);
    expect((await ad.send(id, { text: 'こんにちは' })).statusCode).toBe(404);
    expect((await chatCalls(t.app, teacher).page(id)).statusCode).toBe(404);
    const police = await login(t.app, 'police');
    const refused = await chatCalls(t.app, police).page(id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden', detail: 'チャット利用権限がありません。' });
    // the operator of the city takes part in every shop conversation
    expect((await chatCalls(t.app, operator).page(id)).statusCode).toBe(200);
    // an operator of another city does not reach kobe at all
    expect((await chatCalls(t.app, await login(t.app, 'operator-akita')).page(id)).statusCode).toBe(403);
  });

  it("counts unread per participant and as the operator's badge; reading takes it off", async () => {
    const ad = chatCalls(t.app, advertiser);
    const op = chatCalls(t.app, operator);
    await op.read(shopConv.id);
    const before = await badge(t.app, operator);
    for (const text of ['一通目', '二通目', '三通目']) expect((await ad.send(shopConv.id, { text })).statusCode).toBe(201);
    expect(await badge(t.app, operator)).toBe(before + 3);
    const listed = ((await op.list()).json() as { content: Conversation[] }).content.find((c) => c.id === shopConv.id)!;
    expect(listed).toMatchObject({ unread: 3, last_message: expect.objectContaining({ text: '三通目', side: 'shop' }) });
    // the sender has nothing unread
    expect(((await ad.show(shopConv.id)).json() as Conversation).unread).toBe(0);
    const read = await op.read(shopConv.id);
    expect(read.json()).toEqual({ unread: 0, chat_admin_unread: before });
    expect(await badge(t.app, operator)).toBe(before);
    // the operator's reply: one unread for the shop, the operator's badge unchanged
    expect((await op.send(shopConv.id, { text: '返信です' })).statusCode).toBe(201);
    expect(((await ad.show(shopConv.id)).json() as Conversation).unread).toBe(1);
    expect(await badge(t.app, operator)).toBe(before);
    await ad.read(shopConv.id);
    expect(((await ad.show(shopConv.id)).json() as Conversation).unread).toBe(0);
  });

  it('pages backwards with a cursor, 20 a page, stable while new messages arrive', async () => {
    const ad = chatCalls(t.app, advertiser);
    const [conv] = (await t.db.query<{ id: number }>("SELECT id FROM chat_conversations WHERE kind = 'shop' AND city = 'kobe' AND id <> $1 AND shop_id = ANY((SELECT advertisements FROM users WHERE username = 'advertiser')::bigint[])", [shopConv.id]));
    const id = Number(conv.id);
    for (let i = 1; i <= 45; i++) expect((await ad.send(id, { text: `m${i}` })).statusCode).toBe(201);
    const first = (await ad.page(id)).json() as { content: Message[]; next_before: number };
    expect(first.content.map((m) => m.text)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 26}`));
    // new messages arrive between pages: the older pages do not move
    for (let i = 46; i <= 50; i++) await ad.send(id, { text: `m${i}` });
    const second = (await ad.page(id, first.next_before)).json() as { content: Message[]; next_before: number };
    expect(second.content.map((m) => m.text)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 6}`));
    const third = (await ad.page(id, second.next_before)).json() as { content: Message[]; next_before: number | null };
    expect(third.content.map((m) => m.text)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(third.next_before).toBeNull();
    expect(((await ad.page(id)).json() as { content: Message[] }).content.at(-1)!.text).toBe('m50');
  });

  it('keeps hostile text as text and refuses empty, too long and foreign images', async () => {
    const ad = chatCalls(t.app, advertiser);
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script> [a](javascript:alert(3)) &amp; \u202e';
    const sent = await ad.send(shopConv.id, { text: hostile });
    expect(sent.statusCode).toBe(201);
    expect(sent.headers['content-type']).toMatch(/^application\/json/);
    const page = (await chatCalls(t.app, operator).page(shopConv.id)).json() as { content: Message[] };
    expect(page.content.at(-1)!.text).toBe(hostile);
    expect((await ad.send(shopConv.id, { text: '   ' })).statusCode).toBe(400);
    expect((await ad.send(shopConv.id, { text: 'あ'.repeat(2001) })).statusCode).toBe(400);
    expect((await ad.send(shopConv.id, { text: 'あ'.repeat(2000) })).statusCode).toBe(201);
    // an image uploaded by someone else is not the sender's
    const up = await chatCalls(t.app, operator).upload(png(4, 3));
    expect(up.statusCode).toBe(201);
    const foreign = await ad.send(shopConv.id, { image: (up.json() as { name: string }).name });
    expect(foreign.statusCode).toBe(400);
    expect((foreign.json() as { fields: Record<string, string[]> }).fields.image).toHaveLength(1);
  });

  it("sends an image through the upload checks; an Operator deletes a message, shown as deleted", async () => {
    const op = chatCalls(t.app, operator);
    const up = await op.upload(png(8, 6));
    const withImage = await op.send(shopConv.id, { text: '写真です', image: (up.json() as { name: string }).name });
    expect(withImage.statusCode).toBe(201);
    const message = withImage.json() as Message;
    expect(message.image_url).toMatch(/^\/files\/[0-9a-f]{32}\.png$/);
    expect((await chatCalls(t.app, advertiser).remove(shopConv.id, message.id)).statusCode).toBe(403);
    const removed = await op.remove(shopConv.id, message.id);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ id: message.id, deleted: true, text: '', image_url: null });
    const page = (await chatCalls(t.app, advertiser).page(shopConv.id)).json() as { content: Message[] };
    expect(page.content.find((m) => m.id === message.id)).toMatchObject({ deleted: true, text: '' });
  });

  it('shows the administrator the list but no conversation', async () => {
    const admin = chatCalls(t.app, await login(t.app, 'administrator'));
    const list = (await admin.list()).json() as { content: Conversation[] };
    expect(list.content.some((c) => c.id === shopConv.id && c.access === 'list')).toBe(true);
    expect((await admin.page(shopConv.id)).statusCode).toBe(404);
    expect((await admin.send(shopConv.id, { text: 'x' })).statusCode).toBe(403);
  });
});

describe('class group chat', () => {
  it("is the teacher's; the school's president and the operator read its history; nobody else", async () => {
    const te = chatCalls(t.app, teacher);
    const list = (await te.list()).json() as { content: Conversation[] };
    expect(list.content.length).toBeGreaterThanOrEqual(1);
    const conv = list.content[0];
    expect(conv).toMatchObject({ kind: 'class', access: 'write' });
    expect((await te.send(conv.id, { text: '明日は遠足です。' })).statusCode).toBe(201);
    const president = chatCalls(t.app, await login(t.app, 'president'));
    const history = (await president.list(`?kind=class&class_id=${conv.class_id}&teacher_id=${conv.teacher_id}`)).json() as { content: Conversation[] };
    expect(history.content.map((c) => c.id)).toEqual([conv.id]);
    expect(((await president.page(conv.id)).json() as { content: Message[] }).content.at(-1)!.text).toBe('明日は遠足です。');
    expect((await president.send(conv.id, { text: 'x' })).statusCode).toBe(403);
    const op = chatCalls(t.app, operator);
    expect((await op.page(conv.id)).statusCode).toBe(200);
    expect((await op.send(conv.id, { text: 'x' })).statusCode).toBe(403);
    expect((await chatCalls(t.app, advertiser).page(conv.id)).statusCode).toBe(404);
  });
});

describe('send rate limit', () => {
  it('refuses the message over the limit with 429, Retry-After and a clear message', async () => {
    // A second owner of the shop, who has sent nothing yet; this app's limit (CHAT_RATE_LIMIT) lowered to 3 meanwhile.
    await t.db.query(
      `INSERT INTO users (username, password_hash, email, name, permission, assign_city, advertisements)
       SELECT 'advertiser-rate', password_hash, 'advertiser-rate@example.jp', '商店 七郎', permission, assign_city, advertisements FROM users WHERE username = 'advertiser'`,
    );
    const config = t.app.config as { chatRateLimit: number };
    const saved = config.chatRateLimit;
    config.chatRateLimit = 3;
    try {
      const ad = chatCalls(t.app, await login(t.app, 'advertiser-rate'));
      for (let i = 0; i < 3; i++) expect((await ad.send(shopConv.id, { text: `${i}` })).statusCode).toBe(201);
      const refused = await ad.send(shopConv.id, { text: 'もう一通' });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((refused.json() as { detail: string }).detail).toMatch(/^メッセージの送信が多すぎます（1分間に3件まで）。\d+秒後にもう一度お試しください。$/);
      // another user has its own allowance
      const [classConv] = ((await chatCalls(t.app, teacher).list()).json() as { content: Conversation[] }).content;
      expect((await chatCalls(t.app, teacher).send(classConv.id, { text: '連絡です' })).statusCode).toBe(201);
    } finally {
      config.chatRateLimit = saved;
    }
  });
});
