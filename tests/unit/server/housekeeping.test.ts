// Housekeeping on the job runner (src/server/jobs/housekeeping.ts, docs/architecture.md 'Jobs'):
// expired tokens, ended sessions and old sign-in failures pruned, PGlite's tables vacuumed, one hourly chain of runs
// that goes on after each run. On PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashRefreshToken } from '../../../src/server/auth/tokens';
import { HOUSEKEEPING_EVERY_MS, HOUSEKEEPING_JOB, keepHouse, scheduleHousekeeping } from '../../../src/server/jobs/housekeeping';
import { createTestApp, login, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const housekeepingJobs = () =>
  t.db.query<{ id: number; state: string; due_in_s: number }>(
    'SELECT id, state, extract(epoch FROM run_at - now())::int AS due_in_s FROM jobs WHERE kind = $1 ORDER BY id',
    [HOUSEKEEPING_JOB],
  );

describe('housekeeping', () => {
  it('removes expired refresh tokens, ended sessions, old one-time tokens and forgotten sign-in failures, and keeps what is live', async () => {
    const [expired, live, ended] = [await login(t.app, 'police'), await login(t.app, 'police'), await login(t.app, 'police')];
    const [{ id: police }] = await t.db.query<{ id: number }>("SELECT id FROM users WHERE username = 'police'");
    await t.db.query("UPDATE refresh_tokens SET expires_at = now() - interval '1 minute' WHERE token_hash = $1", [hashRefreshToken(expired.refreshToken)]);
    await t.db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE token_hash = $1', [hashRefreshToken(ended.refreshToken)]);
    const familyOf = async (s: { refreshToken: string }) => (await t.db.query<{ family: string }>('SELECT family::text AS family FROM refresh_tokens WHERE token_hash = $1', [hashRefreshToken(s.refreshToken)]))[0].family;
    const liveFamily = await familyOf(live);
    await t.db.query(
      `INSERT INTO user_tokens (user_id, kind, token_hash, expires_at) VALUES
         ($1, 'reset_password', 'old', now() - interval '2 days'), ($1, 'reset_password', 'recent', now() - interval '1 hour')`,
      [police],
    );
    await t.db.query(
      "INSERT INTO sign_in_failures (username, failures, last_failure_at) VALUES ('old-try', 3, now() - interval '2 hours'), ('new-try', 3, now())",
    );
    const result = await keepHouse(t.db);
    expect(result).toMatchObject({ refreshTokens: 1, sessions: 2, userTokens: 1, signInFailures: 1 });
    // The session rows of the expired and the revoked family went; the live one's stays.
    expect((await t.db.query<{ family: string }>('SELECT family::text AS family FROM user_sessions WHERE user_id = $1', [police])).map((r) => r.family)).toEqual([liveFamily]);
    expect(result.vacuumed > 0).toBe(t.db.kind === 'pglite');
    expect((await t.db.query("SELECT token_hash FROM user_tokens WHERE token_hash IN ('old', 'recent')")).map((r) => (r as { token_hash: string }).token_hash)).toEqual(['recent']);
    expect((await t.db.query('SELECT username FROM sign_in_failures ORDER BY username')).map((r) => (r as { username: string }).username)).toEqual(['new-try']);
    const refreshed = await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: live.refreshToken } });
    expect(refreshed.statusCode).toBe(200);
  });

  it('keeps one chain of runs: queued at start, never twice, and the next run queued an hour after each', async () => {
    const [first] = await housekeepingJobs();
    expect(await housekeepingJobs()).toHaveLength(1);
    expect(first.state).toBe('queued');
    // Another process starting on the same database queues no second chain.
    await scheduleHousekeeping(t.db, (tx, delayMs) => t.app.jobs.enqueue(tx, HOUSEKEEPING_JOB, {}, { delayMs }));
    expect(await housekeepingJobs()).toHaveLength(1);
    await t.db.query('UPDATE jobs SET run_at = now() WHERE id = $1', [first.id]);
    t.app.jobs.poke();
    await expect.poll(async () => (await housekeepingJobs()).map((j) => j.state), { timeout: 30_000 }).toEqual(['succeeded', 'queued']);
    const next = (await housekeepingJobs())[1];
    expect(Math.abs(next.due_in_s - HOUSEKEEPING_EVERY_MS / 1000)).toBeLessThan(60);
  });
});
