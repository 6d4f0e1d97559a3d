/**
 * The session check, the fetch wrapper and the token refresh when an answer is lost on the way (001
 * 7.1, 001 8 'a failed user-info fetch signs out'): a failure that may pass (no answer, a cut body, a
 * 5xx but 503) is asked once more before the user is signed out; a body cut off while read is a
 * network failure (status 0), a body that is not JSON a server error, never a bare TypeError or
 * SyntaxError; a refresh that got no answer signs nobody out, a refused one does.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authProvider } from '@/console/providers/auth-provider';
import { ApiRequestError } from '@/console/providers/api-error';
import { request, startRefreshTimer, stopRefreshTimer } from '@/console/providers/http';
import { getSession, setCity, setProfile, takeReason } from '@/console/providers/session';
import { i18n } from '@/console/i18n';
import type { Profile } from '@/shared/roles';

const kobe = { id: 1, name: 'kobe', name_ja: '神戸市' };
const operator = {
  id: 7, username: 'op', name: 'Op', email: 'op@example.jp', avatar: null, introduction: null, permission: 'Operator',
  is_captain_department: false, assign_city: [kobe], active_city: [kobe], school: null, group: null, classes: [], advertisements: [], email_verified: true,
} as unknown as Profile;

/**
 * An answer of the fake server: a status and JSON body, a raw text body, a body that breaks off after
 * its first bytes, or no answer at all (fetch rejects).
 */
type Answer = { status: number; json?: unknown; text?: string; cut?: boolean } | { none: true };

const ACCOUNT = 'GET /default/api/users/account';

/**
 * Installs a fetch that answers each 'METHOD /path' of `routes` from its list (one entry per call, the
 * last one repeated) and every other call 200 {}. Answers the calls made, as 'METHOD /path'.
 */
function serve(routes: Record<string, Answer[]>): { paths: string[] } {
  const paths: string[] = [];
  const served = new Map<string, number>();
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const path = `${init.method ?? 'GET'} ${new URL(input, 'http://console.test').pathname}`;
    paths.push(path);
    const answers = routes[path];
    if (!answers) return new Response('{}', { status: 200 });
    const n = served.get(path) ?? 0;
    served.set(path, n + 1);
    const a = answers[Math.min(n, answers.length - 1)];
    if ('none' in a) throw new TypeError('Failed to fetch');
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

const accountCalls = (paths: string[]) => paths.filter((p) => p === ACCOUNT).length;
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
    serve({ [ACCOUNT]: [{ status: 200, cut: true }] });
    const error = await request('/default/api/users/account', { refreshOn401: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 0, code: 'network', message: 'Server Error Occured. Please Try Again !' });
  });

  it('a 200 whose body is not JSON is a server error (500)', async () => {
    serve({ [ACCOUNT]: [{ status: 200, text: '<html>proxy</html>' }] });
    const error = await request('/default/api/users/account', { refreshOn401: false }).catch((e: unknown) => e);
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
    const { paths } = serve({ [ACCOUNT]: [first, { status: 200, json: operator }] });
    expect(await authProvider.check!()).toEqual({ authenticated: true });
    expect(accountCalls(paths)).toBe(2);
    expect(logoutCalls(paths)).toBe(0);
    expect(getSession()).toMatchObject({ signedOut: false, profile: { id: 7 } });
  });

  it('a 500 twice signs out on the server and /login shows the error', async () => {
    const { paths } = serve({ [ACCOUNT]: [{ status: 500, json: { detail: '', code: 'server_error' } }] });
    expect(await authProvider.check!()).toMatchObject({ authenticated: false, logout: true });
    expect(accountCalls(paths)).toBe(2);
    expect(logoutCalls(paths)).toBe(1);
    expect(getSession()).toMatchObject({ signedOut: true, profile: null });
    expect(takeReason()).toBe('Server Error Occured. Please Try Again !');
  });

  it('no answer twice goes to /login without revoking the session', async () => {
    const { paths } = serve({ [ACCOUNT]: [{ status: 200, cut: true }] });
    expect(await authProvider.check!()).toMatchObject({ authenticated: false, redirectTo: '/login' });
    expect(accountCalls(paths)).toBe(2);
    expect(logoutCalls(paths)).toBe(0);
  });

  it('a 503 (maintenance) is not asked again and signs nobody out', async () => {
    const { paths } = serve({ [ACCOUNT]: [{ status: 503, json: { detail: '', code: 'maintenance' } }, { status: 200, json: operator }] });
    expect(await authProvider.check!()).toMatchObject({ authenticated: false, redirectTo: '/login' });
    expect(accountCalls(paths)).toBe(1);
    expect(logoutCalls(paths)).toBe(0);
  });
});

describe('the token refresh after a 401 (001 7.1)', () => {
  const REFRESH = 'POST /kobe/api/refresh-token';
  const NEWS = 'GET /kobe/api/news/';

  it('refreshed: the call is sent again and answers', async () => {
    const { paths } = serve({ [NEWS]: [{ status: 401 }, { status: 200, json: { results: [1] } }], [REFRESH]: [{ status: 200, json: {} }] });
    expect(await request('/kobe/api/news/')).toEqual({ results: [1] });
    expect(paths).toEqual([NEWS, REFRESH, NEWS]);
    expect(getSession().signedOut).toBe(false);
  });

  it('refused (401): the console is signed out and the call fails with 401', async () => {
    serve({ [NEWS]: [{ status: 401 }], [REFRESH]: [{ status: 401, json: { detail: '', code: 'unauthorized' } }] });
    await expect(request('/kobe/api/news/')).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toMatchObject({ signedOut: true, profile: null });
  });

  it.each([
    ['no answer', { none: true } as const],
    ['a 502', { status: 502, json: {} }],
  ])('%s to the refresh: the call fails as a network failure and nobody is signed out', async (_name, answer) => {
    const { paths } = serve({ [NEWS]: [{ status: 401 }], [REFRESH]: [answer] });
    await expect(request('/kobe/api/news/')).rejects.toMatchObject({ status: 0, code: 'network' });
    expect(paths).toEqual([NEWS, REFRESH]);
    expect(getSession()).toMatchObject({ signedOut: false, profile: { id: 7 } });
  });

  it('the 60 s timer: an unreachable server is tried again at the next tick; a refusal stops it and signs out', async () => {
    vi.useFakeTimers();
    try {
      const { paths } = serve({ [REFRESH]: [{ none: true }, { status: 200, json: {} }, { status: 401 }] });
      startRefreshTimer();
      const refreshes = () => paths.filter((p) => p === REFRESH).length;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(refreshes()).toBe(1);
      expect(getSession().signedOut).toBe(false);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(refreshes()).toBe(2);
      expect(getSession().signedOut).toBe(false);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(refreshes()).toBe(3);
      expect(getSession()).toMatchObject({ signedOut: true, profile: null });
      await vi.advanceTimersByTimeAsync(120_000);
      expect(refreshes()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
