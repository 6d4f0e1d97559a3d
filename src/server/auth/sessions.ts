/**
 * Signed-in sessions a user can see and end (docs/architecture.md 'Sign-in', 'Staff sign-in'). A
 * session is a refresh-token family (./tokens.ts) started by a sign-in; `user_sessions` keeps one row
 * per family with the browser's User-Agent, the IP, the start and the last use, and the family of
 * the booking token started with it (Redirect-Token), which ends with it.
 *
 * Limits of staff sessions (./second-factor.ts STAFF_PERMISSIONS: every `permission` but Member,
 * whose sign-in the spec keeps unchanged): a
 * session unused for `SESSION_IDLE_MINUTES` or older than `SESSION_MAX_HOURS` is refused at its next
 * refresh (406 `session_expired`, the spec's expired-session flow, 001 8) and its family revoked.
 * "Used" means an API call made with its access token at a user's action (`isSessionUse`): not the
 * refresh call (the console's refresh timer runs while a tab is merely open), not a live stream
 * (EventSource's `Accept: text/event-stream`, sent again at each reconnection), not a call the
 * console marks with BACKGROUND_HEADER (src/shared/sessions.ts); a process writes it at most once a
 * TOUCH_EVERY_S. So an open console left alone goes idle; any other client's calls all count.
 */
import { UAParser } from 'ua-parser-js';
import type { Queryable } from '../db/database';
import type { TokenService } from './tokens';
import { BACKGROUND_HEADER, type SessionInfo } from '../../shared/sessions';

export type { SessionInfo };

/** Seconds between two writes of a session's last use by one process. */
export const TOUCH_EVERY_S = 60;


/** The limits of staff sessions, minutes idle (0: none) and hours since the sign-in. */
export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

/** Browser and system of a User-Agent header, e.g. {browser: 'Chrome 131', os: 'Windows 10'}. */
export function describeUserAgent(userAgent: string): { browser: string; os: string } {
  const r = UAParser(userAgent);
  const join = (name?: string, version?: string) => [name, version].filter(Boolean).join(' ');
  return { browser: join(r.browser.name, r.browser.major), os: join(r.os.name, r.os.version) };
}

/** Records the session of a new refresh family (a sign-in); the User-Agent is kept to 512 characters. */
export async function recordSession(
  db: Queryable,
  session: { family: string; bookingFamily: string | null; userId: number; userAgent: string; ip: string | null },
): Promise<void> {
  await db.query('INSERT INTO user_sessions (family, booking_family, user_id, user_agent, ip) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (family) DO NOTHING', [
    session.family,
    session.bookingFamily,
    session.userId,
    session.userAgent.slice(0, 512),
    session.ip,
  ]);
}

/** The token refresh call (001 7.1). */
const REFRESH_CALL = /^\/[^/?]+\/api\/refresh-token(\?|$)/;
const BACKGROUND = BACKGROUND_HEADER.toLowerCase();

/**
 * Whether a call is a use of its session for the idle limit: false for the refresh call, a live
 * stream (`Accept: text/event-stream`) and a call marked `X-Background-Request: 1`; true otherwise.
 */
export function isSessionUse(request: { url: string; headers: Record<string, string | string[] | undefined> }): boolean {
  if (REFRESH_CALL.test(request.url)) return false;
  if (String(request.headers.accept ?? '').includes('text/event-stream')) return false;
  return request.headers[BACKGROUND] !== '1';
}

const touched = new Map<string, number>();

/** Notes a use of the session of `family` now (at most one write per TOUCH_EVERY_S per process). */
export async function touchSession(db: Queryable, family: string): Promise<void> {
  const now = Date.now();
  if ((touched.get(family) ?? 0) > now - TOUCH_EVERY_S * 1000) return;
  if (touched.size > 10_000) touched.clear();
  touched.set(family, now);
  await db.query('UPDATE user_sessions SET last_used_at = now() WHERE family = $1', [family]);
}

