/**
 * The error catalogue of 001 8 in the console: the message of each status, the 'basics' and
 * 'Your {field} is invalid…' rules, what the notification shows (409 only logged, 403 nothing: it
 * signs out and /login says why), and the auth provider's sign-out on 403.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorMessage } from '@/console/providers/http';
import { errorNotification } from '@/console/providers/error-notification';
import { authProvider, FORBIDDEN_REASON } from '@/console/providers/auth-provider';
import { ApiRequestError } from '@/console/providers/api-error';
import { getSession, setProfile, takeReason } from '@/console/providers/session';
import { dataProvider } from '@/console/providers/data-provider';
import { setCity } from '@/console/providers/session';
import { i18n } from '@/console/i18n';
import type { Profile } from '@/shared/roles';
import { installFetch } from './fake-fetch';

beforeEach(async () => {
  await i18n.changeLanguage('ja');
  setCity('kobe');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('errorMessage (001 8)', () => {
  it.each([
    [500, 'server_error', 'boom', undefined, 'Server Error Occured. Please Try Again !'],
    [502, 'x', '', undefined, 'Server Error Occured. Please Try Again !'],
    [501, 'totp_unavailable', '', undefined, 'このサーバーでは認証アプリによる二要素認証を利用できません（MFA_SECRET_KEY が未設定です）。パスキーを使うか、システム管理者に連絡してください。'],
    [501, 'totp_key_mismatch', '', undefined, 'このサーバーの鍵（MFA_SECRET_KEY）では、登録済みの認証アプリの設定を読み取れません。リカバリーコードかパスキーでログインして認証アプリを設定し直すか、システム管理者に連絡してください。'],
    [0, 'network', '', undefined, 'Server Error Occured. Please Try Again !'],
    [403, 'forbidden', 'nope', undefined, 'この操作を行う権限がありません。'],
    [406, 'session_expired', 'x', undefined, 'セッションが切れました'],
    [405, 'method_not_allowed', 'このメソッドは使えません。', undefined, 'このメソッドは使えません。'],
    [400, 'validation', '', { basics: ['blank'] }, 'Basics field may not be blank.'],
    [400, 'validation', 'ユーザー名が既に使用されています。 もう一度お試しください。', { username: ['x'] }, 'ユーザー名が既に使用されています。 もう一度お試しください。'],
    [400, 'validation', '', { email: ['x'], username: ['y'] }, 'Your email is invalid or exists already !'],
    [404, 'not_found', '', undefined, '見つかりません。'],
    [418, 'teapot', '', undefined, 'Server Error Occured. Please Try Again !'],
  ] as const)('%i %s → %s', (status, code, detail, fields, text) => {
    expect(errorMessage(status, code, detail, fields as Record<string, string[]> | undefined)).toBe(text);
  });

  it('is translated: the basics message in Spanish', async () => {
    await i18n.changeLanguage('es');
    await new Promise((r) => setTimeout(r, 50));
    expect(errorMessage(400, 'validation', '', { basics: [] })).toBe('El campo básico no puede estar vacío.');
    await i18n.changeLanguage('ja');
  });
});

describe('error notification', () => {
  const err = (status: number, message: string) => new ApiRequestError({ status, code: 'x', detail: message, message });

  it('500 shows the catalogue text; 405 the server message', () => {
    expect(errorNotification(err(500, 'Server Error Occured. Please Try Again !'))).toMatchObject({ type: 'error', message: 'Server Error Occured. Please Try Again !' });
    expect(errorNotification(err(405, 'このメソッドは使えません。'))).toMatchObject({ type: 'error', message: 'このメソッドは使えません。' });
  });

  it('409 is only logged; 403 shows nothing here (the sign-out shows it)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(errorNotification(err(409, 'conflict'))).toBe(false);
    expect(warn).toHaveBeenCalled();
    expect(errorNotification(err(403, 'x'))).toBe(false);
  });
});

describe('auth provider onError', () => {
  const profile = { id: 1, username: 'op', permission: 'Operator', assign_city: [], active_city: [] } as unknown as Profile;

  it('403 signs out and leaves the permission message for /login', async () => {
    setProfile(profile);
    const answer = await authProvider.onError!(new ApiRequestError({ status: 403, code: 'forbidden', detail: '', message: 'x' }));
    expect(answer).toMatchObject({ logout: true, redirectTo: '/login' });
    expect(getSession()).toMatchObject({ profile: null, signedOut: true });
    expect(takeReason()).toBe(FORBIDDEN_REASON);
  });

  it('401 signs out; 400, 404, 409 and 500 do not', async () => {
    expect(await authProvider.onError!({ statusCode: 401 })).toMatchObject({ logout: true });
    for (const statusCode of [400, 404, 409, 500]) expect(await authProvider.onError!({ statusCode })).toEqual({});
  });
});

describe('errors through the data provider', () => {
  it("a 400 without detail says 'Your {first field} is invalid or exists already !' and keeps the fields", async () => {
    installFetch(() => ({ status: 400, body: { code: 'validation', fields: { email: ['既に使われています。'], username: ['x'] } } }));
    const e = await dataProvider.create({ resource: 'news', variables: {} }).catch((x: unknown) => x);
    expect(e).toMatchObject({ statusCode: 400, message: 'Your email is invalid or exists already !', errors: { email: ['既に使われています。'], username: ['x'] } });
  });
});
