/**
 * Users and account calls (001 7.1 rest, 7.2; 000 3 Profile, 5 password rules, 6 roles). Every
 * user-management call goes through `authorize(request, action, 'user')` (Administrator everywhere,
 * Operator in its assigned cities), own-account calls through subject `account`. Users of a city
 * are the users assigned to it; a user of another city is 404. Answers carry Profiles, never a hash.
 *
 * Lists (`{content: Profile[], total_length, count, limit, offset, page_length}`; query `search` over
 * username, name and e-mail, `offset`, `limit` default 20):
 * - GET  /:city/api/users/                           + `filter_by`: all, member, ad_user, ad_user_with_shop,
 *                                                       ad_user_without_shop, operator, president (400 otherwise)
 * - GET  /:city/api/users/get_ads_user_info_by_city  Advertisers of the city
 * - GET  /:city/api/users/get_ads_user_info          Advertisers of every city the caller manages
 * - GET  /:city/api/special-voucher/get_member_user/ Members of the city
 * Management (Administrator; Operator in its cities, never on or to an Administrator: 403):
 * - POST   /:city/api/users/  {username, email, password, permission, name?, is_captain_department?,
 *          assign_city? (names or ids), school?, group?, classes?, introduction?, avatar?} → 201 Profile
 * - PUT    /:city/api/users/:id/  the same fields, each optional (password too) → 200 Profile
 * - DELETE /:city/api/users/:id/  → 204; 209 {detail} when refused (the caller, the last Administrator), row kept.
 *          A user also in cities the caller does not manage only leaves this city.
 * - POST /:city/api/users/add_teacher/ {username, email?, name?, school, password?} → 201 new Teacher, or
 *        200 when the username is a user of the city (it becomes Teacher of `school`)
 * - PUT  /:city/api/users/:id/remove_teacher/ (`school` in query or body) → 200 Profile (school, group, classes cleared)
 * - GET  /:city/api/users/get_admin_info     → {city, total, by_role: {<role>: n}} (Captain counted apart)
 * - GET  /:city/api/users/get_operation_info → {city, total, by_filter: {<filter_by value>: n}}
 * Own account (any signed-in role in its cities):
 * - PUT  /:city/api/users/account {name?, email?, introduction?, avatar?} → 200 Profile (a new e-mail is unverified)
 * - PUT  /:city/api/users/change_password {old, new, confirm} → 200 {detail}; other sessions end
 * - GET  /:city/api/users/classes/ (`user_id` for a manager) → {content: class ids, total_length}
 * - GET  /:city/api/users/youtube_thumbnail?url= → {url: https://img.youtube.com/vi/<id>/hqdefault.jpg}
 * - GET  /:city/api/users/refresh_firebase_token/ → {token_firebase} (random, opaque)
 * - PATCH /default/api/users/mynumber {redirect?} → {state, expires_in}: starts a my-number link
 * Open (no token; rate-limited like the login):
 * - POST /:city/api/users/register {username, email, password, confirm, name?} → 201 Profile (Advertiser, e-mail unverified)
 * - POST /:city/api/users/email_verification (own account, or {email}) → 200 {detail}; never tells whether the address exists
 * - POST /:city/api/users/:id/confirm/ {token} (or a manager without token) → 200 {detail}
 * - GET  /request_reset_password_operator?email= → always 200 {detail}; stores a one-time token hash (1 h)
 * - POST /reset_password_operator/ {token, password, confirm} → 200 {detail}; every session ends
 * - POST /default/api/users/mynumber/callback {code, error?, error_description?, state} (ours) → 200 {data: address}
 * Tokens are delivered by mail in production; this server has no mail sender yet.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DESCRIPTION_MAX, MAX_LIMIT, PAGE_SIZE, PASSWORD_MIN } from '../../shared/constants';
import { ACCEPTED_PERMISSIONS, effectiveRole, type City, type Profile } from '../../shared/roles';
import type { FieldErrors } from '../../shared/validation';
import { authorize, requireProfile } from '../auth/authorize';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { HttpError } from '../http-error';
import { findCity, listCities } from '../repositories/city-repository';
import * as users from '../repositories/user-repository';
import { accessTokenOf } from '../plugins/auth';
import { translatorFor } from '../translator';

type Body = Record<string, unknown>;

const RESET_TTL_S = 3600;
const VERIFY_TTL_S = 3 * 86_400;
const MYNUMBER_TTL_S = 600;
const USERNAME_MAX = 150;
const NAME_MAX = 64;
const EMAIL_MAX = 254;
const URL_MAX = 2000;

/** Half-width letters, digits and symbols other than `$` (000 5 registration). */
const REGISTER_CHARS = /^[\x21-\x23\x25-\x7e]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const bodyOf = (request: FastifyRequest): Body =>
  typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? (request.body as Body) : {};
