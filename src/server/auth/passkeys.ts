/**
 * Passkeys (WebAuthn) of staff sign-in with `@simplewebauthn/server` (docs/architecture.md 'Staff
 * sign-in'): registered and named per user, used as the second factor after the password or, alone,
 * instead of the password (a discoverable credential with user verification).
 *
 * The relying party is WEBAUTHN_RP_ID / WEBAUTHN_ORIGIN, by default the request's own host and
 * origin. Every ceremony's challenge is kept in `webauthn_challenges` for CHALLENGE_TTL_S and spent
 * by the answer that carries it, so an answer is accepted once and only by the server that asked.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database';
import { TOTP_ISSUER } from './second-factor';

/** How long a ceremony's challenge is good for, seconds. */
export const CHALLENGE_TTL_S = 5 * 60;
/** Longest passkey name, characters. */
export const PASSKEY_NAME_MAX = 64;

/** The relying party of a request: its id (a host name) and the origin browsers report. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** The relying party: the configured one, else the request's own host and origin. */
export function relyingPartyOf(request: FastifyRequest): RelyingParty {
  const { webauthnRpId, webauthnOrigin } = request.server.config;
  return { id: webauthnRpId ?? request.hostname, origin: webauthnOrigin ?? `${request.protocol}://${request.host}` };
}

/** A passkey as the profile page lists it. */
export interface PasskeyInfo {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

type Purpose = 'register' | 'authenticate';

async function keepChallenge(db: Queryable, challenge: string, userId: number | null, purpose: Purpose): Promise<void> {
  await db.query('DELETE FROM webauthn_challenges WHERE expires_at < now()');
  await db.query('INSERT INTO webauthn_challenges (challenge, user_id, purpose, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))', [
    challenge,
    userId,
    purpose,
    CHALLENGE_TTL_S,
  ]);
}

/** The challenge an answer carries (clientDataJSON's `challenge`), or null when unreadable. */
function challengeOf(clientDataJSON: unknown): string | null {
  if (typeof clientDataJSON !== 'string') return null;
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' ? data.challenge : null;
  } catch {
    return null;
  }
}

/** Spends a live challenge of `purpose`; answers the user it was issued for (null: anyone), or undefined when there is none. */
async function spendChallenge(db: Queryable, challenge: string, purpose: Purpose): Promise<number | null | undefined> {
  const [row] = await db.query<{ user_id: number | null }>('DELETE FROM webauthn_challenges WHERE challenge = $1 AND purpose = $2 AND expires_at > now() RETURNING user_id', [
    challenge,
    purpose,
  ]);
  return row ? (row.user_id === null ? null : Number(row.user_id)) : undefined;
}

/** The passkeys of user `userId`, oldest first. */
export async function listPasskeys(db: Queryable, userId: number): Promise<PasskeyInfo[]> {
  const rows = await db.query<{ id: number; name: string; created_at: Date | string; last_used_at: Date | string | null }>(
    'SELECT id, name, created_at, last_used_at FROM user_passkeys WHERE user_id = $1 ORDER BY id',
    [userId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
  }));
}

/** Removes passkey `id` of user `userId`; false when the user has no such passkey. */
export async function removePasskey(db: Queryable, userId: number, id: number): Promise<boolean> {
  return (await db.query('DELETE FROM user_passkeys WHERE id = $1 AND user_id = $2 RETURNING 1', [id, userId])).length > 0;
}

/**
 * The options of a registration ceremony for user `user` (a discoverable credential, user
 * verification preferred; the user's passkeys excluded). The challenge is kept for the answer.
 */
export async function registrationOptions(db: Queryable, rp: RelyingParty, user: { id: number; username: string; name: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await db.query<{ credential_id: string; transports: string[] }>('SELECT credential_id, transports FROM user_passkeys WHERE user_id = $1', [user.id]);
  const options = await generateRegistrationOptions({
    rpName: TOTP_ISSUER,
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.name || user.username,
    userID: new TextEncoder().encode(`user-${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: c.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: CHALLENGE_TTL_S * 1000,
  });
  await keepChallenge(db, options.challenge, user.id, 'register');
  return options;
}

/**
 * Verifies a registration answer of user `userId` and keeps the passkey under `name`. Answers the
 * passkey, or null when the answer is not one this server asked this user for, or does not verify.
 */
export async function registerPasskey(db: Queryable, rp: RelyingParty, userId: number, response: RegistrationResponseJSON, name: string): Promise<PasskeyInfo | null> {
  const challenge = challengeOf(response?.response?.clientDataJSON);
  if (!challenge || (await spendChallenge(db, challenge, 'register')) !== userId) return null;
  let verified;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false });
  } catch {
    return null;
  }
  if (!verified.verified) return null;
  const { credential } = verified.registrationInfo;
  const [row] = await db.query<{ id: number; created_at: Date | string }>(
    `INSERT INTO user_passkeys (user_id, credential_id, public_key, counter, transports, name) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (credential_id) DO NOTHING RETURNING id, created_at`,
    [userId, credential.id, Buffer.from(credential.publicKey), credential.counter, credential.transports ?? [], name],
  );
  return row ? { id: Number(row.id), name, created_at: new Date(row.created_at).toISOString(), last_used_at: null } : null;
}

/**
 * The options of a sign-in ceremony: for user `userId` (the second factor; its passkeys allowed) or
 * for anyone (null: a discoverable passkey instead of the password, user verification required).
 */
export async function authenticationOptions(db: Queryable, rp: RelyingParty, userId: number | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowed =
    userId === null ? [] : await db.query<{ credential_id: string; transports: string[] }>('SELECT credential_id, transports FROM user_passkeys WHERE user_id = $1', [userId]);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: allowed.map((c) => ({ id: c.credential_id, transports: c.transports as AuthenticatorTransport[] })),
    userVerification: userId === null ? 'required' : 'preferred',
    timeout: CHALLENGE_TTL_S * 1000,
  });
  await keepChallenge(db, options.challenge, userId, 'authenticate');
  return options;
}

/**
 * Verifies a sign-in answer: the challenge must be one this server issued (for `userId`, or for
 * anyone when `userId` is null) and the passkey one of a user (of `userId` when given). Answers the
 * user whose passkey it is (its counter and last use updated), or null.
 */
export async function verifyPasskey(db: Queryable, rp: RelyingParty, response: AuthenticationResponseJSON, userId: number | null): Promise<number | null> {
  const challenge = challengeOf(response?.response?.clientDataJSON);
  if (!challenge || (await spendChallenge(db, challenge, 'authenticate')) !== userId) return null;
  const [key] = await db.query<{ id: number; user_id: number; credential_id: string; public_key: Uint8Array; counter: number; transports: string[] }>(
    'SELECT id, user_id, credential_id, public_key, counter, transports FROM user_passkeys WHERE credential_id = $1',
    [typeof response.id === 'string' ? response.id : ''],
  );
  if (!key || (userId !== null && Number(key.user_id) !== userId)) return null;
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: key.credential_id, publicKey: new Uint8Array(key.public_key), counter: Number(key.counter), transports: key.transports as AuthenticatorTransport[] },
      requireUserVerification: userId === null,
    });
  } catch {
    return null;
  }
  if (!verified.verified) return null;
  await db.query('UPDATE user_passkeys SET counter = $2, last_used_at = now() WHERE id = $1', [key.id, verified.authenticationInfo.newCounter]);
  return Number(key.user_id);
}
