// Staff sign-in (docs/architecture.md 'Staff sign-in'): TOTP enrolment and its second step, recovery
// codes, the per-account throttle for codes, REQUIRE_MFA_ROLES, an Administrator's reset, sessions a
// user lists and ends, and the idle and absolute limits. Through Fastify inject on a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { FREE_FAILURES } from '../../../src/server/auth/sign-in-throttle';
import { totpCode } from '../../../src/server/auth/second-factor';
import { hashRefreshToken } from '../../../src/server/auth/tokens';
import { BACKGROUND_HEADER } from '../../../src/shared/sessions';
import { buildApp } from '../../../src/server/app';
import { bearer, createTestApp, login, testConfig, type Session, type TestApp } from './helpers';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function post(url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload, headers });
}

function cookieNames(res: LightMyRequestResponse): string[] {
  return res.cookies.map((c) => c.name);
}

async function userId(username: string): Promise<number> {
  return Number((await t.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]))[0].id);
}

async function securityEvents(action: string, user: number, db: TestApp['db'] = t.db): Promise<Array<Record<string, unknown> | null>> {
  const rows = await db.query<{ detail: Record<string, unknown> | null }>(
    `SELECT (data->>'detail')::jsonb AS detail FROM r_audit_log WHERE data->>'category' = 'security' AND data->>'action' = $1 AND (data->>'user_id')::int = $2 ORDER BY id`,
    [action, user],
  );
  return rows.map((r) => r.detail);
}

/** Enrols a TOTP for `username` on `app` (no checks on the way); answers the secret. */
async function enrolOn(app: FastifyInstance, username: string): Promise<string> {
  const session = await login(app, username);
  const { secret } = (await app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/setup', payload: {}, headers: bearer(session) })).json() as { secret: string };
  await app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/enable', payload: { code: totpCode(secret) }, headers: bearer(session) });
  return secret;
}

/** Enrols a TOTP for a signed-in user; answers the secret and the recovery codes. */
async function enrol(username: string): Promise<{ secret: string; codes: string[] }> {
  const session = await login(t.app, username);
  const setup = await post('/default/api/users/mfa/totp/setup', {}, bearer(session));
  expect(setup.statusCode).toBe(200);
  const { secret, otpauth_url } = setup.json() as { secret: string; otpauth_url: string };
  expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/City%20Console:/);
  expect(otpauth_url).toContain(`secret=${secret}`);
  // A wrong code does not enable it.
  expect((await post('/default/api/users/mfa/totp/enable', { code: '000000' === totpCode(secret) ? '111111' : '000000' }, bearer(session))).statusCode).toBe(400);
  const enabled = await post('/default/api/users/mfa/totp/enable', { code: totpCode(secret) }, bearer(session));
  expect(enabled.statusCode).toBe(200);
  const codes = (enabled.json() as { recovery_codes: string[] }).recovery_codes;
  return { secret, codes };
}

/** The password step of an enrolled user: its mfa_token. */
async function passwordStep(username: string): Promise<string> {
  const res = await post('/default/api/login', { username, password: 'demo1234' });
  expect(res.statusCode).toBe(200);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ mfa_required: true });
  expect(body).not.toHaveProperty('token');
  expect(cookieNames(res)).toEqual([]);
  return String(body.mfa_token);
}

