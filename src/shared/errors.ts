/**
 * Error answers of the API and the console's reaction to them (001 8; docs/architecture.md 'Conventions').
 * The server always answers errors as `ApiError`; never a stack.
 */
import type { FieldErrors } from './validation';

export type ErrorCode =
  | 'validation'
  | 'unknown_username'
  | 'invalid_credentials'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'session_expired'
  | 'conflict'
  | 'duplicate_file'
  | 'too_large'
  | 'rate_limited'
  | 'server_error'
  | 'totp_unavailable'
  | 'totp_key_mismatch';

/** The body of every error answer. `detail` is a human message in the request's language. */
export interface ApiError {
  detail: string;
  code: ErrorCode;
  fields?: Record<string, string[]>;
}

/**
 * HTTP status of each error code (001 8 lists 401, 403, 405, 406, 409 and 500; the CSV import adds
 * 409 `duplicate_file`, the same file imported before, and 413 `too_large`, a file over its limit;
 * staff sign-in adds 501 `totp_unavailable`, TOTP asked of a server that cannot keep TOTP secrets:
 * production without MFA_SECRET_KEY, docs/architecture.md 'Staff sign-in'; passkeys still work) and
 * 501 `totp_key_mismatch`, a user's stored TOTP secret that no configured key opens (MFA_SECRET_KEY
 * changed after the enrolment; recovery codes and passkeys still work).
 */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  validation: 400,
  unknown_username: 400,
  invalid_credentials: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  session_expired: 406,
  conflict: 409,
  duplicate_file: 409,
  too_large: 413,
  rate_limited: 429,
  server_error: 500,
  totp_unavailable: 501,
  totp_key_mismatch: 501,
};

/** The i18n key of each code's message (locales/<language>/*.json `errors.*`). */
export function errorKey(code: ErrorCode): string {
  return `errors.${code}`;
}

/** Field errors as translated strings, with a translator `t(key, params)` (i18next's). */
export function translateFieldErrors(errors: FieldErrors, t: (key: string, params?: Record<string, unknown>) => string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(errors)) out[field] = list.map((e) => t(e.key, e.params));
  return out;
}
