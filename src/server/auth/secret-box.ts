/**
 * TOTP secrets at rest (docs/architecture.md 'Staff sign-in'): the server must compute codes from a
 * user's secret, so it cannot keep only a hash; it keeps it sealed with AES-256-GCM (node:crypto)
 * under a key that is not in the database, so a backup or a copy of the tables alone does not hold
 * the second factors.
 *
 * - Keys: `MFA_SECRET_KEY` (32 characters or more) seals; `MFA_SECRET_KEY_PREVIOUS` (comma-separated
 *   earlier keys) only opens. The AES key is HKDF-SHA256 of the setting; its id, the first 8 hex
 *   digits of the AES key's SHA-256, is written with each sealed value.
 * - Without `MFA_SECRET_KEY`: outside production the key is derived from the token secret
 *   (TOKEN_SECRET, or the one kept in the database), and stays readable once MFA_SECRET_KEY is set;
 *   in production TOTP is unavailable (logged at start; enrolment answers 501 `totp_unavailable`,
 *   shared/errors.ts) and the server refuses to start while any TOTP secret is stored.
 * - Stored form: `v1:<key id>:<iv>:<ciphertext>:<tag>` (base64url; 12-byte IV, 16-byte tag), the
 *   user's id bound as additional data (a value copied to another user's row does not open). A value
 *   without the `v1:` prefix is a secret stored in clear before this existed.
 * - At every start (`registerTotpSecrets`) the values in clear or under a previous key are rewritten
 *   under the current key (key rotation: set the new key, the old one as previous, restart). A value
 *   no key opens is left as it is and logged; a code of that user then fails closed (501
 *   `totp_key_mismatch`, shared/errors.ts, the reason in the server log) until the key is set back,
 *   the user enrols again or an Administrator resets the user's factors. Recovery codes, stored
 *   hashed, and passkeys still sign the user in.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, type BinaryLike } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database';
import { loadTokenSecret } from './tokens';

const FORMAT = 'v1';
const IV_BYTES = 12;
const HKDF_INFO = 'city-console totp secret';

/** A secret the keys cannot open (unknown key id, a changed value, or another user's value). */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/** Seals and opens short secrets; `context` (e.g. the user's id) is bound to each value. */
export interface SecretBox {
  /** Id of the sealing key (8 hex digits). */
  readonly keyId: string;
  /** `plain` sealed under the current key, as `v1:<key id>:<iv>:<ciphertext>:<tag>`. */
  seal(plain: string, context: string): string;
  /** The plain text of a stored value (a value in clear is answered as it is). Errors: SecretBoxError. */
  open(stored: string, context: string): string;
  /** Whether a stored value is sealed under the current key (nothing to rewrite). */
  isCurrent(stored: string): boolean;
}

interface Key {
  id: string;
  key: Buffer;
}

