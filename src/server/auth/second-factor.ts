/**
 * The second factor of staff sign-in (docs/architecture.md 'Staff sign-in'): TOTP (RFC 6238, with
 * `otpauth`: SHA-1, 6 digits, 30 s steps, one step of clock skew either way) and one-time recovery
 * codes, and the short-lived sign-in token (`mfa_token`) between the password and the factor.
 *
 * - Enrolment: `beginTotp` keeps a new secret as pending; `enableTotp` makes it the user's once a
 *   code of it is right, and answers RECOVERY_CODE_COUNT recovery codes (only their sha256 is kept).
 * - A code is accepted once: the time step it was made for must be later than the last accepted one
 *   (so a code seen over a shoulder is refused in its window), which `verifyCode` records atomically.
 * - A recovery code is spent by its use.
 * The TOTP secret (enabled and pending) is kept sealed with AES-256-GCM under MFA_SECRET_KEY
 * (./secret-box.ts): `box` is the app's `totpSecrets`, null when TOTP is unavailable (production
 * without the key: every TOTP call answers 501 `totp_unavailable`, shared/errors.ts, and is logged;
 * passkeys and recovery codes still work). A stored secret no configured key opens (MFA_SECRET_KEY
 * changed after the enrolment) answers 501 `totp_key_mismatch` the same way, its reason logged
 * (and recorded as a security event by the routes); `totpKeyMismatch` tells the profile page.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Queryable } from '../db/database';
import { HttpError } from '../http-error';
import { SecretBoxError, totpContext, type SecretBox } from './secret-box';
import { hashRefreshToken } from './tokens';

/** Recovery codes made at enrolment. */
export const RECOVERY_CODE_COUNT = 10;
/** Lifetime of a sign-in's `mfa_token`, seconds (5 minutes). */
export const MFA_TOKEN_TTL_S = 5 * 60;
/** The issuer the authenticator apps show. */
export const TOTP_ISSUER = 'City Console';
const PERIOD_S = 30;
const DIGITS = 6;

export { isStaff, STAFF_PERMISSIONS } from '../../shared/roles';

/** What a sign-in's `mfa_token` is for: the factor of an enrolled user, or the enrolment REQUIRE_MFA_ROLES asks for. */
export type MfaPurpose = 'verify' | 'enrol';

function totpOf(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S, secret: Secret.fromBase32(secret) });
}

