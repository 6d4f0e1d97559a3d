/**
 * Push delivery (src/server/push/delivery.ts, push-hooks.ts; docs/architecture.md 'Jobs'; 001 7.9):
 * a push to 10,000 members is delivered once each through the outbox provider with the runner
 * stopped and started again in the middle; a scheduled push waits and can be cancelled; a resend
 * reaches only the recipients that failed; reading an inbox row counts as opened; bad input is
 * refused with nothing stored or queued. On PGlite and PostgreSQL (DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxProvider, type PushProvider } from '../../../src/server/push/providers';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;
let auth: Record<string, string>;
let akita: number;

const FINAL = ['sent', 'partial', 'failed', 'cancelled'];

/** Members of akita `from`…`to` (ids of the users table), each with one device token. */
async function members(prefix: string, n: number): Promise<number[]> {
  const rows = await t.db.query<{ id: number }>(
    `INSERT INTO users (username, password_hash, permission, assign_city, home_point)
     SELECT $1 || g, '', 'Member', ARRAY[$2::int], point(140.1, 39.7) FROM generate_series(1, $3::int) g RETURNING id`,
    [prefix, akita, n],
  );
  await t.db.query(`INSERT INTO member_devices (user_id, installation_id, token) SELECT id, 'i', 'tok-' || id FROM users WHERE id = ANY($1::int[])`, [rows.map((r) => r.id)]);
  return rows.map((r) => Number(r.id));
}

async function create(body: Record<string, unknown>, url = '/akita/api/notification/create_and_push_all') {
  return t.app.inject({ method: 'POST', url, headers: auth, payload: { title: 'お知らせ', body: '本文', ...body } });
}

async function show(id: number): Promise<Record<string, unknown>> {
  return (await t.app.inject({ method: 'GET', url: `/akita/api/notification/list-notify/${id}/`, headers: auth })).json();
}

/** Waits (polling the show call) until the push has a final status; answers the record. */
async function settled(id: number): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i++) {
    const n = await show(id);
    if (FINAL.includes(String(n.push_status))) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`push ${id} did not settle`);
}

const outboxOf = (id: number) =>
  t.db.query<{ user_id: number; n: number }>('SELECT user_id, count(*)::int AS n FROM push_outbox WHERE notification_id = $1 GROUP BY user_id ORDER BY user_id', [id]);

beforeAll(async () => {
  t = await createTestApp();
  auth = bearer(await login(t.app, 'administrator'));
  [{ id: akita }] = await t.db.query<{ id: number }>(`SELECT id FROM cities WHERE name = 'akita'`);
}, 120_000);
afterAll(() => t?.close());