describe('TOTP', () => {
  it('enrols, then asks for a code after the password; a code is accepted once; recovery codes work once', async () => {
    const id = await userId('police');
    const { secret, codes } = await enrol('police');
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // Only hashes are stored.
    const stored = await t.db.query<{ code_hash: string }>('SELECT code_hash FROM user_recovery_codes WHERE user_id = $1', [id]);
    expect(stored.map((r) => r.code_hash)).not.toContain(codes[0]);

    const token = await passwordStep('police');
    expect((await post('/default/api/login/mfa', { mfa_token: token, code: '12345' })).statusCode).toBe(400);
    // The code of the step the enrolment used is spent: refused in its window. The next step's code
    // (one step of skew) is accepted once.
    const next = totpCode(secret, Date.now() + 30_000);
    const ok = await post('/default/api/login/mfa', { mfa_token: token, code: next });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ user: { username: 'police' } });
    expect(cookieNames(ok)).toEqual(expect.arrayContaining(['Admin-Token', 'Admin-Refresh-Token']));
    // The token is single use.
    expect((await post('/default/api/login/mfa', { mfa_token: token, code: next })).statusCode).toBe(401);
    // The same code with a new sign-in: refused (already used in its window).
    const again = await passwordStep('police');
    const reused = await post('/default/api/login/mfa', { mfa_token: again, code: next });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ fields: { code: ['認証コードが正しくありません。'] } });

    // A recovery code, typed in upper case without its hyphen, once.
    const recovery = codes[3].replace('-', '').toUpperCase();
    expect((await post('/default/api/login/mfa', { mfa_token: again, code: recovery })).statusCode).toBe(200);
    const third = await passwordStep('police');
    expect((await post('/default/api/login/mfa', { mfa_token: third, code: codes[3] })).statusCode).toBe(400);
    expect(await securityEvents('mfa_recovery_code_used', id)).toEqual([{ left: 9 }]);
    expect(await securityEvents('mfa_enrolled', id)).toEqual([{ factor: 'totp' }]);
    expect((await securityEvents('mfa_failed', id)).length).toBeGreaterThanOrEqual(3);
  });

  it('accepts one step of clock skew either way, not two', async () => {
    const skew = await createTestApp();
    try {
      const secret = await enrolOn(skew.app, 'operator');
      const id = Number((await skew.db.query<{ id: number }>("SELECT id FROM users WHERE username = 'operator'"))[0].id);
      const at = (steps: number) => totpCode(secret, Date.now() + steps * 30_000);
      const second = async (code: string) => {
        // Steps before the enrolment's are otherwise refused as spent: the last accepted step is forgotten.
        await skew.db.query('UPDATE user_totp SET last_step = 0 WHERE user_id = $1', [id]);
        const first = await skew.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'operator', password: 'demo1234' } });
        const { mfa_token } = first.json() as { mfa_token: string };
        return (await skew.app.inject({ method: 'POST', url: '/default/api/login/mfa', payload: { mfa_token, code } })).statusCode;
      };
      // A code two steps away differs from every code within one step (else the case says nothing).
      if (![at(-1), at(0), at(1)].includes(at(-2))) expect(await second(at(-2))).toBe(400);
      if (![at(-1), at(0), at(1)].includes(at(2))) expect(await second(at(2))).toBe(400);
      expect(await second(at(-1))).toBe(200);
      expect(await second(at(1))).toBe(200);
    } finally {
      await skew.close();
    }
  });

  it('counts wrong codes in the per-account throttle that passwords use', async () => {
    await enrol('teacher');
    const token = await passwordStep('teacher');
    for (let i = 0; i <= FREE_FAILURES; i++) expect((await post('/default/api/login/mfa', { mfa_token: token, code: 'aaaaa-aaaaa' })).statusCode).toBe(400);
    // After the free failures each one holds the account back (1 s, 2 s, …): the next attempt is refused.
    let held: LightMyRequestResponse | undefined;
    for (let i = 0; i < 10 && held?.statusCode !== 429; i++) held = await post('/default/api/login/mfa', { mfa_token: token, code: 'aaaaa-aaaaa' });
    expect(held?.statusCode).toBe(429);
    expect(Number(held?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // It is the account's throttle: the password is held back too.
    await t.db.query("UPDATE sign_in_failures SET blocked_until = now() + interval '1 hour' WHERE username = 'teacher'");
    expect((await post('/default/api/login', { username: 'teacher', password: 'demo1234' })).statusCode).toBe(429);
  });

  it('an expired mfa_token is refused with the sign-in-again message', async () => {
    await enrol('president');
    const token = await passwordStep('president');
    await t.db.query("UPDATE user_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'mfa'");
    const res = await post('/default/api/login/mfa', { mfa_token: token, code: '123456' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ detail: 'ログインの有効期限が切れました。もう一度ログインしてください。' });
  });

  it('an Administrator resets a user’s factors; the user then signs in with the password alone; the user may disable its own', async () => {
    const admin = bearer(await login(t.app, 'administrator'));
    const president = await userId('president');
    expect((await t.app.inject({ method: 'DELETE', url: `/kobe/api/users/${president}/mfa/`, headers: bearer(await login(t.app, 'operator')) })).statusCode).toBe(403);
    const reset = await t.app.inject({ method: 'DELETE', url: `/kobe/api/users/${president}/mfa/`, headers: admin });
    expect(reset.statusCode).toBe(200);
    expect(await securityEvents('mfa_reset', president)).toHaveLength(1);
    expect((await login(t.app, 'president')).body).toHaveProperty('token');

    const { secret } = await enrol('president');
    const token = await passwordStep('president');
    const session = await post('/default/api/login/mfa', { mfa_token: token, code: totpCode(secret, Date.now() + 30_000) });
    const auth = { authorization: `Bearer ${(session.json() as { token: string }).token}` };
    expect((await post('/default/api/users/mfa/disable', { password: 'wrong-password' }, auth)).statusCode).toBe(400);
    expect((await post('/default/api/users/mfa/disable', { password: 'demo1234' }, auth)).statusCode).toBe(200);
    expect((await login(t.app, 'president')).body).toHaveProperty('token');
  });

  it('Members keep their sign-in: no enrolment', async () => {
    const member = bearer(await login(t.app, 'member'));
    expect((await post('/default/api/users/mfa/totp/setup', {}, member)).statusCode).toBe(403);
  });
});

