/**
 * Input checks and shared pieces of the users and account calls (000 5 password and registration
 * rules; 001 7.1, 7.2): body readers, field checks that collect FieldErrors and throw one 400, the
 * profile fields of a create or update, uniqueness, paging, the manager check and YouTube ids.
 */
import type { FastifyRequest } from 'fastify';
import { DESCRIPTION_MAX, PASSWORD_MIN } from '../../shared/constants';
import { clampPage, firstValue, listAnswer as envelope, SEARCH_PARAM } from '../../shared/list-query';
import { ACCEPTED_PERMISSIONS, effectiveRole, type City, type Profile } from '../../shared/roles';
import type { FieldErrors } from '../../shared/validation';
import { authorize } from '../auth/authorize';
import { HttpError } from '../http-error';
import { listCities } from '../repositories/city-repository';
import * as users from '../repositories/user-repository';


export type Body = Record<string, unknown>;

export const RESET_TTL_S = 3600;
export const VERIFY_TTL_S = 3 * 86_400;
export const MYNUMBER_TTL_S = 600;
export const USERNAME_MAX = 150;
export const NAME_MAX = 64;
export const EMAIL_MAX = 254;
export const URL_MAX = 2000;

/** Half-width letters, digits and symbols other than `$` (000 5 registration). */
export const REGISTER_CHARS = /^[\x21-\x23\x25-\x7e]+$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const bodyOf = (request: FastifyRequest): Body =>
  typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? (request.body as Body) : {};
export const text = (b: Body, k: string): string | undefined => (typeof b[k] === 'string' ? (b[k] as string) : undefined);
export const isAdmin = (p: Profile) => effectiveRole(p) === 'Administrator';

export function intOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  return typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : null;
}

export function add(errors: FieldErrors, field: string, key: string, params: Record<string, unknown> = {}): void {
  (errors[field] ??= []).push({ key, params: { field, ...params } });
}

export function check(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw new HttpError('validation', { fieldErrors: errors });
}

/** 000 5: required ('Password is required'); at least 8 characters without a space. */
export function checkPassword(errors: FieldErrors, field: string, value: string | undefined): void {
  if (!value) add(errors, field, 'login.passwordRequired');
  else if (value.length < PASSWORD_MIN || /\s/.test(value)) add(errors, field, 'login.passwordRule', { min: PASSWORD_MIN });
}

/** 000 5 registration: at least 8 with letters and digits, half-width letters, digits and symbols but `$`. */
export function checkRegisterPassword(errors: FieldErrors, field: string, value: string | undefined): void {
  if (!value) add(errors, field, 'login.passwordRequired');
  else if (!REGISTER_CHARS.test(value)) add(errors, field, 'users.validation.passwordCharacters');
  else if (value.length < PASSWORD_MIN || !/[A-Za-z]/.test(value) || !/\d/.test(value)) add(errors, field, 'users.validation.registerPassword', { min: PASSWORD_MIN });
}

export function checkConfirm(errors: FieldErrors, field: string, password: string | undefined, confirm: string | undefined): void {
  if (!confirm) add(errors, field, 'users.validation.confirmRequired');
  else if (password && confirm !== password) add(errors, field, 'users.validation.confirmMismatch');
}

export interface ProfileFields {
  username?: string;
  email?: string;
  name?: string;
  introduction?: string | null;
  avatar?: string | null;
}

/** Reads and checks the profile fields present in `b`; `required` ones must be there. */
export function profileFields(b: Body, errors: FieldErrors, required: Array<'username' | 'email' | 'name'>): ProfileFields {
  const out: ProfileFields = {};
  const username = text(b, 'username')?.trim();
  if (username) {
    if (username.length > USERNAME_MAX) add(errors, 'username', 'validation.generic.maxLength', { max: USERNAME_MAX });
    else if (/\s/.test(username)) add(errors, 'username', 'validation.generic.pattern');
    out.username = username;
  } else if (required.includes('username')) add(errors, 'username', 'login.usernameRequired');
  const email = text(b, 'email')?.trim();
  if (email) {
    if (email.length > EMAIL_MAX || !EMAIL.test(email)) add(errors, 'email', 'users.validation.emailInvalid');
    out.email = email;
  } else if (required.includes('email')) add(errors, 'email', 'users.validation.emailRequired');
  const name = text(b, 'name')?.trim();
  if (name !== undefined && name.length > NAME_MAX) add(errors, 'name', 'validation.name.maxLength', { max: NAME_MAX });
  if (name) out.name = name;
  else if (required.includes('name')) add(errors, 'name', 'validation.generic.required');
  if ('introduction' in b) {
    const v = b.introduction;
    if (v !== null && typeof v !== 'string') add(errors, 'introduction', 'validation.generic.type', { type: 'string' });
    else if (v && v.length > DESCRIPTION_MAX) add(errors, 'introduction', 'validation.generic.maxLength', { max: DESCRIPTION_MAX });
    else out.introduction = v || null;
  }
  if ('avatar' in b) {
    const v = b.avatar;
    if (v === null || v === '') out.avatar = null;
    else if (typeof v !== 'string' || v.length > URL_MAX || !/^(https?:\/\/|\/(?!\/))\S+$/.test(v)) add(errors, 'avatar', 'validation.generic.format');
    else out.avatar = v;
  }
  return out;
}

