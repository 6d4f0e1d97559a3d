/**
 * Measures a start on a new database (docs/performance.md: under 10 s with every table): a fresh PGlite
 * data directory (initdb included) or, with DATABASE_URL, a new PostgreSQL schema; migrations, the
 * table of every registry resource, the seed (demo users and the schemas' examples), the app built
 * and listening. Prints the time, the number of resources and tables, and the demo rows; then the
 * time the demo statistics' job took after the start.
 * Usage: `npx tsx scripts/start-time.ts` (PGlite) or `DATABASE_URL=postgres://… npx tsx scripts/start-time.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registry } from '../src/shared/registry';
import { main } from '../src/server/main';
import { DEMO_STATISTICS_JOB } from '../src/server/statistics/demo-data';

const dir = await mkdtemp(join(tmpdir(), 'city-console-start-'));
const schema = `start_${process.pid}`;
const env = { ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn', CONSOLE_DIR: join(dir, 'no-console'), ...(process.env.DATABASE_URL ? { DATABASE_SCHEMA: schema } : {}) };
const running = await main({ env, onSignals: false, quiet: true });
try {
  const [{ tables }] = await running.db.query<{ tables: number }>(
    "SELECT count(*)::int AS tables FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = current_schema()",
  );
  const [{ rows }] = await running.db.query<{ rows: number }>('SELECT coalesce(sum(n), 0)::int AS rows FROM resource_counts');
  console.log(
    `start on a new ${running.config.databaseUrl ? 'PostgreSQL schema' : 'PGlite directory'}: ${running.startMs} ms; ${registry.size} resources, ${tables} tables, ${rows} demo rows`,
  );
  // The demo statistics come after the start, from a job (src/server/statistics/demo-data.ts).
  const listening = performance.now();
  for (;;) {
    const [job] = await running.db.query<{ state: string; rows: number }>(
      "SELECT state, (SELECT coalesce(sum(n), 0)::int FROM resource_counts) AS rows FROM jobs WHERE kind = $1 ORDER BY id LIMIT 1",
      [DEMO_STATISTICS_JOB],
    );
    if (!job || !['queued', 'running'].includes(job.state)) {
      console.log(`demo statistics after the start: ${job?.state ?? 'none'} in ${Math.round(performance.now() - listening)} ms; ${job?.rows ?? rows} demo rows then`);
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  if (running.config.databaseUrl) await running.db.exec(`DROP SCHEMA ${schema} CASCADE`);
} finally {
  await running.close();
  await rm(dir, { recursive: true, force: true });
}
