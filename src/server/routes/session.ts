/**
 * Session and account calls (001 7.1; docs/architecture.md 'Sign-in').
 * - POST /default/api/login            {username, password} → {user, token, refresh_token, booking?: {refresh}};
 *   besides the per-IP limit, failures are throttled per account (auth/sign-in-throttle.ts: 429 with
 *   Retry-After), and every success and failure is a security event of the audit log
 * - GET  /default/api/users/account    → Profile
 * - GET  /default/api/users/whoami     → {id, refreshable} (ours: whose the session cookie is, null for
 *   nobody, and whether a refresh-token cookie came: the logout check, 000 4 Logout, and the login
 *   page's check, which so asks for the user info only when there may be a session)
 * - POST /:city/api/refresh-token      {refresh_token?} (else the cookie) → {access_token, refresh_token}
 * - POST /default/login/logout         → {detail: 'ok'}
 * - POST /default/api/session/adopt    {token, refresh_token} → {user} (ours: 000 4 Autologin; the console
 *   never holds tokens, so the tokens of /cippoweb/autologin's query become the session cookies here)
 * Every Profile answered here (login, account, adopt) carries `chat_admin_unread`, the chat unread
 * count (chat/chat-unread.ts).
 * Cookies Admin-Token, Admin-Refresh-Token and Redirect-Token: HttpOnly, SameSite=Strict, Path=/,
 * Secure when the request came over https.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ACCESS_TOKEN_TTL_S,
  COOKIE_ACCESS,
  COOKIE_REDIRECT,
  COOKIE_REFRESH,
  MEMBER_CITY,
  REFRESH_TOKEN_TTL_S,
} from '../../shared/constants';
import { effectiveRole, type Profile } from '../../shared/roles';
import { verifyPassword } from '../auth/passwords';
import { recordSecurityEvent } from '../auth/security-events';
import { countFailure, forgetFailures, refuseWhileThrottled } from '../auth/sign-in-throttle';
import { enrolled, factorsOf, isStaff, issueMfaToken, type MfaPurpose } from '../auth/second-factor';
import { expireSession, recordSession, sessionPastLimit } from '../auth/sessions';
import type { IssuedRefresh } from '../auth/tokens';
import { requireProfile } from '../auth/authorize';
import { HttpError } from '../http-error';
import { accessTokenOf } from '../plugins/auth';
import { chatUnreadOf } from '../repositories/chat-unread-repository';
import { findCredentials, loadProfile } from '../repositories/user-repository';
import { inputErrors, throwIfInvalid } from '../plugins/validation';
import { ACCOUNT_SCHEMA, ADOPT_SCHEMA, LOGIN_SCHEMA, LOGOUT_SCHEMA, REFRESH_SCHEMA, WHOAMI_SCHEMA } from './session-schemas';

/** Whether the profile gets a booking refresh token and a Redirect-Token cookie (000 4, 6): Advertisers and the member-area Member. */
export function getsBookingToken(profile: Profile): boolean {
  const role = effectiveRole(profile);
  return role === 'Advertiser' || (role === 'Member' && profile.assign_city.some((c) => c.name === MEMBER_CITY));
}

function cookieOptions(request: FastifyRequest, maxAge: number) {
  return { httpOnly: true, sameSite: 'strict' as const, path: '/', secure: request.protocol === 'https', maxAge };
}

function setSessionCookies(request: FastifyRequest, reply: FastifyReply, access: string, refresh: string): void {
  reply.setCookie(COOKIE_ACCESS, access, cookieOptions(request, ACCESS_TOKEN_TTL_S));
  reply.setCookie(COOKIE_REFRESH, refresh, cookieOptions(request, REFRESH_TOKEN_TTL_S));
}

/** Starts the booking session of a profile that gets one (000 4, 6): sets Redirect-Token; answers the booking refresh token and its family, or null. */
async function startBookingSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, profile: Profile): Promise<IssuedRefresh | null> {
  if (!getsBookingToken(profile)) return null;
  const booking = await app.tokens.issueRefresh(profile.id);
  reply.setCookie(COOKIE_REDIRECT, booking.token, cookieOptions(request, REFRESH_TOKEN_TTL_S));
  return booking;
}