/** Adds field errors for a username or e-mail another user has (001 8: fields username and email). */
export async function checkUnique(request: FastifyRequest, errors: FieldErrors, f: ProfileFields, exceptId: number | null): Promise<void> {
  if (!f.username && !f.email) return;
  const taken = await users.takenFields(request.server.db, f, exceptId);
  if (taken.username && !errors.username) add(errors, 'username', 'users.errors.usernameTaken');
  if (taken.email && !errors.email) add(errors, 'email', 'users.errors.emailTaken');
}

/** Runs a write; a unique violation that slipped past `checkUnique` (a race) answers the same field errors. */
export async function uniqueWrite<T>(request: FastifyRequest, f: ProfileFields, exceptId: number | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
    const errors: FieldErrors = {};
    await checkUnique(request, errors, f, exceptId);
    check(errors);
    throw new HttpError('conflict');
  }
}

/**
 * One page of the users of `cityIds` (null: every city) that `filter` selects (001 7.1 user lists):
 * `limit`/`offset`/`search` of the query read as every list reads them (src/shared/list-query.ts).
 */
export async function listUsersAnswer(request: FastifyRequest, cityIds: number[] | null, filter: users.UserFilter) {
  const q = request.query as Record<string, unknown>;
  const page = clampPage(q.limit, q.offset);
  const search = firstValue(q[SEARCH_PARAM]);
  const { content, total } = await users.listUsers(request.server.db, { cityIds, search, filter, ...page });
  return envelope(content, total, page);
}

/** The caller's management rights in the path city: the cities it manages (null = all). */
export async function manager(request: FastifyRequest, action: 'read' | 'create' | 'update' | 'delete') {
  const { profile, city } = await authorize(request, action, 'user');
  return { caller: profile, city, managed: isAdmin(profile) ? null : profile.assign_city.map((c) => c.id) };
}

/** User `:id` of the path city that the caller may change. Errors: 404 not in the city; 403 an Administrator for a non-Administrator. */
export async function targetOf(request: FastifyRequest, caller: Profile, city: City): Promise<users.UserFacts> {
  const id = intOf((request.params as { id?: string }).id);
  const user = id === null ? null : await users.findUserInCity(request.server.db, id, city.id);
  if (!user) throw new HttpError('not_found');
  if (user.permission === 'Administrator' && !isAdmin(caller)) throw new HttpError('forbidden');
  return user;
}

/** Reads the management fields (permission, captain flag, cities, school, group, classes) present in `b`. */
export async function managementFields(request: FastifyRequest, b: Body, errors: FieldErrors, caller: Profile, managed: number[] | null) {
  const out: Pick<users.UserPatch, 'permission' | 'isCaptainDepartment' | 'school' | 'group' | 'classes'> & { cityIds?: number[] } = {};
  if ('permission' in b) {
    if (!(ACCEPTED_PERMISSIONS as readonly unknown[]).includes(b.permission)) add(errors, 'permission', 'validation.generic.enum');
    else if (b.permission === 'Administrator' && !isAdmin(caller)) throw new HttpError('forbidden');
    else out.permission = b.permission as string;
  }
  if ('is_captain_department' in b) out.isCaptainDepartment = b.is_captain_department === true;
  for (const [field, key] of [['school', 'school'], ['group', 'group']] as const) {
    if (!(field in b)) continue;
    const n = b[field] === null ? null : intOf(b[field]);
    if (n === null && b[field] !== null) add(errors, field, 'validation.generic.type', { type: 'integer' });
    else out[key] = n;
  }
  if ('classes' in b) {
    const list = Array.isArray(b.classes) ? b.classes.map(intOf) : [null];
    if (list.some((n) => n === null)) add(errors, 'classes', 'validation.generic.type', { type: 'array' });
    else out.classes = list as number[];
  }
  if ('assign_city' in b) {
    const all = await listCities(request.server.db);
    const wanted = Array.isArray(b.assign_city) ? b.assign_city : [];
    const found = wanted.map((v) => all.find((c) => c.name === v || c.id === v || (typeof v === 'object' && v !== null && c.id === (v as City).id)));
    if (!Array.isArray(b.assign_city) || found.some((c) => !c)) add(errors, 'assign_city', 'validation.generic.enum');
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
