/**
 * Refine auth provider (000 4 Sign-in, 001 7.1, 001 8). The server keeps the tokens in HttpOnly
 * cookies; the console stores only the chosen city (localStorage `City`).
 * - login: POST /default/api/login; refused roles get `user.denyPermission` and are signed out; a
 *   stored city the user may not use is forgotten; an Operator with one assigned city gets it chosen;
 *   lands on /{city}/dashboard, or /city without a chosen city.
 * - check: GET /default/api/users/account (no session → /login); a refused role or a chosen city
 *   outside the user's active cities signs out.
 * - logout: POST /default/login/logout, forgets `City`, goes to /login.
 * - onError: 401 signs out; 403 signs out and /login shows the permission message (001 8); other
 *   statuses are shown by the notification of the failing call.
 */
import type { AuthProvider } from '@refinedev/core';
import { effectiveRole, type Profile } from '@/shared/roles';
import { i18n } from '../i18n';
import { autoCity, cityAllowed, fetchAccount, landingPath, LOGIN_PATH, LOGOUT_PATH, signInDenial } from './account';
import { isApiError } from './api-error';
import { noteFreshTokens, request, startRefreshTimer, stopRefreshTimer } from './http';
import { getCity, getSession, markSignedOut, setCity, setProfile } from './session';

/** The login answer (001 7.1). Tokens are in the body for API clients; the console ignores them. */
interface LoginAnswer {
  user: Profile;
  booking?: { refresh?: string };
}

const FORBIDDEN = 403;
/** i18n key /login shows after a 403 sign-out. */
export const FORBIDDEN_REASON = 'errors.forbidden';

/** An error of the sign-in flow with a translated message (what the login page shows). */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

async function endServerSession(): Promise<void> {
  stopRefreshTimer();
  try {
    await request(LOGOUT_PATH, { method: 'POST', body: {}, refreshOn401: false });
  } catch {
    // already signed out on the server
  }
}

export const authProvider: AuthProvider = {
  async login(params: { username?: string; password?: string }) {
    let answer: LoginAnswer;
    try {
      answer = await request<LoginAnswer>(LOGIN_PATH, {
        method: 'POST',
        body: { username: params.username ?? '', password: params.password ?? '' },
        refreshOn401: false,
      });
    } catch (e) {
      const code = isApiError(e) ? String(e.code) : 'error';
      return { success: false, error: new SignInError((e as Error).message, code) };
    }
    noteFreshTokens();
    const profile = answer.user;
    const denial = signInDenial(profile);
    if (denial) {
      await endServerSession();
      markSignedOut(false);
      return { success: false, error: new SignInError(i18n.t(denial), 'denied') };
    }
    setProfile(profile);
    let city = getCity();
    if (city && !cityAllowed(profile, city)) city = null;
    city ??= autoCity(profile);
    setCity(city);
    startRefreshTimer();
    return { success: true, redirectTo: landingPath(city) };
  },

  async check() {
    let profile: Profile;
    try {
      profile = await fetchAccount();
    } catch (e) {
      return { authenticated: false, redirectTo: '/login', error: e as Error };
    }
    const denial = signInDenial(profile);
    const city = getCity();
    if (denial || (city && !cityAllowed(profile, city))) {
      await endServerSession();
      markSignedOut(!!city && !denial, denial);
      return { authenticated: false, logout: true, redirectTo: '/login' };
    }
    startRefreshTimer();
    return { authenticated: true };
  },

  async logout() {
    await endServerSession();
    markSignedOut(true);
    return { success: true, redirectTo: '/login' };
  },

  async onError(error: unknown) {
    const status = (error as { statusCode?: number } | null)?.statusCode;
    if (status === 401) return { logout: true, redirectTo: '/login', error: error as Error };
    if (status === FORBIDDEN) {
      // 001 8: the permission message, then sign-out. The console hides what the ability forbids,
      // so a 403 means the session lost its rights; /login shows the message once.
      markSignedOut(false, FORBIDDEN_REASON);
      return { logout: true, redirectTo: '/login', error: error as Error };
    }
    return {};
  },

  async getIdentity() {
    return getSession().profile ?? (await fetchAccount().catch(() => null));
  },

  async getPermissions() {
    const profile = getSession().profile;
    return profile ? effectiveRole(profile) : null;
  },
};
