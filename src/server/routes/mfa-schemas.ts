/**
 * The Fastify schemas of staff sign-in (routes/mfa-routes.ts; docs/architecture.md 'Staff sign-in'):
 * what each call validates, answers and shows in /openapi.json.
 */
import type { FastifySchema } from 'fastify';
import { pathParams } from '../openapi/call-schemas';
import { answer, errorAnswers, ref } from '../openapi/components';
import { PASSKEY_NAME_MAX } from '../auth/passkeys';
import { SIGNED_IN } from './session-schemas';

type Json = Record<string, unknown>;

const TAGS = ['security'];
const MFA_TOKEN = { type: 'string', minLength: 1, maxLength: 200, description: 'The `mfa_token` of POST /default/api/login' };
/** A six-digit TOTP code or a recovery code (`xxxxx-xxxxx`); spaces and hyphens are ignored. */
const CODE = {
  type: 'string',
  minLength: 1,
  maxLength: 32,
  description: 'A six-digit TOTP code, or a recovery code',
  'x-messages': { required: 'security.errors.codeRequired', minLength: 'security.errors.codeRequired', maxLength: 'security.errors.codeWrong' },
};
/** A WebAuthn answer as @simplewebauthn/browser gives it (checked by @simplewebauthn/server). */
const CREDENTIAL = {
  type: 'object',
  required: ['id', 'rawId', 'type', 'response'],
  properties: { id: { type: 'string', maxLength: 2048 }, rawId: { type: 'string', maxLength: 2048 }, type: { type: 'string' }, response: { type: 'object' } },
  description: 'The PublicKeyCredential as JSON (@simplewebauthn/browser startRegistration / startAuthentication)',
};
const WEBAUTHN_OPTIONS = { type: 'object', additionalProperties: true, description: 'PublicKeyCredential options as JSON, for @simplewebauthn/browser' };
const SESSION = {
  type: 'object',
  required: ['id', 'browser', 'os', 'ip', 'started_at', 'last_used_at', 'current'],
  properties: {
    id: { type: 'integer' },
    browser: { type: 'string', description: 'Browser and major version from the User-Agent' },
    os: { type: 'string', description: 'Operating system from the User-Agent' },
    ip: { type: ['string', 'null'] },
    started_at: { type: 'string', format: 'date-time' },
    last_used_at: { type: 'string', format: 'date-time' },
    current: { type: 'boolean', description: "The caller's own session" },
  },
};
const PASSKEY = {
  type: 'object',
  required: ['id', 'name', 'created_at', 'last_used_at'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, created_at: { type: 'string', format: 'date-time' }, last_used_at: { type: ['string', 'null'], format: 'date-time' } },
};
const ENDED = { type: 'object', required: ['ended'], properties: { ended: { type: 'integer', description: 'Sessions ended' } } };

function schema(operationId: string, summary: string, rest: FastifySchema & Json): FastifySchema {
  return { operationId, tags: TAGS, summary, ...rest };
}

