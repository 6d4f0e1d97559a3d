/**
 * The live operator notices (000 6; 001 7.9): GET /:city/api/notify-operator/stream sends a `notice`
 * event for a notice created in that city, none for another city's, and goes through authorize().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** Reads the stream until `until` matches what arrived; answers the text read. */
async function readUntil(body: ReadableStream<Uint8Array>, until: RegExp): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

describe('notice stream', () => {
  it('pushes a notice created in the city, not one of another city', async () => {
    const operator = await login(t.app, 'operator');
    const admin = await login(t.app, 'administrator');
    const abort = new AbortController();
    const res = await fetch(`${base}/kobe/api/notify-operator/stream`, { headers: bearer(operator), signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = res.body!;
    expect(await readUntil(body, /: connected/)).toContain(': connected');

    const other = await t.app.inject({ method: 'POST', url: '/fukuoka/api/notify-operator/', headers: bearer(admin), payload: { title: '福岡のお知らせ', description: '本文', operator: 2 } });
    expect(other.statusCode).toBe(201);
    const made = await t.app.inject({ method: 'POST', url: '/kobe/api/notify-operator/', headers: bearer(admin), payload: { title: '神戸のお知らせ', description: '本文', operator: 2 } });
    expect(made.statusCode).toBe(201);

    const text = await readUntil(body, /神戸のお知らせ[\s\S]*\n\n/);
    expect(text).toContain('event: notice');
    expect(text).not.toContain('福岡のお知らせ');
    const data = JSON.parse(/data: (.*)\n/.exec(text)![1]) as { id: number; title: string; read: boolean };
    expect(data).toMatchObject({ id: (made.json() as { id: number }).id, title: '神戸のお知らせ', read: false });
    abort.abort();
  });

  it('answers 401 without a session and 403 to a role that may not read notices', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/kobe/api/notify-operator/stream' })).statusCode).toBe(401);
    const teacher = await login(t.app, 'teacher');
    const res = await t.app.inject({ method: 'GET', url: '/kobe/api/notify-operator/stream', headers: bearer(teacher) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden' });
  });
});