/** The live sessions of user `userId`, newest use first; `current` marks the one of `family`. */
export async function listSessions(db: Queryable, userId: number, family: string | null): Promise<SessionInfo[]> {
  const rows = await db.query<{ id: number; family: string; user_agent: string; ip: string | null; started_at: Date | string; last_used_at: Date | string }>(
    `SELECT s.id, s.family::text AS family, s.user_agent, s.ip, s.started_at, s.last_used_at FROM user_sessions s
      WHERE s.user_id = $1 AND EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.family = s.family AND t.revoked_at IS NULL AND t.expires_at > now())
      ORDER BY s.last_used_at DESC, s.id DESC`,
    [userId],
  );
  const iso = (v: Date | string) => new Date(v).toISOString();
  return rows.map((r) => ({
    id: Number(r.id),
    ...describeUserAgent(r.user_agent),
    ip: r.ip,
    started_at: iso(r.started_at),
    last_used_at: iso(r.last_used_at),
    current: r.family === family,
  }));
}

/** Revokes the families of the given session rows (and their booking families) and removes the rows; answers how many ended. */
async function endRows(tokens: TokenService, rows: Array<{ family: string; booking_family: string | null }>): Promise<number> {
  for (const r of rows) {
    await tokens.revokeFamily(r.family);
    if (r.booking_family) await tokens.revokeFamily(r.booking_family);
  }
  return rows.length;
}

/** Ends session `id` of user `userId`: false when the user has no such session. */
export async function endSession(db: Queryable, tokens: TokenService, userId: number, id: number): Promise<boolean> {
  const rows = await db.query<{ family: string; booking_family: string | null }>(
    'DELETE FROM user_sessions WHERE id = $1 AND user_id = $2 RETURNING family::text AS family, booking_family::text AS booking_family',
    [id, userId],
  );
  return (await endRows(tokens, rows)) > 0;
}

/**
 * Ends every session of user `userId` but the one of `keepFamily` (null: every one), including live
 * refresh families that have no session row (sessions adopted by autologin, booking tokens).
 * Answers how many session rows ended.
 */
export async function endSessions(db: Queryable, tokens: TokenService, userId: number, keepFamily: string | null): Promise<number> {
  const kept = keepFamily
    ? ((await db.query<{ booking_family: string | null }>('SELECT booking_family::text AS booking_family FROM user_sessions WHERE family = $1', [keepFamily]))[0]?.booking_family ?? null)
    : null;
  const rows = await db.query<{ family: string; booking_family: string | null }>(
    `DELETE FROM user_sessions WHERE user_id = $1 AND ($2::uuid IS NULL OR family <> $2::uuid)
      RETURNING family::text AS family, booking_family::text AS booking_family`,
    [userId, keepFamily],
  );
  const ended = await endRows(tokens, rows);
  const live = await db.query<{ family: string }>(
    'SELECT DISTINCT family::text AS family FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()',
    [userId],
  );
  for (const { family } of live) if (family !== keepFamily && family !== kept) await tokens.revokeFamily(family);
  return ended;
}

/** Ends the session of `family` (past a limit): its family, its booking family and its row. */
export async function expireSession(db: Queryable, tokens: TokenService, family: string): Promise<void> {
  const rows = await db.query<{ family: string; booking_family: string | null }>(
    'DELETE FROM user_sessions WHERE family = $1 RETURNING family::text AS family, booking_family::text AS booking_family',
    [family],
  );
  await endRows(tokens, rows);
}

/**
 * Whether the session of `family` is past a limit: 'idle' (staff, unused for `idleMinutes`),
 * 'absolute' (staff, signed in more than `maxHours` ago), or null (within both, a Member's session,
 * or a family without a session row).
 */
export async function sessionPastLimit(db: Queryable, family: string, limits: SessionLimits): Promise<'idle' | 'absolute' | null> {
  const [row] = await db.query<{ absolute: boolean; idle: boolean }>(
    `SELECT s.started_at < now() - make_interval(hours => $2) AS absolute,
            ($3 > 0 AND s.last_used_at < now() - make_interval(mins => $3)) AS idle
       FROM user_sessions s JOIN users u ON u.id = s.user_id
      WHERE s.family = $1 AND u.permission <> 'Member'`,
    [family, limits.maxHours, limits.idleMinutes],
  );
  if (!row) return null;
  return row.absolute ? 'absolute' : row.idle ? 'idle' : null;
}

/** Removes the rows of sessions whose family no longer lives (housekeeping); answers how many went. */
export async function pruneSessions(db: Queryable): Promise<number> {
  const rows = await db.query(
    `DELETE FROM user_sessions s WHERE NOT EXISTS (
       SELECT 1 FROM refresh_tokens t WHERE t.family = s.family AND t.revoked_at IS NULL AND t.expires_at > now()) RETURNING 1`,
  );
  return rows.length;
}
