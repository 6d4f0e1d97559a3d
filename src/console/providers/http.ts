/**
 * The one fetch wrapper of the console (001 7, 8): JSON in and out, `Accept-Language` of the current
 * language, cookies of the same origin (the console never reads or stores a token), and on a 401 one
 * shared (single-flight) token refresh followed by one retry. A refused refresh signs the session
 * out; one that got no answer fails the call as a network failure (status 0) and signs nobody out.
 * Errors become `ApiRequestError` with status, code, detail and fields, and a message as the
 * error catalogue says (`errorMessage`): 500 'Server Error Occured…', 403 the permission message,
 * 406 'セッションが切れました', a `basics` error, else the server's message or 'Your {field} is invalid…'.
 *
 * A 60 s refresh timer (001 7.1 TOKEN_REFRESH_INTERVAL_MS) is shared by all tabs: the time of the last
 * refresh is kept in localStorage and refreshes run under a Web Lock, so one tab refreshes per minute.
 */
import { DEFAULT_CITY, TOKEN_REFRESH_INTERVAL_MS } from '@/shared/constants';
import { errorKey, type ErrorCode } from '@/shared/errors';
import { BACKGROUND_HEADER } from '@/shared/sessions';
import { currentLanguage, i18n } from '../i18n';
import { ApiRequestError } from './api-error';
import { startedInBackground } from './background-calls';
import { setMaintenance } from './maintenance';
import { getCity, markSignedOut } from './session';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body; sent with Content-Type application/json. */
  body?: unknown;
  /** Query parameters; undefined, null and '' values are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Refresh and retry once on a 401 (default true; false for sign-in, refresh and logout calls). */
  refreshOn401?: boolean;
  signal?: AbortSignal;
  /** The Accept header (default application/json; e.g. text/csv for an export). */
  accept?: string;
  /**
   * A call the console makes by itself, not at a user's action: sent with BACKGROUND_HEADER (no use of
   * the session for its idle limit). Default: true inside React Query's own refetches (./background-calls.ts).
   */
  background?: boolean;
}

/** localStorage key of the time (ms) of the last successful refresh, shared by every tab. */
export const STORAGE_REFRESHED_AT = 'token-refreshed-at';
const LOCK_NAME = 'city-console-token-refresh';
/** A refresh younger than this is reused by a 401 retry instead of refreshing again. */
const RECENT_REFRESH_MS = 5_000;

/** Adds the query string to a path. */
export function withQuery(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    params.append(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/**
 * The message the console shows for an error answer (001 8): 500 (and no answer) 'Server Error
 * Occured. Please Try Again !', a 5xx of a code of its own its catalogue text (501 `totp_unavailable`); 403 the permission message; 406 'セッションが切れました'; 405 and the
 * rest the server's message; a `basics` field error 'Basics field may not be blank.'; without a
 * message 'Your {first field} is invalid or exists already !', else the code's catalogue text.
 */
export function errorMessage(status: number, code: string, detail: string, fields?: Record<string, unknown>): string {
  const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
  // A 5xx with a code of its own (501 `totp_unavailable`) says what to do; every other one is the catalogue's 500 text.
  if (status >= 500 && code !== 'server_error' && i18n.exists(errorKey(code as ErrorCode))) return t(errorKey(code as ErrorCode));
  if (status >= 500 || status === 0) return t('errors.server_error');
  if (status === 403) return t('errors.forbidden');
  if (status === 406) return t('errors.session_expired');
  if (code === 'unknown_username') return t('errors.unknown_username');
  if (fields && 'basics' in fields) return t('errors.basics_blank');
  if (detail) return detail;
  const first = fields ? Object.keys(fields)[0] : undefined;
  if (first) return t('errors.invalid_or_exists', { field: first });
  return i18n.exists(errorKey(code as ErrorCode)) ? t(errorKey(code as ErrorCode)) : t('errors.server_error');
}

/**
 * The error of a non-2xx answer of any transport (fetch, or the upload's XMLHttpRequest) from its
 * status and body text (001 8 `{detail, code, fields?}`; a body that is not JSON counts as none):
 * an `ApiRequestError` with the message `errorMessage` gives. A 503 turns the maintenance page on.
 */
export function answerError(status: number, text: string): ApiRequestError {
  if (status === 503) setMaintenance(true);
  let body: { detail?: unknown; code?: unknown; fields?: unknown } = {};
  try {
    body = (JSON.parse(text) ?? {}) as typeof body;
  } catch {
    body = {};
  }
  const detail = typeof body.detail === 'string' ? body.detail : '';
  const code = typeof body.code === 'string' ? body.code : status >= 500 ? 'server_error' : 'error';
  const fields = body.fields && typeof body.fields === 'object' ? (body.fields as Record<string, string[]>) : undefined;
  return new ApiRequestError({ status, code, detail, fields, message: errorMessage(status, code, detail, fields) });
}

async function toError(res: Response): Promise<ApiRequestError> {
  let text = '';
  try {
    text = await res.text();
  } catch {
    text = '';
  }
  return answerError(res.status, text);
}

function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: opts.accept ?? 'application/json', 'Accept-Language': currentLanguage() };
  if (opts.background) headers[BACKGROUND_HEADER] = '1';
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  return fetch(withQuery(path, opts.query), { method: opts.method ?? 'GET', headers, body, credentials: 'same-origin', signal: opts.signal });
}

