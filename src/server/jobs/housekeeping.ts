/**
 * Housekeeping jobs of the one job runner (docs/architecture.md 'Jobs'): fresh planner statistics of a
 * resource table after a large load (`ANALYZE`; PGlite runs no autovacuum, PostgreSQL's would come
 * later), queued by the load itself so its own end is not held up by them.
 */
import type { ResourceDef } from '../../shared/registry';
import type { Database } from '../db/database';
import { tableName } from '../db/resource-tables';
import type { JobKind } from './job-runner';

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
