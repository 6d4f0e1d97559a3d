/**
 * Housekeeping jobs of the one job runner (docs/architecture.md 'Jobs'): fresh planner statistics of a
 * resource table after a large load (`ANALYZE`; PGlite runs no autovacuum, PostgreSQL's would come
 * later), queued by the load itself so its own end is not held up by them; and an hourly run that
 * prunes expired tokens and ended sessions, does the chores capabilities add (`JobRunner.chores`: the
 * CSV import's orphaned files) and vacuums PGlite's tables.
 */
import type { ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { pruneSessions } from '../auth/sessions';
import { FORGET_AFTER_S } from '../auth/sign-in-throttle';
import { tableName } from '../db/resource-tables';
import type { JobKind } from './job-kind';

/** The kind of the statistics jobs; payload `{resource}`. */
export const ANALYZE_JOB = 'analyze';

/** Rows a load must write for its table's statistics to be refreshed after it. */
export const ANALYZE_AFTER_ROWS = 1000;

/**
 * How long after its load the statistics job waits, ms: on PGlite, ANALYZE holds the server's one
 * thread (about 0.4 s for 50,000 rows), and the reads that see the load end (its state, polled
 * by the console) are answered first.
 */
export const ANALYZE_DELAY_MS = 2000;

/** The statistics job kind over `resources`: ANALYZE of the resource's table (an unknown resource: nothing). */
export function analyzeJob(db: Database, resources: ReadonlyMap<string, ResourceDef>): JobKind<{ resource: string }> {
  return {
    kind: ANALYZE_JOB,
    maxAttempts: 2,
    async run({ job }) {
      const def = resources.get(job.payload.resource);
      if (def) await db.exec(`ANALYZE ${tableName(def)}`);
    },
  };
}

/** The kind of the periodic housekeeping job; payload `{}`. */
export const HOUSEKEEPING_JOB = 'housekeeping';

/** Time between two housekeeping runs, and from a start to the first one, ms. */
export const HOUSEKEEPING_EVERY_MS = 60 * 60 * 1000;
export const HOUSEKEEPING_FIRST_MS = 60 * 1000;

/** Rows one short delete transaction removes. */
const PRUNE_BATCH = 1000;

/** What one housekeeping run removed, for the log and the tests. */
export interface HousekeepingResult {
  refreshTokens: number;
  userTokens: number;
  signInFailures: number;
  /** Rows of sessions whose refresh family no longer lives (src/server/auth/sessions.ts `pruneSessions`). */
  sessions: number;
  /** Revisions older than REVISION_DAYS (src/server/revisions/): deleted rows among them leave the recycle bin. */
  revisions: number;
  /** What each chore (`options.chores`) removed, by its name. */
  chores: Record<string, number>;
  vacuumed: number;
}

/**
 * A chore of the hourly run that a capability adds (src/server/import/import-job.ts: the import files
 * no job refers to): resolves to the number of things it removed; `between` is the job's checkpoint.
 * An error of one chore is logged and the others still run.
 */
export type HousekeepingChore = (between: () => Promise<void>) => Promise<number>;

/** What a housekeeping run is told: REVISION_DAYS, the chores by name, where a chore's error goes. */
export interface HousekeepingOptions {
  revisionDays?: number;
  chores?: ReadonlyMap<string, HousekeepingChore>;
  log?: (message: string) => void;
}

/**
 * One housekeeping run (docs/architecture.md 'Jobs'): deletes expired refresh tokens (an expired
 * token can be neither used nor reused: its row only counts against the table), the rows of sessions
 * whose refresh family no longer lives (revoked or expired), one-time user tokens
 * a day past their end (until then a link still says it expired), forgotten sign-in failures and
 * revisions older than `options.revisionDays` (REVISION_DAYS, default 400), in transactions of at most 1,000 rows; then
 * runs `options.chores`; on PGlite,
 * which runs no autovacuum, `VACUUM (ANALYZE)` of every table one statement at a time, so requests
 * are answered between two (`between` is called after each unit of work: the job's checkpoint).
 */
export async function keepHouse(db: Database, between: () => Promise<void> = async () => {}, options: HousekeepingOptions = {}): Promise<HousekeepingResult> {
  const revisionDays = options.revisionDays ?? 400;
  const prune = async (sql: string): Promise<number> => {
    let total = 0;
    for (;;) {
      const n = (await db.query(sql, [PRUNE_BATCH])).length;
      total += n;
      await between();
      if (n < PRUNE_BATCH) return total;
    }
  };
  const result: HousekeepingResult = {
    refreshTokens: await prune('DELETE FROM refresh_tokens WHERE id IN (SELECT id FROM refresh_tokens WHERE expires_at < now() LIMIT $1) RETURNING 1'),
    userTokens: await prune("DELETE FROM user_tokens WHERE id IN (SELECT id FROM user_tokens WHERE expires_at < now() - interval '1 day' LIMIT $1) RETURNING 1"),
    sessions: await pruneSessions(db),
    signInFailures: await prune(`DELETE FROM sign_in_failures WHERE username IN (SELECT username FROM sign_in_failures WHERE last_failure_at < now() - make_interval(secs => ${FORGET_AFTER_S}) LIMIT $1) RETURNING 1`),
    revisions: await prune(`DELETE FROM revisions WHERE id IN (SELECT id FROM revisions WHERE at < now() - make_interval(days => ${Math.floor(revisionDays)}) LIMIT $1) RETURNING 1`),
    chores: {},
    vacuumed: 0,
  };
  for (const [name, chore] of options.chores ?? []) {
    try {
      result.chores[name] = await chore(between);
    } catch (err) {
      // A stop or cancel at the checkpoint ends the run; another error only this chore.
      if ((err as Error).name === 'JobStopped' || (err as Error).name === 'JobLost') throw err;
      options.log?.(`housekeeping: ${name} failed: ${(err as Error).message}`);
    }
  }
  if (db.kind === 'pglite') {
    const tables = await db.query<{ name: string }>("SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename");
    for (const { name } of tables) {
      await db.exec(`VACUUM (ANALYZE) ${name}`);
      result.vacuumed++;
      await between();
    }
  }
  return result;
}

/**
 * The housekeeping job kind: `keepHouse`, then the next run queued `HOUSEKEEPING_EVERY_MS` later in
 * the transaction that ends this one (after a success or the last failed attempt alike, so the chain
 * never ends). `scheduleHousekeeping` queues the first one at start.
 */
export function housekeepingJob(db: Database, enqueue: (tx: Queryable, delayMs: number) => Promise<unknown>, log: (m: string) => void, options: HousekeepingOptions = {}): JobKind<Record<string, never>> {
  return {
    kind: HOUSEKEEPING_JOB,
    maxAttempts: 2,
    async run({ checkpoint }) {
      const r = await keepHouse(db, checkpoint, { log, ...options });
      const chores = Object.entries(r.chores).map(([name, n]) => `, ${n} ${name}`).join('');
      log(`housekeeping: ${r.refreshTokens} expired refresh tokens, ${r.sessions} ended sessions, ${r.userTokens} one-time tokens, ${r.signInFailures} sign-in failure records, ${r.revisions} revisions${chores} removed; ${r.vacuumed} tables vacuumed`);
    },
    completed: (tx) => enqueue(tx, HOUSEKEEPING_EVERY_MS).then(() => undefined),
    settled: async (tx, _job, end) => {
      if (end !== 'retry') await enqueue(tx, HOUSEKEEPING_EVERY_MS);
    },
  };
}

/**
 * Queues the first housekeeping run `HOUSEKEEPING_FIRST_MS` from now unless one is queued or running
 * already (several processes on one PostgreSQL take turns on an advisory lock: one chain in all).
 */
export async function scheduleHousekeeping(db: Database, enqueue: (tx: Queryable, delayMs: number) => Promise<unknown>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [HOUSEKEEPING_JOB]);
    const [pending] = await tx.query("SELECT 1 FROM jobs WHERE kind = $1 AND state IN ('queued', 'running') LIMIT 1", [HOUSEKEEPING_JOB]);
    if (!pending) await enqueue(tx, HOUSEKEEPING_FIRST_MS);
  });
}