/** The error of a call that got no answer (status 0, code `network`, the catalogue's server-error text). */
export function networkError(): ApiRequestError {
  return new ApiRequestError({ status: 0, code: 'network', detail: '', message: errorMessage(0, 'network', '') });
}

/** A fetch that failed (no answer, or a body cut off while read) as a network failure (status 0); an abort stays an abort. */
function networkFailure(e: unknown): unknown {
  return (e as Error).name === 'AbortError' ? e : networkError();
}

/**
 * The console's one 401 rule (001 7.1: refresh, then retry), for every transport: runs `sendOnce`
 * and, when it answers 401, refreshes the session (`refreshSession`: one refresh for every caller
 * that asks meanwhile) and runs it once more. A refresh that got no answer fails the call as a
 * network failure (status 0; the session may be alive, nobody is signed out); a 401 after the
 * refresh, or a refused refresh, signs the console out. Answers the last answer, whatever its status.
 * Errors: `networkError()` for an unreachable refresh; whatever `sendOnce` throws.
 */
export async function sendWithRefresh<T extends { status: number }>(sendOnce: () => Promise<T>): Promise<T> {
  let answer = await sendOnce();
  if (answer.status !== 401) return answer;
  const refresh = await refreshSession();
  if (refresh === 'unreachable') throw networkError();
  if (refresh === 'refreshed') answer = await sendOnce();
  if (answer.status === 401) markSignedOut();
  return answer;
}

/**
 * Calls the API and answers the raw successful `Response` (a 401 is refreshed and retried once,
 * `sendWithRefresh`). A call made while React Query refetches by itself (./background-calls.ts) is
 * sent as a background call unless `opts.background` says otherwise. Errors: `ApiRequestError` for
 * every non-2xx answer and for network failures (status 0), among them a 401 whose refresh got no answer.
 */
export async function requestResponse(path: string, options: RequestOptions = {}): Promise<Response> {
  // Read before the first await: the trigger's scope ends when the query function returns its promise.
  const opts = options.background === undefined && startedInBackground() ? { ...options, background: true } : options;
  let res: Response;
  try {
    res = opts.refreshOn401 === false ? await send(path, opts) : await sendWithRefresh(() => send(path, opts));
  } catch (e) {
    throw networkFailure(e);
  }
  if (!res.ok) throw await toError(res);
  return res;
}

/**
 * Like `request`, with the answer's status (e.g. 209: a delete the server declined, 001 7.2).
 * A body cut off while it is read is a network failure (status 0), like a request that got no answer;
 * a body that is not JSON is a server error (status 500 'Server Error Occured…'): neither escapes as
 * a bare TypeError or SyntaxError, which callers would take for a refusal.
 */
export async function requestWithStatus<T>(path: string, opts: RequestOptions = {}): Promise<{ status: number; data: T }> {
  const res = await requestResponse(path, opts);
  if (res.status === 204) return { status: 204, data: undefined as T };
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw networkFailure(e);
  }
  try {
    return { status: res.status, data: (text ? JSON.parse(text) : undefined) as T };
  } catch {
    throw new ApiRequestError({ status: 500, code: 'server_error', detail: '', message: errorMessage(500, 'server_error', '') });
  }
}

