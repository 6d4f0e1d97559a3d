/**
 * Security events in the audit log (docs/architecture.md 'Sign-in'; ../audit/audit-log.ts): an entry
 * of category `security`, the event as `action`, the user it concerns (null when a username names
 * nobody; also its `record_id`), the client's IP when there is a request, and the event's details.
 */
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database';
import type { UserFacts } from '../repositories/user-facts';
import { recordAudit } from '../audit/audit-log';

/** The security events written to the audit log. */
export type SecurityAction =
  | 'sign_in'
  | 'sign_in_failed'
  | 'sign_in_throttled'
  | 'password_change'
  | 'password_reset'
  | 'role_change'
  | 'city_change'
  | 'refresh_token_reuse'
  // Staff sign-in (src/server/routes/mfa-routes.ts): enrolments, uses of a recovery code, failed
  // codes and passkeys, codes that met a TOTP secret no configured key opens (MFA_SECRET_KEY
  // changed since the enrolment), resets by an Administrator, passkeys added and removed, sessions ended.
  | 'mfa_enrolled'
  | 'mfa_disabled'
  | 'mfa_failed'
  | 'mfa_key_mismatch'
  | 'mfa_recovery_code_used'
  | 'mfa_reset'
  | 'passkey_registered'
  | 'passkey_removed'
  | 'session_ended'
  | 'session_expired';

/** One security event: who it concerns, from where, and its details (kept as given, JSON). */
export interface SecurityEvent {
  action: SecurityAction;
  /** The user it concerns; null for a username that names nobody. */
  userId: number | null;
  /** Whose request it was when not the user's own (an Administrator changing a role). */
  actorId?: number | null;
  ip?: string | null;
  city?: string | null;
  detail?: Record<string, unknown>;
}

/** Writes a security event in `tx` (the transaction of the change it records, when there is one). */
export async function recordSecurityEvent(tx: Queryable, event: SecurityEvent): Promise<void> {
  const detail = { ...(event.actorId != null && event.actorId !== event.userId ? { by: event.actorId } : {}), ...event.detail };
  await recordAudit(tx, { category: 'security', action: event.action, userId: event.userId, city: event.city, recordId: event.userId, ip: event.ip, detail });
}

/**
 * The security events of a change of user `target` made by user `by` (PUT users/{id}, 001 7.2):
 * a new password, a new role (`permission`, before and after), new cities (ids, before and after).
 * Fields left out of the change (undefined) are no event.
 */
export async function recordAccountChanges(
  request: FastifyRequest,
  change: { target: UserFacts; by: number; city: string; password: boolean; permission?: string; cityIds?: number[] },
): Promise<void> {
  const { db } = request.server;
  const base = { userId: change.target.id, actorId: change.by, ip: request.ip, city: change.city };
  if (change.password) await recordSecurityEvent(db, { ...base, action: 'password_change' });
  if (change.permission !== undefined && change.permission !== change.target.permission) {
    await recordSecurityEvent(db, { ...base, action: 'role_change', detail: { from: change.target.permission, to: change.permission } });
  }
  const before = [...change.target.assign_city].sort((a, b) => a - b);
  const after = change.cityIds && [...new Set(change.cityIds)].sort((a, b) => a - b);
  if (after && after.join() !== before.join()) await recordSecurityEvent(db, { ...base, action: 'city_change', detail: { from: before, to: after } });
}
