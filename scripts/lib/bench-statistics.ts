/**
 * The statistics figures of `npm run bench` (`-- statistics`; docs/architecture.md 'Adding a
 * statistic'): on a fresh PGlite in .bench-data/ (and, when DATABASE_URL is set, on PostgreSQL in a
 * schema of its own, dropped at the end):
 * 1. seeds BENCH_STAT_ROWS (1,000,000) purchase_transaction rows in kobe over 90 days, one
 *    `INSERT … SELECT generate_series` per 100,000 rows (the rollup triggers run per statement), for
 *    3,000 users who each keep their platform and mostly one package;
 * 2. runs autocannon (loopback, in a child process) for BENCH_SECONDS (10) per query at 10
 *    connections against GET /kobe/api/statistics/pass-purchases/ for a mix of the console's queries
 *    (the presets today, last week, last month, last 3 months of 001 9; by env and platform; by
 *    week; a filter), printing p50/p95/p99 per query.
 * Returns one budget row per database: the worst p95 of the mix, ≤ 300 ms.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open-database';
import { prepareDatabase } from '../../src/server/db/prepare';
import { dropSchema } from './local-postgres';
import { limitRow, ms, type BudgetRow } from './budget';
import { formatRow, measureApart as measure, type LoadResult } from './load';

/** Budget of the statistics call's p95 at 10 connections over 1,000,000 rows, ms. */
export const STATISTICS_P95_MS = 300;

const BATCH = 100_000;

/** The Tokyo day `days` before today, YYYY-MM-DD. */
function tokyoDay(days: number): string {
  return new Date(Date.now() + 9 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);
}

/** One batch of purchases: users keep their platform, 2 % sandbox, 95 % purchased, a favourite package. */
function seedSql(from: number, to: number): string {
  return `INSERT INTO r_purchase_transaction (city, data, created_at)
    SELECT 'kobe', jsonb_build_object(
      'transaction_id', 'B' || i, 'user_name', 'bench_' || u, 'platform', CASE WHEN u % 3 = 0 THEN 'ios' ELSE 'android' END,
      'env', CASE WHEN u % 50 = 0 THEN 'sandbox' ELSE 'production' END,
      'status', CASE WHEN r < 0.95 THEN 'purchased' WHEN r < 0.98 THEN 'refunded' WHEN r < 0.99 THEN 'pending' ELSE 'failed' END,
      'package_id', 'jp.city.pass.' || CASE WHEN r < 0.8 THEN u % 4 ELSE (i % 6) END, 'amount', (ARRAY[480, 980, 1500, 4800])[1 + (u % 4)]),
      now() - (random() * 90 * 86400) * interval '1 second'
    FROM (SELECT i, ((i::bigint * 7919) % 3000)::int AS u, random() AS r FROM generate_series(${from}, ${to}) i) s`;
}

async function benchOn(root: string, kind: 'pglite' | 'postgres', rows: number, seconds: number): Promise<BudgetRow> {
  const dataDir = join(root, '.bench-data', `statistics-${Date.now()}`);
  const schema = `bench_stat_${process.pid}`;
  const env = kind === 'pglite' ? { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir } : { ...process.env, DATABASE_SCHEMA: schema };
  if (kind === 'pglite') await mkdir(dataDir, { recursive: true });
  const config = loadConfig({ ...env, PORT: '0', LOGIN_RATE_LIMIT: '0', NODE_ENV: 'development' }, root);
  const db = await openDatabase(config, { handleSignals: false });
  const figure = `statistics p95, ${rows.toLocaleString('en')} rows, c=10, ${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}`;
  try {
    let t = performance.now();
    await prepareDatabase(db, { demo: true });
    console.log(`${kind}: prepare (migrations, tables, rollups, seed): ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    for (let from = 1; from <= rows; from += BATCH) await db.exec(seedSql(from, Math.min(rows, from + BATCH - 1)));
    await db.exec('ANALYZE');
    console.log(`${kind}: insert ${rows} purchase_transaction rows with their rollups: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const app = await buildApp({ db, config });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const login = await app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'operator', password: 'demo1234' } });
      const auth = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
      const base = `${address}/kobe/api/statistics/pass-purchases/`;
      const today = tokyoDay(0);
      const mix: Array<[string, string]> = [
        ['today, by env', `start_date=${today}&end_date=${today}&by=env`],
        ['last week, by platform', `start_date=${tokyoDay(6)}&end_date=${today}&by=platform`],
        ['last month, by env', `start_date=${tokyoDay(29)}&end_date=${today}&by=env`],
        ['last 3 months, by platform', `start_date=${tokyoDay(89)}&end_date=${today}&by=platform`],
        ['last 3 months, weeks, ios', `start_date=${tokyoDay(89)}&end_date=${today}&interval=week&platform=ios&by=status`],
      ];
      const probe = await fetch(`${base}?${mix[3][1]}`, { headers: auth });
      const answer = (await probe.json()) as { totals?: Record<string, number> };
      console.log(`${kind}: probe ${probe.status}, last 3 months totals ${JSON.stringify(answer.totals)}`);
      const results: LoadResult[] = [];
      for (const [label, query] of mix) results.push(await measure(label, `${base}?${query}`, 10, seconds, auth));
      for (const r of results) console.log(formatRow(r));
      const bad = results.find((r) => r.requests === 0 || r.non2xx > 0);
      if (bad) return limitRow(figure, null, 'max', STATISTICS_P95_MS, ms, `${bad.label}: ${bad.non2xx} of ${bad.requests} answers not 2xx`);
      return limitRow(figure, Math.max(...results.map((r) => r.p95)), 'max', STATISTICS_P95_MS, ms);
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    if (kind === 'pglite') await rm(dataDir, { recursive: true, force: true });
    else {
      await dropSchema(process.env.DATABASE_URL!, schema);
    }
  }
}

/**
 * Runs the statistics part in `root` (the project folder): PGlite, then PostgreSQL when
 * DATABASE_URL is set. Prints details; resolves to the budget rows. Database files are removed.
 */
export async function runStatisticsBench(root: string): Promise<BudgetRow[]> {
  const rows = Number(process.env.BENCH_STAT_ROWS ?? 1_000_000);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const out = [await benchOn(root, 'pglite', rows, seconds)];
  if (process.env.DATABASE_URL) out.push(await benchOn(root, 'postgres', rows, seconds));
  return out;
}