describe('REQUIRE_MFA_ROLES', () => {
  it('sends a user of those roles without a factor to enrolment, which signs in; other roles sign in as before', async () => {
    const forced = await createTestApp({ REQUIRE_MFA_ROLES: 'Administrator,Operator' });
    try {
      const first = await forced.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'operator', password: 'demo1234' } });
      expect(first.json()).toMatchObject({ mfa_required: true, mfa_enrolment_required: true });
      expect(cookieNames(first)).toEqual([]);
      const mfa_token = (first.json() as { mfa_token: string }).mfa_token;
      // The enrolment token is no session and no second step.
      expect((await forced.app.inject({ method: 'POST', url: '/default/api/login/mfa', payload: { mfa_token, code: '123456' } })).statusCode).toBe(401);
      const setup = await forced.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/setup', payload: { mfa_token } });
      const { secret } = setup.json() as { secret: string };
      const enabled = await forced.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/enable', payload: { mfa_token, code: totpCode(secret) } });
      expect(enabled.statusCode).toBe(200);
      expect(enabled.json()).toMatchObject({ user: { username: 'operator' } });
      expect((enabled.json() as { recovery_codes: string[] }).recovery_codes).toHaveLength(10);
      expect(cookieNames(enabled)).toEqual(expect.arrayContaining(['Admin-Token', 'Admin-Refresh-Token']));
      // Other roles: the password alone.
      expect((await login(forced.app, 'police')).body).toHaveProperty('token');
    } finally {
      await forced.close();
    }
  });
});

