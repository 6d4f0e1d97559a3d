/**
 * Per-account sign-in throttling (docs/architecture.md 'Sign-in'), beside the per-IP limit of
 * `LOGIN_RATE_LIMIT`: failures are counted per username whatever the IP. The first
 * `FREE_FAILURES` cost nothing; after each further failure the account refuses sign-in attempts
 * (429 `rate_limited`, `Retry-After` in seconds, the password not even checked) for a delay that
 * doubles from 1 s up to `MAX_DELAY_S`. A success forgets the failures, and so does a quiet
 * `FORGET_AFTER_S` since the last one: the real user is slowed down, never locked out for good.
 */
import type { Queryable } from '../db/database';
import { HttpError } from '../http-error';

/** Failures in a row that cost no delay. */
export const FREE_FAILURES = 5;
/** The longest delay after a failure, seconds. */
export const MAX_DELAY_S = 15 * 60;
/** Failures older than this (seconds since the last one) are forgotten. */
export const FORGET_AFTER_S = 60 * 60;

/** Seconds an account refuses sign-in after its `failures`-th failure in a row (0 for the free ones). */
export function delayAfter(failures: number): number {
  return failures <= FREE_FAILURES ? 0 : Math.min(2 ** (failures - FREE_FAILURES - 1), MAX_DELAY_S);
}

/** Throws 429 `rate_limited` with `Retry-After` while `username` is held back by its failures. */
export async function refuseWhileThrottled(db: Queryable, username: string): Promise<void> {
  const [row] = await db.query<{ wait: number }>(
    'SELECT ceil(extract(epoch FROM blocked_until - now()))::int AS wait FROM sign_in_failures WHERE username = $1 AND blocked_until > now()',
    [username],
  );
  if (row && row.wait > 0) throw new HttpError('rate_limited', { headers: { 'retry-after': String(row.wait) } });
}

/** Counts a failed sign-in of `username` (known or not); answers the failures in a row now. */
export async function countFailure(db: Queryable, username: string): Promise<number> {
  const [row] = await db.query<{ failures: number }>(
    `INSERT INTO sign_in_failures AS f (username, failures, last_failure_at) VALUES ($1, 1, now())
     ON CONFLICT (username) DO UPDATE
       SET failures = CASE WHEN f.last_failure_at < now() - make_interval(secs => $2) THEN 1 ELSE f.failures + 1 END,
           last_failure_at = now()
     RETURNING failures`,
    [username, FORGET_AFTER_S],
  );
  const failures = Number(row.failures);
  const delay = delayAfter(failures);
  if (delay > 0) await db.query('UPDATE sign_in_failures SET blocked_until = now() + make_interval(secs => $2) WHERE username = $1', [username, delay]);
  return failures;
}

/** Forgets the failures of `username` (a successful sign-in). */
export async function forgetFailures(db: Queryable, username: string): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE username = $1', [username]);
}

/** Removes the failures nobody remembers any more (housekeeping); answers how many rows went. */
export async function pruneFailures(db: Queryable): Promise<number> {
  const rows = await db.query('DELETE FROM sign_in_failures WHERE last_failure_at < now() - make_interval(secs => $1) RETURNING 1', [FORGET_AFTER_S]);
  return rows.length;
}
