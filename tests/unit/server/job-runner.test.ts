/**
 * The one job runner (src/server/jobs/job-runner.ts, docs/architecture.md 'Jobs'), on a kind of its
 * own: a failed attempt has its journaled writes undone and is tried again after its backoff, until
 * it succeeds (its writes then stay) or its attempts are spent (failed); a queued job cancelled ends
 * at once; a running job left by a dead process (an old heartbeat; on PGlite any other runner's) is
 * undone and failed or queued again; every state is visible in `jobs`. On PGlite and PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../../src/shared/registry';
import type { Database } from '../../../src/server/db/database';
import { prepareDatabase } from '../../../src/server/db/prepare';
import { JobRunner, type Job } from '../../../src/server/jobs/job-runner';
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

/** Writes `n` news rows of kobe for job `id` (journaled), as a job's batch does. */
async function write(id: number, label: string, n = 2): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx.query<{ id: number }>(
      `INSERT INTO r_news (city, data) SELECT 'kobe', jsonb_build_object('title', $1 || ' ' || g) FROM generate_series(1, $2::int) g RETURNING id`,
      [label, n],
    );
    await journalCreated(
      tx,
      id,
      news,
      'kobe',
      rows.map((r) => Number(r.id)),
    );
  });
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
});