describe('TOTP secrets at rest', () => {
  const KEY_A = 'a'.repeat(16) + 'first-key-of-the-test';
  const KEY_B = 'b'.repeat(16) + 'second-key-of-the-test';

  /** Another app on the same database as `on`, with `env`; its log lines are kept. */
  async function appOn(on: TestApp, env: Record<string, string>): Promise<{ app: FastifyInstance; log: string[] }> {
    const log: string[] = [];
    const app = await buildApp({ db: on.db, config: testConfig(env), logger: { level: 'info', stream: { write: (line: string) => void log.push(line) } } });
    await app.ready();
    return { app, log };
  }

  const stored = async (db: TestApp['db'], id: number) => (await db.query<{ secret: string }>('SELECT secret FROM user_totp WHERE user_id = $1', [id]))[0].secret;

  /** The password step and a code (the next step's, unused) on `app`: the answer. */
  async function signIn(app: FastifyInstance, username: string, secret: string, at: number) {
    const first = await app.inject({ method: 'POST', url: '/default/api/login', payload: { username, password: 'demo1234' } });
    const { mfa_token } = first.json() as { mfa_token: string };
    return app.inject({ method: 'POST', url: '/default/api/login/mfa', payload: { mfa_token, code: totpCode(secret, at) } });
  }

  it('stores the secret sealed; rewrites a secret in clear at start; a wrong key fails closed and logs why; a previous key opens and is rotated', async () => {
    const sealed = await createTestApp({ MFA_SECRET_KEY: KEY_A });
    const apps: FastifyInstance[] = [];
    try {
      const id = Number((await sealed.db.query<{ id: number }>("SELECT id FROM users WHERE username = 'operator'"))[0].id);
      const session = await login(sealed.app, 'operator');
      const setup = await sealed.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/setup', payload: {}, headers: bearer(session) });
      const { secret } = setup.json() as { secret: string };
      expect((await sealed.db.query<{ pending_secret: string }>('SELECT pending_secret FROM user_totp WHERE user_id = $1', [id]))[0].pending_secret).not.toContain(secret);
      const enabled = await sealed.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/enable', payload: { code: totpCode(secret) }, headers: bearer(session) });
      expect(enabled.statusCode).toBe(200);
      const recovery = (enabled.json() as { recovery_codes: string[] }).recovery_codes;
      const a = await stored(sealed.db, id);
      expect(a).toMatch(/^v1:[0-9a-f]{8}:/);
      expect(a).not.toContain(secret);
      expect((await signIn(sealed.app, 'operator', secret, Date.now() + 30_000)).statusCode).toBe(200);
      const status = async (app: FastifyInstance, headers: Record<string, string>) =>
        (await app.inject({ method: 'GET', url: '/default/api/users/mfa', headers })).json() as Record<string, unknown>;
      expect(await status(sealed.app, bearer(session))).toMatchObject({ totp: true, totp_key_mismatch: false });

      // A secret stored in clear (before sealing existed) is sealed at the next start, and still signs in.
      await sealed.db.query('UPDATE user_totp SET secret = $2, last_step = 0 WHERE user_id = $1', [id, secret]);
      const restarted = await appOn(sealed, { MFA_SECRET_KEY: KEY_A });
      apps.push(restarted.app);
      expect(await stored(sealed.db, id)).toMatch(new RegExp(`^${a.slice(0, 12)}`));
      expect(await stored(sealed.db, id)).not.toContain(secret);
      expect((await signIn(restarted.app, 'operator', secret, Date.now())).statusCode).toBe(200);

      // Another key: the start logs the users it cannot open; a code fails closed with the catalogue's
      // 501 totp_key_mismatch (what to do, in the request's language; no stack, no stored value), the
      // reason in the log; a recovery code still works.
      const underA = await stored(sealed.db, id);
      const wrong = await appOn(sealed, { MFA_SECRET_KEY: KEY_B });
      apps.push(wrong.app);
      expect(wrong.log.join('\n')).toMatch(/TOTP secrets of 1 users open under no key/);
      const refused = await signIn(wrong.app, 'operator', secret, Date.now() + 30_000);
      expect(refused.statusCode).toBe(501);
      expect(refused.json()).toEqual({ code: 'totp_key_mismatch', detail: expect.stringMatching(/^このサーバーの鍵（MFA_SECRET_KEY）では.*リカバリーコードかパスキー/) });
      expect(refused.body).not.toMatch(/SecretBoxError|HttpError|at .*\.ts|v1:|stack/);
      const failedLines = () => wrong.log.filter((l) => l.includes('request failed') && l.includes(`TOTP secret of user ${id} opens under no configured key`));
      expect(failedLines()).toHaveLength(1);
      expect(failedLines()[0]).toMatch(/neither MFA_SECRET_KEY .* nor one of MFA_SECRET_KEY_PREVIOUS/);
      expect(failedLines()[0]).not.toContain(underA);
      // ...and a security event of the audit log, with neither the stored value nor a key id; no wrong code (not throttled).
      const mismatches = await securityEvents('mfa_key_mismatch', id, sealed.db);
      expect(mismatches).toEqual([{ factor: 'code' }]);
      const [row] = await sealed.db.query<{ data: unknown }>(`SELECT data FROM r_audit_log WHERE data->>'action' = 'mfa_key_mismatch' ORDER BY id DESC LIMIT 1`);
      expect(JSON.stringify(row.data)).not.toMatch(new RegExp(`${underA.split(':')[1]}|${underA.split(':')[3]}|${secret}`));
      expect(await securityEvents('mfa_failed', id, sealed.db)).toEqual([]);
      const english = await wrong.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'operator', password: 'demo1234' } });
      const englishCode = await wrong.app.inject({
        method: 'POST',
        url: '/default/api/login/mfa',
        payload: { mfa_token: (english.json() as { mfa_token: string }).mfa_token, code: totpCode(secret, Date.now() + 30_000) },
        headers: { 'accept-language': 'en' },
      });
      expect(englishCode.json()).toEqual({ code: 'totp_key_mismatch', detail: expect.stringMatching(/cannot be read with this server's key .*recovery code or a passkey/) });
      expect(await stored(sealed.db, id)).toBe(underA);
      const first = await wrong.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'operator', password: 'demo1234' } });
      const { mfa_token } = first.json() as { mfa_token: string };
      const byRecovery = await wrong.app.inject({ method: 'POST', url: '/default/api/login/mfa', payload: { mfa_token, code: recovery[0] } });
      expect(byRecovery.statusCode).toBe(200);

      // A pending secret sealed under the old key says the same at its first code; a new setup under the current key then enrols again.
      const recovered = { authorization: `Bearer ${(byRecovery.json() as { token: string }).token}` };
      // The profile's status says the app's secret cannot be opened (and nothing of it).
      const mismatched = await status(wrong.app, recovered);
      expect(mismatched).toMatchObject({ totp: true, totp_available: true, totp_key_mismatch: true, recovery_codes_left: 9 });
      expect(JSON.stringify(mismatched)).not.toMatch(new RegExp(`${underA.split(':')[3]}|${secret}|v1:`));
      await sealed.db.query('UPDATE user_totp SET pending_secret = $2 WHERE user_id = $1', [id, underA]);
      const pending = await wrong.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/enable', payload: { code: totpCode(secret) }, headers: recovered });
      expect(pending.statusCode).toBe(501);
      expect(pending.json()).toMatchObject({ code: 'totp_key_mismatch' });
      expect(await securityEvents('mfa_key_mismatch', id, sealed.db)).toEqual([{ factor: 'code' }, { factor: 'code' }, { factor: 'totp_enrolment' }]);
      const again = (await wrong.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/setup', payload: {}, headers: recovered })).json() as { secret: string };
      expect((await wrong.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/enable', payload: { code: totpCode(again.secret) }, headers: recovered })).statusCode).toBe(200);
      expect((await signIn(wrong.app, 'operator', again.secret, Date.now() + 30_000)).statusCode).toBe(200);
      expect(await status(wrong.app, recovered)).toMatchObject({ totp: true, totp_key_mismatch: false });
      // Back to the secret under the first key for the rotation below.
      await sealed.db.query('UPDATE user_totp SET secret = $2, last_step = 0 WHERE user_id = $1', [id, underA]);

      // Rotation: the new key with the old one as previous rewrites the secret under the new key.
      const rotated = await appOn(sealed, { MFA_SECRET_KEY: KEY_B, MFA_SECRET_KEY_PREVIOUS: KEY_A });
      apps.push(rotated.app);
      expect(await stored(sealed.db, id)).not.toBe(underA);
      expect(await stored(sealed.db, id)).toMatch(/^v1:[0-9a-f]{8}:/);
      expect((await signIn(rotated.app, 'operator', secret, Date.now() + 30_000)).statusCode).toBe(200);
    } finally {
      for (const app of apps) await app.close();
      await sealed.close();
    }
  });

  it('in production, refuses to start without MFA_SECRET_KEY while a TOTP secret is stored', async () => {
    const dev = await createTestApp();
    try {
      await enrolOn(dev.app, 'operator');
      await expect(buildApp({ db: dev.db, config: testConfig({ NODE_ENV: 'production' }) })).rejects.toThrow(/MFA_SECRET_KEY is required in production/);
    } finally {
      await dev.close();
    }
  });

  it('in production without MFA_SECRET_KEY, says so: the status shows TOTP unavailable, setup and enable answer 501 totp_unavailable, the log names the setting', async () => {
    const dev = await createTestApp();
    let production: { app: FastifyInstance; log: string[] } | null = null;
    try {
      const devSession = await login(dev.app, 'operator');
      expect((await dev.app.inject({ method: 'GET', url: '/default/api/users/mfa', headers: bearer(devSession) })).json()).toMatchObject({ totp_available: true });
      production = await appOn(dev, { NODE_ENV: 'production' });
      expect(production.log.join('\n')).toMatch(/TOTP is unavailable: MFA_SECRET_KEY is not set/);
      const session = await login(production.app, 'operator');
      const status = await production.app.inject({ method: 'GET', url: '/default/api/users/mfa', headers: bearer(session) });
      expect(status.json()).toEqual({ totp: false, totp_available: false, totp_key_mismatch: false, recovery_codes_left: 0, passkeys: [] });
      const setup = await production.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/setup', payload: {}, headers: bearer(session) });
      expect(setup.statusCode).toBe(501);
      expect(setup.json()).toEqual({ code: 'totp_unavailable', detail: expect.stringMatching(/^このサーバーでは認証アプリによる二要素認証を利用できません.*パスキー/) });
      expect(setup.body).not.toMatch(/HttpError|at .*\.ts|stack/);
      const english = await production.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/setup', payload: {}, headers: { ...bearer(session), 'accept-language': 'en' } });
      expect(english.json()).toEqual({ code: 'totp_unavailable', detail: expect.stringMatching(/not available on this server .*Use a passkey/) });
      // The first code of an enrolment that could not start says the same, not 'wrong code'.
      const enable = await production.app.inject({ method: 'POST', url: '/default/api/users/mfa/totp/enable', payload: { code: '123456' }, headers: bearer(session) });
      expect(enable.statusCode).toBe(501);
      expect(enable.json()).toMatchObject({ code: 'totp_unavailable' });
      expect((await dev.db.query('SELECT 1 FROM user_totp')).length).toBe(0);
      // Each refusal is logged with the reason (the answer never carries it).
      expect(production.log.filter((l) => l.includes('request failed') && l.includes('MFA_SECRET_KEY is not set (required in production)'))).toHaveLength(3);
      // Passkeys still work: their registration options are answered.
      expect((await production.app.inject({ method: 'POST', url: '/default/api/users/passkeys/options', payload: {}, headers: bearer(session) })).statusCode).toBe(200);
    } finally {
      await production?.app.close();
      await dev.close();
    }
  });
});

