/**
 * Refine auth provider (000 4 Sign-in, 001 7.1, 001 8). The server keeps the tokens in HttpOnly
 * cookies; the console stores only the chosen city (localStorage `City`).
 * - login: POST /default/api/login; staff with a second factor (or who must enrol one) go on to
 *   /login/mfa or /login/enrol (pages/sign-in-steps.tsx), which end with `finishSignIn`; user info without data or role is refused (001 8 texts); refused
 *   roles get `user.denyPermission` and are signed out (signInDenial: role, Member rule, the city
 *   `advertiser`, no menu set); a stored city the user may not use is forgotten; an Operator with one
 *   assigned city gets it chosen; lands on the root entry (rootPath: /cippoweb/top-page/ for the
 *   member, /{city}/dashboard, or /city without a chosen city).
 * - check: GET /default/api/users/account (no session → /login); a refused role or a chosen city
 *   outside the user's active cities signs out; any other failure of the user-info fetch signs out
 *   and /login shows the error or 'Verification failed, please login again' (001 8).
 * - logout (000 4): asks the server whose the session cookie is (GET /default/api/users/whoami); if
 *   not the loaded profile's, raises the mismatch modal (logout-mismatch.ts) and stays; otherwise
 *   POST /default/login/logout, forgets `City` and reloads the console on /login.
 * - onError: 401 signs out; 403 signs out and /login shows the permission message (001 8); other
 *   statuses are shown by the notification of the failing call.
 */
import type { AuthProvider } from '@refinedev/core';
import { effectiveRole, type Profile } from '@/shared/roles';
import { i18n } from '../i18n';
import {
  autoCity,
  checkUserInfo,
  cityAllowed,
  fetchAccount,
  LOGIN_PATH,
  LOGOUT_PATH,
  rootPath,
  signInDenial,
  UserInfoError,
  userInfoFailure,
  WHOAMI_PATH,
} from './account';
import { isApiError } from './api-error';
import { noteFreshTokens, request, startRefreshTimer, stopRefreshTimer } from './http';
import { loadManifests } from './manifests';
import { isLogoutMismatch, raiseLogoutMismatch } from './logout-mismatch';
import { getCity, getSession, markSignedOut, setCity, setProfile, storedCity } from './session';

/** The login answer (001 7.1). Tokens are in the body for API clients; the console ignores them. */
export interface LoginAnswer {
  user: Profile;
  booking?: { refresh?: string };
}

