/**
 * Session tokens (001 7.1; docs/architecture.md 'Sign-in').
 * - Access token: HS256 JWT (jose), `sub` = user id, `fam` = refresh-token family, lifetime
 *   ACCESS_TOKEN_TTL_S seconds.
 * - Refresh token: 32 random bytes, base64url; only its sha256 is stored, with a family id. Each
 *   refresh rotates it; presenting an already rotated (or revoked) token revokes the whole family;
 *   logout revokes the family. A family lives REFRESH_TOKEN_TTL_S seconds from its sign-in.
 *   One exception, for an answer lost on the way (the client kept its old cookie): the token rotated
 *   last, presented again within REFRESH_REUSE_LEEWAY_S while its successor is still unused, rotates
 *   that successor instead (the practice of Auth0's 'reuse interval' and Okta's 'grace period').
 * - The HS256 secret is TOKEN_SECRET, or a random one kept in `settings` so that several processes
 *   on one PostgreSQL share it.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { ACCESS_TOKEN_TTL_S, REFRESH_REUSE_LEEWAY_S, REFRESH_TOKEN_TTL_S } from '../../shared/constants';
import type { Database, Queryable } from '../db/database';
import { recordSecurityEvent } from './security-events';

export interface AccessClaims {
  userId: number;
  family: string;
  /** Expiry of the token, ms since the epoch. */
  expiresAt: number;
}

export interface IssuedRefresh {
  token: string;
  family: string;
  userId: number;
}

export interface TokenService {
  /** Signs an access token for a user and family. */
  signAccess(userId: number, family: string): Promise<string>;
  /** The claims of a valid, unexpired access token, or null. Never throws. */
  verifyAccess(token: string): Promise<AccessClaims | null>;
  /** Starts a new family (sign-in) and answers its first refresh token. */
  issueRefresh(userId: number): Promise<IssuedRefresh>;
  /**
   * Rotates a refresh token: the presented one is spent, a new one of the same family answered.
   * Null for an unknown, expired, revoked or already rotated token; the last two revoke the family,
   * except the token rotated last, presented again within REFRESH_REUSE_LEEWAY_S seconds while its
   * successor is unused: then the successor is rotated (its answer was lost on the way).
   */
  rotateRefresh(token: string): Promise<IssuedRefresh | null>;
  /** The family of a refresh token (any state), or null. */
  familyOf(token: string): Promise<string | null>;
  /** The user and family of a live refresh token (not rotated, revoked or expired), or null. Never spends it. */
  liveRefresh(token: string): Promise<{ userId: number; family: string } | null>;
  /** Revokes every token of a family (logout). */
  revokeFamily(family: string): Promise<void>;
}

/** sha256 of a refresh token, hex: what the database keeps. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The HS256 key: `configured` (TOKEN_SECRET) or the one in `settings`, created on first use. */
export async function loadTokenSecret(db: Queryable, configured: string | null): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db.query("INSERT INTO settings (key, value) VALUES ('token_secret', $1) ON CONFLICT (key) DO NOTHING", [
    randomBytes(48).toString('base64url'),
  ]);
  const rows = await db.query<{ value: string }>("SELECT value FROM settings WHERE key = 'token_secret'");
  return new TextEncoder().encode(rows[0].value);
}

/** The token service on `db` with the HS256 key `secret`. */
export function createTokenService(db: Database, secret: Uint8Array): TokenService {
  async function insert(tx: Queryable, userId: number, family: string, expiresAt: Date | string): Promise<{ id: number; token: string }> {
    const token = randomBytes(32).toString('base64url');
    const rows = await tx.query<{ id: number }>(
      'INSERT INTO refresh_tokens (family, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4) RETURNING id',
      [family, userId, hashRefreshToken(token), expiresAt],
    );
    return { id: rows[0].id, token };
  }

  const revoke = (tx: Queryable, family: string) =>
    tx.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family = $1 AND revoked_at IS NULL', [family]);

  return {
    async signAccess(userId, family) {
      return new SignJWT({ fam: family })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ACCESS_TOKEN_TTL_S)
        .sign(secret);
    },
    async verifyAccess(token) {
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || typeof payload.fam !== 'string' || typeof payload.exp !== 'number') return null;
        return { userId, family: payload.fam, expiresAt: payload.exp * 1000 };
      } catch {
        return null;
      }
    },
    async issueRefresh(userId) {
      const family = randomUUID();
      const { token } = await insert(db, userId, family, new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000));
      return { token, family, userId };
    },
    async rotateRefresh(token) {
      const hash = hashRefreshToken(token);
      return db.transaction(async (tx) => {
        // Spends the live token matched by `where` ($1) and issues its successor; null when none matched.
        const spend = async (where: 'token_hash = $1' | 'id = $1', key: string | number): Promise<IssuedRefresh | null> => {
          const spent = await tx.query<{ id: number; family: string; user_id: number; expires_at: Date }>(
            `UPDATE refresh_tokens SET revoked_at = now()
              WHERE ${where} AND revoked_at IS NULL AND expires_at > now()
              RETURNING id, family, user_id, expires_at`,
            [key],
          );
          if (spent.length === 0) return null;
          const { id, family, user_id: userId, expires_at: expiresAt } = spent[0];
          const next = await insert(tx, userId, family, expiresAt);
          await tx.query('UPDATE refresh_tokens SET replaced_by = $2 WHERE id = $1', [id, next.id]);
          return { token: next.token, family, userId: Number(userId) };
        };
        const rotated = await spend('token_hash = $1', hash);
        if (rotated) return rotated;
        const [old] = await tx.query<{ family: string; user_id: number; revoked_at: Date | null; replaced_by: number | null; recent: boolean }>(
          `SELECT family, user_id, revoked_at, replaced_by, revoked_at > now() - make_interval(secs => $2) AS recent
             FROM refresh_tokens WHERE token_hash = $1`,
          [hash, REFRESH_REUSE_LEEWAY_S],
        );
        if (!old?.revoked_at) return null; // unknown or expired
        // The answer of the last rotation was lost: its successor, still unused, is rotated instead.
        if (old.replaced_by !== null && old.recent) {
          const retried = await spend('id = $1', old.replaced_by);
          if (retried) return retried;
        }
        await revoke(tx, old.family); // reuse of a spent token: end the family
        await recordSecurityEvent(tx, { action: 'refresh_token_reuse', userId: Number(old.user_id), detail: { family: old.family } });
        return null;
      });
    },
    async familyOf(token) {
      const rows = await db.query<{ family: string }>('SELECT family FROM refresh_tokens WHERE token_hash = $1', [hashRefreshToken(token)]);
      return rows[0]?.family ?? null;
    },
    async liveRefresh(token) {
      const rows = await db.query<{ family: string; user_id: number }>(
        'SELECT family, user_id FROM refresh_tokens WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()',
        [hashRefreshToken(token)],
      );
      return rows[0] ? { userId: Number(rows[0].user_id), family: rows[0].family } : null;
    },
    async revokeFamily(family) {
      await revoke(db, family);
    },
  };
}