/**
 * Starts the session of a signed-in profile (the password, then the second factor when there is one,
 * or a passkey; 001 7.1): a new refresh family and access token as cookies, the booking session of
 * those who get one, and the session's row (browser, IP) for the session list (auth/sessions.ts).
 * Answers the login answer: `{user, token, refresh_token, booking?: {refresh}}`.
 */
export async function startSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, profile: Profile): Promise<Record<string, unknown>> {
  const { db, tokens } = app;
  const refresh = await tokens.issueRefresh(profile.id);
  const token = await tokens.signAccess(profile.id, refresh.family);
  setSessionCookies(request, reply, token, refresh.token);
  const user: Profile = { ...profile, chat_admin_unread: await chatUnreadOf(db, profile.id) };
  const answered: Record<string, unknown> = { user, token, refresh_token: refresh.token };
  const booking = await startBookingSession(app, request, reply, profile);
  if (booking) answered.booking = { refresh: booking.token };
  const userAgent = request.headers['user-agent'] ?? '';
  await recordSession(db, { family: refresh.family, bookingFamily: booking?.family ?? null, userId: profile.id, userAgent, ip: request.ip });
  return answered;
}

/**
 * What a profile whose password was right needs before its session (docs/architecture.md 'Staff
 * sign-in'): 'verify' for staff with a second factor (with the factors it may use: 'totp', which
 * takes recovery codes too, and 'passkey'), 'enrol' for staff of a REQUIRE_MFA_ROLES role without
 * one, null for everyone else (Members and staff without a factor sign in as before).
 */
export async function secondStepOf(app: FastifyInstance, profile: Profile): Promise<{ purpose: MfaPurpose; methods: string[] } | null> {
  if (!isStaff(profile)) return null;
  const factors = await factorsOf(app.db, profile.id);
  if (enrolled(factors)) return { purpose: 'verify', methods: [...(factors.totp ? ['totp'] : []), ...(factors.passkeys > 0 ? ['passkey'] : [])] };
  return app.config.requireMfaRoles.includes(profile.permission) ? { purpose: 'enrol', methods: ['totp'] } : null;
}

