/**
 * `npm run bench [-- <resource>]`: prints figures, asserts nothing (issue 2 item 9; issue 3).
 * 1. Seeds BENCH_ROWS (100,000) rows of the resource (default news) in kobe on a fresh PGlite in
 *    .bench-data/ (or on DATABASE_URL), and times the insert.
 * 2. Runs autocannon on loopback for BENCH_SECONDS (10) per run at 10 and 50 connections against the
 *    resource's list call (20 rows, without and with `search`), a bare Fastify route and a naive
 *    hand-written `SELECT … LIMIT/OFFSET` + `count(*)` route on the same database and process, and
 *    prints p50, p95, p99 (ms), requests per second and the ratios list / naive.
 * 3. Prints the JS (gzip) that Chromium loads for the login page and for the resource's list page.
 * Budgets of issue 2 are printed beside the figures: list p95 ≤ 50 ms at 10 connections without
 * search; list ≤ 2 × naive; login page ≤ 350 KB gzip.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { getResource } from '../src/shared/registry';
import { routeEntriesFor } from '../src/shared/manifest';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/database';
import { prepareDatabase } from '../src/server/db/prepare';
import { tableName } from '../src/server/db/resource-tables';
import { createRecords } from '../src/server/repositories/resource-repository';
import { buildApp } from '../src/server/app';
import { formatRow, measureApart as measure, type LoadResult } from './lib/load';
import { measureJs } from './lib/js-size';
import { sampleRecord } from './lib/sample-record';

const root = resolve(import.meta.dirname, '..');
const resourceName = process.argv.slice(2).find((a) => !a.startsWith('-')) ?? 'news';
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
        `list/bare p95 ${(list.p95 / bare.p95).toFixed(2)}x` +
        (c === 10 ? `; list p95 ${list.p95.toFixed(2)} ms (budget ≤ 50 ms)` : ''),
    );
  }
  await app.close();

  if (!existsSync(join(root, 'dist/console/index.html'))) {
    console.log('\nbuilding the console (dist/console missing)…');
    execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  }
  const web = await buildApp({ db, config: { ...config, consoleDir: join(root, 'dist/console') } });
  const base = await web.listen({ host: '127.0.0.1', port: 0 });
  const route = routeEntriesFor('Operator', CITY).find((e) => e.resource === resourceName)?.route ?? resourceName;
  const js = await measureJs({
    'login page': async (page) => {
      await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
    },
    [`${resourceName} list page`]: async (page) => {
      await page.request.post(`${base}/default/api/login`, { data: { username: 'operator', password: 'demo1234' } });
      await page.addInitScript((city) => localStorage.setItem('City', city), CITY);
      await page.goto(`${base}/${CITY}/${route}`, { waitUntil: 'networkidle' });
    },
  });
  console.log('\nconsole JavaScript loaded (Chromium, cold cache):');
  for (const [name, load] of Object.entries(js)) {
    console.log(`${name.padEnd(22)} ${(load.gzip / 1024).toFixed(1).padStart(7)} KB gzip  ${(load.raw / 1024).toFixed(1).padStart(8)} KB raw  ${load.files} files${name === 'login page' ? '  (budget ≤ 350 KB gzip)' : ''}`);
  }
  await web.close();
} finally {
  await db.close();
  if (!process.env.DATABASE_URL) await rm(dataDir, { recursive: true, force: true });
}
