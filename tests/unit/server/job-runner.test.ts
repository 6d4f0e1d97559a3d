/**
 * The one job runner (src/server/jobs/job-runner.ts, docs/architecture.md 'Jobs'), on a kind of its
 * own: a failed attempt has its journaled writes undone and is tried again after its backoff, until
 * it succeeds (its writes then stay) or its attempts are spent (failed); a queued job cancelled ends
 * at once; a running job left by a dead process (an old heartbeat; on PGlite any other runner's) is
 * undone and failed or queued again (a kind may retry an interruption alone: `retryAfter`); an attempt
 * whose job another runner took over has its writes refused and stops without settling; every state
 * is visible in `jobs`. On PGlite and PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../../src/shared/registry';
import type { Database, Queryable } from '../../../src/server/db/database';
import { prepareDatabase } from '../../../src/server/db/prepare';
import { JobLost, JobRunner, type Job } from '../../../src/server/jobs/job-runner';
import { journalCreated } from '../../../src/server/jobs/job-writes';
import { openTestDatabase } from './helpers';

let db: Database;
let cleanup: () => Promise<void>;
let runner: JobRunner | null = null;
const news = registry.get('news')!;

beforeAll(async () => {
  ({ db, cleanup } = await openTestDatabase());
  await prepareDatabase(db, { demo: false });
});
afterEach(async () => {
  await runner?.stop();
  runner = null;
});
afterAll(() => cleanup());

/** Writes `n` news rows of kobe for job `id` (journaled), as a job's batch does: in `q`, else in a transaction of its own. */
async function write(id: number, label: string, n = 2, q?: Queryable): Promise<void> {
  if (!q) return db.transaction((tx) => write(id, label, n, tx));
  const rows = await q.query<{ id: number }>(
    `INSERT INTO r_news (city, data) SELECT 'kobe', jsonb_build_object('title', $1 || ' ' || g) FROM generate_series(1, $2::int) g RETURNING id`,
    [label, n],
  );
  await journalCreated(
    q,
    id,
    news,
    'kobe',
    rows.map((r) => Number(r.id)),
  );
}

const titled = async (label: string) => (await db.query(`SELECT 1 FROM r_news WHERE data->>'title' LIKE $1`, [`${label}%`])).length;
const stateOf = async (id: number) => (await db.query<{ state: string; attempts: number }>('SELECT state, attempts FROM jobs WHERE id = $1', [id]))[0];

