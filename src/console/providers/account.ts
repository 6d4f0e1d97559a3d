/**
 * Who is signed in and where they may work (000 4 Sign-in, 000 6, 001 8): the account call and the
 * pure rules the auth provider applies to its answer.
 */
import { ADVERTISER_CITY, MEMBER_CITY } from '@/shared/constants';
import { menuSetFor, resolveManifest } from '@/shared/manifest';
import { canEnterCity, effectiveRole, type City, type Profile } from '@/shared/roles';
import { request } from './http';
import { manifestsLoaded } from './manifests';
import { setProfile } from './session';

/** GET /default/api/users/account (001 7.1). */
export const ACCOUNT_PATH = '/default/api/users/account';
/** POST /default/api/login (001 7.1). */
export const LOGIN_PATH = '/default/api/login';
/** POST /default/login/logout (001 7.1). */
export const LOGOUT_PATH = '/default/login/logout';
/** GET /default/api/city/info/ (001 7.3). */
export const CITY_INFO_PATH = '/default/api/city/info/';
/**
 * GET /default/api/users/whoami → {id, refreshable} (ours: who the session cookie belongs to, null for
 * nobody, never 401; and whether a refresh-token cookie came: 000 4 Logout, the login page's check).
 */
export const WHOAMI_PATH = '/default/api/users/whoami';
/** POST /default/api/session/adopt {token, refresh_token} (ours: 000 4 Autologin). */
export const ADOPT_PATH = '/default/api/session/adopt';
/** POST /default/api/users/mynumber/callback {code, error, error_description, state} → {data: address} (ours, 001 7.1). */
export const MYNUMBER_CALLBACK_PATH = '/default/api/users/mynumber/callback';
/** The member area's landing page (000 2.1 Root entry, 000 4 Autologin). */
export const MEMBER_LANDING = `/${MEMBER_CITY}/top-page/`;

/** 001 8: the rejection of user info that has no data. */
export const NO_DATA_ERROR = 'error';
/** 001 8: the rejection of user info whose roles are empty. */
export const EMPTY_ROLES_ERROR = 'getInfo: roles must be a non-null array !';

/**
 * A user-info answer the console cannot use (001 8): `message` is the spec's rejection text ('error'
 * or 'getInfo: roles must be a non-null array !'); `reason` the i18n key of what the user is shown
 * (no data: 'Verification failed, please login again'; no role: 'no authority to access the system').
 */
export class UserInfoError extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
    this.name = 'UserInfoError';
  }
}

/**
 * What the console shows when the user-info fetch failed (001 8): the i18n key of a refused answer,
 * else the error's own message, else 'Verification failed, please login again' (its key).
 */
export function userInfoFailure(error: unknown): string {
  if (error instanceof UserInfoError) return error.reason;
  const message = error instanceof Error ? error.message : '';
  return message || 'errors.verification_failed';
}

/**
 * Checks a user-info answer before anything uses it (001 8): no data (not an object) rejects with
 * 'error'; an empty permission (our profile carries one role, `permission`) rejects with 'getInfo:
 * roles must be a non-null array !'. Answers the profile. Throws UserInfoError.
 */
export function checkUserInfo(data: unknown): Profile {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new UserInfoError(NO_DATA_ERROR, 'errors.verification_failed');
  const profile = data as Profile;
  if (typeof profile.permission !== 'string' || profile.permission.trim() === '') {
    throw new UserInfoError(EMPTY_ROLES_ERROR, 'errors.no_system_permission');
  }
  return { ...profile, assign_city: profile.assign_city ?? [], active_city: profile.active_city ?? [] };
}

let inflight: Promise<Profile> | null = null;

/**
 * Loads the signed-in profile (one request for every concurrent caller) and records it in the
 * session. Errors: ApiRequestError (401 after a failed refresh when nobody is signed in), UserInfoError
 * (an answer without data or without a role, 001 8).
 */
