/**
 * Staff sign-in (docs/architecture.md 'Staff sign-in'): the second factor, passkeys and sessions of
 * Administrator, Operator, President, Teacher, Advertiser and Police. Members keep the spec's sign-in
 * (000 4, 001 7.1) and every account without a factor signs in with its password alone.
 * Schemas: ./mfa-schemas.ts.
 *
 * Sign-in (public, rate-limited per IP like the login; wrong codes and passkeys count in the
 * per-account throttle of auth/sign-in-throttle.ts):
 * - POST /default/api/login/mfa              {mfa_token, code} → the login answer, cookies set
 * - POST /default/api/login/passkey/options  {mfa_token?} → WebAuthn request options
 * - POST /default/api/login/passkey          {credential, mfa_token?} → the login answer, cookies set
 * Enrolment (signed in, or with the `mfa_token` of a REQUIRE_MFA_ROLES enrolment):
 * - POST /default/api/users/mfa/totp/setup   {mfa_token?} → {secret, otpauth_url}
 * - POST /default/api/users/mfa/totp/enable  {code, mfa_token?} → {recovery_codes} (+ the login answer with mfa_token)
 *   Both answer 501 `totp_unavailable` on a server that cannot keep TOTP secrets (production without MFA_SECRET_KEY).
 * Own account (signed-in staff):
 * - GET  /default/api/users/mfa               → {totp, totp_available, totp_key_mismatch, recovery_codes_left, passkeys}
 * - POST /default/api/users/mfa/disable       {password} → {detail}
 * - POST /default/api/users/passkeys/options  → WebAuthn creation options
 * - POST /default/api/users/passkeys          {name, credential} → 201 passkey
 * - DELETE /default/api/users/passkeys/{id}/  → 204
 * - GET  /default/api/users/sessions/         → {content: sessions, total_length}
 * - DELETE /default/api/users/sessions/{id}/  → 204
 * - DELETE /default/api/users/sessions/       → {ended} (all but the current one)
 * Administrator, on a user of the path city:
 * - DELETE /{city}/api/users/{id}/sessions/   → {ended}
 * - DELETE /{city}/api/users/{id}/mfa/        → {detail} (factors reset: the user enrols again)
 * Every enrolment, failure (a code that meets a TOTP secret no configured key opens included), use
 * of a recovery code, reset and ended session is a security event.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Profile } from '../../shared/roles';
import type { FieldErrors } from '../../shared/validation';
import { authorize } from '../auth/authorize';
import { verifyPassword } from '../auth/passwords';
import {
  authenticationOptions,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  relyingPartyOf,
  removePasskey,
  verifyPasskey,
} from '../auth/passkeys';
import {
  beginTotp,
  enableTotp,
  factorsOf,
  isStaff,
  peekMfaToken,
  removeTotp,
  resetFactors,
  spendMfaToken,
  totpAvailable,
  totpKeyMismatch,
  verifyCode,
  type MfaPurpose,
} from '../auth/second-factor';
import { recordSecurityEvent, type SecurityAction } from '../auth/security-events';
import { endSession, endSessions, listSessions } from '../auth/sessions';
import { countFailure, forgetFailures, refuseWhileThrottled } from '../auth/sign-in-throttle';
import { HttpError } from '../http-error';
import { throwIfInvalid } from '../plugins/validation';
import { findPasswordHash, loadProfile } from '../repositories/user-repository';
import { translatorFor } from '../translator';
import { authorizeUserManager, isAdmin, targetOf } from './user-inputs';
import { MFA_SCHEMAS as S } from './mfa-schemas';
import { startSession } from './session';

type Body = Record<string, unknown>;

const body = (request: FastifyRequest): Body => (request.body && typeof request.body === 'object' ? (request.body as Body) : {});
const text = (b: Body, k: string): string | undefined => (typeof b[k] === 'string' ? (b[k] as string) : undefined);
/** The `:id` of the path as a row id, or null when no row can have it (not a safe integer: 404). */
const idOf = (request: FastifyRequest): number | null => {
  const id = Number((request.params as { id?: unknown }).id);
  return Number.isSafeInteger(id) && id > 0 && id < 2 ** 53 ? id : null;
};
const fieldError = (field: string, key: string): FieldErrors => ({ [field]: [{ key, params: { field } }] });