describe('sessions', () => {
  it('lists the caller’s sessions with browser and system; ends one, and its access token is refused', async () => {
    const sign = (ua: string) => t.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'advertiser', password: 'demo1234' }, headers: { 'user-agent': ua } });
    const a = (await sign(CHROME)).json() as { token: string };
    const b = (await sign(FIREFOX)).json() as { token: string };
    const list = await t.app.inject({ method: 'GET', url: '/default/api/users/sessions/', headers: { authorization: `Bearer ${a.token}` } });
    expect(list.statusCode).toBe(200);
    const content = (list.json() as { content: Array<Record<string, unknown>> }).content;
    expect(content.slice(0, 2)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ browser: 'Chrome 131', os: 'Windows 10', ip: '127.0.0.1', current: true }),
        expect.objectContaining({ browser: 'Firefox 133', os: 'Linux', current: false }),
      ]),
    );
    const other = content.find((s) => s.browser === 'Firefox 133')!;
    expect((await t.app.inject({ method: 'GET', url: '/default/api/users/account', headers: { authorization: `Bearer ${b.token}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/default/api/users/sessions/${other.id}/`, headers: { authorization: `Bearer ${a.token}` } })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/default/api/users/account', headers: { authorization: `Bearer ${b.token}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/default/api/users/account', headers: { authorization: `Bearer ${a.token}` } })).statusCode).toBe(200);
    // Another user's session is not found.
    const mine = content.find((s) => s.current)!;
    expect((await t.app.inject({ method: 'DELETE', url: `/default/api/users/sessions/${mine.id}/`, headers: bearer(await login(t.app, 'operator')) })).statusCode).toBe(404);
  });

  it('ends all but the current one; an Administrator ends all of a user’s', async () => {
    const one = await login(t.app, 'operator-akita');
    const two = await login(t.app, 'operator-akita');
    const three = await login(t.app, 'operator-akita');
    const ended = await t.app.inject({ method: 'DELETE', url: '/default/api/users/sessions/', headers: bearer(one) });
    expect(ended.json()).toMatchObject({ ended: 2 });
    for (const [s, status] of [[one, 200], [two, 401], [three, 401]] as const) {
      expect((await t.app.inject({ method: 'GET', url: '/default/api/users/account', headers: bearer(s) })).statusCode).toBe(status);
    }
    const id = await userId('operator-akita');
    const byAdmin = await t.app.inject({ method: 'DELETE', url: `/akita/api/users/${id}/sessions/`, headers: bearer(await login(t.app, 'administrator')) });
    expect(byAdmin.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/default/api/users/account', headers: bearer(one) })).statusCode).toBe(401);
    expect(await securityEvents('session_ended', id)).toHaveLength(2);
  });

  it('refuses the refresh of a staff session idle or older than its limits (406), not of a Member', async () => {
    const refresh = (s: { refreshToken: string }) => post('/kobe/api/refresh-token', { refresh_token: s.refreshToken });
    const idle = await login(t.app, 'captain');
    const staff = await login(t.app, 'operator');
    const old = await login(t.app, 'operator');
    await t.db.query("UPDATE user_sessions SET last_used_at = now() - interval '121 minutes' WHERE family = (SELECT family FROM refresh_tokens WHERE token_hash = $1)", [hashRefreshToken(staff.refreshToken)]);
    await t.db.query("UPDATE user_sessions SET started_at = now() - interval '337 hours' WHERE family = (SELECT family FROM refresh_tokens WHERE token_hash = $1)", [hashRefreshToken(old.refreshToken)]);
    await t.db.query("UPDATE user_sessions SET last_used_at = now() - interval '121 minutes' WHERE family = (SELECT family FROM refresh_tokens WHERE token_hash = $1)", [hashRefreshToken(idle.refreshToken)]);
    const refused = await refresh(staff);
    expect(refused.statusCode).toBe(406);
    expect(refused.json()).toMatchObject({ code: 'session_expired', detail: 'セッションが切れました' });
    expect((await refresh(old)).statusCode).toBe(406);
    expect((await t.app.inject({ method: 'GET', url: '/default/api/users/account', headers: bearer(staff) })).statusCode).toBe(401);
    // A Captain (a Member with a department) keeps the Members' sessions.
    expect((await refresh(idle)).statusCode).toBe(200);
    // A session in use is refreshed.
    const fresh = await login(t.app, 'operator');
    expect((await refresh(fresh)).statusCode).toBe(200);
  });

  it('counts only calls at a user’s action as use: live streams, background calls and the refresh leave a session idle', async () => {
    const refresh = (s: { refreshToken: string }) => post('/kobe/api/refresh-token', { refresh_token: s.refreshToken });
    const account = (s: Session, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/default/api/users/account', headers: { ...bearer(s), ...headers } });
    const idleSince = (s: { refreshToken: string }) =>
      t.db.query("UPDATE user_sessions SET last_used_at = now() - interval '121 minutes' WHERE family = (SELECT family FROM refresh_tokens WHERE token_hash = $1)", [hashRefreshToken(s.refreshToken)]);
    const polled = await login(t.app, 'operator-akita');
    const used = await login(t.app, 'operator-akita');
    await idleSince(polled);
    await idleSince(used);
    // An open console left alone: its live streams open again (EventSource's Accept) and its own reads are marked.
    expect((await account(polled, { accept: 'text/event-stream' })).statusCode).toBe(200);
    expect((await account(polled, { [BACKGROUND_HEADER]: '1' })).statusCode).toBe(200);
    // A user's call.
    expect((await account(used)).statusCode).toBe(200);
    expect((await refresh(polled)).statusCode).toBe(406);
    expect((await refresh(used)).statusCode).toBe(200);
  });
});