describe('push delivery', () => {
  it('refuses bad input with nothing stored or queued', async () => {
    await members('bad_', 3);
    const far = new Date(Date.now() + 3600_000).toISOString();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ type: 'map', polygon: [] }, 400, 'polygon'],
      [{ type: 'map', polygon: [{ lat: 39, lng: 140 }, { lat: 39.5, lng: 140 }, { lat: 40, lng: 140 }] }, 400, 'polygon'],
      [{ type: 'map', lat: -85.5, lng: 140, radius_m: 100 }, 400, 'lat'],
      [{ type: 'map', lat: 39.7, lng: 181, radius_m: 100 }, 400, 'lng'],
      [{ type: 'all', scheduled_at: new Date(Date.now() - 60_000).toISOString() }, 400, 'scheduled_at'],
      [{ type: 'all', body: 'あ'.repeat(5001) }, 400, 'body'],
      [{ type: 'map', lat: 35, lng: 135, radius_m: 10, scheduled_at: far }, 400, '_'],
      [{ type: 'users', users: [] }, 400, 'users'],
    ];
    for (const [body, status, field] of cases) {
      const res = await create(body, '/akita/api/notification/create_notification_by_map');
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(status);
      expect(Object.keys(res.json().fields ?? {}), res.body.slice(0, 300)).toContain(field);
    }
    const noOne = await create({ type: 'map', lat: 35, lng: 135, radius_m: 10 });
    expect(noOne.json().fields._[0]).toMatch(/配信対象者がいません/);
    const [counts] = await t.db.query<{ n: number; j: number; u: number; r: number }>(
      `SELECT (SELECT count(*)::int FROM r_notification WHERE city = 'akita') AS n, (SELECT count(*)::int FROM jobs WHERE kind = 'push-delivery') AS j,
              (SELECT count(*)::int FROM r_user_notify WHERE city = 'akita') AS u, (SELECT count(*)::int FROM push_recipients) AS r`,
    );
    expect(counts).toEqual({ n: 0, j: 0, u: 0, r: 0 });
  });

  it('delivers a push to 10,000 members once each through the outbox, with the runner stopped and started in the middle', async () => {
    const ids = await members('many_', 10_000);
    let batches = 0;
    let stopping: Promise<void> | null = null;
    const stopper: PushProvider = {
      name: 'outbox',
      transactional: true,
      async send(messages, tx) {
        const out = await outboxProvider.send(messages, tx);
        if (++batches === 4) stopping = t.app.jobs.stop();
        return out;
      },
    };
    t.app.push.provider = stopper;
    const res = await create({ type: 'users', users: ids }, '/akita/api/notification/create_notification_users/');
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    const id = Number(res.json().id);
    expect(res.json()).toMatchObject({ push_status: 'queued', recipients: 10_000, delivered: 0 });
    for (let i = 0; i < 600 && !stopping; i++) await new Promise((r) => setTimeout(r, 50));
    await stopping;
    const mid = await show(id);
    expect(mid.push_status).toBe('sending');
    expect(mid.delivered).toBe(2000);
    expect((await outboxOf(id)).length).toBe(2000);
    t.app.push.provider = outboxProvider;
    t.app.jobs.start();
    const done = await settled(id);
    expect(done).toMatchObject({ push_status: 'sent', recipients: 10_000, delivered: 10_000, failed_count: 0, no_device: 0 });
    const out = await outboxOf(id);
    expect(out.length).toBe(10_000);
    expect(out.every((r) => r.n === 1)).toBe(true);
    const [inbox] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM r_user_notify WHERE city = 'akita' AND (data->>'notification_id')::bigint = $1`, [id]);
    expect(inbox.n).toBe(10_000);
  }, 240_000);

  it('a scheduled push waits for its time and can be cancelled before it starts', async () => {
    const ids = await members('sched_', 5);
    const at = new Date(Date.now() + 3600_000);
    const res = await create({ type: 'users', users: ids, scheduled_at: at.toISOString() });
    expect(res.statusCode, res.body).toBe(201);
    const id = Number(res.json().id);
    t.app.jobs.poke();
    await new Promise((r) => setTimeout(r, 1500));
    expect((await show(id)).push_status).toBe('queued');
    expect(await outboxOf(id)).toEqual([]);
    const [job] = await t.db.query<{ state: string; run_at: Date }>(`SELECT state, run_at FROM jobs WHERE kind = 'push-delivery' AND (payload->>'notification_id')::bigint = $1`, [id]);
    expect(job.state).toBe('queued');
    expect(Math.abs(new Date(job.run_at).getTime() - at.getTime())).toBeLessThan(5000);
    const cancel = await t.app.inject({ method: 'POST', url: `/akita/api/notification/list-notify/${id}/cancel/`, headers: auth });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().push_status).toBe('cancelled');
    const [after] = await t.db.query<{ state: string }>(`SELECT state FROM jobs WHERE kind = 'push-delivery' AND (payload->>'notification_id')::bigint = $1`, [id]);
    expect(after.state).toBe('cancelled');
    const again = await t.app.inject({ method: 'POST', url: `/akita/api/notification/list-notify/${id}/cancel/`, headers: auth });
    expect(again.statusCode).toBe(200);
    const resend = await t.app.inject({ method: 'POST', url: `/akita/api/notification/resend_notification/${id}`, headers: auth });
    expect(resend.statusCode).toBe(400);
  });

  it('a resend reaches only the recipients that failed; a read inbox row counts as opened', async () => {
    const ids = await members('resend_', 10);
    const failing = new Set(ids.filter((_, i) => i % 3 === 0));
    t.app.push.provider = {
      name: 'flaky',
      transactional: true,
      async send(messages, tx) {
        const ok = messages.filter((m) => !failing.has(m.userId));
        await outboxProvider.send(ok, tx);
        return messages.map((m) => (failing.has(m.userId) ? { ok: false, error: 'messaging/mismatched-credential' } : { ok: true }));
      },
    };
    const res = await create({ type: 'users', users: ids });
    const id = Number(res.json().id);
    expect(await settled(id)).toMatchObject({ push_status: 'partial', delivered: 6, failed_count: 4 });
    const first = (await outboxOf(id)).map((r) => r.user_id);
    t.app.push.provider = outboxProvider;
    const resend = await t.app.inject({ method: 'POST', url: `/akita/api/notification/resend_notification/${id}`, headers: auth });
    expect(resend.statusCode, resend.body).toBe(200);
    expect(await settled(id)).toMatchObject({ push_status: 'sent', delivered: 10, failed_count: 0 });
    const all = await outboxOf(id);
    expect(all.every((r) => r.n === 1)).toBe(true);
    expect(all.map((r) => r.user_id).filter((u) => !first.includes(u)).sort()).toEqual([...failing].sort());

    const [inbox] = await t.db.query<{ id: number }>(`SELECT id FROM r_user_notify WHERE city = 'akita' AND (data->>'notification_id')::bigint = $1 LIMIT 1`, [id]);
    const read = await t.app.inject({ method: 'POST', url: `/akita/api/user-notify/${inbox.id}/read/`, headers: auth });
    expect(read.statusCode, read.body).toBe(200);
    expect((await show(id)).opened).toBe(1);
    // push_status is the server's (readOnly): an update naming another one leaves it as it is.
    const resendSent = await t.app.inject({ method: 'PUT', url: `/akita/api/notification/list-notify/${id}/`, headers: auth, payload: { ...(await show(id)), push_status: 'sending' } });
    expect(resendSent.statusCode, resendSent.body).toBe(200);
    expect((await show(id)).push_status).toBe('sent');
  }, 60_000);
});
