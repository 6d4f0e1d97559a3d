/**
 * Who is signed in and where they may work (000 4 Sign-in, 000 6, 001 8): the account call and the
 * pure rules the auth provider applies to its answer.
 */
import { ADVERTISER_CITY, MEMBER_CITY } from '@/shared/constants';
import { canEnterCity, effectiveRole, type City, type Profile } from '@/shared/roles';
import { request } from './http';
import { setProfile } from './session';

/** GET /default/api/users/account (001 7.1). */
export const ACCOUNT_PATH = '/default/api/users/account';
/** POST /default/api/login (001 7.1). */
export const LOGIN_PATH = '/default/api/login';
/** POST /default/login/logout (001 7.1). */
export const LOGOUT_PATH = '/default/login/logout';
/** GET /default/api/city/info/ (001 7.3). */
export const CITY_INFO_PATH = '/default/api/city/info/';

let inflight: Promise<Profile> | null = null;

/**
 * Loads the signed-in profile (one request for every concurrent caller) and records it in the
 * session. Errors: ApiRequestError (401 after a failed refresh when nobody is signed in).
 */
export function fetchAccount(): Promise<Profile> {
  inflight ??= request<Profile>(ACCOUNT_PATH)
    .then((p) => {
      setProfile(p);
      return p;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/**
 * The i18n key of the reason a profile may not use the console, or null when it may (000 5 last rule,
 * 000 6, 001 8): a permission outside ACCEPTED_PERMISSIONS, or a Member who is neither a captain
 * department nor assigned to the member city.
 */
export function signInDenial(profile: Profile): string | null {
  const role = effectiveRole(profile);
  if (!role) return 'user.denyPermission';
  if (role === 'Member' && !profile.assign_city.some((c) => c.name === MEMBER_CITY)) return 'user.denyPermission';
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

/** The cities of a profile, by name, for looking up the Japanese name. */
export function citiesOf(profile: Profile | null): City[] {
  if (!profile) return [];
  const seen = new Map<string, City>();
  for (const c of [...profile.active_city, ...profile.assign_city]) if (!seen.has(c.name)) seen.set(c.name, c);
  return [...seen.values()];
}
