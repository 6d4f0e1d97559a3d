/**
 * The Fastify schemas of the session calls (001 7.1; routes/session.ts): what each validates, answers
 * and shows in /openapi.json. Field messages are the login form's (`x-messages`, 000 5).
 */
import type { FastifySchema } from 'fastify';
import { answer, errorAnswers, ref } from '../openapi/components';
import { pathParams } from '../openapi/call-schemas';
import { USERNAME_MAX } from './user-schemas';

/** Longest password a sign-in checks, in characters. */
const PASSWORD_INPUT_MAX = 1024;

const TOKEN = { type: 'string', minLength: 1 };
const TAGS = ['session'];

/** The answer of a completed sign-in (001 7.1): POST /default/api/login, and the second steps of routes/mfa-routes.ts. */
export const SIGNED_IN = {
  type: 'object',
  required: ['user', 'token', 'refresh_token'],
  properties: { user: ref('Profile'), token: { type: 'string' }, refresh_token: { type: 'string' }, booking: { type: 'object', properties: { refresh: { type: 'string' } } } },
};

/** The answer of a right password when a second step is needed (docs/architecture.md 'Staff sign-in'). */
export const MFA_STEP = {
  type: 'object',
  required: ['mfa_required', 'mfa_token'],
  properties: {
    mfa_required: { type: 'boolean', enum: [true] },
    mfa_enrolment_required: { type: 'boolean' },
    mfa_token: { type: 'string' },
    methods: { type: 'array', items: { type: 'string', enum: ['totp', 'passkey'] }, description: 'The factors the user may use: totp (and its recovery codes), passkey' },
  },
};

/** POST /default/api/login (public; 001 7.1). */
export const LOGIN_SCHEMA: FastifySchema = {
  operationId: 'session_login',
  tags: TAGS,
  summary: 'Sign in (001 7.1)',
  security: [],
  body: {
    type: 'object',
    required: ['username', 'password'],
    properties: {
      username: { type: 'string', minLength: 1, maxLength: USERNAME_MAX, pattern: '\\S', 'x-messages': { required: 'login.usernameRequired', minLength: 'login.usernameRequired', pattern: 'login.usernameRequired' } },
      // A bound on what the password hash is asked to work on (scrypt of a megabyte is a denial of service).
      password: { type: 'string', minLength: 1, maxLength: PASSWORD_INPUT_MAX, 'x-messages': { required: 'login.passwordRequired', minLength: 'login.passwordRequired' } },
    },
  },
  response: {
    '200': answer(
      'The user, an access token and a refresh token (and booking.refresh for advertisers); cookies set. Staff with a second factor, or of a role REQUIRE_MFA_ROLES names, get the second step instead (no cookie yet): `mfa_required`, `mfa_token` (5 minutes, single use) for POST /default/api/login/mfa, /login/passkey, or the enrolment (`mfa_enrolment_required`)',
      { anyOf: [SIGNED_IN, MFA_STEP] },
    ),
    ...errorAnswers(400, 429),
  },
};

/** POST /default/api/session/adopt (public, ours; 000 4 Autologin). */
export const ADOPT_SCHEMA: FastifySchema = {
  operationId: 'session_adopt',
  tags: TAGS,
  summary: 'Ours (000 4 Autologin): adopts a token pair handed over in a link as the session cookies',
  description: 'A pair that is not two tokens, a spent refresh token or an access token of another session answers 401.',
  security: [],
  body: { type: 'object', required: ['token', 'refresh_token'], properties: { token: TOKEN, refresh_token: TOKEN } },
  response: { '200': answer('The user; cookies set', { type: 'object', required: ['user'], properties: { user: ref('Profile') } }), ...errorAnswers(401, 429) },
};

/** GET /default/api/users/account (001 7.1). */
export const ACCOUNT_SCHEMA: FastifySchema = {
  operationId: 'session_account',
  tags: TAGS,
  summary: 'The signed-in user, with its chat unread count (001 7.1, 7.9)',
  response: { '200': answer('The user', ref('Profile')), ...errorAnswers(401) },
};

/** GET /default/api/users/whoami (public, ours; 000 4 Logout). */
export const WHOAMI_SCHEMA: FastifySchema = {
  operationId: 'session_whoami',
  tags: TAGS,
  summary: 'Ours (000 4 Logout): whose the session is (null for nobody, never 401) and whether a refresh-token cookie came',
  security: [],
  response: {
    '200': answer('The signed-in user id or null; refreshable when the request carried a refresh-token cookie', {
      type: 'object',
      required: ['id', 'refreshable'],
      properties: { id: { type: ['integer', 'null'] }, refreshable: { type: 'boolean' } },
    }),
  },
};

/** POST /{city}/api/refresh-token (public; 001 7.1). */
export const REFRESH_SCHEMA: FastifySchema = {
  operationId: 'session_refresh',
  tags: TAGS,
  summary: 'New tokens for a refresh token (body or cookie; 001 7.1)',
  security: [],
  params: pathParams('/{city}/api/refresh-token'),
  body: { type: 'object', properties: { refresh_token: { type: 'string', description: 'Else the refresh-token cookie' } } },
  response: {
    '200': answer('Rotated tokens', { type: 'object', required: ['access_token', 'refresh_token'], properties: { access_token: { type: 'string' }, refresh_token: { type: 'string' } } }),
    ...errorAnswers(400, 401),
  },
};

/** POST /default/login/logout (public; 001 7.1). */
export const LOGOUT_SCHEMA: FastifySchema = {
  operationId: 'session_logout',
  tags: TAGS,
  summary: 'Sign out: revokes the session and clears the cookies (001 7.1)',
  security: [],
  body: { type: 'object', properties: { refresh_token: { type: 'string', description: 'A refresh token of the session to end too' } } },
  response: { '200': answer('Signed out', ref('Detail')), ...errorAnswers(400) },
};