const text = (b: Body, k: string): string | undefined => (typeof b[k] === 'string' ? (b[k] as string) : undefined);
const isAdmin = (p: Profile) => effectiveRole(p) === 'Administrator';

function intOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  return typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : null;
}

function add(errors: FieldErrors, field: string, key: string, params: Record<string, unknown> = {}): void {
  (errors[field] ??= []).push({ key, params: { field, ...params } });
}

function check(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw new HttpError('validation', { fieldErrors: errors });
}

/** 000 5: required ('Password is required'); at least 8 characters without a space. */
function checkPassword(errors: FieldErrors, field: string, value: string | undefined): void {
  if (!value) add(errors, field, 'login.passwordRequired');
  else if (value.length < PASSWORD_MIN || /\s/.test(value)) add(errors, field, 'login.passwordRule', { min: PASSWORD_MIN });
}

/** 000 5 registration: at least 8 with letters and digits, half-width letters, digits and symbols but `$`. */
function checkRegisterPassword(errors: FieldErrors, field: string, value: string | undefined): void {
  if (!value) add(errors, field, 'login.passwordRequired');
  else if (!REGISTER_CHARS.test(value)) add(errors, field, 'users.validation.passwordCharacters');
  else if (value.length < PASSWORD_MIN || !/[A-Za-z]/.test(value) || !/\d/.test(value)) add(errors, field, 'users.validation.registerPassword', { min: PASSWORD_MIN });
}

function checkConfirm(errors: FieldErrors, field: string, password: string | undefined, confirm: string | undefined): void {
  if (!confirm) add(errors, field, 'users.validation.confirmRequired');
  else if (password && confirm !== password) add(errors, field, 'users.validation.confirmMismatch');
}

interface ProfileFields {
  username?: string;
  email?: string;
  name?: string;
  introduction?: string | null;
  avatar?: string | null;
}