/** The login answer of staff who have a second step to take (docs/architecture.md 'Staff sign-in'). */
interface SecondStepAnswer {
  mfa_required: true;
  mfa_enrolment_required?: boolean;
  mfa_token: string;
  methods?: string[];
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

/**
 * Ends the session with a reason the login page shows once (an i18n key, or a message): revokes it on
 * the server and forgets the profile. Used by the deny flows (000 6, 001 8).
 */
export async function signOutWith(reason: string, clearCity = false): Promise<void> {
  await endServerSession();
  markSignedOut(clearCity, reason);
}

/** The id of the user the session cookie belongs to, or null when there is no session (000 4 Logout). */
async function cookieOwner(): Promise<number | null> {
  try {
    return (await request<{ id: number }>(WHOAMI_PATH)).id;
  } catch {
    return null;
  }
}

/** The pause (ms) before the session check asks for the user info a second time (ours). */
export const CHECK_RETRY_MS = 500;

/**
 * The user info for the session check (GET /default/api/users/account): a failure that may pass (no
 * answer, or a 5xx other than 503, e.g. a restarting proxy's 502) is asked once more after
 * CHECK_RETRY_MS, so that one lost answer neither signs the user out (001 8) nor sends them to /login.
 * Throws the second failure, or at once any other (401, 503, a refused user info).
 */
async function accountForCheck(): Promise<Profile> {
  try {
    return await fetchAccount();
  } catch (e) {
    if (!isApiError(e) || !(e.status === 0 || (e.status >= 500 && e.status !== 503))) throw e;
    await new Promise((resolve) => setTimeout(resolve, CHECK_RETRY_MS));
    return fetchAccount();
  }
}

/** Leaves the page for /login with a full reload (000 4 Logout: 'reloads'); kept apart for tests. */
function reloadToLogin(): void {
  globalThis.location?.replace('/login');
}

async function endServerSession(): Promise<void> {
  stopRefreshTimer();
  try {
    await request(LOGOUT_PATH, { method: 'POST', body: {}, refreshOn401: false });
  } catch {
    // already signed out on the server
  }
}

/**
 * The second step a sign-in needs after a right password (docs/architecture.md 'Staff sign-in'): the
 * short-lived `mfa_token` (kept in memory only: a reload goes back to /login), whether it is an
 * enrolment (REQUIRE_MFA_ROLES), and the factors the user may use.
 */
export interface SecondStep {
  token: string;
  enrol: boolean;
  methods: string[];
}

let secondStep: SecondStep | null = null;

/** The pending second step of the sign-in, or null (the step pages go back to /login without one). */
export function pendingSecondStep(): SecondStep | null {
  return secondStep;
}

/** Where the console goes for a second step: the code page, or the enrolment page. */
export const SECOND_STEP_PATHS = { code: '/login/mfa', enrol: '/login/enrol' } as const;

/**
 * Finishes a sign-in from the login answer (the password's, the second step's or a passkey's; 001
 * 7.1): refuses user info without data or role and the refused roles (signed out again), chooses the
 * city and starts the refresh timer. Resolves to Refine's login result.
 */
export async function finishSignIn(answer: LoginAnswer): Promise<{ success: boolean; redirectTo?: string; error?: Error }> {
  secondStep = null;
  noteFreshTokens();
  let profile: Profile;
  try {
    profile = checkUserInfo(answer.user);
  } catch (e) {
    await endServerSession();
    markSignedOut(false);
    return { success: false, error: new SignInError(i18n.t((e as UserInfoError).reason), 'denied') };
  }
  let city = getCity();
  if (city && !cityAllowed(profile, city)) city = null;
  city ??= autoCity(profile);
  // The city's menu sets decide too (000 6): they come with the manifests.
  await loadManifests();
  const denial = signInDenial(profile, city);
  if (denial) {
    await endServerSession();
    markSignedOut(false);
    return { success: false, error: new SignInError(i18n.t(denial), 'denied') };
  }
  setProfile(profile);
  setCity(city);
  startRefreshTimer();
  return { success: true, redirectTo: rootPath(profile, city) };
}

export const authProvider: AuthProvider = {
  async login(params: { username?: string; password?: string }) {
    let answer: LoginAnswer | SecondStepAnswer;
    try {
      answer = await request<LoginAnswer | SecondStepAnswer>(LOGIN_PATH, {
        method: 'POST',
        body: { username: params.username ?? '', password: params.password ?? '' },
        refreshOn401: false,
      });
    } catch (e) {
      const code = isApiError(e) ? String(e.code) : 'error';
      return { success: false, error: new SignInError((e as Error).message, code) };
    }
    if ('mfa_required' in answer) {
      secondStep = { token: answer.mfa_token, enrol: !!answer.mfa_enrolment_required, methods: answer.methods ?? ['totp'] };
      return { success: true, redirectTo: secondStep.enrol ? SECOND_STEP_PATHS.enrol : SECOND_STEP_PATHS.code };
    }
    return finishSignIn(answer);
  },

  async check() {
    let profile: Profile;
    try {
      profile = await accountForCheck();
    } catch (e) {
      // No session (401), no answer at all (status 0: offline, or a request cut by leaving the page), or
      // the service under maintenance (503: the maintenance page shows): nothing to sign out of here.
      if (isApiError(e) && (e.status === 401 || e.status === 0 || e.status === 503)) return { authenticated: false, redirectTo: '/login', error: e as Error };
      // 001 8: a failed user-info fetch signs out, shows the error or 'Verification failed…', goes to /.
      await signOutWith(userInfoFailure(e));
      return { authenticated: false, logout: true, redirectTo: '/', error: e as Error };
    }
    let city = getCity();
    // A city taken from the page's address (session.ts) that this profile may not enter: the stored
    // choice stays the session's city, and the address answers 401 or 404 (layout/city-area.tsx).
    if (city && city !== storedCity() && !cityAllowed(profile, city)) {
      city = storedCity();
      setCity(city);
    }
    const denial = signInDenial(profile, city);
    if (denial || (city && !cityAllowed(profile, city))) {
      await endServerSession();
      markSignedOut(!!city && !denial, denial);
      return { authenticated: false, logout: true, redirectTo: '/login' };
    }
    startRefreshTimer();
    return { authenticated: true };
  },

  async logout() {
    const profile = getSession().profile;
    if (isLogoutMismatch(profile?.id ?? null, await cookieOwner())) {
      raiseLogoutMismatch();
      return { success: true };
    }
    await endServerSession();
    markSignedOut(true);
    reloadToLogin();
    return { success: true };
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