function keyOf(material: BinaryLike): Key {
  const key = Buffer.from(hkdfSync('sha256', material, '', HKDF_INFO, 32));
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

/** A box sealing under `current` and opening under it and `previous` (key settings or other key material). */
export function createSecretBox(current: BinaryLike, previous: BinaryLike[] = []): SecretBox {
  const sealing = keyOf(current);
  const keys = new Map<string, Key>([[sealing.id, sealing]]);
  for (const p of previous) {
    const k = keyOf(p);
    if (!keys.has(k.id)) keys.set(k.id, k);
  }
  return {
    keyId: sealing.id,
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', sealing.key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [FORMAT, sealing.id, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(':');
    },
    open(stored, context) {
      if (!stored.startsWith(`${FORMAT}:`)) return stored;
      const [, id, iv, body, tag] = stored.split(':');
      const k = keys.get(id);
      if (!k) throw new SecretBoxError(`sealed with key id ${id}, which is neither MFA_SECRET_KEY (${sealing.id}) nor one of MFA_SECRET_KEY_PREVIOUS`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', k.key, Buffer.from(iv ?? '', 'base64url'));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body ?? '', 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError(`sealed with key id ${id}, but does not open under it (a changed value or another row's)`);
      }
    },
    isCurrent(stored) {
      return stored.startsWith(`${FORMAT}:${sealing.id}:`);
    },
  };
}

/** The additional data a user's TOTP secret is sealed with. */
export function totpContext(userId: number): string {
  return `user_totp:${userId}`;
}

/**
 * The box of TOTP secrets for the settings (see the top of this file): null in production without
 * MFA_SECRET_KEY. `tokenSecret` is the access tokens' key (auth/tokens.ts `loadTokenSecret`).
 */
export function totpSecretBox(config: { mfaSecretKey: string | null; mfaSecretKeysPrevious: string[]; production: boolean }, tokenSecret: Uint8Array): SecretBox | null {
  const derived = config.production ? [] : [Buffer.from(tokenSecret)];
  if (config.mfaSecretKey) return createSecretBox(config.mfaSecretKey, [...config.mfaSecretKeysPrevious, ...derived]);
  return config.production ? null : createSecretBox(derived[0], config.mfaSecretKeysPrevious);
}

/** What one start's pass over the stored secrets did. */
export interface SealResult {
  /** Values rewritten under the current key (in clear or under a previous key before). */
  rewritten: number;
  /** Values no key opens (left as they are). */
  unreadable: number[];
}

/**
 * Rewrites every stored TOTP secret (enabled and pending) that is in clear or under a previous key
 * under the current key; a value changed meanwhile by another process is left to it. Errors: with
 * no box (production without MFA_SECRET_KEY) while any secret is stored, an Error naming the setting.
 */
export async function sealTotpSecrets(db: Queryable, box: SecretBox | null): Promise<SealResult> {
  const rows = await db.query<{ user_id: number; secret: string | null; pending_secret: string | null }>(
    'SELECT user_id, secret, pending_secret FROM user_totp WHERE secret IS NOT NULL OR pending_secret IS NOT NULL ORDER BY user_id',
  );
  if (!box) {
    if (rows.length > 0) throw new Error(`MFA_SECRET_KEY is required in production: ${rows.length} users have a TOTP secret stored (set it to 32 characters or more; see README 'Settings')`);
    return { rewritten: 0, unreadable: [] };
  }
  const result: SealResult = { rewritten: 0, unreadable: [] };
  for (const row of rows) {
    const userId = Number(row.user_id);
    for (const column of ['secret', 'pending_secret'] as const) {
      const stored = row[column];
      if (!stored || box.isCurrent(stored)) continue;
      let plain: string;
      try {
        plain = box.open(stored, totpContext(userId));
      } catch {
        if (!result.unreadable.includes(userId)) result.unreadable.push(userId);
        continue;
      }
      const done = await db.query(`UPDATE user_totp SET ${column} = $3 WHERE user_id = $1 AND ${column} = $2 RETURNING 1`, [userId, stored, box.seal(plain, totpContext(userId))]);
      result.rewritten += done.length;
    }
  }
  return result;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The box of TOTP secrets (./secret-box.ts); null in production without MFA_SECRET_KEY. */
    totpSecrets: SecretBox | null;
  }
}

/**
 * Decorates `app.totpSecrets` and seals the stored TOTP secrets (`sealTotpSecrets`), logging what it
 * rewrote, a warning when TOTP is unavailable, and, as an error, the users whose secret no key opens.
 * Errors: as `sealTotpSecrets` (the start is refused).
 */
export async function registerTotpSecrets(app: FastifyInstance): Promise<void> {
  const box = totpSecretBox(app.config, await loadTokenSecret(app.db, app.config.tokenSecret));
  app.decorate('totpSecrets', box);
  const { rewritten, unreadable } = await sealTotpSecrets(app.db, box);
  if (!box) app.log.warn('TOTP is unavailable: MFA_SECRET_KEY is not set (required in production); TOTP setup answers 501 totp_unavailable, passkeys still work');
  if (rewritten > 0) app.log.info(`TOTP secrets: ${rewritten} rewritten under key ${box?.keyId}`);
  if (unreadable.length > 0) {
    app.log.error(
      { users: unreadable },
      `TOTP secrets of ${unreadable.length} users open under no key (MFA_SECRET_KEY ${box?.keyId}, MFA_SECRET_KEY_PREVIOUS): their codes are refused until the key is set back or an Administrator resets their factors`,
    );
  }
}
