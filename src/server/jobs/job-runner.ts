/**
 * The one job runner of long work (docs/architecture.md 'Jobs'): CSV imports, push delivery and
 * scheduled pushes (src/server/push/delivery.ts). A job is a row of `jobs` (db/migrations.ts 0006): its kind, a JSON
 * payload, its state (queued → running → succeeded | failed | cancelled, visible to whoever reads
 * the row), attempts and the time of the next one. It works on PGlite and on PostgreSQL alike:
 * - enqueue in the caller's transaction (the job exists exactly when the caller's write does);
 * - every runner polls (`pollMs`, and at once when woken in-process) and claims the oldest due job
 *   of the kinds it knows with `FOR UPDATE SKIP LOCKED`, so several processes never run one job;
 * - a running job writes a heartbeat (every `staleMs / 3` and at each `checkpoint`); a job whose
 *   heartbeat is older than `staleMs` was left by a process that died, and on PGlite (one process
 *   per data directory) every running job of another runner is: the runner claims such an orphan,
 *   undoes its journaled writes (./job-writes.ts) and retries or fails it (a new attempt from the
 *   start: nothing of the dead one's is left). An attempt holds its job while the row names its
 *   runner and attempt: its `checkpoint`, given the transaction of its writes, renews that lease in
 *   it, so an attempt thought dead that still runs (a long pause) has its next writes refused
 *   (`JobLost`) and stops without touching the job again;
 * - an attempt that throws, is cancelled (`cancel`) or is interrupted (the runner stops) has its
 *   writes undone, then the kind's `settled` hook runs in the transaction that sets the job's state:
 *   queued again after a backoff while attempts remain and its kind retries that stop (`retryAfter`;
 *   never a cancel), else failed or cancelled;
 * - a successful attempt's `completed` hook runs in the transaction that marks it succeeded and
 *   forgets its journal. So a restart never leaves a job stuck or half-applied.
 * Work is done in short transactions between `checkpoint`s: PGlite has one connection, and a long
 * transaction would block every other request.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { analyzeJob, HOUSEKEEPING_JOB, housekeepingJob, scheduleHousekeeping, type HousekeepingChore } from './housekeeping';
import type { Job, JobContext, JobKind, JobState, StopReason } from './job-kind';
import { forgetWrites, undoWrites } from './job-writes';

export type { Job, JobContext, JobKind, JobState, StopReason } from './job-kind';

/** Thrown by `checkpoint` when the attempt must stop. */
export class JobStopped extends Error {
  constructor(readonly reason: 'cancelled' | 'interrupted') {
    super(`job ${reason}`);
    this.name = 'JobStopped';
  }
}

/**
 * Thrown by `checkpoint` (and at the end of an attempt) when another runner has taken the job over
 * (this attempt's heartbeat had gone stale): the attempt stops without settling, since the job and
 * its journal are the other runner's now.
 */
export class JobLost extends Error {
  constructor(id: number) {
    super(`job ${id} was taken over by another runner`);
    this.name = 'JobLost';
  }
}

export interface RunnerOptions {
  /** How often the queue is read for due jobs and orphans (ms; default 1000). */
  pollMs: number;
  /** A running job without a heartbeat for this long was left by a dead process (ms; default 30,000). */
  staleMs: number;
  /** Jobs one runner runs at once (default 1). */
  concurrency: number;
  /** Where errors of the runner itself go (default console.error). */
  log: (message: string) => void;
}

const FINAL: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];
const COLUMNS = 'id, kind, payload, state, cancel_requested, attempts, max_attempts, last_error';

/** Why a stopped attempt is tried again unless its kind says otherwise (`JobKind.retryAfter`). */
const RETRY_AFTER: readonly StopReason[] = ['error', 'interrupted'];

const defaultBackoff = (attempt: number) => Math.min(300_000, 1000 * 2 ** attempt);

/**
 * Queues a job of `kind` in `tx` (the caller's transaction) without a runner at hand (the seed, before
 * the app exists): whichever runner knows the kind runs it once `tx` commits, or `delayMs` after (ms).
 * `maxAttempts` defaults to 3. Resolves to its id.
 */