function stringField(body: unknown, name: string): string | undefined {
  const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** Registers the session routes. `loginRateLimit` = attempts per IP and minute (0 = none). */
export function registerSessionRoutes(app: FastifyInstance, options: { loginRateLimit: number }): void {
  const { db, tokens } = app;
  /** The user info of the sign-in calls and the account: the profile and its chat unread count. */
  const userInfo = async (profile: Profile): Promise<Profile> => ({ ...profile, chat_admin_unread: await chatUnreadOf(db, profile.id) });
  const limited: FastifyContextConfig = options.loginRateLimit > 0 ? { rateLimit: { max: options.loginRateLimit, timeWindow: 60_000 } } : {};

  app.post('/default/api/login', { config: limited, schema: LOGIN_SCHEMA }, async (request, reply) => {
    throwIfInvalid(request);
    const body = request.body as { username: string; password: string };
    const [username, password] = [body.username.trim(), body.password];
    const user = await findCredentials(db, username);
    const event = { userId: user?.id ?? null, ip: request.ip, detail: user ? undefined : { username: username.slice(0, 150) } };
    try {
      await refuseWhileThrottled(db, username);
    } catch (err) {
      await recordSecurityEvent(db, { ...event, action: 'sign_in_throttled' });
      throw err;
    }
    if (!user || !(await verifyPassword(password, user.password_hash))) {
      const failures = await countFailure(db, username);
      await recordSecurityEvent(db, { ...event, action: 'sign_in_failed', detail: { ...event.detail, failures } });
      throw new HttpError(user ? 'invalid_credentials' : 'unknown_username');
    }
    const profile = await loadProfile(db, user.id);
    if (!profile) throw new HttpError('unknown_username');
    // Staff with a second factor, or of a role that must have one, go on to the factor step
    // (routes/mfa-routes.ts); the failures are forgotten only once the factor is right.
    const step = await secondStepOf(app, profile);
    if (step) {
      const mfa_token = await issueMfaToken(db, user.id, step.purpose);
      return { mfa_required: true, ...(step.purpose === 'enrol' ? { mfa_enrolment_required: true } : {}), mfa_token, methods: step.methods };
    }
    await forgetFailures(db, username);
    await recordSecurityEvent(db, { ...event, action: 'sign_in' });
    return startSession(app, request, reply, profile);
  });

  // 000 4 Autologin: the refresh token must be live; the access token, when it is still valid, must be
  // of the same session (else 401). An expired access token is replaced by a fresh one of the same
  // session (the refresh token alone could get one from /refresh-token anyway). Nothing is rotated,
  // so opening the same autologin address twice does not end the session.
  app.post('/default/api/session/adopt', { config: limited, schema: ADOPT_SCHEMA }, async (request, reply) => {
    // Anything but a pair of tokens is not a session to adopt.
    if (Object.keys(inputErrors(request)).length > 0) throw new HttpError('unauthorized');
    const { refresh_token: presented, token: access } = request.body as { token: string; refresh_token: string };
    const live = await tokens.liveRefresh(presented);
    if (!live) throw new HttpError('unauthorized');
    const claims = await tokens.verifyAccess(access);
    if (claims && (claims.family !== live.family || claims.userId !== live.userId)) throw new HttpError('unauthorized');
    const profile = await loadProfile(db, live.userId, live.family);
    if (!profile) throw new HttpError('unauthorized');
    setSessionCookies(request, reply, claims ? access : await tokens.signAccess(live.userId, live.family), presented);
    const booking = await startBookingSession(app, request, reply, profile);
    await recordSession(db, { family: live.family, bookingFamily: booking?.family ?? null, userId: profile.id, userAgent: request.headers['user-agent'] ?? '', ip: request.ip });
    return { user: await userInfo(profile) };
  });

  app.get('/default/api/users/account', { schema: ACCOUNT_SCHEMA }, async (request) => {
    // The count is read on every call, not cached with the profile: the badge follows a write at once.
    return userInfo(requireProfile(request));
  });

  app.get('/default/api/users/whoami', { schema: WHOAMI_SCHEMA }, async (request) => ({
    id: request.profile?.id ?? null,
    refreshable: !!request.cookies[COOKIE_REFRESH],
  }));

  app.post('/:city/api/refresh-token', { schema: REFRESH_SCHEMA }, async (request, reply) => {
    throwIfInvalid(request);
    const presented = stringField(request.body, 'refresh_token') || request.cookies[COOKIE_REFRESH];
    if (!presented) throw new HttpError('unauthorized');
    // A staff session past its idle or absolute limit ends here (auth/sessions.ts; 001 8: 406).
    const live = await tokens.liveRefresh(presented);
    const limit = live && (await sessionPastLimit(db, live.family, { idleMinutes: app.config.sessionIdleMinutes, maxHours: app.config.sessionMaxHours }));
    if (live && limit) {
      await expireSession(db, tokens, live.family);
      await recordSecurityEvent(db, { action: 'session_expired', userId: live.userId, ip: request.ip, detail: { limit } });
      throw new HttpError('session_expired');
    }
    const next = await tokens.rotateRefresh(presented);
    if (!next) throw new HttpError('unauthorized');
    const access = await tokens.signAccess(next.userId, next.family);
    setSessionCookies(request, reply, access, next.token);
    return { access_token: access, refresh_token: next.token };
  });

  app.post('/default/login/logout', { schema: LOGOUT_SCHEMA }, async (request, reply) => {
    throwIfInvalid(request);
    const families = new Set<string>();
    for (const token of [stringField(request.body, 'refresh_token'), request.cookies[COOKIE_REFRESH], request.cookies[COOKIE_REDIRECT]]) {
      const family = token ? await tokens.familyOf(token) : null;
      if (family) families.add(family);
    }
    const access = accessTokenOf(request);
    const claims = access ? await tokens.verifyAccess(access) : null;
    if (claims) families.add(claims.family);
    for (const family of families) await tokens.revokeFamily(family);
    for (const name of [COOKIE_ACCESS, COOKIE_REFRESH, COOKIE_REDIRECT]) {
      reply.clearCookie(name, { httpOnly: true, sameSite: 'strict', path: '/', secure: request.protocol === 'https' });
    }
    return { detail: 'ok' };
  });
}