describe('the demo accounts', () => {
  it('still sign in with their passwords alone (none is enrolled)', async () => {
    const fresh = await createTestApp();
    try {
      for (const username of ['administrator', 'operator', 'president', 'captain', 'teacher', 'advertiser', 'police', 'member']) {
        expect((await login(fresh.app, username)).body).toHaveProperty('token');
      }
    } finally {
      await fresh.close();
    }
  });
});

describe('/openapi.json', () => {
  it('holds every staff sign-in route with its schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const calls = [
      ['post', '/default/api/login/mfa'],
      ['post', '/default/api/login/passkey/options'],
      ['post', '/default/api/login/passkey'],
      ['post', '/default/api/users/mfa/totp/setup'],
      ['post', '/default/api/users/mfa/totp/enable'],
      ['post', '/default/api/users/mfa/disable'],
      ['get', '/default/api/users/mfa'],
      ['post', '/default/api/users/passkeys/options'],
      ['post', '/default/api/users/passkeys'],
      ['delete', '/default/api/users/passkeys/{id}/'],
      ['get', '/default/api/users/sessions/'],
      ['delete', '/default/api/users/sessions/{id}/'],
      ['delete', '/default/api/users/sessions/'],
      ['delete', '/{city}/api/users/{id}/sessions/'],
      ['delete', '/{city}/api/users/{id}/mfa/'],
    ];
    for (const [method, path] of calls) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.responses, `${method} ${path}`).toBeDefined();
      if (method === 'post') expect(op.requestBody, `${method} ${path}`).toBeDefined();
    }
    const list = doc.paths['/default/api/users/sessions/'].get.responses as Record<string, { content: Record<string, { schema: { properties: { content: { items: { required: string[] } } } } }> }>;
    expect(list['200'].content['application/json'].schema.properties.content.items.required).toEqual(['id', 'browser', 'os', 'ip', 'started_at', 'last_used_at', 'current']);
  });
});