export async function enqueueJob(tx: Queryable, kind: string, payload: Record<string, unknown>, options: { maxAttempts?: number; delayMs?: number } = {}): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    'INSERT INTO jobs (kind, payload, max_attempts, run_at) VALUES ($1, $2::jsonb, $3, now() + make_interval(secs => $4)) RETURNING id',
    [kind, JSON.stringify(payload), options.maxAttempts ?? 3, (options.delayMs ?? 0) / 1000],
  );
  return Number(row.id);
}

/** The job runner of one process on one database (see the top of this file). */
export class JobRunner {
  /** This runner in `jobs.worker`: `<host>:<process id>:<random>`, so an operator sees which process runs a job. */
  readonly worker = `${hostname()}:${process.pid}:${randomUUID()}`;
  /** What the hourly housekeeping run also does, by name (./housekeeping.ts `HousekeepingChore`): a capability adds its own at registration. */
  readonly chores = new Map<string, HousekeepingChore>();
  private readonly kinds = new Map<string, JobKind<never>>();
  private readonly active = new Map<number, { stop: (reason: 'cancelled' | 'interrupted') => void; done: Promise<void> }>();
  private readonly options: RunnerOptions;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly db: Database,
    private readonly resources: ReadonlyMap<string, ResourceDef>,
    options: Partial<RunnerOptions> = {},
  ) {
    this.options = { pollMs: 1000, staleMs: 30_000, concurrency: 1, log: (m) => console.error(m), ...options };
  }

  /** Adds a kind of job this runner runs. */
  define<P>(kind: JobKind<P>): void {
    this.kinds.set(kind.kind, kind as JobKind<never>);
  }

  /**
   * Queues a job in `tx` (the caller's transaction): it runs once that commits, or `delayMs` after
   * (ms, at the first poll since). Call `poke` after the commit to start it at once in this process.
   * Resolves to its id.
   */
  async enqueue(tx: Queryable, kind: string, payload: Record<string, unknown>, options: { maxAttempts?: number; delayMs?: number } = {}): Promise<number> {
    return enqueueJob(tx, kind, payload, { ...options, maxAttempts: options.maxAttempts ?? this.kinds.get(kind)?.maxAttempts });
  }

  /**
   * Makes the queued jobs of `kind` due now and looks for work: for a job queued with a delay in case
   * nobody asks for it sooner (the demo statistics of a first start, due once the server listens).
   */
  async runNow(kind: string): Promise<void> {
    await this.db.query("UPDATE jobs SET run_at = now() WHERE kind = $1 AND state = 'queued' AND run_at > now()", [kind]);
    this.poke();
  }

  /** Looks for work now (after an enqueue, a cancel). */
  poke(): void {
    if (this.stopped) return;
    if (this.ticking) this.again = true;
    else this.ticking = this.tick().finally(() => (this.ticking = null));
  }

  /** Starts polling; the first poll recovers the orphans at once. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.poke(), this.options.pollMs);
    this.timer.unref();
    this.poke();
  }

  /** Stops polling and interrupts the running attempts (undone, then retried later or failed); resolves once they have settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const a of this.active.values()) a.stop('interrupted');
    await this.ticking;
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  /** The job `id` as stored, or null. */
  async get<P = Record<string, unknown>>(id: number, q: Queryable = this.db): Promise<Job<P> | null> {
    const [row] = await q.query<Job<P>>(`SELECT ${COLUMNS} FROM jobs WHERE id = $1`, [id]);
    return row ? { ...row, id: Number(row.id) } : null;
  }

  /**
   * Cancels job `id`: a queued one ends `cancelled` at once, a running one stops at its next
   * checkpoint and has its writes undone (in whichever process runs it). Resolves to its state once
   * final, or after `waitMs` (the state then). A job that has ended stays as it is. Errors: database errors.
   */
  async cancel(id: number, waitMs = 30_000): Promise<JobState | null> {
    const queued = await this.db.transaction(async (tx) => {
      const [job] = await tx.query<Job>(
        `UPDATE jobs SET state = 'cancelled', cancel_requested = true, finished_at = now() WHERE id = $1 AND state = 'queued' RETURNING ${COLUMNS}`,
        [id],
      );
      if (job) await this.kinds.get(job.kind)?.settled?.(tx, { ...job, id } as never, 'cancelled', 'cancelled', '');
      return job;
    });
    if (queued) return 'cancelled';
    await this.db.query(`UPDATE jobs SET cancel_requested = true WHERE id = $1 AND state = 'running'`, [id]);
    const local = this.active.get(id);
    if (local) {
      local.stop('cancelled');
      await local.done;
    }
    const until = Date.now() + waitMs;
    for (;;) {
      const job = await this.get(id);
      if (!job || FINAL.includes(job.state) || Date.now() >= until) return job?.state ?? null;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async tick(): Promise<void> {
    do {
      this.again = false;
      try {
        while (!this.stopped && (await this.recoverOrphan()));
        while (!this.stopped && this.active.size < this.options.concurrency) {
          const job = await this.claim();
          if (!job) break;
          this.launch(job);
        }
      } catch (err) {
        this.options.log(`jobs: polling failed: ${(err as Error).message}`);
      }
    } while (this.again && !this.stopped);
  }

  private async claim(): Promise<Job | null> {
    const [job] = await this.db.query<Job>(
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, worker = $1, heartbeat_at = now()
       WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND run_at <= now() AND kind = ANY($2::text[]) ORDER BY run_at, id FOR UPDATE SKIP LOCKED LIMIT 1)
       RETURNING ${COLUMNS}`,
      [this.worker, [...this.kinds.keys()]],
    );
    return job ? { ...job, id: Number(job.id) } : null;
  }

  /** Claims one orphaned job (see the top of this file) and settles it as interrupted; true when there was one. */
  private async recoverOrphan(): Promise<boolean> {
    const [job] = await this.db.query<Job>(
      `UPDATE jobs SET worker = $1, heartbeat_at = now()
       WHERE id = (SELECT id FROM jobs WHERE state = 'running' AND kind = ANY($2::text[]) AND worker IS DISTINCT FROM $1
                   AND ($3::boolean OR heartbeat_at < now() - make_interval(secs => $4)) ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
       RETURNING ${COLUMNS}`,
      [this.worker, [...this.kinds.keys()], this.db.kind === 'pglite', this.options.staleMs / 1000],
    );
    if (!job) return false;
    await this.settle({ ...job, id: Number(job.id) }, 'interrupted', 'the server stopped during the job');
    return true;
  }

  private launch(job: Job): void {
    let stop: 'cancelled' | 'interrupted' | null = null;
    const kind = this.kinds.get(job.kind)!;
    // This attempt holds the job while the row names this runner and this attempt (a takeover names
    // another runner; a retry claimed by this runner again counts another attempt).
    const lease = [job.id, this.worker, job.attempts];
    const heartbeat = setInterval(
      () => {
        this.db.query('UPDATE jobs SET heartbeat_at = now() WHERE id = $1 AND worker = $2 AND attempts = $3', lease).catch(() => undefined);
      },
      Math.max(100, this.options.staleMs / 3),
    );
    heartbeat.unref();
    /** A heartbeat in `q` that also locks the job's row; throws JobLost once another runner holds the job. */
    const renew = async (q: Queryable) => {
      const [row] = await q.query<{ cancel_requested: boolean }>(
        `UPDATE jobs SET heartbeat_at = now() WHERE id = $1 AND worker = $2 AND attempts = $3 AND state = 'running' RETURNING cancel_requested`,
        lease,
      );
      if (!row) throw new JobLost(job.id);
      return row;
    };
    const ctx: JobContext<never> = {
      job: job as Job<never>,
      db: this.db,
      checkpoint: async (tx) => {
        if (stop) throw new JobStopped(stop);
        if ((await renew(tx ?? this.db)).cancel_requested) throw new JobStopped('cancelled');
      },
    };
    const done = (async () => {
      try {
        await kind.run(ctx);
        await this.db.transaction(async (tx) => {
          await renew(tx);
          await kind.completed?.(tx, job as Job<never>);
          await forgetWrites(tx, job.id);
          await tx.query(`UPDATE jobs SET state = 'succeeded', finished_at = now(), last_error = NULL WHERE id = $1`, [job.id]);
        });
      } catch (err) {
        if (err instanceof JobLost || (await this.lost(lease))) {
          this.options.log(`jobs: ${job.kind} ${job.id}: ${new JobLost(job.id).message}; this attempt stops`);
          return;
        }
        const reason: StopReason = err instanceof JobStopped ? err.reason : 'error';
        if (reason === 'error') this.options.log(`jobs: ${job.kind} ${job.id} failed: ${(err as Error).stack ?? err}`);
        await this.settle(job, reason, (err as Error).message ?? String(err)).catch((e: Error) => this.options.log(`jobs: settling ${job.id}: ${e.message}`));
      } finally {
        clearInterval(heartbeat);
        this.active.delete(job.id);
        this.poke();
      }
    })();
    this.active.set(job.id, { stop: (reason) => (stop ??= reason), done });
  }

  /** Whether the attempt `lease` (job id, worker, attempts) no longer holds its job (another runner took it over). */
  private async lost(lease: unknown[]): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM jobs WHERE id = $1 AND worker = $2 AND attempts = $3 AND state = 'running'`, lease).catch(() => null);
    return rows !== null && rows.length === 0;
  }

  /** Undoes a stopped attempt's writes and ends it: queued again (backoff), failed or cancelled. */
  private async settle(job: Job, reason: StopReason, error: string): Promise<void> {
    await undoWrites(this.db, job.id, this.resources);
    const kind = this.kinds.get(job.kind);
    await this.db.transaction(async (tx) => {
      const [{ cancel_requested: cancelled }] = await tx.query<{ cancel_requested: boolean }>('SELECT cancel_requested FROM jobs WHERE id = $1 FOR UPDATE', [
        job.id,
      ]);
      const retries = job.attempts < job.max_attempts && (kind?.retryAfter ?? RETRY_AFTER).includes(reason);
      const end = cancelled || reason === 'cancelled' ? 'cancelled' : retries ? 'retry' : 'failed';
      await kind?.settled?.(tx, job as Job<never>, end, reason, error);
      if (end === 'retry') {
        const delay = (kind?.backoffMs ?? defaultBackoff)(job.attempts);
        await tx.query(`UPDATE jobs SET state = 'queued', worker = NULL, last_error = $2, run_at = now() + make_interval(secs => $3) WHERE id = $1`, [
          job.id,
          error,
          delay / 1000,
        ]);
      } else {
        await tx.query(`UPDATE jobs SET state = $2, last_error = $3, finished_at = now() WHERE id = $1`, [job.id, end, error]);
      }
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The job runner of this process (src/server/jobs/job-runner.ts). */
    jobs: JobRunner;
  }
}

/**
 * Decorates `app` with the job runner of its database, started once the app is ready and stopped
 * before it closes (running attempts interrupted and undone first), with the housekeeping kinds
 * (./housekeeping.ts); the capabilities define theirs when they register their routes (`app.jobs.define`).
 */
export function registerJobs(app: FastifyInstance, db: Database, resources: ReadonlyMap<string, ResourceDef>, options: Partial<RunnerOptions> = {}): void {
  const jobs = new JobRunner(db, resources, { log: (m) => app.log.error(m), ...options });
  jobs.define(analyzeJob(db, resources));
  const enqueueHousekeeping = (tx: Queryable, delayMs: number) => jobs.enqueue(tx, HOUSEKEEPING_JOB, {}, { delayMs });
  jobs.define(
    housekeepingJob(db, enqueueHousekeeping, (m) => app.log.info(m), { revisionDays: app.hasDecorator('config') ? app.config.revisionDays : undefined, chores: jobs.chores }),
  );
  app.decorate('jobs', jobs);
  app.addHook('onReady', async () => {
    await scheduleHousekeeping(db, enqueueHousekeeping);
    jobs.start();
  });
  app.addHook('preClose', async () => jobs.stop());
}
