/**
 * A staff user's signed-in session as the API answers it (GET /default/api/users/sessions/;
 * docs/architecture.md 'Staff sign-in'): the server's src/server/auth/sessions.ts makes it, the
 * profile page's ログイン中の端末 table shows it.
 */

/** One session as GET /default/api/users/sessions/ answers it. */
export interface SessionInfo {
  id: number;
  /** Browser name and major version read from the User-Agent ('' when unknown). */
  browser: string;
  /** Operating system name and version read from the User-Agent ('' when unknown). */
  os: string;
  ip: string | null;
  /** ISO 8601 times. */
  started_at: string;
  last_used_at: string;
  /** The caller's own session. */
  current: boolean;
}

/**
 * The header by which the console marks a call it makes by itself, not at a user's action (a read
 * again after a live stream's break, an import's progress polls): such a call, like the refresh
 * call and a live stream (`Accept: text/event-stream`), is no use of the session for its idle
 * limit (SESSION_IDLE_MINUTES; src/server/auth/sessions.ts `isSessionUse`). Value `1`.
 */
export const BACKGROUND_HEADER = 'X-Background-Request';
