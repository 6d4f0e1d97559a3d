/**
 * Server entry: opens the database, prepares it (migrations, resource tables, seed), listens on
 * HOST:PORT, prints the URL and the demo accounts, and shuts down gracefully on SIGTERM/SIGINT
 * (`Running.drain`: not ready, stop accepting, end event streams, give jobs back, finish requests
 * within SHUTDOWN_GRACE_MS, close the database and its lock). Run with `tsx src/server/main.ts`
 * or through `npm start` (scripts/start.ts).
 */
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { drainNoticed } from './routes/health';
import { loadConfig, type Config } from './config';
import type { Database } from './db/database';
import { openDatabase } from './db/open-database';
import { prepareDatabase } from './db/prepare';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed';
import { DEMO_STATISTICS_JOB } from './statistics/demo-data';
import { checkData, type ResourceCheck } from './data-check/check-rows';
import type { DataMigrationReport } from './data-check/migration-runner';

/** Rows read per table by the start's count of rows failing their schema (a sample of a larger table). */
export const START_CHECK_SAMPLE = 2000;

/** How long a stopping process waits, at most, for its load balancer to see it is draining (ms). */
export const DRAIN_NOTICE_MS = 2000;

export interface Running {
  app: FastifyInstance;
  db: Database;
  config: Config;
  /** The address the server listens on, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Milliseconds from `main()` to listening. */
  startMs: number;
  /**
   * The start's count of stored rows that fail their schema (docs/architecture.md 'Changing an
   * entity'), run once the server listens: each resource with failing rows is logged at warn level.
   */
  dataCheck: Promise<ResourceCheck[]>;
  /** Closes the server, then the database. Idempotent. */
  close(): Promise<void>;
  /**
   * Stops gracefully (what SIGTERM does; docs/deployment.md 'Rolling a new version'): /readyz answers
   * 503 `draining` at once; once a health check has seen that (at most DRAIN_NOTICE_MS) new
   * connections are refused, server-sent event streams are ended (the
   * browsers reconnect to another process), running jobs are given back to the queue
   * (jobs/job-runner.ts `stop`), requests under way finish; after `config.shutdownGraceMs` the
   * connections still open are cut. Then the database is closed. Idempotent.
   */
  drain(): Promise<void>;
}

function banner(running: Running, seeded: boolean, migrated: readonly DataMigrationReport[]): string {
  const lines = [`API and console: ${running.url}  (ready in ${running.startMs} ms${seeded ? ', new database' : ''})`];
  for (const m of migrated) lines.push(`data migration ${m.name} (${m.resource}): changed ${m.changed} of ${m.rows} rows`);
  lines.push(running.config.databaseUrl ? 'database: PostgreSQL (DATABASE_URL)' : `database: PGlite in ${running.config.dataDir}`);
  if (!running.config.production) {
    lines.push(`demo accounts (password ${DEMO_PASSWORD}):`);
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.username.padEnd(14)} ${a.role.padEnd(14)} ${a.cities.join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * Starts the server. `onSignals` (default true) installs SIGTERM/SIGINT handlers that close
 * everything and exit. Errors: bad environment (`ConfigError`), data directory in use
 * (`DataDirLockedError`), database and listen errors (the database is closed first).
 */
export async function main(options: { env?: NodeJS.ProcessEnv; onSignals?: boolean; quiet?: boolean } = {}): Promise<Running> {
  const started = performance.now();
  const config = loadConfig(options.env ?? process.env);
  let db = await openDatabase(config, { handleSignals: false });
  let app: FastifyInstance | null = null;
  try {
    // The demo statistics are made by a job once the server listens: the start does not wait for them.
    const prepared = await prepareDatabase(db, { demo: !config.production, demoStatistics: 'job' });
    if (prepared.seeded && db.kind === 'pglite' && config.dataDir !== 'memory://') {
      // PGlite's WebAssembly memory only grows: the first start's seed (demo members, the examples,
      // their indexes; the statistics were then part of it too) left it at about 220 MB, the
      // server's RSS at about 550 MB before its first call. Opened again, the same database starts
      // at about 140 MB (docs/performance.md 'Under load').
      await db.close();
      db = await openDatabase(config, { handleSignals: false });
    }
    app = await buildApp({ db, config, logger: { level: config.logLevel } });
    const url = await app.listen({ host: config.host, port: config.port });
    let closing: Promise<void> | null = null;
    const listening = app;
    // After the migrations, once listening (the start does not wait): which resources hold rows that fail their schema.
    const dataCheck = checkData(db, { sample: START_CHECK_SAMPLE, first: 0 }).then(
      (checks) => {
        for (const c of checks) {
          if (c.failing > 0) listening.log.warn({ resource: c.resource, failing: c.failing, total: c.total, sampled: c.sampled }, `${c.resource}: ${c.failing} of ${c.total} rows fail their schema (npm run check:data)`);
        }
        return checks;
      },
      (err: Error) => {
        listening.log.error({ err }, 'data check failed');
        return [];
      },
    );
    const running: Running = {
      async drain() {
        if (closing) return closing;
        listening.draining = true;
        // Keep accepting until the load balancer has seen /readyz answer 503 (at most 2 s).
        await drainNoticed(listening, Math.min(DRAIN_NOTICE_MS, config.shutdownGraceMs));
        const grace = setTimeout(() => {
          listening.log.warn(`shutdown: requests still open after ${config.shutdownGraceMs} ms are cut`);
          listening.server.closeAllConnections();
        }, config.shutdownGraceMs);
        grace.unref();
        return running.close().finally(() => clearTimeout(grace));
      },
      app: listening,
      db,
      config,
      url,
      startMs: Math.round(performance.now() - started),
      dataCheck,
      close() {
        closing ??= dataCheck.then(() => listening.close()).finally(() => db.close());
        return closing;
      },
    };
    if (prepared.seeded) await listening.jobs.runNow(DEMO_STATISTICS_JOB);
    if (!options.quiet) console.log(banner(running, prepared.seeded, prepared.dataMigrations));
    if (options.onSignals !== false) {
      const stop = (signal: NodeJS.Signals) => {
        console.log(`${signal}: shutting down`);
        void running.drain().finally(() => process.exit(0));
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    }
    return running;
  } catch (err) {
    await app?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: Error) => {
    console.error(`server did not start: ${err.message}`);
    process.exit(1);
  });
}
