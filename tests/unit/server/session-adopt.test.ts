// POST /default/api/session/adopt (ours; 000 4 Autologin): the tokens of an autologin link become the
// session cookies, on the real server and database; and the my-number callback the /mynumber page posts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const adopt = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/default/api/session/adopt', payload });
const cookie = (r: { cookies: Array<Record<string, unknown>> }, name: string) => r.cookies.find((c) => c.name === name);

describe('POST /default/api/session/adopt', () => {
  it('sets the session cookies of a live token pair and answers the user; the cookie then signs calls', async () => {
    const s = await login(t.app, 'operator');
    const r = await adopt({ token: s.token, refresh_token: s.refreshToken });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().user).toMatchObject({ username: 'operator', permission: 'Operator' });
    expect(cookie(r, 'Admin-Token')).toMatchObject({ value: s.token, httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie(r, 'Admin-Refresh-Token')).toMatchObject({ value: s.refreshToken, httpOnly: true });
    expect(cookie(r, 'Redirect-Token')).toBeUndefined();
    const me = await t.app.inject({ url: '/default/api/users/account', cookies: { 'Admin-Token': s.token } });
    expect(me.json().username).toBe('operator');
    // nothing was spent: the same link works twice, and the refresh token still rotates
    expect((await adopt({ token: s.token, refresh_token: s.refreshToken })).statusCode).toBe(200);
    const refreshed = await t.app.inject({ method: 'POST', url: '/cippoweb/api/refresh-token', payload: { refresh_token: s.refreshToken } });
    expect(refreshed.statusCode).toBe(200);
  });

  it('gives the member of the member city a Redirect-Token (booking session) as the login does', async () => {
    const s = await login(t.app, 'member');
    const r = await adopt({ token: s.token, refresh_token: s.refreshToken });
    expect(r.statusCode).toBe(200);
    expect(cookie(r, 'Redirect-Token')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('replaces an access token that does not verify with a fresh one of the same session', async () => {
    const s = await login(t.app, 'teacher');
    const r = await adopt({ token: 'not-a-jwt', refresh_token: s.refreshToken });
    expect(r.statusCode).toBe(200);
    const fresh = String(cookie(r, 'Admin-Token')?.value);
    expect(fresh).not.toBe('not-a-jwt');
    const me = await t.app.inject({ url: '/default/api/users/account', cookies: { 'Admin-Token': fresh } });
    expect(me.json().username).toBe('teacher');
  });

  it('refuses a missing, unknown, spent or revoked refresh token, and tokens of two sessions, with 401 and no cookie', async () => {
    const a = await login(t.app, 'police');
    const b = await login(t.app, 'police');
    for (const payload of [{}, { token: a.token }, { token: a.token, refresh_token: 'unknown' }, { token: a.token, refresh_token: b.refreshToken }]) {
      const r = await adopt(payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(401);
      expect(r.json()).toMatchObject({ code: 'unauthorized', detail: expect.any(String) });
      expect(r.cookies).toHaveLength(0);
    }
    const rotated = await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: a.refreshToken } });
    expect(rotated.statusCode).toBe(200);
    expect((await adopt({ token: a.token, refresh_token: a.refreshToken })).statusCode).toBe(401);
    await t.app.inject({ method: 'POST', url: '/default/login/logout', payload: { refresh_token: b.refreshToken } });
    expect((await adopt({ token: b.token, refresh_token: b.refreshToken })).statusCode).toBe(401);
  });
});

describe('POST /default/api/users/mynumber/callback (the /mynumber page)', () => {
  it('answers the address the link was started for, with no session needed', async () => {
    const s = await login(t.app, 'member');
    const start = await t.app.inject({
      method: 'PATCH',
      url: '/default/api/users/mynumber',
      cookies: { 'Admin-Token': s.token },
      payload: { redirect: '/cippoweb/top-page/' },
    });
    const { state } = start.json() as { state: string };
    const r = await t.app.inject({ method: 'POST', url: '/default/api/users/mynumber/callback', payload: { code: 'c', state, error: '', error_description: '' } });
    expect(r.json()).toEqual({ data: '/cippoweb/top-page/' });
  });
});
