/**
 * Input checks and shared pieces of the users and account calls (000 5 password and registration
 * rules; 001 7.1, 7.2). The routes' schemas (./user-schemas.ts) check the shape, types and lengths of
 * the input; here: what they cannot say (trimmed values, a confirmation that differs, registration
 * password characters, uniqueness, cities by name), collected with the schema's field errors into
 * one 400; the profile fields of a create or update, paging, the manager check and YouTube ids.
 */
import type { FastifyRequest } from 'fastify';
import { PASSWORD_MIN } from '../../shared/constants';
import { clampPage, firstValue, idsOf, IDS_PARAM, listAnswer as envelope, MAX_IDS, SEARCH_PARAM } from '../../shared/list-query';
import { effectiveRole, type City, type Profile } from '../../shared/roles';
import type { FieldErrors } from '../../shared/validation';
import { authorize } from '../auth/authorize';
import { INT4_MAX } from '../openapi/integer-params';
import { HttpError } from '../http-error';
import { throwIfInvalid, throwIfPathOutOfRange } from '../plugins/validation';
import { listCities } from '../repositories/city-repository';
import * as users from '../repositories/user-repository';


export type Body = Record<string, unknown>;

export const RESET_TTL_S = 3600;
export const VERIFY_TTL_S = 3 * 86_400;
export const MYNUMBER_TTL_S = 600;

/** Half-width letters, digits and symbols other than `$` (000 5 registration). */
export const REGISTER_CHARS = /^[\x21-\x23\x25-\x7e]+$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const bodyOf = (request: FastifyRequest): Body =>
  typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? (request.body as Body) : {};
/** The string value of field `k` of a body or query, or undefined (missing or not a string). */
export const stringField = (b: Body, k: string): string | undefined => (typeof b[k] === 'string' ? (b[k] as string) : undefined);
export const isAdmin = (p: Profile) => effectiveRole(p) === 'Administrator';

export function intOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  return typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : null;
}

/** Adds the message `key` (an i18n key, with `params`) to `field` of `errors`. */
export function addFieldError(errors: FieldErrors, field: string, key: string, params: Record<string, unknown> = {}): void {
  (errors[field] ??= []).push({ key, params: { field, ...params } });
}

/** Throws 400 `validation` with `errors` when there is any (001 8). */
export function throwIfFieldErrors(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw new HttpError('validation', { fieldErrors: errors });
}

/**
 * 000 5 registration, beyond the route schema's length: half-width letters, digits and symbols but
 * `$`, with letters and digits. Skipped when the schema refused the field already.
 */
export function checkRegisterPassword(errors: FieldErrors, field: string, value: string | undefined): void {
  if (errors[field] || value === undefined) return;
  if (!REGISTER_CHARS.test(value)) addFieldError(errors, field, 'users.validation.passwordCharacters');
  else if (value.length < PASSWORD_MIN || !/[A-Za-z]/.test(value) || !/\d/.test(value)) addFieldError(errors, field, 'users.validation.registerPassword', { min: PASSWORD_MIN });
}

/** The confirmation of a password must repeat it (000 5); a missing one is the route schema's. */
export function checkConfirm(errors: FieldErrors, field: string, password: string | undefined, confirm: string | undefined): void {
  if (errors[field]) return;
  if (!confirm) addFieldError(errors, field, 'users.validation.confirmRequired');
  else if (password && confirm !== password) addFieldError(errors, field, 'users.validation.confirmMismatch');
}

export interface ProfileFields {
  username?: string;
  email?: string;
  name?: string;
  introduction?: string | null;
  avatar?: string | null;
}

/**
 * The profile fields present in `b`, trimmed; their rules are the route schema's (./user-schemas.ts),
 * and a field it refused is left out. A `required` one left empty gets its message (000 5).
 */
export function profileFields(b: Body, errors: FieldErrors, required: Array<'username' | 'email' | 'name'>): ProfileFields {
  const out: ProfileFields = {};
  const MISSING = { username: 'login.usernameRequired', email: 'users.validation.emailRequired', name: 'validation.generic.required' } as const;
  for (const field of ['username', 'email', 'name'] as const) {
    if (errors[field]) continue;
    const value = stringField(b, field)?.trim();
    if (value) out[field] = value;
    else if (required.includes(field)) addFieldError(errors, field, MISSING[field]);
  }
  if ('introduction' in b && !errors.introduction) out.introduction = (b.introduction as string | null) || null;
  if ('avatar' in b && !errors.avatar) out.avatar = (b.avatar as string | null) || null;
  return out;
}

/** Adds field errors for a username or e-mail another user has (001 8: fields username and email). */
export async function checkUnique(request: FastifyRequest, errors: FieldErrors, f: ProfileFields, exceptId: number | null): Promise<void> {
  if (!f.username && !f.email) return;
  const taken = await users.takenFields(request.server.db, f, exceptId);
  if (taken.username && !errors.username) addFieldError(errors, 'username', 'users.errors.usernameTaken');
  if (taken.email && !errors.email) addFieldError(errors, 'email', 'users.errors.emailTaken');
}

/** Runs a write; a unique violation that slipped past `checkUnique` (a race) answers the same field errors. */
export async function uniqueWrite<T>(request: FastifyRequest, f: ProfileFields, exceptId: number | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
    const errors: FieldErrors = {};
    await checkUnique(request, errors, f, exceptId);
    throwIfFieldErrors(errors);
    throw new HttpError('conflict');
  }
}

