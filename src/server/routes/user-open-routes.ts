/**
 * The account calls without a token (001 7.1, 7.2; rate-limited like the login), apart from
 * ./users.ts which registers them: register, e-mail verification (also for the signed-in user's own
 * address), confirm, and the password reset by mail. Tokens travel by mail (../mail/account-mails.ts),
 * written with their mail in one transaction and sent by the job runner.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorize } from '../auth/authorize';
import { hashPassword } from '../auth/passwords';
import { recordSecurityEvent } from '../auth/security-events';
import { HttpError } from '../http-error';
import { findCity, listCities } from '../repositories/city-repository';
import * as users from '../repositories/user-repository';
import { inputErrors, throwIfInvalid } from '../plugins/validation';
import { translatorFor } from '../translator';
import { type Body, EMAIL, bodyOf, stringField, intOf, throwIfFieldErrors, checkRegisterPassword, checkConfirm, profileFields, checkUnique, createCityUser, profileAnswer, authorizeUserManager, targetOf } from './user-inputs';
import { USER_SCHEMAS as S } from './user-schemas';
import { queueAccountMail, requestLanguage } from '../mail/account-mails';

/** Registers the account calls without a token (see the top of this file). */
export function registerUserOpenRoutes(app: FastifyInstance): void {
  const { db, tokens } = app;
  const open = app.config.loginRateLimit > 0 ? { config: { rateLimit: { max: app.config.loginRateLimit, timeWindow: 60_000 } } } : {};
  const detail = (request: FastifyRequest, key: string) => ({ detail: translatorFor(request.headers['accept-language'])(key) });

  app.post('/:city/api/users/register', { ...open, schema: S.register }, async (request, reply) => {
    const city = await findCity(db, (request.params as { city: string }).city);
    if (!city) throw new HttpError('not_found');
    const b = bodyOf(request);
    const errors = inputErrors(request);
    const f = profileFields(b, errors, ['username', 'email']);
    const password = stringField(b, 'password');
    checkRegisterPassword(errors, 'password', password);
    checkConfirm(errors, 'confirm', password, stringField(b, 'confirm'));
    await checkUnique(request, errors, f, null);
    throwIfFieldErrors(errors);
    const id = await createCityUser(request, f, city.name, { passwordHash: await hashPassword(password!), permission: 'Advertiser' });
    await db.transaction((tx) =>
      queueAccountMail(request, tx, { id, email: f.email!, username: f.username! }, { kind: 'welcome', city, language: requestLanguage(request), name: f.name }),
    );
    app.outbox.wake();
    await users.auditUser(db, null, city.name, 'register', id);
    return reply.code(201).send(await profileAnswer(request, id));
  });

  app.post('/:city/api/users/email_verification', { ...open, schema: S.emailVerification }, async (request) => {
    if (request.profile) {
      const { profile, city } = await authorize(request, 'update', 'account');
      throwIfInvalid(request);
      if (!profile.email) throwIfFieldErrors({ email: [{ key: 'users.validation.emailRequired', params: { field: 'email' } }] });
      if (!profile.email_verified) await sendVerification(request, profile, city);
    } else {
      throwIfInvalid(request);
      const email = stringField(bodyOf(request), 'email')?.trim();
      if (!email || !EMAIL.test(email)) throwIfFieldErrors({ email: [{ key: 'users.validation.emailInvalid', params: { field: 'email' } }] });
      const city = await findCity(db, (request.params as { city: string }).city);
      const user = city ? await users.findUserBy(db, { email }) : null;
      if (user && city && user.assign_city.includes(city.id) && !user.email_verified) await sendVerification(request, user, city);
    }
    return detail(request, 'users.detail.verificationSent');
  });

  app.post('/:city/api/users/:id/confirm/', { ...open, schema: S.confirm }, async (request) => {
    throwIfInvalid(request);
    const token = stringField(bodyOf(request), 'token');
    const id = intOf((request.params as { id: string }).id);
    if (id === null) throw new HttpError('not_found');
    if (token) {
      const spent = await users.consumeUserToken(db, 'email_verification', token, id);
      if (!spent) throwIfFieldErrors({ token: [{ key: 'users.errors.tokenInvalid', params: { field: 'token' } }] });
    } else if (request.profile) {
      const { caller, city } = await authorizeUserManager(request, 'update');
      await targetOf(request, caller, city);
    } else throwIfFieldErrors({ token: [{ key: 'validation.generic.required', params: { field: 'token' } }] });
    await users.updateUser(db, id, { emailVerified: true });
    return detail(request, 'users.detail.emailConfirmed');
  });

  app.get('/request_reset_password_operator', { ...open, schema: S.requestReset }, async (request) => {
    throwIfInvalid(request);
    const email = stringField(request.query as Body, 'email')?.trim();
    const user = email && EMAIL.test(email) ? await users.findUserBy(db, { email }) : null;
    if (user) {
      const city = (await listCities(db)).find((c) => user.assign_city.includes(c.id)) ?? { name: 'default', name_ja: '' };
      await db.transaction((tx) => queueAccountMail(request, tx, user, { kind: 'reset_password', city, language: requestLanguage(request) }));
      app.outbox.wake();
    }
    return detail(request, 'users.detail.resetRequested');
  });

  app.post('/reset_password_operator/', { ...open, schema: S.reset }, async (request) => {
    const b = bodyOf(request);
    const [token, password] = [stringField(b, 'token'), stringField(b, 'password')];
    const errors = inputErrors(request);
    checkConfirm(errors, 'confirm', password, stringField(b, 'confirm'));
    throwIfFieldErrors(errors);
    const spent = await users.consumeUserToken(db, 'reset_password', token!);
    if (!spent) throwIfFieldErrors({ token: [{ key: 'users.errors.tokenInvalid', params: { field: 'token' } }] });
    await users.updateUser(db, spent!.userId, { passwordHash: await hashPassword(password!) });
    for (const family of await users.liveFamilies(db, spent!.userId)) await tokens.revokeFamily(family);
    await users.auditUser(db, null, null, 'reset_password', spent!.userId);
    await recordSecurityEvent(db, { action: 'password_reset', userId: spent!.userId, ip: request.ip });
    return detail(request, 'users.detail.passwordChanged');
  });

}

/** Queues the verification mail of `user` in `city` (001 7.2 email_verification) in the request's language. */
async function sendVerification(request: FastifyRequest, user: { id: number; email: string; username: string; name?: string }, city: { name: string; name_ja: string }): Promise<void> {
  await request.server.db.transaction((tx) => queueAccountMail(request, tx, user, { kind: 'email_verification', city, language: requestLanguage(request), name: user.name }));
  request.server.outbox.wake();
}