export const MFA_SCHEMAS = {
  status: schema('mfa_status', "The caller's second factors: TOTP on or off, recovery codes left, passkeys", {
    response: {
      '200': answer('The factors', {
        type: 'object',
        required: ['totp', 'totp_available', 'totp_key_mismatch', 'recovery_codes_left', 'passkeys'],
        properties: {
          totp: { type: 'boolean' },
          totp_available: { type: 'boolean', description: 'false: this server cannot keep TOTP secrets (production without MFA_SECRET_KEY); TOTP setup answers 501 totp_unavailable, passkeys still work' },
          totp_key_mismatch: {
            type: 'boolean',
            description: 'true: the TOTP secret is stored under no configured key (MFA_SECRET_KEY changed since the enrolment); its codes answer 501 totp_key_mismatch until the TOTP is set up again',
          },
          recovery_codes_left: { type: 'integer' },
          passkeys: { type: 'array', items: PASSKEY },
        },
      }),
      ...errorAnswers(401, 403),
    },
  }),
  totpSetup: schema('mfa_totp_setup', 'Starts a TOTP enrolment: a new secret and its otpauth:// URL (for the QR code); signed in, or with an enrolment mfa_token', {
    security: [],
    body: { type: 'object', properties: { mfa_token: MFA_TOKEN } },
    response: {
      '200': answer('The secret (base32) and its URL', { type: 'object', required: ['secret', 'otpauth_url'], properties: { secret: { type: 'string' }, otpauth_url: { type: 'string' } } }),
      ...errorAnswers(400, 401, 403, 501),
    },
  }),
  totpEnable: schema('mfa_totp_enable', 'Confirms the TOTP with a code of it; answers 10 one-time recovery codes (shown once). With an enrolment mfa_token, also signs in (the login answer, cookies set)', {
    security: [],
    body: { type: 'object', required: ['code'], properties: { code: CODE, mfa_token: MFA_TOKEN } },
    response: {
      '200': answer('The recovery codes (and the login answer after an enrolment at sign-in)', {
        type: 'object',
        required: ['recovery_codes'],
        properties: { recovery_codes: { type: 'array', items: { type: 'string' } }, ...(SIGNED_IN.properties as Json) },
      }),
      ...errorAnswers(400, 401, 403, 429, 501),
    },
  }),
  disable: schema('mfa_disable', "Removes the caller's TOTP and recovery codes (the password confirms)", {
    body: { type: 'object', required: ['password'], properties: { password: { type: 'string', minLength: 1, maxLength: 1024, 'x-messages': { required: 'login.passwordRequired', minLength: 'login.passwordRequired' } } } },
    response: { '200': answer('Done', ref('Detail')), ...errorAnswers(400, 401, 403, 429) },
  }),
  loginMfa: schema('session_login_mfa', 'The second step of a sign-in: a TOTP or a recovery code for the mfa_token; answers what POST /default/api/login answers, cookies set', {
    security: [],
    body: { type: 'object', required: ['mfa_token', 'code'], properties: { mfa_token: MFA_TOKEN, code: CODE } },
    response: { '200': answer('Signed in', SIGNED_IN), ...errorAnswers(400, 401, 429, 501) },
  }),
  passkeyLoginOptions: schema('session_passkey_options', 'Options of a passkey sign-in: for the user of an mfa_token (second factor), or for a discoverable passkey instead of the password', {
    security: [],
    body: { type: 'object', properties: { mfa_token: MFA_TOKEN } },
    response: { '200': answer('PublicKeyCredentialRequestOptions', WEBAUTHN_OPTIONS), ...errorAnswers(400, 401, 429) },
  }),
  passkeyLogin: schema('session_passkey_login', 'Signs in with a passkey (after the password with its mfa_token, or alone); answers what POST /default/api/login answers, cookies set', {
    security: [],
    body: { type: 'object', required: ['credential'], properties: { credential: CREDENTIAL, mfa_token: MFA_TOKEN } },
    response: { '200': answer('Signed in', SIGNED_IN), ...errorAnswers(400, 401, 429) },
  }),
  passkeyOptions: schema('passkey_options', 'Options of a passkey registration for the caller', {
    body: { type: 'object', properties: {} },
    response: { '200': answer('PublicKeyCredentialCreationOptions', WEBAUTHN_OPTIONS), ...errorAnswers(401, 403) },
  }),
  passkeyRegister: schema('passkey_register', 'Registers a passkey of the caller under a name', {
    body: {
      type: 'object',
      required: ['name', 'credential'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: PASSKEY_NAME_MAX, pattern: '\\S', 'x-messages': { required: 'security.errors.passkeyNameRequired', minLength: 'security.errors.passkeyNameRequired', pattern: 'security.errors.passkeyNameRequired' } },
        credential: CREDENTIAL,
      },
    },
    response: { '201': answer('The passkey', PASSKEY), ...errorAnswers(400, 401, 403) },
  }),
  passkeyRemove: schema('passkey_remove', 'Removes a passkey of the caller', {
    params: pathParams('/{id}/'),
    response: { '204': answer('Removed'), ...errorAnswers(401, 403, 404) },
  }),
  sessions: schema('sessions_list', "The caller's live sessions, most recently used first", {
    response: {
      '200': answer('The sessions', { type: 'object', required: ['content', 'total_length'], properties: { content: { type: 'array', items: SESSION }, total_length: { type: 'integer' } } }),
      ...errorAnswers(401),
    },
  }),
  sessionEnd: schema('sessions_end', 'Ends one session of the caller: its refresh family is revoked, its access token refused within AUTH_CACHE_MS', {
    params: pathParams('/{id}/'),
    response: { '204': answer('Ended'), ...errorAnswers(401, 404) },
  }),
  sessionsEndOthers: schema('sessions_end_others', "Ends every session of the caller but the current one", {
    response: { '200': answer('How many ended', ENDED), ...errorAnswers(401) },
  }),
  userSessionsEnd: schema('users_sessions_end', "An Administrator ends every session of a user (staff who leave)", {
    params: pathParams('/{city}/{id}/'),
    response: { '200': answer('How many ended', ENDED), ...errorAnswers(401, 403, 404) },
  }),
  userMfaReset: schema('users_mfa_reset', "An Administrator resets a user's second factors (TOTP, recovery codes, passkeys): the user enrols again", {
    params: pathParams('/{city}/{id}/'),
    response: { '200': answer('Done', ref('Detail')), ...errorAnswers(401, 403, 404) },
  }),
};