/**
 * Calls the API and answers the parsed JSON body (undefined for 204).
 * Errors: `ApiRequestError` for every non-2xx answer and for network failures (status 0).
 */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  return (await requestWithStatus<T>(path, opts)).data;
}

function lastRefresh(): number {
  try {
    return Number(localStorage.getItem(STORAGE_REFRESHED_AT) ?? 0) || 0;
  } catch {
    return 0;
  }
}

/**
 * What a token refresh came to: `refreshed` (new tokens, or another tab's recent ones), `refused` (the
 * server ended the session: a 4xx, e.g. 401 for a revoked or expired refresh token) or `unreachable`
 * (no answer, or a 5xx: the session may well be alive; nothing is signed out and a later call tries again).
 */
export type RefreshOutcome = 'refreshed' | 'refused' | 'unreachable';

/** The reason /login shows after the last refused refresh (an i18n key), or null. */
let refusedReason: string | null = null;

async function refreshNow(force: boolean, minAgeMs: number): Promise<RefreshOutcome> {
  if (!force && Date.now() - lastRefresh() < minAgeMs) return 'refreshed';
  const city = getCity() ?? DEFAULT_CITY;
  let res: Response;
  try {
    res = await send(`/${encodeURIComponent(city)}/api/refresh-token`, { method: 'POST', body: {} });
  } catch {
    return 'unreachable';
  }
  if (res.status >= 500) return 'unreachable';
  // 406: a staff session past its idle or absolute limit; /login shows 'セッションが切れました' (001 8).
  if (!res.ok) {
    refusedReason = res.status === 406 ? 'errors.session_expired' : null;
    return 'refused';
  }
  noteFreshTokens();
  return 'refreshed';
}

function underLock(run: () => Promise<RefreshOutcome>): Promise<RefreshOutcome> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  // the lock's promise resolves to the callback's promise; `then` flattens it for the type checker too
  return locks ? locks.request(LOCK_NAME, run).then((outcome) => outcome) : run();
}

/** Records that the server just issued fresh tokens (sign-in), so no tab refreshes for a minute. */
export function noteFreshTokens(): void {
  try {
    localStorage.setItem(STORAGE_REFRESHED_AT, String(Date.now()));
  } catch {
    // no storage
  }
}

let inflight: Promise<RefreshOutcome> | null = null;

/** Runs one refresh for every caller that asks while one runs (single-flight; one at a time across tabs). */
function refreshOnce(minAgeMs: number): Promise<RefreshOutcome> {
  inflight ??= underLock(() => refreshNow(false, minAgeMs)).finally(() => {
    inflight = null;
  });
  return inflight;
}

/**
 * Refreshes the session tokens after a 401 (001 7.1: refresh, then retry), once for every caller that
 * asks while a refresh runs; a refresh another tab made in the last 5 s is reused. `refused` signs
 * the console out; `unreachable` does not (the caller's call fails as a network failure instead).
 */
export async function refreshSession(): Promise<RefreshOutcome> {
  const outcome = await refreshOnce(RECENT_REFRESH_MS);
  if (outcome === 'refused') markSignedOut(false, refusedReason);
  return outcome;
}

let timer: ReturnType<typeof setInterval> | null = null;

/**
 * Starts the 60 s refresh timer (idempotent); tabs skip a tick when another tab refreshed recently.
 * A refused refresh stops it and signs out; an unreachable server is tried again at the next tick.
 */
export function startRefreshTimer(): void {
  if (timer) return;
  timer = setInterval(() => {
    if (Date.now() - lastRefresh() < TOKEN_REFRESH_INTERVAL_MS - 1_000) return;
    void refreshOnce(TOKEN_REFRESH_INTERVAL_MS - 1_000).then((outcome) => {
      if (outcome !== 'refused') return;
      stopRefreshTimer();
      markSignedOut(false, refusedReason);
    });
  }, TOKEN_REFRESH_INTERVAL_MS);
}

/** Stops the refresh timer (sign-out). */
export function stopRefreshTimer(): void {
  if (timer) clearInterval(timer);
  timer = null;
}
