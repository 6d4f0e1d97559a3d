// Session and account calls (001 7.1, 8): login, account, whoami, refresh rotation, logout, city info.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helpers';
import { SEED_CITIES } from '../../../src/server/seed';
import { hashRefreshToken } from '../../../src/server/auth/tokens';
import { REFRESH_REUSE_LEEWAY_S } from '../../../src/shared/constants';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function cookie(response: { cookies: Array<Record<string, unknown>> }, name: string): Record<string, unknown> | undefined {
  return response.cookies.find((c) => c.name === name);
}

describe('POST /default/api/login', () => {
  it('answers user, token and refresh_token, and sets HttpOnly SameSite=Strict cookies', async () => {
    const s = await login(t.app, 'operator');
    expect(Object.keys(s.body).sort()).toEqual(['refresh_token', 'token', 'user']);
    const user = s.body.user as Record<string, unknown>;
    expect(user).toMatchObject({ username: 'operator', permission: 'Operator', is_captain_department: false });
    expect((user.assign_city as Array<{ name: string }>).map((c) => c.name)).toEqual(['kobe', 'fukuoka', 'cippoweb']);
    expect(user.active_city).toEqual(user.assign_city);
    expect(user.assign_city).toContainEqual({ id: expect.any(Number), name: 'kobe', name_ja: '神戸市' });
    for (const name of ['Admin-Token', 'Admin-Refresh-Token']) {
      const c = cookie(s.response, name);
      expect(c, name).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(c?.secure).toBeFalsy();
    }
    expect(cookie(s.response, 'Admin-Token')?.value).toBe(s.token);
    expect(cookie(s.response, 'Admin-Refresh-Token')?.value).toBe(s.refreshToken);
    expect(cookie(s.response, 'Redirect-Token')).toBeUndefined();
  });

  it('gives an Advertiser booking.refresh and a Redirect-Token cookie', async () => {
    const s = await login(t.app, 'advertiser');
    const booking = s.body.booking as { refresh: string };
    expect(typeof booking.refresh).toBe('string');
    expect(cookie(s.response, 'Redirect-Token')).toMatchObject({ value: booking.refresh, httpOnly: true, sameSite: 'Strict' });
  });

  it('answers an Administrator with every city active', async () => {
    const s = await login(t.app, 'administrator');
    expect((s.body.user as { active_city: unknown[] }).active_city).toHaveLength(SEED_CITIES.length);
  });

  it('answers an unknown username with the spec message (Japanese by default)', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'nobody', password: 'demo1234' } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ code: 'unknown_username', detail: 'このユーザ名が存在していません。' });
    const en = await t.app.inject({
      method: 'POST',
      url: '/default/api/login',
      headers: { 'accept-language': 'en-US,en;q=0.9' },
      payload: { username: 'nobody', password: 'demo1234' },
    });
    expect(en.json().code).toBe('unknown_username');
    expect(en.json().detail).not.toBe('このユーザ名が存在していません。');
  });

  it('answers a wrong password with invalid_credentials and sets no cookie', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'operator', password: 'wrong-password' } });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('invalid_credentials');
    expect(r.cookies).toHaveLength(0);
  });

  it('answers missing fields with field errors', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/default/api/login', payload: {} });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'validation', fields: { username: ['ユーザー名を入力してください。'], password: ['Password is required'] } });
  });
});

describe('GET /default/api/users/account and whoami', () => {
  it('answers the profile with the cookie and with a Bearer token', async () => {
    const s = await login(t.app, 'teacher');
    const byCookie = await t.app.inject({ url: '/default/api/users/account', cookies: { 'Admin-Token': s.token } });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.json()).toEqual(s.body.user);
    const byBearer = await t.app.inject({ url: '/default/api/users/account', headers: bearer(s) });
    expect(byBearer.json()).toEqual(s.body.user);
    const who = await t.app.inject({ url: '/default/api/users/whoami', cookies: { 'Admin-Token': s.token } });
    expect(who.json()).toEqual({ id: (s.body.user as { id: number }).id, refreshable: false });
    const withRefresh = await t.app.inject({ url: '/default/api/users/whoami', cookies: { 'Admin-Token': s.token, 'Admin-Refresh-Token': s.refreshToken } });
    expect(withRefresh.json()).toEqual({ id: (s.body.user as { id: number }).id, refreshable: true });
  });

  it('treats a captain department member as is_captain_department', async () => {
    const s = await login(t.app, 'captain');
    expect(s.body.user).toMatchObject({ permission: 'Member', is_captain_department: true });
  });

  it('answers 401 without a token or with a bad one', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-jwt' }]) {
      const r = await t.app.inject({ url: '/default/api/users/account', headers });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ code: 'unauthorized', detail: expect.any(String) });
    }
    // whoami never answers 401: nobody's session is null (the login page asks it without a console error).
    const nobody = await t.app.inject({ url: '/default/api/users/whoami' });
    expect(nobody.statusCode).toBe(200);
    expect(nobody.json()).toEqual({ id: null, refreshable: false });
    const expired = await t.app.inject({ url: '/default/api/users/whoami', cookies: { 'Admin-Token': 'not-a-jwt', 'Admin-Refresh-Token': 'x' } });
    expect(expired.json()).toEqual({ id: null, refreshable: true });
  });
});

