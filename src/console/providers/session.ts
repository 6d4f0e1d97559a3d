/**
 * The session as the console knows it: the signed-in profile (never a token: the server keeps the
 * tokens in HttpOnly cookies) and the chosen city, kept in localStorage under `City` (000 3, 001 9).
 * A page opened at a city's address (`/kobe/news`: a new browser, a bookmark, a link in a mail) starts
 * with that city, so the console renders once for it, not first for the stored (or no) city and then
 * again; city-area.tsx stores it once the profile may enter it, and auth-provider.ts falls back to the
 * stored city when it may not.
 * A tiny external store, read by React through `useSessionValue` (one field at a time) and by the
 * providers directly.
 */
import { STORAGE_CITY } from '@/shared/constants';
import { isCityPagePath } from '@/shared/open-routes';
import type { Profile } from '@/shared/roles';

export interface SessionState {
  /** The profile of GET /default/api/users/account; null when signed out or not yet known. */
  profile: Profile | null;
  /** The chosen city's name (path code, e.g. `kobe`), or null. */
  city: string | null;
  /** True once a sign-out happened (refresh failed, logout): protected pages go to /login. */
  signedOut: boolean;
  /** i18n key of why the session was ended (e.g. `user.denyPermission`), shown once on /login. */
  reason: string | null;
  /**
   * The signed-in user's chat unread count (the user info's `chat_admin_unread`, 001 7.9; the chat
   * badge, 000 2.3), kept apart from `profile` so that a new count does not rebuild the menus, routes
   * and ability that depend on the profile object. 0 when signed out.
   */
  chatUnread: number;
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** The city kept in localStorage under `City` (the last one chosen), or null. */
export function storedCity(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_CITY) || null;
  } catch {
    return null;
  }
}

/** The city the page's address names (`/kobe/news` → `kobe`, 000 2.2), or null on an open page (`/login`, `/city`). */
function addressCity(): string | null {
  const pathname = globalThis.location?.pathname;
  if (!pathname || !isCityPagePath(pathname)) return null;
  try {
    return decodeURIComponent(pathname.split('/')[1]);
  } catch {
    return null;
  }
}

/** sessionStorage key of the sign-out reason: the logout reloads the page, the reason must survive it. */
const STORAGE_REASON = 'SignOutReason';

function stored(key: string, value?: string | null): string | null {
  try {
    if (value === null) globalThis.sessionStorage?.removeItem(key);
    else if (value !== undefined) globalThis.sessionStorage?.setItem(key, value);
    return globalThis.sessionStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

let state: SessionState = { profile: null, city: addressCity() ?? storedCity(), signedOut: false, reason: stored(STORAGE_REASON), chatUnread: 0 };

function emit(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

/** Subscribes to changes; returns the unsubscribe function (useSyncExternalStore shape). */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current state (a new object after every change). */
export function getSession(): SessionState {
  return state;
}

/**
 * Records the signed-in profile. The profile is reloaded on every route change (000 4): an unchanged
 * answer keeps the current object, so menus, routes and the ability are not rebuilt for nothing.
 * Its `chat_admin_unread` goes to `chatUnread` (an answer without it keeps the current count).
 */
export function setProfile(profile: Profile): void {
  const { chat_admin_unread: chat, ...rest } = profile;
  const chatUnread = typeof chat === 'number' && Number.isFinite(chat) ? chat : state.chatUnread;
  if (state.profile && !state.signedOut && JSON.stringify(state.profile) === JSON.stringify(rest)) {
    if (chatUnread !== state.chatUnread) emit({ chatUnread });
    return;
  }
  emit({ profile: rest, signedOut: false, chatUnread });
}

/** Sets the chat unread count (a live `chat-unread` event, layout/use-chat-unread.ts). */
export function setChatUnread(count: number): void {
  if (Number.isFinite(count) && count !== state.chatUnread) emit({ chatUnread: count });
}

/** The chosen city, or null. */
export function getCity(): string | null {
  return state.city;
}

/** Chooses a city (null forgets it) and keeps the choice in localStorage under `City`. */
export function setCity(city: string | null): void {
  try {
    if (city) localStorage.setItem(STORAGE_CITY, city);
    else localStorage.removeItem(STORAGE_CITY);
  } catch {
    // storage unavailable: the choice lives for this page only
  }
  if (city !== state.city) emit({ city });
}

/**
 * Forgets the profile after a sign-out; `clearCity` also forgets the chosen city (logout); `reason`
 * is an i18n key the login page shows once (kept in sessionStorage until then: the logout reloads).
 */
export function markSignedOut(clearCity = false, reason: string | null = null): void {
  if (clearCity) setCity(null);
  if (state.signedOut && !state.profile && !reason) return;
  if (reason) stored(STORAGE_REASON, reason);
  emit({ profile: null, signedOut: true, reason: reason ?? state.reason, chatUnread: 0 });
}

/** Takes (and clears) the reason of the last forced sign-out. */
export function takeReason(): string | null {
  const r = state.reason;
  if (r) state = { ...state, reason: null };
  stored(STORAGE_REASON, null);
  return r;
}