/** Registers the staff sign-in routes (see the top of this file). */
export function registerMfaRoutes(app: FastifyInstance): void {
  const { db, tokens } = app;
  const limited: FastifyContextConfig = app.config.loginRateLimit > 0 ? { rateLimit: { max: app.config.loginRateLimit, timeWindow: 60_000 } } : {};
  const translate = (request: FastifyRequest, key: string) => translatorFor(request.headers['accept-language'])(key);
  const event = (request: FastifyRequest, action: SecurityAction, userId: number, detail?: Record<string, unknown>, actorId?: number) =>
    recordSecurityEvent(db, { action, userId, actorId, ip: request.ip, detail });

  /** The signed-in staff member (every role but Member). Errors: 401 signed out; 403 a Member. */
  async function staff(request: FastifyRequest, action: 'read' | 'update'): Promise<Profile> {
    const { profile } = await authorize(request, action, 'account', { city: null });
    if (!isStaff(profile)) throw new HttpError('forbidden');
    return profile;
  }

  /** The user of a live `mfa_token` of `purpose`. Errors: 401 with the sign-in-again message when it is unknown, spent or expired. */
  async function tokenUser(request: FastifyRequest, token: string, purpose: MfaPurpose): Promise<{ userId: number; username: string }> {
    const found = await peekMfaToken(db, token, purpose);
    if (!found) throw new HttpError('unauthorized', { detail: translate(request, 'security.errors.mfaTokenExpired') });
    return found;
  }

  /** A wrong code or passkey of `username`: counted in the per-account throttle, recorded; throws 400 with the field message. */
  async function failed(request: FastifyRequest, user: { userId: number; username: string }, factor: string, field: string, key: string): Promise<never> {
    const failures = await countFailure(db, user.username);
    await event(request, 'mfa_failed', user.userId, { factor, failures });
    throw new HttpError('validation', { fieldErrors: fieldError(field, key) });
  }

  /**
   * Runs a TOTP check of user `userId` (`factor` as in `mfa_failed`); a code that meets a secret no
   * configured key opens (501 `totp_key_mismatch`) is also recorded as the security event
   * `mfa_key_mismatch`, without the stored value or the key ids (those go to the server log only),
   * and then answered as before. It is no wrong code: the per-account throttle does not count it.
   */
  async function keyChecked<T>(request: FastifyRequest, userId: number, factor: string, check: Promise<T>): Promise<T> {
    try {
      return await check;
    } catch (e) {
      if (e instanceof HttpError && e.code === 'totp_key_mismatch') await event(request, 'mfa_key_mismatch', userId, { factor });
      throw e;
    }
  }

  /** Ends a sign-in whose second step succeeded: the token spent, the failures forgotten, the session started. */
  async function signedIn(request: FastifyRequest, reply: Parameters<typeof startSession>[2], user: { userId: number; username: string }, token: string | null, factor: string) {
    if (token && !(await spendMfaToken(db, token))) throw new HttpError('unauthorized', { detail: translate(request, 'security.errors.mfaTokenExpired') });
    const profile = await loadProfile(db, user.userId);
    if (!profile) throw new HttpError('unauthorized');
    await forgetFailures(db, user.username);
    await event(request, 'sign_in', user.userId, { factor });
    return startSession(app, request, reply, profile);
  }

  // ---- sign-in --------------------------------------------------------------------------------

  app.post('/default/api/login/mfa', { config: limited, schema: S.loginMfa }, async (request, reply) => {
    throwIfInvalid(request);
    const b = body(request);
    const token = text(b, 'mfa_token')!;
    const user = await tokenUser(request, token, 'verify');
    await refuseWhileThrottled(db, user.username);
    const used = await keyChecked(request, user.userId, 'code', verifyCode(db, app.totpSecrets, user.userId, text(b, 'code')!));
    if (!used) return failed(request, user, 'code', 'code', 'security.errors.codeWrong');
    if (used === 'recovery') await event(request, 'mfa_recovery_code_used', user.userId, { left: (await factorsOf(db, user.userId)).recoveryCodesLeft });
    return signedIn(request, reply, user, token, used);
  });

  app.post('/default/api/login/passkey/options', { config: limited, schema: S.passkeyLoginOptions }, async (request) => {
    throwIfInvalid(request);
    const token = text(body(request), 'mfa_token');
    const user = token ? await tokenUser(request, token, 'verify') : null;
    if (user) await refuseWhileThrottled(db, user.username);
    return authenticationOptions(db, relyingPartyOf(request), user?.userId ?? null);
  });

  app.post('/default/api/login/passkey', { config: limited, schema: S.passkeyLogin }, async (request, reply) => {
    throwIfInvalid(request);
    const b = body(request);
    const token = text(b, 'mfa_token') ?? null;
    const expected = token ? await tokenUser(request, token, 'verify') : null;
    if (expected) await refuseWhileThrottled(db, expected.username);
    const userId = await verifyPasskey(db, relyingPartyOf(request), b.credential as AuthenticationResponseJSON, expected?.userId ?? null);
    if (userId === null) {
      if (expected) return failed(request, expected, 'passkey', 'credential', 'security.errors.passkeyRefused');
      throw new HttpError('validation', { fieldErrors: fieldError('credential', 'security.errors.passkeyRefused') });
    }
    const [row] = await db.query<{ username: string }>('SELECT username FROM users WHERE id = $1', [userId]);
    return signedIn(request, reply, { userId, username: row?.username ?? '' }, token, 'passkey');
  });

  // ---- enrolment --------------------------------------------------------------------------------

  /** Who enrols: the user of an enrolment `mfa_token` (sign-in under REQUIRE_MFA_ROLES), else the signed-in staff member. */
  async function enroller(request: FastifyRequest): Promise<{ userId: number; username: string; token: string | null }> {
    const token = text(body(request), 'mfa_token');
    if (token) return { ...(await tokenUser(request, token, 'enrol')), token };
    const profile = await staff(request, 'update');
    return { userId: profile.id, username: profile.username, token: null };
  }

  app.post('/default/api/users/mfa/totp/setup', { schema: S.totpSetup }, async (request) => {
    const who = await enroller(request);
    throwIfInvalid(request);
    return beginTotp(db, app.totpSecrets, who.userId, who.username);
  });

  app.post('/default/api/users/mfa/totp/enable', { config: limited, schema: S.totpEnable }, async (request, reply) => {
    const who = await enroller(request);
    throwIfInvalid(request);
    if (who.token) await refuseWhileThrottled(db, who.username);
    const codes = await keyChecked(request, who.userId, 'totp_enrolment', enableTotp(db, app.totpSecrets, who.userId, text(body(request), 'code')!));
    if (!codes) {
      if (who.token) return failed(request, who, 'totp_enrolment', 'code', 'security.errors.codeWrong');
      throw new HttpError('validation', { fieldErrors: fieldError('code', 'security.errors.codeWrong') });
    }
    await event(request, 'mfa_enrolled', who.userId, { factor: 'totp' });
    if (!who.token) return { recovery_codes: codes };
    return { recovery_codes: codes, ...(await signedIn(request, reply, who, who.token, 'totp')) };
  });

  // ---- own account ------------------------------------------------------------------------------

  app.get('/default/api/users/mfa', { schema: S.status }, async (request) => {
    const profile = await staff(request, 'read');
    const f = await factorsOf(db, profile.id);
    return {
      totp: f.totp,
      totp_available: totpAvailable(app.totpSecrets),
      totp_key_mismatch: f.totp && (await totpKeyMismatch(db, app.totpSecrets, profile.id)),
      recovery_codes_left: f.recoveryCodesLeft,
      passkeys: await listPasskeys(db, profile.id),
    };
  });

  app.post('/default/api/users/mfa/disable', { config: limited, schema: S.disable }, async (request) => {
    const profile = await staff(request, 'update');
    throwIfInvalid(request);
    await refuseWhileThrottled(db, profile.username);
    if (!(await verifyPassword(text(body(request), 'password')!, (await findPasswordHash(db, profile.id)) ?? ''))) {
      await countFailure(db, profile.username);
      throw new HttpError('validation', { fieldErrors: fieldError('password', 'users.validation.oldPasswordWrong') });
    }
    await removeTotp(db, profile.id);
    await event(request, 'mfa_disabled', profile.id, { factor: 'totp' });
    return { detail: translate(request, 'security.detail.totpDisabled') };
  });

  app.post('/default/api/users/passkeys/options', { schema: S.passkeyOptions }, async (request) => {
    const profile = await staff(request, 'update');
    throwIfInvalid(request);
    return registrationOptions(db, relyingPartyOf(request), profile);
  });

  app.post('/default/api/users/passkeys', { schema: S.passkeyRegister }, async (request, reply) => {
    const profile = await staff(request, 'update');
    throwIfInvalid(request);
    const b = body(request);
    const passkey = await registerPasskey(db, relyingPartyOf(request), profile.id, b.credential as RegistrationResponseJSON, text(b, 'name')!.trim());
    if (!passkey) throw new HttpError('validation', { fieldErrors: fieldError('credential', 'security.errors.passkeyRefused') });
    await event(request, 'passkey_registered', profile.id, { passkey: passkey.id, name: passkey.name });
    return reply.code(201).send(passkey);
  });

  app.delete('/default/api/users/passkeys/:id/', { schema: S.passkeyRemove }, async (request, reply) => {
    const profile = await staff(request, 'update');
    throwIfInvalid(request);
    const id = idOf(request);
    if (id === null || !(await removePasskey(db, profile.id, id))) throw new HttpError('not_found');
    await event(request, 'passkey_removed', profile.id, { passkey: id });
    return reply.code(204).send();
  });

  // ---- sessions ---------------------------------------------------------------------------------

  app.get('/default/api/users/sessions/', { schema: S.sessions }, async (request) => {
    const { profile } = await authorize(request, 'read', 'account', { city: null });
    const content = await listSessions(db, profile.id, request.tokenFamily);
    return { content, total_length: content.length };
  });

  app.delete('/default/api/users/sessions/:id/', { schema: S.sessionEnd }, async (request, reply) => {
    const { profile } = await authorize(request, 'update', 'account', { city: null });
    throwIfInvalid(request);
    const id = idOf(request);
    if (id === null || !(await endSession(db, tokens, profile.id, id))) throw new HttpError('not_found');
    await event(request, 'session_ended', profile.id, { session: id });
    return reply.code(204).send();
  });

  app.delete('/default/api/users/sessions/', { schema: S.sessionsEndOthers }, async (request) => {
    const { profile } = await authorize(request, 'update', 'account', { city: null });
    const ended = await endSessions(db, tokens, profile.id, request.tokenFamily);
    await event(request, 'session_ended', profile.id, { others: true, ended });
    return { ended };
  });

  // ---- Administrator ----------------------------------------------------------------------------

  /** The user `:id` of the path city, for an Administrator. Errors: 403 for anyone else; 404 not in the city. */
  async function adminTarget(request: FastifyRequest) {
    const { caller, city } = await authorizeUserManager(request, 'update');
    if (!isAdmin(caller)) throw new HttpError('forbidden');
    throwIfInvalid(request);
    return { caller, city, target: await targetOf(request, caller, city) };
  }

  app.delete('/:city/api/users/:id/sessions/', { schema: S.userSessionsEnd }, async (request) => {
    const { caller, city, target } = await adminTarget(request);
    const ended = await endSessions(db, tokens, target.id, target.id === caller.id ? request.tokenFamily : null);
    await recordSecurityEvent(db, { action: 'session_ended', userId: target.id, actorId: caller.id, ip: request.ip, city: city.name, detail: { all: true, ended } });
    return { ended };
  });

  app.delete('/:city/api/users/:id/mfa/', { schema: S.userMfaReset }, async (request) => {
    const { caller, city, target } = await adminTarget(request);
    await resetFactors(db, target.id);
    await recordSecurityEvent(db, { action: 'mfa_reset', userId: target.id, actorId: caller.id, ip: request.ip, city: city.name });
    return { detail: translate(request, 'security.detail.factorsReset') };
  });
}
