/**
 * Users and account calls (001 7.1 rest, 7.2; 000 3 Profile, 5 password rules, 6 roles). Every
 * user-management call goes through `authorize(request, action, 'user')` (Administrator everywhere,
 * Operator in its assigned cities), own-account calls through subject `account`. Users of a city
 * are the users assigned to it; a user of another city is 404. Answers carry Profiles, never a hash.
 * Bodies, queries and answers: the route schemas of ./user-schemas.ts, checked after the permission.
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
 * Open (no token; rate-limited like the login; served by ./user-open-routes.ts):
 * - POST /:city/api/users/register {username, email, password, confirm, name?} → 201 Profile (Advertiser, e-mail unverified)
 * - POST /:city/api/users/email_verification (own account, or {email}) → 200 {detail}; never tells whether the address exists
 * - POST /:city/api/users/:id/confirm/ {token} (or a manager without token) → 200 {detail}
 * - GET  /request_reset_password_operator?email= → always 200 {detail}; stores a one-time token hash (1 h)
 * - POST /reset_password_operator/ {token, password, confirm} → 200 {detail}; every session ends
 * - POST /default/api/users/mynumber/callback {code, error?, error_description?, state} (ours) → 200 {data: address}
 * The tokens travel by mail (src/server/mail/account-mails.ts): the token and its mail are written in
 * one transaction and the mail is sent by the job runner; register also sends the welcome mail with
 * the verification link, add_teacher of a new user the invitation with a link to set a password.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { authorize, requireProfile } from '../auth/authorize';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { recordAccountChanges, recordSecurityEvent } from '../auth/security-events';
import { HttpError } from '../http-error';
import { listCities } from '../repositories/city-repository';
import * as users from '../repositories/user-repository';
import { checkedByHandler, inputErrors, throwIfInvalid } from '../plugins/validation';
import { translatorFor } from '../translator';
import { tableName } from '../db/resource-tables';
import { type Body, MYNUMBER_TTL_S, bodyOf, stringField, isAdmin, intOf, addFieldError, throwIfFieldErrors, checkConfirm, profileFields, checkUnique, uniqueWrite, listUsersAnswer, authorizeUserManager, targetOf, managementFields, profileAnswer, youtubeId, createCityUser } from './user-inputs';
import { USER_SCHEMAS as S } from './user-schemas';
import { registerUserCityRoutes } from './user-city-routes';
import { registerUserOpenRoutes } from './user-open-routes';
import { queueAccountMail } from '../mail/account-mails';

/** Registers the users and account calls, and the city calls of 001 7.3 that routes/cities.ts does not serve (`registerUserCityRoutes`). */
export function registerUserRoutes(app: FastifyInstance): void {
  const { db, tokens } = app;
  const open = app.config.loginRateLimit > 0 ? { config: { rateLimit: { max: app.config.loginRateLimit, timeWindow: 60_000 } } } : {};
  // Lists: the list codec reads their query (src/shared/list-query.ts).
  const listQuery = checkedByHandler(app, ['querystring']);
  const detail = (request: FastifyRequest, key: string) => ({ detail: translatorFor(request.headers['accept-language'])(key) });

  app.get('/:city/api/users/', { schema: S.list, validatorCompiler: listQuery }, async (request) => {
    const { city } = await authorizeUserManager(request, 'read');
    const raw = (request.query as Record<string, unknown>).filter_by;
    const filter = raw === undefined || raw === '' ? 'all' : raw;
    if (!(users.USER_FILTERS as readonly unknown[]).includes(filter)) throwIfFieldErrors({ filter_by: [{ key: 'validation.generic.enum', params: { field: 'filter_by' } }] });
    return listUsersAnswer(request, [city.id], filter as users.UserFilter);
  });

  const userList = (url: string, schema: FastifySchema, filter: users.UserFilter, cities: (m: Awaited<ReturnType<typeof authorizeUserManager>>) => number[] | null) =>
    app.get(url, { schema, validatorCompiler: listQuery }, async (request) => listUsersAnswer(request, cities(await authorizeUserManager(request, 'read')), filter));
  userList('/:city/api/users/get_ads_user_info_by_city', S.adsUsersOfCity, 'ad_user', (m) => [m.city.id]);
  userList('/:city/api/users/get_ads_user_info', S.adsUsers, 'ad_user', (m) => m.managed);
  userList('/:city/api/special-voucher/get_member_user/', S.memberUsers, 'member', (m) => [m.city.id]);

  app.get('/:city/api/users/get_admin_info', { schema: S.adminInfo }, async (request) => {
    const { city } = await authorizeUserManager(request, 'read');
    throwIfInvalid(request);
    return { city, ...(await users.countByRole(db, city.id)) };
  });

  app.get('/:city/api/users/get_operation_info', { schema: S.operationInfo }, async (request) => {
    const { city } = await authorizeUserManager(request, 'read');
    throwIfInvalid(request);
    const by_filter = await users.countByFilter(db, city.id);
    return { city, total: by_filter.all, by_filter };
  });

  app.post('/:city/api/users/', { schema: S.create }, async (request, reply) => {
    const { caller, city, managed } = await authorizeUserManager(request, 'create');
    const b = bodyOf(request);
    const errors = inputErrors(request);
    const f = profileFields(b, errors, ['username', 'email']);
    const password = stringField(b, 'password');
    const m = await managementFields(request, b, errors, caller, managed);
    await checkUnique(request, errors, f, null);
    throwIfFieldErrors(errors);
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

  app.put('/:city/api/users/:id/', { schema: S.update }, async (request) => {
    const { caller, city, managed } = await authorizeUserManager(request, 'update');
    const target = await targetOf(request, caller, city);
    const b = bodyOf(request);
    const errors = inputErrors(request);
    const f = profileFields(b, errors, []);
    const password = stringField(b, 'password');
    const { cityIds, ...m } = await managementFields(request, b, errors, caller, managed);
    if (target.permission === 'Administrator' && m.permission && m.permission !== 'Administrator') {
      if ((await users.countAdministrators(db)) <= 1) addFieldError(errors, 'permission', 'users.errors.lastAdministrator');
    }
    await checkUnique(request, errors, f, target.id);
    throwIfFieldErrors(errors);
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
    await recordAccountChanges(request, { target, by: caller.id, city: city.name, password: !!password, permission: m.permission, cityIds: assignCityIds });
    return profileAnswer(request, target.id);
  });

  app.delete('/:city/api/users/:id/', { schema: S.remove }, async (request, reply) => {
    const { caller, city, managed } = await authorizeUserManager(request, 'delete');
    const target = await targetOf(request, caller, city);
    throwIfInvalid(request);
    if (target.id === caller.id) return reply.code(209).send(detail(request, 'users.detail.cannotDeleteSelf'));
    const outcome = await users.removeUser(db, target.id, city.id, managed);
    if (!outcome) throw new HttpError('not_found');
    if (outcome === 'last_administrator') return reply.code(209).send(detail(request, 'users.errors.lastAdministrator'));
    await users.auditUser(db, caller.id, city.name, outcome === 'deleted' ? 'delete' : 'unassign', target.id);
    return reply.code(204).send();
  });

  app.post('/:city/api/users/add_teacher/', { schema: S.addTeacher }, async (request, reply) => {
    const { caller, city } = await authorizeUserManager(request, 'create');
    const b = bodyOf(request);
    const errors = inputErrors(request);
    const f = profileFields(b, errors, ['username']);
    const school = intOf(b.school);
    throwIfFieldErrors(errors);
    const existing = await users.findUserBy(db, { username: f.username });
    if (existing && existing.assign_city.includes(city.id)) {
      if (existing.permission === 'Administrator' && !isAdmin(caller)) throw new HttpError('forbidden');
      await users.updateUser(db, existing.id, { permission: 'Teacher', school });
      await users.auditUser(db, caller.id, city.name, 'add_teacher', existing.id);
      return profileAnswer(request, existing.id);
    }
    if (!f.email) addFieldError(errors, 'email', 'users.validation.emailRequired');
    const password = stringField(b, 'password');
    await checkUnique(request, errors, f, null);
    throwIfFieldErrors(errors);
    const passwordHash = password ? await hashPassword(password) : users.UNUSABLE_PASSWORD;
    const id = await createCityUser(request, f, city.name, { passwordHash, permission: 'Teacher', school });
    await users.auditUser(db, caller.id, city.name, 'add_teacher', id);
    const schoolName = school === null ? '' : await schoolNameOf(app, city.name, school);
    await db.transaction((tx) =>
      queueAccountMail(request, tx, { id, email: f.email!, username: f.username! }, { kind: 'teacher_invitation', city, language: 'ja', name: f.name, extra: { school: schoolName } }),
    );
    app.outbox.wake();
    return reply.code(201).send(await profileAnswer(request, id));
  });

  app.put('/:city/api/users/:id/remove_teacher/', { schema: S.removeTeacher }, async (request) => {
    const { caller, city } = await authorizeUserManager(request, 'update');
    const target = await targetOf(request, caller, city);
    throwIfInvalid(request);
    const school = intOf((request.query as Body).school ?? bodyOf(request).school);
    if (school === null) throwIfFieldErrors({ school: [{ key: 'validation.generic.required', params: { field: 'school' } }] });
    if (target.school !== school) throwIfFieldErrors({ school: [{ key: 'users.validation.notTeacherOfSchool', params: { field: 'school' } }] });
    await users.updateUser(db, target.id, { school: null, group: null, classes: [] });
    await users.auditUser(db, caller.id, city.name, 'remove_teacher', target.id);
    return profileAnswer(request, target.id);
  });

  app.get('/:city/api/users/classes/', { schema: S.classes }, async (request) => {
    const { profile, city } = await authorize(request, 'read', 'account');
    throwIfInvalid(request);
    const raw = (request.query as Body).user_id;
    let classes = profile.classes;
    if (raw !== undefined && intOf(raw) !== profile.id) {
      await authorizeUserManager(request, 'read');
      const target = intOf(raw) === null ? null : await users.findUserInCity(db, intOf(raw)!, city.id);
      if (!target) throw new HttpError('not_found');
      classes = (await profileAnswer(request, target.id)).classes;
    }
    return { content: classes, total_length: classes.length };
  });

  app.put('/:city/api/users/account', { schema: S.account }, async (request) => {
    const { profile } = await authorize(request, 'update', 'account');
    const { username: _ignored, ...b } = bodyOf(request);
    const errors = inputErrors(request);
    const f = profileFields(b, errors, []);
    await checkUnique(request, errors, f, profile.id);
    throwIfFieldErrors(errors);
    const emailChanged = f.email !== undefined && f.email.toLowerCase() !== profile.email.toLowerCase();
    await uniqueWrite(request, f, profile.id, () => users.updateUser(db, profile.id, { ...f, emailVerified: emailChanged ? false : undefined }));
    return profileAnswer(request, profile.id);
  });

  app.put('/:city/api/users/change_password', { schema: S.changePassword }, async (request) => {
    const { profile } = await authorize(request, 'update', 'account');
    const b = bodyOf(request);
    const [old, next, confirm] = [stringField(b, 'old'), stringField(b, 'new'), stringField(b, 'confirm')];
    const errors = inputErrors(request);
    checkConfirm(errors, 'confirm', next, confirm);
    throwIfFieldErrors(errors);
    if (!(await verifyPassword(old!, (await users.findPasswordHash(db, profile.id)) ?? ''))) throwIfFieldErrors({ old: [{ key: 'users.validation.oldPasswordWrong', params: { field: 'old' } }] });
    await users.updateUser(db, profile.id, { passwordHash: await hashPassword(next!) });
    for (const family of await users.liveFamilies(db, profile.id)) if (family !== request.tokenFamily) await tokens.revokeFamily(family);
    await recordSecurityEvent(db, { action: 'password_change', userId: profile.id, ip: request.ip });
    return detail(request, 'users.detail.passwordChanged');
  });

  app.get('/:city/api/users/youtube_thumbnail', { schema: S.youtubeThumbnail }, async (request) => {
    await authorize(request, 'read', 'account');
    throwIfInvalid(request);
    const url = (request.query as Body).url;
    const id = typeof url === 'string' ? youtubeId(url) : null;
    if (!id) throwIfFieldErrors({ url: [{ key: 'users.validation.youtubeUrl', params: { field: 'url' } }] });
    return { url: `https://img.youtube.com/vi/${id}/hqdefault.jpg` };
  });

  app.get('/:city/api/users/refresh_firebase_token/', { schema: S.firebaseToken }, async (request) => {
    await authorize(request, 'read', 'account');
    throwIfInvalid(request);
    return { token_firebase: randomBytes(32).toString('base64url') };
  });

  app.patch('/default/api/users/mynumber', { schema: S.mynumber }, async (request) => {
    const profile = requireProfile(request);
    throwIfInvalid(request);
    const redirect = stringField(bodyOf(request), 'redirect') ?? '/';
    const state = await users.issueUserToken(db, profile.id, 'mynumber', MYNUMBER_TTL_S, { redirect });
    return { state, expires_in: MYNUMBER_TTL_S };
  });

  app.post('/default/api/users/mynumber/callback', { ...open, schema: S.mynumberCallback }, async (request) => {
    throwIfInvalid(request);
    const b = bodyOf(request);
    const error = stringField(b, 'error') || stringField(request.query as Body, 'error');
    const state = stringField(b, 'state');
    const spent = state ? await users.consumeUserToken(db, 'mynumber', state) : null;
    if (!spent) return { data: `/login?mynumber_error=invalid_state` };
    const redirect = typeof spent.data.redirect === 'string' ? spent.data.redirect : '/';
    if (error || !stringField(b, 'code')) {
      const sep = redirect.includes('?') ? '&' : '?';
      return { data: `${redirect}${sep}mynumber_error=${encodeURIComponent(error || 'invalid_request')}` };
    }
    await users.updateUser(db, spent.userId, { mynumberLinked: true });
    return { data: redirect };
  });

  registerUserOpenRoutes(app);
  registerUserCityRoutes(app);
}

/** The name of school `id` of `city` (the `school` resource), or '' when there is none. */
async function schoolNameOf(app: FastifyInstance, city: string, id: number): Promise<string> {
  const def = app.resources.get('school');
  if (!def) return '';
  const [row] = await app.db.query<{ name: unknown }>(`SELECT data->>'name' AS name FROM ${tableName(def)} WHERE id = $1 AND city = $2`, [id, city]);
  return typeof row?.name === 'string' ? row.name : '';
}
