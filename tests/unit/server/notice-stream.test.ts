/**
 * The live operator notices (000 6; 001 7.9): GET /:city/api/notify-operator/stream sends a `notice`
 * event for a notice created in that city, none for another city's, one per row of a bulk create
 * (also past one NOTIFY's worth of ids), none for a rolled-back create, and goes through authorize().
 * Across two server processes: notice-stream-processes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../../src/shared/registry';
import { ID_CHUNK } from '../../../src/server/events/record-events';
import { createRecords, insertRecord } from '../../../src/server/repositories/resource-repository';
import { bearer, createTestApp, login, type TestApp } from './helpers';
import { eventsOf, readUntil } from './sse';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

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

  it('announces every row of a bulk create, and nothing of a rolled-back create', async () => {
    const operator = await login(t.app, 'operator');
    const abort = new AbortController();
    const res = await fetch(`${base}/kobe/api/notify-operator/stream`, { headers: bearer(operator), signal: abort.signal });
    const body = res.body!;
    await readUntil(body, /: connected/);
    const def = registry.get('notify_operator')!;
    await expect(
      t.db.transaction(async (tx) => {
        await insertRecord(tx, def, 'kobe', { title: '取り消されるお知らせ', description: '本文', operator: 2, read: false, users: [] }, { userId: null });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const n = ID_CHUNK + 5; // two notifications of ids
    const ids = await createRecords(t.db, def, 'kobe', Array.from({ length: n }, (_, i) => ({ title: `一括${i}`, description: '本文', operator: 2 })), { userId: null });
    const text = await readUntil(body, new RegExp(`"一括${n - 1}"[\\s\\S]*\\n\\n`));
    const events = eventsOf<{ id: number }>(text, 'notice');
    expect(events.map((e) => e.id).sort((a, b) => a - b)).toEqual(ids);
    expect(text).not.toContain('取り消されるお知らせ');
    abort.abort();
  });
});
