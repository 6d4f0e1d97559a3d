/**
 * The API figures of `npm run bench` (`-- api`):
 * 1. Seeds BENCH_ROWS (100,000) rows of the resource in kobe on a fresh PGlite in .bench-data/ (or on
 *    DATABASE_URL), and times the insert.
 * 2. Runs autocannon on loopback for BENCH_SECONDS (10) per run at 10 and 50 connections against the
 *    resource's list call (20 rows, without and with `search`), a bare Fastify route and a naive
 *    hand-written `SELECT … LIMIT/OFFSET` + `count(*)` route on the same database and process, and
 *    prints p50, p95, p99 (ms), requests per second and the ratios list / naive.
 * Returns the budget rows: list p95 at 10 connections without and with search.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { getResource } from '../../src/shared/registry';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open-database';
import { prepareDatabase } from '../../src/server/db/prepare';
import { tableName } from '../../src/server/db/resource-tables';
import { createRecords } from '../../src/server/repositories/resource-repository';
import { buildApp } from '../../src/server/app';
import { limitRow, ms, type BudgetRow } from './budget';
import { formatRow, measureApart as measure, type LoadResult } from './load';
import { sampleRecord } from './sample-record';

/** Budgets of the list call's p95 at 10 connections, ms. */
export const API_BUDGETS = { listP95Ms: 25, searchP95Ms: 60 };

/**
 * Runs the API part in `root` (the project folder) on `resourceName` (a resource of the registry;
 * throws for an unknown one). Prints its details and resolves to its budget rows. The database
 * directory is removed at the end.
 */
export async function runApiBench(root: string, resourceName: string): Promise<BudgetRow[]> {
  const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
  const CITY = 'kobe';
  const def = getResource(resourceName);

  const dataDir = join(root, '.bench-data', `${resourceName}-${Date.now()}`);
  if (!process.env.DATABASE_URL) await mkdir(dataDir, { recursive: true });
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: '0', LOGIN_RATE_LIMIT: '0', NODE_ENV: 'development' }, root);
  const db = await openDatabase(config, { handleSignals: false });

  try {
    console.log(`bench: ${resourceName} on ${db.kind}${db.kind === 'pglite' ? ` (${dataDir})` : ''}, Node ${process.version}`);
    let t = performance.now();
    await prepareDatabase(db, { demo: true });
    console.log(`prepare (migrations, tables, seed): ${((performance.now() - t) / 1000).toFixed(2)} s`);

    t = performance.now();
    const now = Date.now();
    const records = Array.from({ length: ROWS }, (_, i) => sampleRecord(def, i, now));
    await createRecords(db, def, CITY, records, { userId: null });
    console.log(`insert ${ROWS} ${resourceName} rows in ${CITY}: ${((performance.now() - t) / 1000).toFixed(2)} s`);

    const app = await buildApp({ db, config });
    const table = tableName(def);
    app.get('/bench/bare', async () => ({ ok: true }));
    app.get('/bench/naive', async () => {
      const rows = await db.query(`SELECT id, data, created_at FROM ${table} WHERE city = $1 ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 0`, [CITY]);
      const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE city = $1`, [CITY]);
      return { content: rows, total_length: n };
    });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });

    try {
      const login = await app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'operator', password: 'demo1234' } });
      const token = (login.json() as { token: string }).token;
      const auth = { authorization: `Bearer ${token}` };
      const listUrl = `${address}${def.api.list.path.replace('{city}', CITY)}?limit=20&offset=0`;
      const probe = await fetch(listUrl, { headers: auth });
      const body = (await probe.json()) as { total_length: number; content: unknown[] };
      console.log(`list probe: ${probe.status}, ${body.content.length} rows of total_length ${body.total_length}`);
      const searchTerm = encodeURIComponent(`${def.list.search[0] ?? 'title'} 4242`);

      const results: LoadResult[] = [];
      for (const c of [10, 50]) {
        results.push(await measure(`list ${resourceName} (20 rows)`, listUrl, c, SECONDS, auth));
        if (def.list.search.length) results.push(await measure(`list ${resourceName} + search`, `${listUrl}&search=${searchTerm}`, c, SECONDS, auth));
        results.push(await measure('naive SELECT LIMIT/OFFSET + count(*)', `${address}/bench/naive`, c, SECONDS));
        results.push(await measure('bare Fastify route', `${address}/bench/bare`, c, SECONDS));
      }
      console.log('\nlatency and throughput (loopback, autocannon):');
      for (const r of results) console.log(formatRow(r));
      for (const c of [10, 50]) {
        const list = results.find((r) => r.connections === c && r.label.endsWith('(20 rows)'))!;
        const naive = results.find((r) => r.connections === c && r.label.startsWith('naive'))!;
        const bare = results.find((r) => r.connections === c && r.label.startsWith('bare'))!;
        console.log(
          `c=${c}: list/naive p95 ${(list.p95 / naive.p95).toFixed(2)}x, naive/list req/s ${(naive.rps / list.rps).toFixed(2)}x (budget: list costs ≤ 2x naive); ` +
            `list/bare p95 ${(list.p95 / bare.p95).toFixed(2)}x`,
        );
      }

      // A run with answers other than 2xx measured something else than the list.
      const p95 = (r: LoadResult | undefined) => (r && r.requests > 0 && r.non2xx === 0 ? r.p95 : null);
      const why = (r: LoadResult | undefined) => (!r ? 'not measured' : r.non2xx ? `${r.non2xx} of ${r.requests} answers not 2xx` : 'no answers');
      const plain = results.find((r) => r.connections === 10 && r.label.endsWith('(20 rows)'));
      const rows = [limitRow(`list API p95, c=10, ${ROWS} ${resourceName} rows, no search`, p95(plain), 'max', API_BUDGETS.listP95Ms, ms, why(plain))];
      if (def.list.search.length) {
        const search = results.find((r) => r.connections === 10 && r.label.endsWith('+ search'));
        rows.push(limitRow(`list API p95, c=10, ${ROWS} ${resourceName} rows, with search`, p95(search), 'max', API_BUDGETS.searchP95Ms, ms, why(search)));
      }
      return rows;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    if (!process.env.DATABASE_URL) await rm(dataDir, { recursive: true, force: true });
  }
}