describe('the job runner', () => {
  it('undoes a failed attempt, tries again after its backoff, and keeps the writes of the attempt that succeeds', async () => {
    const ends: string[] = [];
    runner = new JobRunner(db, registry, { pollMs: 50, log: () => undefined });
    runner.define<{ label: string }>({
      kind: 'flaky',
      maxAttempts: 3,
      backoffMs: () => 100,
      async run({ job, checkpoint }) {
        await write(job.id, `${job.payload.label} ${job.attempts}`);
        await checkpoint();
        if (job.attempts < 2) throw new Error('first attempt fails');
      },
      async settled(_tx, _job, end, reason) {
        ends.push(`${end}:${reason}`);
      },
    });
    const id = await db.transaction((tx) => runner!.enqueue(tx, 'flaky', { label: '再試行' }));
    runner.start();
    await expect.poll(async () => (await stateOf(id)).state, { timeout: 10_000 }).toBe('succeeded');
    expect(await stateOf(id)).toEqual({ state: 'succeeded', attempts: 2 });
    expect(ends).toEqual(['retry:error']);
    expect(await titled('再試行 1')).toBe(0);
    expect(await titled('再試行 2')).toBe(2);
    expect(await db.query('SELECT 1 FROM job_writes WHERE job_id = $1', [id])).toEqual([]);
  });

  it('fails a job whose attempts are spent, its writes undone; cancels a queued job at once', async () => {
    runner = new JobRunner(db, registry, { pollMs: 50, log: () => undefined });
    runner.define({
      kind: 'broken',
      maxAttempts: 1,
      async run({ job }) {
        await write(job.id, '失敗する');
        throw new Error('broken');
      },
    });
    const id = await db.transaction((tx) => runner!.enqueue(tx, 'broken', {}));
    const queued = await db.transaction((tx) => runner!.enqueue(tx, 'broken', {}));
    expect(await runner.cancel(queued)).toBe('cancelled');
    runner.start();
    await expect.poll(async () => (await stateOf(id)).state, { timeout: 10_000 }).toBe('failed');
    expect(await titled('失敗する')).toBe(0);
    expect(await runner.get<Job>(id)).toMatchObject({ state: 'failed', attempts: 1, last_error: 'broken' });
    expect(await stateOf(queued)).toEqual({ state: 'cancelled', attempts: 0 });
  });

  it('recovers a job left running by a dead process: its writes undone, failed', async () => {
    const [{ id }] = await db.query<{ id: number }>(
      `INSERT INTO jobs (kind, state, attempts, max_attempts, worker, heartbeat_at) VALUES ('orphan', 'running', 1, 1, 'a dead process', now() - interval '1 hour') RETURNING id`,
    );
    await write(Number(id), '置き去り', 3);
    const ends: string[] = [];
    runner = new JobRunner(db, registry, { pollMs: 50, staleMs: 1000, log: () => undefined });
    runner.define({
      kind: 'orphan',
      async run() {},
      async settled(_tx, _job, end, reason) {
        ends.push(`${end}:${reason}`);
      },
    });
    runner.start();
    await expect.poll(async () => (await stateOf(Number(id))).state, { timeout: 10_000 }).toBe('failed');
    expect(ends).toEqual(['failed:interrupted']);
    expect(await titled('置き去り')).toBe(0);
  });

  it("a kind that retries interruptions alone: a dead process's job runs again from the start, an error fails at once", async () => {
    const [{ id: orphan }] = await db.query<{ id: number }>(
      `INSERT INTO jobs (kind, state, attempts, max_attempts, worker, heartbeat_at, payload) VALUES ('resumable', 'running', 1, 3, 'a dead process', now() - interval '1 hour', '{"label":"引継ぎ"}') RETURNING id`,
    );
    await write(Number(orphan), '引継ぎ 1', 3);
    const ends: string[] = [];
    runner = new JobRunner(db, registry, { pollMs: 50, staleMs: 1000, log: () => undefined });
    runner.define<{ label: string; fail?: boolean }>({
      kind: 'resumable',
      maxAttempts: 3,
      retryAfter: ['interrupted'],
      backoffMs: () => 0,
      async run({ job, checkpoint }) {
        await db.transaction(async (tx) => {
          await checkpoint(tx);
          await write(job.id, `${job.payload.label} ${job.attempts}`, 2, tx);
        });
        if (job.payload.fail) throw new Error('always fails');
      },
      async settled(_tx, job, end, reason) {
        ends.push(`${job.payload.label}:${end}:${reason}`);
      },
    });
    const failing = await db.transaction((tx) => runner!.enqueue(tx, 'resumable', { label: '失敗', fail: true }));
    runner.start();
    await expect.poll(async () => (await stateOf(Number(orphan))).state, { timeout: 10_000 }).toBe('succeeded');
    await expect.poll(async () => (await stateOf(failing)).state, { timeout: 10_000 }).toBe('failed');
    expect(await stateOf(Number(orphan))).toEqual({ state: 'succeeded', attempts: 2 });
    expect(await stateOf(failing)).toEqual({ state: 'failed', attempts: 1 });
    expect(ends.sort()).toEqual(['失敗:failed:error', '引継ぎ:retry:interrupted']);
    // The dead attempt's rows undone, the new attempt's kept.
    expect(await titled('引継ぎ 1')).toBe(0);
    expect(await titled('引継ぎ 2')).toBe(2);
    expect(await titled('失敗')).toBe(0);
  });

  it('an attempt whose job has passed on has its next writes refused and leaves the job alone', async () => {
    const logs: string[] = [];
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const outcome: string[] = [];
    runner = new JobRunner(db, registry, { pollMs: 50, staleMs: 60_000, log: (m) => logs.push(m) });
    runner.define({
      kind: 'paused',
      async run({ job, checkpoint }) {
        started();
        await paused;
        try {
          await db.transaction(async (tx) => {
            await checkpoint(tx);
            await write(job.id, '乗っ取られた', 2, tx);
          });
          outcome.push('written');
        } catch (err) {
          outcome.push(err instanceof JobLost ? 'lost' : String(err));
          throw err;
        }
      },
    });
    const id = await db.transaction((tx) => runner!.enqueue(tx, 'paused', {}));
    runner.start();
    await running;
    // The job passes on while this attempt is paused: another attempt holds it now (as after a
    // takeover and a retry; a takeover by another runner changes `worker` instead, which on PGlite
    // this runner would at once take back as an orphan).
    await db.query(`UPDATE jobs SET attempts = attempts + 1, heartbeat_at = now() WHERE id = $1`, [id]);
    release();
    await expect.poll(() => outcome, { timeout: 10_000 }).toEqual(['lost']);
    await expect.poll(() => logs.join('\n'), { timeout: 10_000 }).toMatch(/taken over by another runner/);
    expect(await titled('乗っ取られた')).toBe(0);
    expect(await db.query<{ state: string; worker: string }>('SELECT state, worker FROM jobs WHERE id = $1', [id])).toEqual([{ state: 'running', worker: runner.worker }]);
    await db.query(`UPDATE jobs SET state = 'failed' WHERE id = $1`, [id]);
  });
});
