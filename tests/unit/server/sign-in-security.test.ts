// Sign-in abuse and security events (docs/architecture.md 'Sign-in'; 001 7.1, 7.2): failures are
// throttled per account whatever the IP, with delays that grow and end; the security events are in
// the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delayAfter, FREE_FAILURES, MAX_DELAY_S } from '../../../src/server/auth/sign-in-throttle';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function signIn(username: string, password: string, ip = '127.0.0.1') {
  return t.app.inject({ method: 'POST', url: '/default/api/login', payload: { username, password }, remoteAddress: ip });
}

async function events(action: string, userId?: number): Promise<Array<{ user_id: number | null; ip: string | null; detail: Record<string, unknown> | null }>> {
  return t.db.query(
    `SELECT (data->>'user_id')::int AS user_id, data->>'ip' AS ip, (data->>'detail')::jsonb AS detail FROM r_audit_log
      WHERE data->>'category' = 'security' AND data->>'action' = $1 ${userId === undefined ? '' : "AND (data->>'user_id')::int = $2"} ORDER BY id`,
    userId === undefined ? [action] : [action, userId],
  );
}

async function userId(username: string): Promise<number> {
  return Number((await t.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]))[0].id);
}

/** Ends the account's current delay, as if its time had passed. */
async function waitOut(username: string): Promise<void> {
  await t.db.query("UPDATE sign_in_failures SET blocked_until = now() - interval '1 second' WHERE username = $1", [username]);
}

describe('per-account sign-in throttling', () => {
  it('delays grow from 1 s after the free failures, doubling up to 15 minutes', () => {
    expect(Array.from({ length: FREE_FAILURES }, (_, i) => delayAfter(i + 1))).toEqual(Array(FREE_FAILURES).fill(0));
    expect([6, 7, 8, 9].map(delayAfter)).toEqual([1, 2, 4, 8]);
    expect(delayAfter(40)).toBe(MAX_DELAY_S);
  });

  it('holds an account back after repeated failures from any IP, even with the right password, then lets it in and forgets', async () => {
    for (let i = 0; i < FREE_FAILURES; i++) expect((await signIn('police', 'wrong-pass', `198.51.100.${i}`)).statusCode).toBe(400);
    // The next failure starts a delay: the right password from another IP is refused meanwhile.
    expect((await signIn('police', 'wrong-pass', '203.0.113.9')).statusCode).toBe(400);
    const held = await signIn('police', 'demo1234', '192.0.2.77');
    expect(held.statusCode).toBe(429);
    expect(held.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another account is not concerned.
    expect((await signIn('operator', 'demo1234')).statusCode).toBe(200);
    await waitOut('police');
    expect((await signIn('police', 'demo1234')).statusCode).toBe(200);
    // The success forgot the failures: the next wrong password costs no delay.
    expect((await signIn('police', 'wrong-pass')).statusCode).toBe(400);
    expect((await signIn('police', 'demo1234')).statusCode).toBe(200);
  });

  it('throttles a username that names nobody the same way (no account probing by timing)', async () => {
    for (let i = 0; i <= FREE_FAILURES; i++) expect((await signIn('nobody-here', 'x')).statusCode).toBe(400);
    expect((await signIn('nobody-here', 'x')).statusCode).toBe(429);
  });
});

describe('security events in the audit log', () => {
  it('records sign-in successes and failures with the IP, and a username that names nobody', async () => {
    const captain = await userId('captain');
    expect((await signIn('captain', 'bad-password', '192.0.2.10')).statusCode).toBe(400);
    expect((await signIn('captain', 'demo1234', '192.0.2.11')).statusCode).toBe(200);
    expect((await signIn('no-such-user', 'x', '192.0.2.12')).statusCode).toBe(400);
    expect(await events('sign_in_failed', captain)).toEqual([{ user_id: captain, ip: '192.0.2.10', detail: { failures: 1 } }]);
    expect((await events('sign_in', captain)).at(-1)).toMatchObject({ ip: '192.0.2.11' });
    expect((await events('sign_in_failed')).at(-1)).toEqual({ user_id: null, ip: '192.0.2.12', detail: { username: 'no-such-user', failures: 1 } });
  });

  it('records a password change, a role change and a change of cities with who made it', async () => {
    const admin = bearer(await login(t.app, 'administrator'));
    const adminId = await userId('administrator');
    const created = await t.app.inject({
      method: 'POST',
      url: '/kobe/api/users/',
      headers: admin,
      payload: { username: 'security-target', email: 'security-target@example.jp', password: 'password1', permission: 'Police', assign_city: ['kobe'] },
    });
    expect(created.statusCode).toBe(201);
    const id = Number(created.json().id);
    const own = bearer(await login(t.app, 'security-target', 'password1'));
    const changed = await t.app.inject({ method: 'PUT', url: '/kobe/api/users/change_password', headers: own, payload: { old: 'password1', new: 'password22', confirm: 'password22' } });
    expect(changed.statusCode).toBe(200);
    expect(await events('password_change', id)).toHaveLength(1);

    const put = await t.app.inject({ method: 'PUT', url: `/kobe/api/users/${id}/`, headers: admin, payload: { permission: 'Operator', assign_city: ['kobe', 'fukuoka'] } });
    expect(put.statusCode).toBe(200);
    expect(await events('role_change', id)).toEqual([{ user_id: id, ip: '127.0.0.1', detail: { by: adminId, from: 'Police', to: 'Operator' } }]);
    const [cityChange] = await events('city_change', id);
    expect((cityChange.detail!.to as number[]).length).toBe(2);
    expect((cityChange.detail!.from as number[]).length).toBe(1);
    // The same values again are no event.
    await t.app.inject({ method: 'PUT', url: `/kobe/api/users/${id}/`, headers: admin, payload: { permission: 'Operator' } });
    expect(await events('role_change', id)).toHaveLength(1);
  });

  it('records the reuse of a spent refresh token, which ends the session', async () => {
    const s = await login(t.app, 'teacher');
    const first = await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: s.refreshToken } });
    expect(first.statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: first.json().refresh_token } });
    // The first token again, its successor already used: a reuse.
    const reused = await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: s.refreshToken } });
    expect(reused.statusCode).toBe(401);
    expect(await events('refresh_token_reuse', await userId('teacher'))).toHaveLength(1);
  });
});