describe('POST /:city/api/refresh-token', () => {
  /** POST /kobe/api/refresh-token with `token` in the body. */
  const refresh = (token: string) => t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: token } });

  it('rotates the refresh token; reusing a rotated one revokes the whole family', async () => {
    const s = await login(t.app, 'operator');
    const first = await refresh(s.refreshToken);
    expect(first.statusCode).toBe(200);
    const rotated = first.json() as { access_token: string; refresh_token: string };
    expect(Object.keys(rotated).sort()).toEqual(['access_token', 'refresh_token']);
    expect(rotated.refresh_token).not.toBe(s.refreshToken);
    expect(cookie(first, 'Admin-Token')?.value).toBe(rotated.access_token);
    expect(cookie(first, 'Admin-Refresh-Token')).toMatchObject({ value: rotated.refresh_token, httpOnly: true, sameSite: 'Strict' });
    const account = await t.app.inject({ url: '/default/api/users/account', headers: { authorization: `Bearer ${rotated.access_token}` } });
    expect(account.statusCode).toBe(200);

    // The cookie works as well as the body.
    const second = await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', cookies: { 'Admin-Refresh-Token': rotated.refresh_token } });
    expect(second.statusCode).toBe(200);
    const latest = second.json() as { access_token: string; refresh_token: string };

    // Reuse of the first (spent) token: 401, and the family is gone.
    const reuse = await refresh(s.refreshToken);
    expect(reuse.statusCode).toBe(401);
    const afterReuse = await refresh(latest.refresh_token);
    expect(afterReuse.statusCode).toBe(401);
    const revokedAccess = await t.app.inject({ url: '/default/api/users/account', headers: { authorization: `Bearer ${latest.access_token}` } });
    expect(revokedAccess.statusCode).toBe(401);
  });

  it('an answer lost on the way: the token rotated last, presented again soon while its successor is unused, rotates that successor', async () => {
    const s = await login(t.app, 'operator');
    const lost = await refresh(s.refreshToken); // the client never gets this answer and keeps its old cookie
    expect(lost.statusCode).toBe(200);
    const retried = await refresh(s.refreshToken);
    expect(retried.statusCode).toBe(200);
    const next = retried.json() as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe((lost.json() as { refresh_token: string }).refresh_token);
    expect(cookie(retried, 'Admin-Refresh-Token')?.value).toBe(next.refresh_token);
    expect((await t.app.inject({ url: '/default/api/users/account', headers: { authorization: `Bearer ${next.access_token}` } })).statusCode).toBe(200);
    // Once the retry's token is used too, a spent token of the family is theft and ends the family.
    const used = await refresh(next.refresh_token);
    expect(used.statusCode).toBe(200);
    const latest = used.json() as { access_token: string; refresh_token: string };
    expect((await refresh((lost.json() as { refresh_token: string }).refresh_token)).statusCode).toBe(401);
    expect((await refresh(latest.refresh_token)).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/default/api/users/account', headers: { authorization: `Bearer ${latest.access_token}` } })).statusCode).toBe(401);
  });

  it('the token rotated last, presented again after the leeway (REFRESH_REUSE_LEEWAY_S), ends the family', async () => {
    const s = await login(t.app, 'operator');
    const first = await refresh(s.refreshToken);
    expect(first.statusCode).toBe(200);
    await t.db.query('UPDATE refresh_tokens SET revoked_at = now() - make_interval(secs => $2) WHERE token_hash = $1', [
      hashRefreshToken(s.refreshToken),
      REFRESH_REUSE_LEEWAY_S + 1,
    ]);
    expect((await refresh(s.refreshToken)).statusCode).toBe(401);
    expect((await refresh((first.json() as { refresh_token: string }).refresh_token)).statusCode).toBe(401);
  });

  it('answers 401 for a missing or unknown refresh token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token' })).statusCode).toBe(401);
    const r = await refresh('nope');
    expect(r.statusCode).toBe(401);
  });
});

describe('POST /default/login/logout', () => {
  it('revokes the session and clears the cookies', async () => {
    const s = await login(t.app, 'advertiser');
    const r = await t.app.inject({
      method: 'POST',
      url: '/default/login/logout',
      cookies: { 'Admin-Token': s.token, 'Admin-Refresh-Token': s.refreshToken },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ detail: 'ok' });
    for (const name of ['Admin-Token', 'Admin-Refresh-Token', 'Redirect-Token']) {
      const c = cookie(r, name);
      expect(c?.value, name).toBe('');
      expect(new Date(String(c?.expires)).getTime()).toBeLessThan(Date.now());
    }
    expect((await t.app.inject({ url: '/default/api/users/account', headers: bearer(s) })).statusCode).toBe(401);
    const refresh = await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: s.refreshToken } });
    expect(refresh.statusCode).toBe(401);
  });

  it('answers 200 even when signed out', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/default/login/logout' })).statusCode).toBe(200);
  });
});

describe('GET /default/api/city/info/', () => {
  it('lists the cities to a signed-in user', async () => {
    const s = await login(t.app, 'member');
    const r = await t.app.inject({ url: '/default/api/city/info/', headers: bearer(s) });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ total_length: SEED_CITIES.length, count: SEED_CITIES.length, offset: 0, page_length: 1 });
    expect(body.content).toContainEqual({ id: expect.any(Number), name: 'fukushimaku', name_ja: '福島区' });
    expect(body.content).toContainEqual({ id: expect.any(Number), name: 'fukuoka', name_ja: '福岡市' });
    const page = await t.app.inject({ url: '/default/api/city/info?limit=5&offset=5', headers: bearer(s) });
    expect(page.json()).toMatchObject({ count: 5, limit: 5, offset: 5, page_length: 4 });
  });

  it('answers 401 when signed out', async () => {
    expect((await t.app.inject({ url: '/default/api/city/info/' })).statusCode).toBe(401);
  });
});