/** The TOTP code of `secret` (base32) at `timestamp` ms (tests and the docs' examples). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return totpOf(secret).generate({ timestamp });
}

/** A code as typed: spaces and hyphens dropped, lower case. */
function normalized(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

function hashCode(code: string): string {
  return createHash('sha256').update(normalized(code)).digest('hex');
}

/** The factors of a user: an enabled TOTP, the unused recovery codes, the passkeys. */
export interface Factors {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: number;
}

/** The factors user `userId` has enrolled. */
export async function factorsOf(db: Queryable, userId: number): Promise<Factors> {
  const [row] = await db.query<{ totp: boolean; codes: number; passkeys: number }>(
    `SELECT EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND secret IS NOT NULL) AS totp,
            (SELECT count(*)::int FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL) AS codes,
            (SELECT count(*)::int FROM user_passkeys WHERE user_id = $1) AS passkeys`,
    [userId],
  );
  return { totp: row.totp, recoveryCodesLeft: Number(row.codes), passkeys: Number(row.passkeys) };
}

/** Whether the user has a second factor (a TOTP or a passkey). */
export function enrolled(f: Factors): boolean {
  return f.totp || f.passkeys > 0;
}

/**
 * Starts a TOTP enrolment of user `userId` (`username` is the label the app shows): a new 160-bit
 * secret, kept as pending (an earlier pending one is replaced; an enabled one stays until the new one
 * is confirmed). Answers the secret (base32, for manual entry) and its `otpauth://` URL (for the QR code).
 */
export async function beginTotp(db: Queryable, box: SecretBox | null, userId: number, username: string): Promise<{ secret: string; otpauth_url: string }> {
  const secret = new Secret({ size: 20 }).base32;
  await db.query(
    'INSERT INTO user_totp (user_id, pending_secret) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET pending_secret = EXCLUDED.pending_secret',
    [userId, sealing(box).seal(secret, totpContext(userId))],
  );
  return { secret, otpauth_url: totpOf(secret, username).toString() };
}

/**
 * The box, or the error of an app without one. Errors: HttpError 501 `totp_unavailable` (production
 * without MFA_SECRET_KEY; the answer says to use a passkey or ask the administrator, the log names the setting).
 */
function sealing(box: SecretBox | null): SecretBox {
  if (!box) throw new HttpError('totp_unavailable', { reason: 'TOTP is unavailable: MFA_SECRET_KEY is not set (required in production)' });
  return box;
}

/**
 * The plain secret of user `userId` from its stored value (`column` of `user_totp`). Errors: HttpError
 * 501 `totp_unavailable` without a box; 501 `totp_key_mismatch` when no configured key opens the value
 * (MFA_SECRET_KEY changed since it was stored, and the old key not in MFA_SECRET_KEY_PREVIOUS): the
 * answer says to use a recovery code or a passkey, or ask the administrator; the log names the user,
 * the column and the key ids (secret-box.ts), never the value.
 */
function openSecret(box: SecretBox | null, userId: number, column: 'secret' | 'pending_secret', stored: string): string {
  const opener = sealing(box);
  try {
    return opener.open(stored, totpContext(userId));
  } catch (e) {
    if (!(e instanceof SecretBoxError)) throw e;
    throw new HttpError('totp_key_mismatch', { reason: `TOTP ${column} of user ${userId} opens under no configured key: ${e.message}` });
  }
}

/**
 * Whether user `userId`'s enabled TOTP secret is stored under no key `box` opens (MFA_SECRET_KEY
 * changed since the enrolment): its codes answer 501 `totp_key_mismatch` until the user sets the app
 * up again. False without a stored secret or without a box (then `totpAvailable` says so). The
 * opened secret is dropped at once; one AES-GCM open, no write.
 */
export async function totpKeyMismatch(db: Queryable, box: SecretBox | null, userId: number): Promise<boolean> {
  if (!box) return false;
  const [row] = await db.query<{ secret: string | null }>('SELECT secret FROM user_totp WHERE user_id = $1', [userId]);
  if (!row?.secret) return false;
  try {
    box.open(row.secret, totpContext(userId));
    return false;
  } catch (e) {
    if (e instanceof SecretBoxError) return true;
    throw e;
  }
}

/** Whether TOTP can be enrolled and checked (false: production without MFA_SECRET_KEY). */
export function totpAvailable(box: SecretBox | null): boolean {
  return box !== null;
}

/** The time step `code` is right for under `secret` (now, one step either way), or null. */
function stepOf(secret: string, code: string, now: number): number | null {
  const token = normalized(code);
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : TOTP.counter({ period: PERIOD_S, timestamp: now }) + delta;
}

/** RECOVERY_CODE_COUNT new codes of 10 characters shown as `xxxxx-xxxxx` (base32, 50 bits each). */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = new Secret({ size: 7 }).base32.slice(0, 10).toLowerCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/**
 * Confirms the pending TOTP of user `userId` with a code of it: the secret becomes the user's, the
 * code's step is spent, and new recovery codes replace the old ones. Answers the recovery codes (to
 * show once), or null when there is no pending secret or the code is wrong. Errors: 501
 * `totp_unavailable` without a box; 501 `totp_key_mismatch` when no configured key opens the pending secret.
 */
export async function enableTotp(db: Queryable, box: SecretBox | null, userId: number, code: string, now = Date.now()): Promise<string[] | null> {
  sealing(box);
  const [row] = await db.query<{ pending_secret: string | null }>('SELECT pending_secret FROM user_totp WHERE user_id = $1', [userId]);
  if (!row?.pending_secret) return null;
  const step = stepOf(openSecret(box, userId, 'pending_secret', row.pending_secret), code, now);
  if (step === null) return null;
  await db.query('UPDATE user_totp SET secret = pending_secret, pending_secret = NULL, enabled_at = now(), last_step = $2 WHERE user_id = $1', [userId, step]);
  const codes = newRecoveryCodes();
  await db.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
  for (const c of codes) await db.query('INSERT INTO user_recovery_codes (user_id, code_hash) VALUES ($1, $2)', [userId, hashCode(c)]);
  return codes;
}

/**
 * Checks a second-factor code of user `userId`: a TOTP code of a step later than the last accepted
 * one (which it then becomes), or an unused recovery code (which it spends). Answers which it was,
 * or null (wrong, reused, or the user has no TOTP). Errors: HttpError 501 `totp_key_mismatch` when a
 * six-digit code meets a secret no configured key opens (fails closed; recovery codes do not need the
 * secret); 501 `totp_unavailable` when it meets a secret on a server without a box.
 */
export async function verifyCode(db: Queryable, box: SecretBox | null, userId: number, code: string, now = Date.now()): Promise<'totp' | 'recovery' | null> {
  const [row] = await db.query<{ secret: string | null }>('SELECT secret FROM user_totp WHERE user_id = $1', [userId]);
  if (row?.secret && /^\d{6}$/.test(normalized(code))) {
    const step = stepOf(openSecret(box, userId, 'secret', row.secret), code, now);
    if (step !== null) {
      const spent = await db.query('UPDATE user_totp SET last_step = $2 WHERE user_id = $1 AND last_step < $2 RETURNING 1', [userId, step]);
      return spent.length > 0 ? 'totp' : null;
    }
  }
  if (!/^[a-z2-7]{10}$/.test(normalized(code))) return null;
  const used = await db.query(
    `UPDATE user_recovery_codes SET used_at = now()
      WHERE id = (SELECT id FROM user_recovery_codes WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL LIMIT 1) RETURNING 1`,
    [userId, hashCode(code)],
  );
  return used.length > 0 ? 'recovery' : null;
}

/** Removes the TOTP and the recovery codes of user `userId` (the user's own `disable`). */
export async function removeTotp(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM user_totp WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
}

/** Removes every factor of user `userId`: TOTP, recovery codes and passkeys (an Administrator's reset). */
export async function resetFactors(db: Queryable, userId: number): Promise<void> {
  await removeTotp(db, userId);
  await db.query('DELETE FROM user_passkeys WHERE user_id = $1', [userId]);
}

/** Issues a sign-in's `mfa_token` for user `userId` (MFA_TOKEN_TTL_S, single use; only its sha256 is kept). */
export async function issueMfaToken(db: Queryable, userId: number, purpose: MfaPurpose): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO user_tokens (user_id, kind, token_hash, data, expires_at) VALUES ($1, 'mfa', $2, $3::jsonb, now() + make_interval(secs => $4))`,
    [userId, hashRefreshToken(token), JSON.stringify({ purpose }), MFA_TOKEN_TTL_S],
  );
  return token;
}

/** The user and username of a live `mfa_token` of `purpose`, without spending it; null when unknown, spent or expired. */
export async function peekMfaToken(db: Queryable, token: string, purpose: MfaPurpose): Promise<{ userId: number; username: string } | null> {
  const [row] = await db.query<{ user_id: number; username: string }>(
    `SELECT t.user_id, u.username FROM user_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1 AND t.kind = 'mfa' AND t.data->>'purpose' = $2 AND t.used_at IS NULL AND t.expires_at > now()`,
    [hashRefreshToken(token), purpose],
  );
  return row ? { userId: Number(row.user_id), username: row.username } : null;
}

/** Spends an `mfa_token`: false when it was spent meanwhile (two answers racing). */
export async function spendMfaToken(db: Queryable, token: string): Promise<boolean> {
  const rows = await db.query("UPDATE user_tokens SET used_at = now() WHERE token_hash = $1 AND kind = 'mfa' AND used_at IS NULL RETURNING 1", [hashRefreshToken(token)]);
  return rows.length > 0;
}
