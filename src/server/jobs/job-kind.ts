/**
 * The shapes of the job runner (docs/architecture.md 'Jobs'): a job as stored, what an attempt gets
 * and a kind of job. Below both the runner (./job-runner.ts, which re-exports them) and the kinds it
 * defines itself (./housekeeping.ts), so a kind does not import the runner that imports it
 * (docs/architecture.md 'The picture').
 */
import type { Database, Queryable } from '../db/database';

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
/** Why an attempt stopped without success: it threw, it was cancelled, or its process stopped or died. */
export type StopReason = 'error' | 'cancelled' | 'interrupted';

/** A job as stored. */
export interface Job<P = Record<string, unknown>> {
  id: number;
  kind: string;
  payload: P;
  state: JobState;
  cancel_requested: boolean;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
}

/** What an attempt gets. */
export interface JobContext<P> {
  readonly job: Job<P>;
  readonly db: Database;
  /**
   * Call between units of work: a heartbeat; throws `JobStopped` once a cancel was asked or the runner
   * stops, and `JobLost` once the attempt's lease was taken over (its process was thought dead). Given
   * the transaction of a unit's writes, it runs in it and holds the job's row until that commits, so a
   * takeover comes either before (the writes are refused) or after (they are undone with the rest).
   */
  checkpoint(tx?: Queryable): Promise<void>;
}

/** A kind of job: what an attempt does and what becomes of the job's own rows when it ends. */
export interface JobKind<P = Record<string, unknown>> {
  kind: string;
  /** Attempts before the job fails (default 3). */
  maxAttempts?: number;
  /**
   * Why a stopped attempt is tried again while attempts remain (default: an error or an interruption):
   * a kind whose errors would only repeat (a CSV import, src/server/import/import-job.ts) retries an
   * interruption alone, its process having stopped or died under it. A cancel is never tried again.
   */
  retryAfter?: readonly StopReason[];
  /** Milliseconds before the next attempt after `attempt` failed (default 2^attempt s, at most 5 min). */
  backoffMs?: (attempt: number) => number;
  /** One attempt. Throw to fail it; let `JobStopped` of `checkpoint` through. */
  run(ctx: JobContext<P>): Promise<void>;
  /** In the transaction that marks the job succeeded. */
  completed?(tx: Queryable, job: Job<P>): Promise<void>;
  /** In the transaction that ends a stopped attempt (its writes undone already): the job is queued again, failed or cancelled. */
  settled?(tx: Queryable, job: Job<P>, end: 'retry' | 'failed' | 'cancelled', reason: StopReason, error: string): Promise<void>;
}
