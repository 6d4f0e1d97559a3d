/**
 * The session check and the fetch wrapper when an answer is lost on the way (001 8 'a failed user-info
 * fetch signs out'): a failure that may pass (no answer, a cut body, a 5xx but 503) is asked once
 * more before the user is signed out; a body cut off while read is a network failure (status 0), a
 * body that is not JSON a server error, never a bare TypeError or SyntaxError.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authProvider } from '@/console/providers/auth-provider';
import { ApiRequestError } from '@/console/providers/api-error';
import { request, stopRefreshTimer } from '@/console/providers/http';
import { getSession, setCity, setProfile, takeReason } from '@/console/providers/session';
import { i18n } from '@/console/i18n';
import type { Profile } from '@/shared/roles';

const kobe = { id: 1, name: 'kobe', name_ja: '神戸市' };
const operator = {
  id: 7, username: 'op', name: 'Op', email: 'op@example.jp', avatar: null, introduction: null, permission: 'Operator',
  is_captain_department: false, assign_city: [kobe], active_city: [kobe], school: null, group: null, classes: [], advertisements: [], email_verified: true,
} as unknown as Profile;

/** An answer of the fake server: a status and JSON body, a raw text body, or a body that breaks off after its first bytes. */
type Answer = { status: number; json?: unknown; text?: string; cut?: boolean };

/** Installs a fetch that answers the account call from `account` (one entry per call, the last repeated) and everything else 200 {}. */
function serve(account: Answer[]): { paths: string[] } {
  const paths: string[] = [];
  let n = 0;
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const path = `${init.method ?? 'GET'} ${new URL(input, 'http://console.test').pathname}`;
    paths.push(path);
    if (path !== 'GET /default/api/users/account') return new Response('{}', { status: 200 });
    const a = account[Math.min(n++, account.length - 1)];
    if (a.cut) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id": 7, "perm'));
          controller.error(new TypeError('network error'));
        },
      });
      return new Response(body, { status: a.status });
    }
    return new Response(a.text ?? JSON.stringify(a.json ?? {}), { status: a.status, headers: { 'Content-Type': 'application/json' } });
  });
  return { paths };
}

const accountCalls = (paths: string[]) => paths.filter((p) => p === 'GET /default/api/users/account').length;
const logoutCalls = (paths: string[]) => paths.filter((p) => p === 'POST /default/login/logout').length;

beforeEach(async () => {
  await i18n.changeLanguage('ja');
  setCity('kobe');
  setProfile(operator);
  takeReason();
});
afterEach(() => {
  stopRefreshTimer();
  vi.unstubAllGlobals();
});

describe('the fetch wrapper when an answer is lost', () => {
  it('a body cut off while read is a network failure (status 0, the server-error message)', async () => {
    serve([{ status: 200, cut: true }]);
    const error = await request('/default/api/users/account').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 0, code: 'network', message: 'Server Error Occured. Please Try Again !' });
  });

  it('a 200 whose body is not JSON is a server error (500)', async () => {
    serve([{ status: 200, text: '<html>proxy</html>' }]);
    const error = await request('/default/api/users/account').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 500, code: 'server_error' });
  });
});

describe('the session check (001 8)', () => {
  it.each([
    ['a 502', { status: 502, json: { detail: '', code: 'server_error' } }],
    ['a body cut off', { status: 200, cut: true }],
    ['a 200 that is not JSON', { status: 200, text: 'oops' }],
  ])('%s once, then the user info: still signed in, nothing revoked', async (_name, first) => {
    const { paths } = serve([first, { status: 200, json: operator }]);
    expect(await authProvider.check!()).toEqual({ authenticated: true });
    expect(accountCalls(paths)).toBe(2);
    expect(logoutCalls(paths)).toBe(0);
    expect(getSession()).toMatchObject({ signedOut: false, profile: { id: 7 } });
  });

  it('a 500 twice signs out on the server and /login shows the error', async () => {
    const { paths } = serve([{ status: 500, json: { detail: '', code: 'server_error' } }]);
    expect(await authProvider.check!()).toMatchObject({ authenticated: false, logout: true });
    expect(accountCalls(paths)).toBe(2);
    expect(logoutCalls(paths)).toBe(1);
    expect(getSession()).toMatchObject({ signedOut: true, profile: null });
    expect(takeReason()).toBe('Server Error Occured. Please Try Again !');
  });

  it('no answer twice goes to /login without revoking the session', async () => {
    const { paths } = serve([{ status: 200, cut: true }]);
    expect(await authProvider.check!()).toMatchObject({ authenticated: false, redirectTo: '/login' });
    expect(accountCalls(paths)).toBe(2);
    expect(logoutCalls(paths)).toBe(0);
  });

  it('a 503 (maintenance) is not asked again and signs nobody out', async () => {
    const { paths } = serve([{ status: 503, json: { detail: '', code: 'maintenance' } }, { status: 200, json: operator }]);
    expect(await authProvider.check!()).toMatchObject({ authenticated: false, redirectTo: '/login' });
    expect(accountCalls(paths)).toBe(1);
    expect(logoutCalls(paths)).toBe(0);
  });
});
