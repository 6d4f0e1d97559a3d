/**
 * The FCM provider (src/server/push/providers.ts; 001 7.9 push through Firebase Cloud Messaging):
 * without reaching Google, a fake messaging client answers as firebase-admin's `sendEach` does. Its
 * results map to delivered, failed, retried, and invalid tokens, which the delivery job deletes;
 * a credentials file is read only at the first send. On PGlite and PostgreSQL (DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fcmProvider, fcmResult, providerOf, type MessagingClient, type PushMessage } from '../../../src/server/push/providers';
import { bearer, createTestApp, login, type TestApp } from './helpers';

const message = (token: string, userId = 1): PushMessage => ({ notificationId: 1, userId, token, title: 't', body: 'b', data: { notification_id: '1' } });

describe('FCM results', () => {
  it('maps each firebase-admin answer', () => {
    expect(fcmResult({ success: true })).toEqual({ ok: true });
    expect(fcmResult({ success: false, error: { code: 'messaging/registration-token-not-registered' } })).toMatchObject({ ok: false, invalidToken: true, retry: false });
    expect(fcmResult({ success: false, error: { code: 'messaging/invalid-registration-token' } })).toMatchObject({ invalidToken: true });
    expect(fcmResult({ success: false, error: { code: 'messaging/server-unavailable' } })).toMatchObject({ ok: false, retry: true, invalidToken: false });
    expect(fcmResult({ success: false, error: { code: 'messaging/mismatched-credential' } })).toMatchObject({ ok: false, retry: false, invalidToken: false });
  });

  it('sends one message per token with the notification and data, and retries a failed call', async () => {
    const sent: unknown[] = [];
    const client: MessagingClient = {
      async sendEach(messages) {
        sent.push(...messages);
        return { responses: messages.map((m) => (m.token === 'bad' ? { success: false, error: { code: 'messaging/registration-token-not-registered' } } : { success: true })) };
      },
    };
    const results = await fcmProvider(async () => client).send([message('good'), message('bad')]);
    expect(results.map((r) => r.ok)).toEqual([true, false]);
    expect(sent[0]).toEqual({ token: 'good', notification: { title: 't', body: 'b' }, data: { notification_id: '1' } });
    const down = await fcmProvider(async () => ({ sendEach: () => Promise.reject(Object.assign(new Error('x'), { code: 'app/network-error' })) })).send([message('a')]);
    expect(down).toEqual([{ ok: false, error: 'app/network-error', retry: true }]);
  });

  it('reads its credentials only at the first send', async () => {
    const provider = providerOf('/nonexistent/service-account.json');
    expect(provider.name).toBe('fcm');
    expect((await provider.send([message('a')]))[0]).toMatchObject({ ok: false, retry: true });
    expect(providerOf(undefined).name).toBe('outbox');
  });
});

describe('a push through FCM', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 120_000);
  afterAll(() => t?.close());

  it('deletes the tokens FCM reports invalid and counts the recipients', async () => {
    const [{ id: akita }] = await t.db.query<{ id: number }>(`SELECT id FROM cities WHERE name = 'akita'`);
    const users = await t.db.query<{ id: number }>(
      `INSERT INTO users (username, password_hash, permission, assign_city) SELECT 'fcm_' || g, '', 'Member', ARRAY[$1::int] FROM generate_series(1, 3) g RETURNING id`,
      [akita],
    );
    const [a, b, c] = users.map((u) => Number(u.id));
    await t.db.query(
      `INSERT INTO member_devices (user_id, installation_id, token) VALUES ($1, 'phone', 'ok-a'), ($2, 'phone', 'gone-b'), ($2, 'tablet', 'ok-b'), ($3, 'phone', 'gone-c')`,
      [a, b, c],
    );
    t.app.push.provider = fcmProvider(async () => ({
      async sendEach(messages) {
        return { responses: messages.map((m) => (m.token.startsWith('gone') ? { success: false, error: { code: 'messaging/registration-token-not-registered' } } : { success: true })) };
      },
    }));
    const auth = bearer(await login(t.app, 'administrator'));
    const res = await t.app.inject({ method: 'POST', url: '/akita/api/notification/create_and_push_all', headers: auth, payload: { title: 't', body: 'b', type: 'all' } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    let n: Record<string, unknown> = {};
    for (let i = 0; i < 300 && !['sent', 'partial', 'failed'].includes(String(n.push_status)); i++) {
      await new Promise((r) => setTimeout(r, 100));
      n = (await t.app.inject({ method: 'GET', url: `/akita/api/notification/list-notify/${id}/`, headers: auth })).json();
    }
    expect(n).toMatchObject({ push_status: 'partial', recipients: 3, delivered: 2, failed_count: 1 });
    const tokens = await t.db.query<{ token: string }>('SELECT token FROM member_devices WHERE user_id = ANY($1::int[]) ORDER BY token', [[a, b, c]]);
    expect(tokens.map((r) => r.token)).toEqual(['ok-a', 'ok-b']);
  }, 60_000);
});