/**
 * One page of the users of `cityIds` (null: every city) that `filter` selects (001 7.1 user lists):
 * `limit`/`offset`/`search`/`ids` of the query read as every list reads them (src/shared/list-query.ts;
 * `ids`: only those users, as a form's user picker names the chosen ones).
 * Errors: 400/404 of the request's validation (plugins/validation.ts), asked here, after the caller's
 * checks; 400 `validation` for `ids` that are not at most MAX_IDS user ids.
 */
export async function listUsersAnswer(request: FastifyRequest, cityIds: number[] | null, filter: users.UserFilter) {
  throwIfInvalid(request);
  const q = request.query as Record<string, unknown>;
  const page = clampPage(q.limit, q.offset);
  const search = firstValue(q[SEARCH_PARAM]);
  const ids = q[IDS_PARAM] === undefined || q[IDS_PARAM] === '' ? undefined : idsOf(q[IDS_PARAM]);
  if (ids === null) throwIfFieldErrors({ [IDS_PARAM]: [{ key: 'validation.generic.format', params: { field: IDS_PARAM, format: 'ids' } }] });
  if (ids && ids.length > MAX_IDS) throwIfFieldErrors({ [IDS_PARAM]: [{ key: 'validation.generic.maxItems', params: { field: IDS_PARAM, limit: MAX_IDS } }] });
  const { content, total } = await users.listUsers(request.server.db, { cityIds, search, filter, ...(ids ? { ids: ids.map(Number).filter((id) => id <= INT4_MAX) /* a larger id names no user */ } : {}), ...page });
  return envelope(content, total, page);
}

/**
 * Authorizes a user-management call (000 6: Administrator everywhere, Operator in its cities) and
 * answers the caller, the path city and the cities it manages (null = all). Errors: 401, 403, 404.
 */
export async function authorizeUserManager(request: FastifyRequest, action: 'read' | 'create' | 'update' | 'delete') {
  const { profile, city } = await authorize(request, action, 'user');
  return { caller: profile, city, managed: isAdmin(profile) ? null : profile.assign_city.map((c) => c.id) };
}

/** User `:id` of the path city that the caller may change. Errors: 400 an id out of range (plugins/validation.ts); 404 not in the city; 403 an Administrator for a non-Administrator. */
export async function targetOf(request: FastifyRequest, caller: Profile, city: City): Promise<users.UserFacts> {
  throwIfPathOutOfRange(request);
  const id = intOf((request.params as { id?: string }).id);
  const user = id === null ? null : await users.findUserInCity(request.server.db, id, city.id);
  if (!user) throw new HttpError('not_found');
  if (user.permission === 'Administrator' && !isAdmin(caller)) throw new HttpError('forbidden');
  return user;
}

/**
 * The management fields (permission, captain flag, cities, school, group, classes) present in `b`;
 * their types are the route schema's (./user-schemas.ts), a field it refused is left out. Cities are
 * named by name, id or {id}. Errors: 403 for an Administrator made by a non-Administrator, or a city
 * the caller does not manage (`managed`; null: all).
 */
export async function managementFields(request: FastifyRequest, b: Body, errors: FieldErrors, caller: Profile, managed: number[] | null) {
  const out: Pick<users.UserPatch, 'permission' | 'isCaptainDepartment' | 'school' | 'group' | 'classes'> & { cityIds?: number[] } = {};
  const given = (field: string) => field in b && !errors[field];
  if (given('permission')) {
    if (b.permission === 'Administrator' && !isAdmin(caller)) throw new HttpError('forbidden');
    out.permission = b.permission as string;
  }
  if (given('is_captain_department')) out.isCaptainDepartment = b.is_captain_department === true;
  if (given('school')) out.school = b.school as number | null;
  if (given('group')) out.group = b.group as number | null;
  if (given('classes')) out.classes = b.classes as number[];
  if (given('assign_city')) {
    const all = await listCities(request.server.db);
    const found = (b.assign_city as unknown[]).map((v) => all.find((c) => c.name === v || c.id === v || (typeof v === 'object' && v !== null && c.id === (v as City).id)));
    if (found.some((c) => !c)) addFieldError(errors, 'assign_city', 'validation.generic.enum');
    else if (managed && found.some((c) => !managed.includes(c!.id))) throw new HttpError('forbidden');
    else out.cityIds = [...new Set(found.map((c) => c!.id))];
  }
  return out;
}

export async function profileAnswer(request: FastifyRequest, id: number): Promise<Profile> {
  const profile = await users.loadProfile(request.server.db, id);
  if (!profile) throw new HttpError('not_found');
  return profile;
}

/** The YouTube video id of a watch, short, embed, shorts or live URL (or a bare id), or null. */
export function youtubeId(raw: string): string | null {
  const ID = /^[A-Za-z0-9_-]{11}$/;
  if (ID.test(raw.trim())) return raw.trim();
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase().replace(/^(www|m|music)\./, '');
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | null | undefined = null;
  if (host === 'youtu.be') id = parts[0];
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    id = parts[0] === 'watch' ? url.searchParams.get('v') : ['embed', 'shorts', 'live', 'v', 'e'].includes(parts[0]) ? parts[1] : null;
  }
  return id && ID.test(id) ? id : null;
}

/**
 * Creates a user of `city` from checked profile fields (username and e-mail required), unique on
 * both (400 field errors otherwise, see `uniqueWrite`), e-mail not yet verified. Resolves to its id.
 */
export async function createCityUser(
  request: FastifyRequest,
  f: ProfileFields,
  city: string,
  extra: { passwordHash: string; permission: string; school?: number | null },
): Promise<number> {
  return uniqueWrite(request, f, null, async () =>
    users.createUser(request.server.db, {
      username: f.username!,
      email: f.email!,
      name: f.name ?? '',
      assignCity: [city],
      emailVerified: false,
      ...extra,
    }),
  );
}
