/**
 * `npm run bench [-- [api|web|import|statistics|push|chat|crash|load] [<resource>]]`: prints figures beside their budgets, asserts nothing
 * and exits 0 even when a figure is over budget (1 only when the bench itself cannot run).
 * - api (scripts/lib/bench-api.ts): list call latency on 100,000 rows of the resource (news by
 *   default) on a fresh PGlite, beside a bare and a naive route (autocannon, loopback).
 * - web (scripts/lib/bench-web.ts): against `npm start` as shipped (fresh database, current console
 *   build), Lighthouse 12 performance of the pages of scripts/lib/pages.ts (desktop and mobile
 *   presets), the JavaScript each page transfers over the wire, sidebar click to rows painted, and the API requests each list page makes.
 * - import (scripts/lib/bench-import.ts): a 10 MB Shift_JIS file of about 50,000 shops checked (dry
 *   run) and imported through the API of a server in a child process, on PGlite and on PostgreSQL:
 *   seconds, rows per second and the server's peak RSS growth.
 * - statistics (scripts/lib/bench-statistics.ts): the statistics call's p95 at 10 connections over
 *   1,000,000 purchase_transaction rows on PGlite (and PostgreSQL with DATABASE_URL).
 * - push (scripts/lib/bench-push.ts): 100,000 members; a push to all resolved and queued, its
 *   deliveries per second through the outbox provider, and the by-map count's p95 (polygon of 50
 *   vertices) on PGlite (and PostgreSQL with DATABASE_URL).
 * - chat (scripts/lib/bench-chat.ts): 1,000 conversations of 100 messages: the conversation list and
 *   a page of a conversation p95 at 10 connections, and the delivery latency of a message between two
 *   server instances on PostgreSQL (with DATABASE_URL).
 * - crash (scripts/lib/bench-crash.ts): 20 × kill -9 of a server taking writes, restarted each time, on
 *   PGlite and PostgreSQL: writes acknowledged, lost (budget 0), restart times.
 * - load (scripts/lib/bench-load.ts): fixed arrival rates (LOAD_RATES, 60 s each: LOAD_SECONDS),
 *   open loop, of a mix of the console's calls and 4 sign-ins a second against the server as `npm
 *   start` runs it: one process on PGlite, one on PostgreSQL, two on PostgreSQL behind HAProxy. Per
 *   rate: achieved rate, p50, p99, errors, RSS of each process (≤ 450 MB); the capacity (highest rate
 *   with p99 ≤ 200 ms, no error); at 200 a second, one process on PostgreSQL: p99 ≤ 200 ms, 0 errors.
 * Without a part named, all of them run (api first). At the end one table: every budgeted figure, its budget
 * and ok / OVER.
 */
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { formatBudgetTable, type BudgetRow } from './lib/budget';
import { runApiBench } from './lib/bench-api';
import { runCrashBench } from './lib/bench-crash';
import { runLoadBench } from './lib/bench-load';
import { runChatBench } from './lib/bench-chat';
import { runImportBench } from './lib/bench-import';
import { runStatisticsBench } from './lib/bench-statistics';
import { runPushBench } from './lib/bench-push';
import { runWebBench } from './lib/bench-web';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const PARTS = ['api', 'web', 'import', 'statistics', 'push', 'chat', 'crash', 'load'];
const parts = new Set(args.filter((a) => PARTS.includes(a)));
const resourceName = args.find((a) => !PARTS.includes(a) && a !== 'all') ?? 'news';
const runStatistics = parts.size === 0 || parts.has('statistics');
const runApi = parts.size === 0 || parts.has('api');
const runWeb = parts.size === 0 || parts.has('web');
const runImport = parts.size === 0 || parts.has('import');
const runCrash = parts.size === 0 || parts.has('crash');
const runPush = parts.size === 0 || parts.has('push');
const runChat = parts.size === 0 || parts.has('chat');
const runLoad = parts.size === 0 || parts.has('load');

const started = performance.now();
console.log(`bench: ${loadavg()[0].toFixed(1)} load average (1 min) on ${availableParallelism()} cores at the start`);
const rows: BudgetRow[] = [];
let failed = false;
if (runApi) {
  console.log('== API ==');
  try {
    rows.push(...(await runApiBench(root, resourceName)));
  } catch (err) {
    failed = true;
    console.error(`API bench failed: ${(err as Error).stack ?? err}`);
  }
}
if (runWeb) {
  console.log(`${runApi ? '\n' : ''}== web ==`);
  try {
    rows.push(...(await runWebBench(root)));
  } catch (err) {
    failed = true;
    console.error(`web bench failed: ${(err as Error).stack ?? err}`);
  }
}
if (runImport) {
  console.log(`${runApi || runWeb ? '\n' : ''}== CSV import ==`);
  try {
    rows.push(...(await runImportBench(root)));
  } catch (err) {
    failed = true;
    console.error(`import bench failed: ${(err as Error).stack ?? err}`);
  }
}
if (runStatistics) {
  console.log('\n== statistics ==');
  try {
    rows.push(...(await runStatisticsBench(root)));
  } catch (err) {
    failed = true;
    console.error(`statistics bench failed: ${(err as Error).stack ?? err}`);
  }
}
if (runPush) {
  console.log('\n== push ==');
  try {
    rows.push(...(await runPushBench(root)));
  } catch (err) {
    failed = true;
    console.error(`push bench failed: ${(err as Error).stack ?? err}`);
  }
}
if (runChat) {
  console.log('\n== chat ==');
  try {
    rows.push(...(await runChatBench(root)));
  } catch (err) {
    failed = true;
    console.error(`chat bench failed: ${(err as Error).stack ?? err}`);
  }
}
if (runCrash) {
  console.log('\n== crash ==');
  try {
    rows.push(...(await runCrashBench(root)));
  } catch (err) {
    failed = true;
    console.error(`crash bench failed: ${(err as Error).stack ?? err}`);
  }
}
if (runLoad) {
  console.log('\n== load ==');
  try {
    rows.push(...(await runLoadBench(root)));
  } catch (err) {
    failed = true;
    console.error(`load bench failed: ${(err as Error).stack ?? err}`);
  }
}
// Other work on the machine slows every figure: the load shows how far to trust them.
const load = `load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${availableParallelism()} cores`;
console.log(`\n== budgets (${((performance.now() - started) / 1000).toFixed(0)} s; ${load}) ==`);
console.log(formatBudgetTable(rows));
process.exit(failed ? 1 : 0);