export function fetchAccount(): Promise<Profile> {
  inflight ??= request<unknown>(ACCOUNT_PATH)
    .then((data) => {
      const p = checkUserInfo(data);
      setProfile(p);
      return p;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** The i18n key of the deny message (000 6, 001 8). */
export const DENY_PERMISSION = 'user.denyPermission';

/**
 * The i18n key of the reason a profile may not use the console, or null when it may (000 5 last rule,
 * 000 6, 001 8); every reason means the deny message and a sign-out:
 * - a permission outside ACCEPTED_PERMISSIONS (a role with no menu set);
 * - a Member who is neither a captain department nor assigned to the member city;
 * - with a chosen `city`: the city `advertiser` for anyone but an Administrator, and a city whose
 *   manifest has no menu set for the role (checked once the manifests are here: ./manifests.ts).
 */
export function signInDenial(profile: Profile, city: string | null = null): string | null {
  const role = effectiveRole(profile);
  if (!role) return DENY_PERMISSION;
  if (role === 'Member' && !profile.assign_city.some((c) => c.name === MEMBER_CITY)) return DENY_PERMISSION;
  if (!city) return null;
  if (city === ADVERTISER_CITY && role !== 'Administrator') return DENY_PERMISSION;
  if (manifestsLoaded() && !resolveManifest(city)[menuSetFor(role, city)]) return DENY_PERMISSION;
  return null;
}

/**
 * Whether the profile may work in `city` (000 4: the chosen city must be among the active cities;
 * 000 6: the city `advertiser` is for Administrators only; Administrators may enter every city).
 */
export function cityAllowed(profile: Profile, city: string): boolean {
  const role = effectiveRole(profile);
  if (!role) return false;
  if (city === ADVERTISER_CITY) return role === 'Administrator';
  if (role === 'Administrator') return true;
  return canEnterCity(profile, city) && profile.active_city.some((c) => c.name === city);
}

/** The city chosen automatically at sign-in: the only assigned city of an Operator (000 4), else null. */
export function autoCity(profile: Profile): string | null {
  return effectiveRole(profile) === 'Operator' && profile.assign_city.length === 1 ? profile.assign_city[0].name : null;
}

/** Where a signed-in user lands: the chosen city's dashboard, else the city page (000 2.1 Root entry). */
export function landingPath(city: string | null): string {
  return city ? `/${encodeURIComponent(city)}/dashboard` : '/city';
}

/**
 * The root entry `/` (000 2.1): a Member in the member city (cippoweb: chosen, or with no city chosen
 * yet, assigned to it) goes to /cippoweb/top-page/, a chosen city to /{city}/dashboard, otherwise /city.
 */
export function rootPath(profile: Profile | null, city: string | null): string {
  if (profile && effectiveRole(profile) === 'Member') {
    const inMemberCity = city === MEMBER_CITY || (!city && profile.assign_city.some((c) => c.name === MEMBER_CITY));
    if (inMemberCity) return MEMBER_LANDING;
  }
  return landingPath(city);
}

/**
 * `path` when it is a path of this origin (`/…`, not `//…` nor `/\…`), else null: addresses from a
 * query string or an answer are followed only inside the console.
 */
export function safeLocalPath(path: string | null | undefined): string | null {
  return path && /^\/(?![/\\])/.test(path) ? path : null;
}

/**
 * The city autologin chooses (000 4 Autologin: the first assigned city), or null when the profile
 * has none it may work in.
 */
export function firstAssignedCity(profile: Profile): string | null {
  const first = profile.assign_city[0]?.name ?? null;
  return first && cityAllowed(profile, first) ? first : null;
}

/** The cities of a profile, by name, for looking up the Japanese name. */
export function citiesOf(profile: Profile | null): City[] {
  if (!profile) return [];
  const seen = new Map<string, City>();
  for (const c of [...profile.active_city, ...profile.assign_city]) if (!seen.has(c.name)) seen.set(c.name, c);
  return [...seen.values()];
}

/** The city's users list: GET {city}/api/users/ (001 7.2; query search, offset, limit, filter_by, ids). */
export function usersPath(city: string): string {
  return `/${encodeURIComponent(city)}/api/users/`;
}

/** One user's path: PUT and DELETE {city}/api/users/{id}/ (001 7.2). */
export function userPath(city: string, id: number): string {
  return `${usersPath(city)}${id}/`;
}
