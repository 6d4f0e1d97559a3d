/**
 * The chat unread count (000 2.3 chat badge; 001 7.9 chatAdminUnread; ours): PUT
 * /default/api/users/chat-unread/ {username, count} through authorize() and a body schema, the count
 * in the account info, and the caller's own `chat-unread` events on GET /default/api/users/chat-unread/stream
 * (the current count at the opening, then each change).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';
import { eventsOf, readUntil } from './sse';

let t: TestApp;
let base: string;
let admin: Session;
let operator: Session;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await login(t.app, 'administrator');
  operator = await login(t.app, 'operator');
});
afterAll(() => t.close());

const put = (session: Session | null, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/default/api/users/chat-unread/', headers: session ? bearer(session) : {}, payload: payload as Record<string, unknown> });
const account = async (session: Session) => (await t.app.inject({ method: 'GET', url: '/default/api/users/account', headers: bearer(session) })).json() as { chat_admin_unread?: number };

describe('chat unread count', () => {
  it("is the demo chat's unread total in the account info until set, then the stored count", async () => {
    // The demo chat of kobe leaves the operators three messages of the demo shop unread (src/server/chat/chat-demo.ts).
    expect((await account(operator)).chat_admin_unread).toBe(3);
    const res = await put(admin, { username: 'operator', count: 5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ username: 'operator', count: 5 });
    expect((await account(operator)).chat_admin_unread).toBe(5);
    expect((await put(operator, { username: 'operator', count: 150 })).statusCode).toBe(200);
    expect((await account(operator)).chat_admin_unread).toBe(150);
    expect((await put(operator, { username: 'operator', count: 0 })).statusCode).toBe(200);
    expect((await account(operator)).chat_admin_unread).toBe(0);
  });

  it('answers 401 without a session, 403 to a role without the chat entry or an Operator writing an Administrator', async () => {
    expect((await put(null, { username: 'operator', count: 1 })).statusCode).toBe(401);
    const teacher = await login(t.app, 'teacher');
    const refused = await put(teacher, { username: 'operator', count: 1 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden' });
    expect((await put(operator, { username: 'administrator', count: 1 })).statusCode).toBe(403);
    expect((await account(admin)).chat_admin_unread).toBe(0);
  });

  it('answers 404 for an unknown user and an Operator of no shared city', async () => {
    expect((await put(admin, { username: 'nobody-here', count: 1 })).statusCode).toBe(404);
    // operator (kobe, fukuoka, cippoweb) and operator-akita (akita) share no city.
    expect((await put(operator, { username: 'operator-akita', count: 1 })).statusCode).toBe(404);
    expect((await put(admin, { username: 'operator-akita', count: 1 })).statusCode).toBe(200);
  });

  it('answers 400 with the field for a count that is not an integer ≥ 0, a missing or unknown field, a user without chat', async () => {
    for (const [payload, field] of [
      [{ username: 'operator', count: -1 }, 'count'],
      [{ username: 'operator', count: 1.5 }, 'count'],
      [{ username: 'operator', count: '5' }, 'count'],
      [{ username: 'operator', count: 2_147_483_648 }, 'count'],
      [{ count: 3 }, 'username'],
      [{ username: 'operator', count: 3, extra: 1 }, 'extra'],
      [{ username: 'teacher', count: 3 }, 'username'],
    ] as const) {
      const res = await put(admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json() as { code: string; fields: Record<string, unknown> };
      expect(body.code).toBe('validation');
      expect(Object.keys(body.fields)).toContain(field);
    }
    const noChat = (await put(admin, { username: 'teacher', count: 3 })).json() as { fields: { username: string[] } };
    expect(noChat.fields.username[0]).toContain('チャット');
    expect((await account(operator)).chat_admin_unread).toBe(0);
  });

  it("streams the caller's own count at the opening and as it changes, not another user's", async () => {
    expect((await put(admin, { username: 'operator', count: 4 })).statusCode).toBe(200);
    const abort = new AbortController();
    const res = await fetch(`${base}/default/api/users/chat-unread/stream`, { headers: bearer(operator), signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = res.body!;
    // the current count first: a client that reconnects has missed nothing
    const opening = await readUntil(body, /event: chat-unread\ndata: .*\n\n/);
    expect(opening).toMatch(/^: connected\n\n/);
    expect(eventsOf(opening, 'chat-unread')).toEqual([{ count: 4 }]);
    expect((await put(admin, { username: 'operator-akita', count: 9 })).statusCode).toBe(200);
    expect((await put(admin, { username: 'operator', count: 7 })).statusCode).toBe(200);
    const text = await readUntil(body, /"count":7\}\n\n/);
    expect(eventsOf(text, 'chat-unread')).toEqual([{ count: 7 }]);
    abort.abort();
    const teacher = await login(t.app, 'teacher');
    expect((await t.app.inject({ method: 'GET', url: '/default/api/users/chat-unread/stream', headers: bearer(teacher) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/default/api/users/chat-unread/stream' })).statusCode).toBe(401);
  });
});