/** Reads and checks the profile fields present in `b`; `required` ones must be there. */
function profileFields(b: Body, errors: FieldErrors, required: Array<'username' | 'email' | 'name'>): ProfileFields {
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
async function checkUnique(request: FastifyRequest, errors: FieldErrors, f: ProfileFields, exceptId: number | null): Promise<void> {
  if (!f.username && !f.email) return;
  const taken = await users.takenFields(request.server.db, f, exceptId);
  if (taken.username && !errors.username) add(errors, 'username', 'users.errors.usernameTaken');
  if (taken.email && !errors.email) add(errors, 'email', 'users.errors.emailTaken');
}

/** Runs a write; a unique violation that slipped past `checkUnique` (a race) answers the same field errors. */
async function uniqueWrite<T>(request: FastifyRequest, f: ProfileFields, exceptId: number | null, write: () => Promise<T>): Promise<T> {
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

/** `limit` (default 20, at most MAX_LIMIT) and `offset` of a list query. */
function pageOf(q: Record<string, unknown>): { limit: number; offset: number } {
  return { limit: Math.min(Math.max(intOf(q.limit) ?? PAGE_SIZE, 1), MAX_LIMIT), offset: intOf(q.offset) ?? 0 };
}

async function listAnswer(request: FastifyRequest, cityIds: number[] | null, filter: users.UserFilter) {
  const q = request.query as Record<string, unknown>;
  const { limit, offset } = pageOf(q);
  const search = typeof q.search === 'string' ? q.search : undefined;
  const { content, total } = await users.listUsers(request.server.db, { cityIds, search, filter, limit, offset });
  return { content, total_length: total, count: content.length, limit, offset, page_length: Math.ceil(total / limit) };
}

/** The caller's management rights in the path city: the cities it manages (null = all). */
async function manager(request: FastifyRequest, action: 'read' | 'create' | 'update' | 'delete') {
  const { profile, city } = await authorize(request, action, 'user');
  return { caller: profile, city, managed: isAdmin(profile) ? null : profile.assign_city.map((c) => c.id) };
}

/** User `:id` of the path city that the caller may change. Errors: 404 not in the city; 403 an Administrator for a non-Administrator. */
async function targetOf(request: FastifyRequest, caller: Profile, city: City): Promise<users.UserFacts> {
  const id = intOf((request.params as { id?: string }).id);
  const user = id === null ? null : await users.findUserInCity(request.server.db, id, city.id);
  if (!user) throw new HttpError('not_found');
  if (user.permission === 'Administrator' && !isAdmin(caller)) throw new HttpError('forbidden');
  return user;
}

/** Reads the management fields (permission, captain flag, cities, school, group, classes) present in `b`. */
async function managementFields(request: FastifyRequest, b: Body, errors: FieldErrors, caller: Profile, managed: number[] | null) {
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

async function profileAnswer(request: FastifyRequest, id: number): Promise<Profile> {
  const profile = await users.loadProfile(request.server.db, id);
  if (!profile) throw new HttpError('not_found');
  return profile;
}

/** The YouTube video id of a watch, short, embed, shorts or live URL (or a bare id), or null. */
function youtubeId(raw: string): string | null {
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

/** Registers the users and account calls, and the city calls of 001 7.3 that routes/cities.ts does not serve (`registerUserCityRoutes`). */
export function registerUserRoutes(app: FastifyInstance): void {
  const { db, tokens } = app;
  const open = app.config.loginRateLimit > 0 ? { config: { rateLimit: { max: app.config.loginRateLimit, timeWindow: 60_000 } } } : {};
  const detail = (request: FastifyRequest, key: string) => ({ detail: translatorFor(request.headers['accept-language'])(key) });

  app.get('/:city/api/users/', async (request) => {
    const { city } = await manager(request, 'read');
    const raw = (request.query as Record<string, unknown>).filter_by;
    const filter = raw === undefined || raw === '' ? 'all' : raw;
    if (!(users.USER_FILTERS as readonly unknown[]).includes(filter)) check({ filter_by: [{ key: 'validation.generic.enum', params: { field: 'filter_by' } }] });
    return listAnswer(request, [city.id], filter as users.UserFilter);
  });

  app.get('/:city/api/users/get_ads_user_info_by_city', async (request) => listAnswer(request, [(await manager(request, 'read')).city.id], 'ad_user'));
  app.get('/:city/api/users/get_ads_user_info', async (request) => listAnswer(request, (await manager(request, 'read')).managed, 'ad_user'));
  app.get('/:city/api/special-voucher/get_member_user/', async (request) => listAnswer(request, [(await manager(request, 'read')).city.id], 'member'));

  app.get('/:city/api/users/get_admin_info', async (request) => {
    const { city } = await manager(request, 'read');
    return { city, ...(await users.countByRole(db, city.id)) };
  });

  app.get('/:city/api/users/get_operation_info', async (request) => {
    const { city } = await manager(request, 'read');
    const by_filter = await users.countByFilter(db, city.id);
    return { city, total: by_filter.all, by_filter };
  });

  app.post('/:city/api/users/', async (request, reply) => {
    const { caller, city, managed } = await manager(request, 'create');
    const b = bodyOf(request);
    const errors: FieldErrors = {};
    const f = profileFields(b, errors, ['username', 'email']);
    const password = text(b, 'password');
    checkPassword(errors, 'password', password);
    if (!('permission' in b)) add(errors, 'permission', 'validation.generic.required');
    const m = await managementFields(request, b, errors, caller, managed);
    await checkUnique(request, errors, f, null);
    check(errors);
    const cityIds = [...new Set([city.id, ...(m.cityIds ?? [])])];
    const all = await listCities(db);
    const id = await uniqueWrite(request, f, null, async () =>
      users.createUser(db, {
        username: f.username!,
        email: f.email!,
        name: f.name ?? '',
        passwordHash: await hashPassword(password!),
        permission: m.permission!,
        isCaptainDepartment: m.isCaptainDepartment,
        assignCity: all.filter((c) => cityIds.includes(c.id)).map((c) => c.name),
        school: m.school,
        group: m.group,
        classes: m.classes,
      }),
    );
    await users.updateUser(db, id, { introduction: f.introduction, avatar: f.avatar });
    await users.auditUser(db, caller.id, city.name, 'create', id);
    return reply.code(201).send(await profileAnswer(request, id));
  });

  app.put('/:city/api/users/:id/', async (request) => {
    const { caller, city, managed } = await manager(request, 'update');
    const target = await targetOf(request, caller, city);
    const b = bodyOf(request);
    const errors: FieldErrors = {};
    const f = profileFields(b, errors, []);
    const password = text(b, 'password');
    if (password !== undefined && password !== '') checkPassword(errors, 'password', password);
    const { cityIds, ...m } = await managementFields(request, b, errors, caller, managed);
    if (target.permission === 'Administrator' && m.permission && m.permission !== 'Administrator') {
      if ((await users.countAdministrators(db)) <= 1) add(errors, 'permission', 'users.errors.lastAdministrator');
    }
    await checkUnique(request, errors, f, target.id);
    check(errors);
    // An Operator's change of cities keeps the user's cities it does not manage.
    const assignCityIds = cityIds && (managed ? [...target.assign_city.filter((c) => !managed.includes(c)), ...cityIds] : cityIds);
    const emailChanged = f.email !== undefined && f.email.toLowerCase() !== target.email.toLowerCase();
    await uniqueWrite(request, f, target.id, async () =>
      users.updateUser(db, target.id, {
        ...f,
        ...m,
        assignCityIds,
        passwordHash: password ? await hashPassword(password) : undefined,
        emailVerified: emailChanged ? false : undefined,
      }),
    );
    if (password) for (const family of await users.liveFamilies(db, target.id)) await tokens.revokeFamily(family);
    await users.auditUser(db, caller.id, city.name, 'update', target.id);
    return profileAnswer(request, target.id);
  });

  app.delete('/:city/api/users/:id/', async (request, reply) => {
    const { caller, city, managed } = await manager(request, 'delete');
    const target = await targetOf(request, caller, city);
    if (target.id === caller.id) return reply.code(209).send(detail(request, 'users.detail.cannotDeleteSelf'));
    const outcome = await users.removeUser(db, target.id, city.id, managed);
    if (!outcome) throw new HttpError('not_found');
    if (outcome === 'last_administrator') return reply.code(209).send(detail(request, 'users.errors.lastAdministrator'));
    await users.auditUser(db, caller.id, city.name, outcome === 'deleted' ? 'delete' : 'unassign', target.id);
    return reply.code(204).send();
  });

  app.post('/:city/api/users/add_teacher/', async (request, reply) => {
    const { caller, city } = await manager(request, 'create');
    const b = bodyOf(request);
    const errors: FieldErrors = {};
    const f = profileFields(b, errors, ['username']);
    const school = intOf(b.school);
    if (school === null) add(errors, 'school', 'validation.generic.required');
    check(errors);
    const existing = await users.findUserBy(db, { username: f.username });
    if (existing && existing.assign_city.includes(city.id)) {
      if (existing.permission === 'Administrator' && !isAdmin(caller)) throw new HttpError('forbidden');
      await users.updateUser(db, existing.id, { permission: 'Teacher', school });
      await users.auditUser(db, caller.id, city.name, 'add_teacher', existing.id);
      return profileAnswer(request, existing.id);
    }
    if (!f.email) add(errors, 'email', 'users.validation.emailRequired');
    const password = text(b, 'password');
    if (password) checkPassword(errors, 'password', password);
    await checkUnique(request, errors, f, null);
    check(errors);
    const id = await uniqueWrite(request, f, null, async () =>
      users.createUser(db, {
        username: f.username!,
        email: f.email!,
        name: f.name ?? '',
        passwordHash: password ? await hashPassword(password) : users.UNUSABLE_PASSWORD,
        permission: 'Teacher',
        assignCity: [city.name],
        school,
        emailVerified: false,
      }),
    );
    await users.auditUser(db, caller.id, city.name, 'add_teacher', id);
    return reply.code(201).send(await profileAnswer(request, id));
  });

  app.put('/:city/api/users/:id/remove_teacher/', async (request) => {
    const { caller, city } = await manager(request, 'update');
    const target = await targetOf(request, caller, city);
    const school = intOf((request.query as Body).school ?? bodyOf(request).school);
    if (school === null) check({ school: [{ key: 'validation.generic.required', params: { field: 'school' } }] });
    if (target.school !== school) check({ school: [{ key: 'users.validation.notTeacherOfSchool', params: { field: 'school' } }] });
    await users.updateUser(db, target.id, { school: null, group: null, classes: [] });
    await users.auditUser(db, caller.id, city.name, 'remove_teacher', target.id);
    return profileAnswer(request, target.id);
  });

  app.get('/:city/api/users/classes/', async (request) => {
    const { profile, city } = await authorize(request, 'read', 'account');
    const raw = (request.query as Body).user_id;
    let classes = profile.classes;
    if (raw !== undefined && intOf(raw) !== profile.id) {
      await manager(request, 'read');
      const target = intOf(raw) === null ? null : await users.findUserInCity(db, intOf(raw)!, city.id);
      if (!target) throw new HttpError('not_found');
      classes = (await profileAnswer(request, target.id)).classes;
    }
    return { content: classes, total_length: classes.length };
  });

  app.put('/:city/api/users/account', async (request) => {
    const { profile } = await authorize(request, 'update', 'account');
    const b = bodyOf(request);
    const errors: FieldErrors = {};
    const { username: _ignored, ...f } = profileFields(b, errors, []);
    await checkUnique(request, errors, f, profile.id);
    check(errors);
    const emailChanged = f.email !== undefined && f.email.toLowerCase() !== profile.email.toLowerCase();
    await uniqueWrite(request, f, profile.id, () => users.updateUser(db, profile.id, { ...f, emailVerified: emailChanged ? false : undefined }));
    return profileAnswer(request, profile.id);
  });

  app.put('/:city/api/users/change_password', async (request) => {
    const { profile } = await authorize(request, 'update', 'account');
    const b = bodyOf(request);
    const [old, next, confirm] = [text(b, 'old'), text(b, 'new'), text(b, 'confirm')];
    const errors: FieldErrors = {};
    if (!old) add(errors, 'old', 'login.passwordRequired');
    checkPassword(errors, 'new', next);
    checkConfirm(errors, 'confirm', next, confirm);
    check(errors);
    if (!(await verifyPassword(old!, (await users.findPasswordHash(db, profile.id)) ?? ''))) check({ old: [{ key: 'users.validation.oldPasswordWrong', params: { field: 'old' } }] });
    await users.updateUser(db, profile.id, { passwordHash: await hashPassword(next!) });
    for (const family of await users.liveFamilies(db, profile.id)) if (family !== request.tokenFamily) await tokens.revokeFamily(family);
    return detail(request, 'users.detail.passwordChanged');
  });

  app.get('/:city/api/users/youtube_thumbnail', async (request) => {
    await authorize(request, 'read', 'account');
    const url = (request.query as Body).url;
    const id = typeof url === 'string' ? youtubeId(url) : null;
    if (!id) check({ url: [{ key: 'users.validation.youtubeUrl', params: { field: 'url' } }] });
    return { url: `https://img.youtube.com/vi/${id}/hqdefault.jpg` };
  });

  app.get('/:city/api/users/refresh_firebase_token/', async (request) => {
    await authorize(request, 'read', 'account');
    return { token_firebase: randomBytes(32).toString('base64url') };
  });

  app.patch('/default/api/users/mynumber', async (request) => {
    const profile = requireProfile(request);
    const redirect = text(bodyOf(request), 'redirect') ?? '/';
    if (!/^\/(?![/\\])[^\s\\]*$/.test(redirect)) check({ redirect: [{ key: 'validation.generic.format', params: { field: 'redirect' } }] });
    const state = await users.issueUserToken(db, profile.id, 'mynumber', MYNUMBER_TTL_S, { redirect });
    return { state, expires_in: MYNUMBER_TTL_S };
  });

  app.post('/default/api/users/mynumber/callback', open, async (request) => {
    const b = bodyOf(request);
    const error = text(b, 'error') || text(request.query as Body, 'error');
    const state = text(b, 'state');
    const spent = state ? await users.consumeUserToken(db, 'mynumber', state) : null;
    if (!spent) return { data: `/login?mynumber_error=invalid_state` };
    const redirect = typeof spent.data.redirect === 'string' ? spent.data.redirect : '/';
    if (error || !text(b, 'code')) {
      const sep = redirect.includes('?') ? '&' : '?';
      return { data: `${redirect}${sep}mynumber_error=${encodeURIComponent(error || 'invalid_request')}` };
    }
    await users.updateUser(db, spent.userId, { mynumberLinked: true });
    return { data: redirect };
  });

  app.post('/:city/api/users/register', open, async (request, reply) => {
    const city = await findCity(db, (request.params as { city: string }).city);
    if (!city) throw new HttpError('not_found');
    const b = bodyOf(request);
    const errors: FieldErrors = {};
    const f = profileFields(b, errors, ['username', 'email']);
    const password = text(b, 'password');
    checkRegisterPassword(errors, 'password', password);
    checkConfirm(errors, 'confirm', password, text(b, 'confirm'));
    await checkUnique(request, errors, f, null);
    check(errors);
    const id = await uniqueWrite(request, f, null, async () =>
      users.createUser(db, {
        username: f.username!,
        email: f.email!,
        name: f.name ?? '',
        passwordHash: await hashPassword(password!),
        permission: 'Advertiser',
        assignCity: [city.name],
        emailVerified: false,
      }),
    );
    await users.issueUserToken(db, id, 'email_verification', VERIFY_TTL_S);
    await users.auditUser(db, null, city.name, 'register', id);
    return reply.code(201).send(await profileAnswer(request, id));
  });

  app.post('/:city/api/users/email_verification', open, async (request) => {
    if (request.profile) {
      const { profile } = await authorize(request, 'update', 'account');
      if (!profile.email) check({ email: [{ key: 'users.validation.emailRequired', params: { field: 'email' } }] });
      if (!profile.email_verified) await users.issueUserToken(db, profile.id, 'email_verification', VERIFY_TTL_S);
    } else {
      const email = text(bodyOf(request), 'email')?.trim();
      if (!email || !EMAIL.test(email)) check({ email: [{ key: 'users.validation.emailInvalid', params: { field: 'email' } }] });
      const city = await findCity(db, (request.params as { city: string }).city);
      const user = city ? await users.findUserBy(db, { email }) : null;
      if (user && city && user.assign_city.includes(city.id) && !user.email_verified) await users.issueUserToken(db, user.id, 'email_verification', VERIFY_TTL_S);
    }
    return detail(request, 'users.detail.verificationSent');
  });

  app.post('/:city/api/users/:id/confirm/', open, async (request) => {
    const token = text(bodyOf(request), 'token');
    const id = intOf((request.params as { id: string }).id);
    if (id === null) throw new HttpError('not_found');
    if (token) {
      const spent = await users.consumeUserToken(db, 'email_verification', token, id);
      if (!spent) check({ token: [{ key: 'users.errors.tokenInvalid', params: { field: 'token' } }] });
    } else if (request.profile) {
      const { caller, city } = await manager(request, 'update');
      await targetOf(request, caller, city);
    } else check({ token: [{ key: 'validation.generic.required', params: { field: 'token' } }] });
    await users.updateUser(db, id, { emailVerified: true });
    return detail(request, 'users.detail.emailConfirmed');
  });

  app.get('/request_reset_password_operator', open, async (request) => {
    const email = text(request.query as Body, 'email')?.trim();
    const user = email && EMAIL.test(email) ? await users.findUserBy(db, { email }) : null;
    if (user) await users.issueUserToken(db, user.id, 'reset_password', RESET_TTL_S);
    return detail(request, 'users.detail.resetRequested');
  });

  app.post('/reset_password_operator/', open, async (request) => {
    const b = bodyOf(request);
    const [token, password] = [text(b, 'token'), text(b, 'password')];
    const errors: FieldErrors = {};
    if (!token) add(errors, 'token', 'validation.generic.required');
    checkPassword(errors, 'password', password);
    checkConfirm(errors, 'confirm', password, text(b, 'confirm'));
    check(errors);
    const spent = await users.consumeUserToken(db, 'reset_password', token!);
    if (!spent) check({ token: [{ key: 'users.errors.tokenInvalid', params: { field: 'token' } }] });
    await users.updateUser(db, spent!.userId, { passwordHash: await hashPassword(password!) });
    for (const family of await users.liveFamilies(db, spent!.userId)) await tokens.revokeFamily(family);
    await users.auditUser(db, null, null, 'reset_password', spent!.userId);
    return detail(request, 'users.detail.passwordChanged');
  });

  registerUserCityRoutes(app);
}

/** The profile of a request outside the API paths (the auth hook reads API paths only), or null. */
async function profileOf(request: FastifyRequest): Promise<Profile | null> {
  if (request.profile) return request.profile;
  const token = accessTokenOf(request);
  const claims = token ? await request.server.tokens.verifyAccess(token) : null;
  return claims ? users.loadProfile(request.server.db, claims.userId, claims.family) : null;
}

/**
 * City calls of 001 7.3 that routes/cities.ts does not serve (yet; each is skipped once it does):
 * - GET   /default/api/city/specify/?name=|id= → City (signed in)
 * - GET   /city/:city/ → City (signed in)
 * - PATCH /api/city/:city/ {name_ja} → City (Administrator)
 * - GET   /get_operation_city?city_id=&user_id= → {city, user_id, assigned, operation}: whether the user is
 *   assigned to the city and may operate it (Administrator, or its Operator); asked by the user itself,
 *   an Administrator or an Operator of the city.
 */
function registerUserCityRoutes(app: FastifyInstance): void {
  const { db } = app;
  const unlessServed = (method: 'GET' | 'PATCH', url: string, handler: (request: FastifyRequest) => Promise<unknown>) => {
    if (!app.hasRoute({ method, url })) app.route({ method, url, handler });
  };
  const signedIn = async (request: FastifyRequest) => {
    const profile = await profileOf(request);
    if (!profile) throw new HttpError('unauthorized');
    return profile;
  };
  const cityOr404 = (city: City | null | undefined): City => {
    if (!city) throw new HttpError('not_found');
    return city;
  };

  unlessServed('GET', '/default/api/city/specify', async (request) => {
    requireProfile(request);
    const q = request.query as Body;
    const id = intOf(q.id);
    if (typeof q.name !== 'string' && id === null) check({ name: [{ key: 'validation.generic.required', params: { field: 'name' } }] });
    return cityOr404((await listCities(db)).find((c) => c.name === q.name || c.id === id));
  });

  unlessServed('GET', '/city/:city', async (request) => {
    await signedIn(request);
    return cityOr404(await findCity(db, (request.params as { city: string }).city));
  });

  unlessServed('PATCH', '/api/city/:city', async (request) => {
    const { profile, city } = await authorize(request, 'update', 'city');
    if (!isAdmin(profile)) throw new HttpError('forbidden');
    const nameJa = text(bodyOf(request), 'name_ja')?.trim();
    if (!nameJa) check({ name_ja: [{ key: 'validation.generic.required', params: { field: 'name_ja' } }] });
    if (nameJa!.length > NAME_MAX) check({ name_ja: [{ key: 'validation.generic.maxLength', params: { field: 'name_ja', max: NAME_MAX } }] });
    return cityOr404(await users.renameCity(db, city.name, nameJa!));
  });

  unlessServed('GET', '/get_operation_city', async (request) => {
    const caller = await signedIn(request);
    const q = request.query as Body;
    const [cityId, userId] = [intOf(q.city_id), intOf(q.user_id)];
    const errors: FieldErrors = {};
    if (cityId === null) add(errors, 'city_id', 'validation.generic.required');
    if (userId === null) add(errors, 'user_id', 'validation.generic.required');
    check(errors);
    const city = cityOr404((await listCities(db)).find((c) => c.id === cityId));
    const callerOperates = isAdmin(caller) || (effectiveRole(caller) === 'Operator' && caller.assign_city.some((c) => c.id === cityId));
    if (caller.id !== userId && !callerOperates) throw new HttpError('forbidden');
    const user = await users.findUserBy(db, { id: userId! });
    if (!user) throw new HttpError('not_found');
    const assigned = user.assign_city.includes(city.id);
    const operation = user.permission === 'Administrator' || (user.permission === 'Operator' && assigned);
    return { city, user_id: user.id, assigned, operation };
  });
}
