/**
 * The load part of `npm run bench` (`-- load`; 001 9 limits): the server as `npm start` runs it, in
 * child processes, offered requests at fixed arrival rates, open loop (./load.ts `offer`, from
 * another process: a request is sent at its time whether or not the earlier ones were answered, and
 * its latency runs from that time), LOAD_SECONDS seconds per rate (LOAD_RATES, requests a second, in
 * increasing order; the rates stop after the first one not held). The requests are a mix of the
 * console's calls (lists with and without search, shows, creates, updates, a CSV import's dry run, a
 * statistics call, a push's recipient count and the chat's conversation list, in turn) and 4
 * sign-ins a second (SIGN_INS, part of the rate; see there). Three set-ups: one process on a fresh
 * PGlite, one process on PostgreSQL (DATABASE_URL, else a throwaway local cluster when Debian's
 * postgresql is installed), and two processes on that PostgreSQL behind HAProxy (Debian's `haproxy`,
 * round robin; skipped when it is not installed). For each rate it prints the rate offered and
 * achieved, p50 and p99, errors (answers not 2xx and requests without an answer) and each process's
 * RSS with its helper processes'; then the capacity: the highest rate held, that is with p99 ≤ 200
 * ms, no error and at least 95 % of it achieved. Budgets: at 200 requests a second with one process
 * on PostgreSQL p99 ≤ 200 ms and no error; each process's RSS ≤ 450 MB; the capacities printed.
 * docs/performance.md 'Under load' has the figures and why the load is offered open loop.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { limitRow, ms, type BudgetRow } from './budget';
import { freePort } from './console-server';
import { haproxyConfig } from './haproxy-config';
import { offerApart, type MixRequest, type OfferResult } from './load';
import { onBothDatabases } from './local-postgres';
import { bearerOf, descendantsOf, memoryOf, startServer, stopServer } from './server-process';

export const LOAD_BUDGETS = { errors: 0, p99Ms: 200, rssMb: 450 };

/**
 * Sign-ins are offered at a fixed 4 a second within every rate (14,400 an hour; the shipped server
 * lets one address sign in 20 times a minute, LOGIN_RATE_LIMIT, which the bench turns off), not as
 * a share of the mix: at one in 20 calls, the sign-ins asked for would grow with the rate, past what
 * two cores can hash (scrypt, src/server/auth/passwords.ts), and the bench would measure that.
 */
export const SIGN_INS = { perSecond: 4 };
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);

/** Today in Tokyo, `YYYY-MM-DD`, `back` days ago. */
function tokyoDay(back: number): string {
  return new Date(Date.now() + 9 * 3_600_000 - back * 86_400_000).toISOString().slice(0, 10);
}

/** A multipart body of one CSV file (field `file`), as the console's upload sends it. */
function csvUpload(): { body: string; type: string } {
  const boundary = 'benchloadboundary7f3a';
  const rows = Array.from({ length: 20 }, (_, i) => `負荷テスト店 ${i + 1},load${i + 1}@example.jp,078-000-${String(1000 + i)},神戸市中央区元町通1丁目${i + 1},グルメ,地元グルメ,説明,34.69,135.19,advertiser`);
  const csv = ['店舗名,メールアドレス,電話番号,住所,ジャンル,カテゴリ,説明,緯度,経度,ユーザー名', ...rows].join('\r\n') + '\r\n';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="load.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** The sign-in of the load: the demo's Operator, by password. */
export const SIGN_IN: MixRequest = { method: 'POST', path: '/default/api/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'operator', password: 'demo1234' }) };

/** The mix one connection sends in turn (exported for a look at one database alone): mostly reads, a few writes, one import check in 19. */
export async function mixOf(url: string, auth: Record<string, string>): Promise<MixRequest[]> {
  const json = { 'content-type': 'application/json' };
  const news = '/kobe/api/city/admin-news/';
  const made = await fetch(`${url}${news}`, { method: 'POST', headers: { ...auth, ...json }, body: JSON.stringify({ title: '負荷テストの更新先', description: '更新される行' }) });
  if (made.status !== 201) throw new Error(`load: the news row to update: ${made.status} ${await made.text()}`);
  const id = ((await made.json()) as { id: number }).id;
  const upload = csvUpload();
  const get = (path: string): MixRequest => ({ method: 'GET', path });
  return [
    get(`${news}?limit=20&offset=0&order_by=-create_at`),
    get(`${news}?limit=20&offset=0&search=${encodeURIComponent('ニュース')}`),
    get(`${news}${id}/`),
    { method: 'POST', path: news, headers: json, body: JSON.stringify({ title: '負荷テストの記事', description: '負荷の下で書かれた行' }) },
    get('/kobe/api/events/?limit=20&offset=0'),
    { method: 'PUT', path: `${news}${id}/`, headers: json, body: JSON.stringify({ title: '負荷テストの更新', description: '更新された行' }) },
    get(`${news}?limit=20&offset=20&order_by=-create_at`),
    get(`/kobe/api/statistics/pass-purchases/?start_date=${tokyoDay(6)}&end_date=${tokyoDay(0)}&by=env`),
    get(`${news}?limit=20&offset=0&search=${encodeURIComponent('お知らせ')}`),
    { method: 'POST', path: '/kobe/api/notification/recipient-count/', headers: json, body: JSON.stringify({ title: 't', body: 'b', type: 'all' }) },
    get('/kobe/api/chat/conversations/'),
    get(`${news}?limit=20&offset=0&order_by=-create_at`),
    get(`${news}${id}/`),
    { method: 'POST', path: '/kobe/api/import-csv/?dry_run=true', headers: { 'content-type': upload.type }, body: upload.body },
    get('/kobe/api/events/?limit=20&offset=0'),
    { method: 'POST', path: news, headers: json, body: JSON.stringify({ title: '負荷テストの記事', description: '負荷の下で書かれた行' }) },
    get(`${news}?limit=20&offset=0&search=${encodeURIComponent('ニュース')}`),
    get(`${news}${id}/`),
    get('/kobe/api/chat/conversations/'),
  ];
}

/** Probes each call of the mix once and throws, naming it, when one is not 2xx (a broken mix is no measurement). */
export async function probe(url: string, auth: Record<string, string>, mix: readonly MixRequest[]): Promise<void> {
  for (const r of mix) {
    const res = await fetch(`${url}${r.path}`, { method: r.method, headers: { ...auth, ...r.headers }, body: r.body });
    if (res.status < 200 || res.status >= 300) throw new Error(`load: ${r.method} ${r.path} answers ${res.status}: ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer().catch(() => undefined);
  }
}

/** Requests a second offered in turn (LOAD_RATES, comma-separated). */
export const RATES = (process.env.LOAD_RATES ?? '50,100,200,300,400,500,600,800').split(',').map(Number).filter((n) => n > 0);
/** The rate of the budget of one process on PostgreSQL, requests a second. */
export const BUDGET_RATE = 200;

/** The processes under load: their names and pids (RSS with their helpers'). */
interface Served {
  url: string;
  processes: Array<{ name: string; pid: number }>;
}

const mb = (n: number) => `${(n / 1_048_576).toFixed(0)} MB`;

/** RSS of process `pid` and its helper processes (the password hashing helper: src/server/auth/hash-process.ts), bytes; null off Linux. */
function rssOf(pid: number): number | null {
  const own = memoryOf(pid)?.rss ?? null;
  if (own === null) return null;
  return own + descendantsOf(pid).reduce((sum, p) => sum + (memoryOf(p)?.rss ?? 0), 0);
}

/** Whether a rate was held: p99 within budget, no error, and at least 95 % of it achieved. */
const held = (r: OfferResult) => r.p99 <= LOAD_BUDGETS.p99Ms && r.non2xx + r.errors === 0 && r.achieved >= 0.95 * r.offered;

/** Offers each rate of RATES to `served` in turn (see the top of this file); resolves to its budget rows. */
async function ratesOn(label: string, served: Served, budgetRate: number | null): Promise<BudgetRow[]> {
  const auth = await bearerOf(served.url, 'operator');
  const mix = await mixOf(served.url, auth);
  await probe(served.url, auth, [...mix, SIGN_IN]);
  const rows: BudgetRow[] = [];
  let capacity: number | null = null;
  let peak = 0;
  console.log(`${label}: ${SECONDS} s a rate, the mix of ${mix.length} calls and ${SIGN_INS.perSecond} sign-ins a second`);
  console.log(`  ${'offered'.padStart(7)} ${'achieved'.padStart(8)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'errors'.padStart(6)}  RSS`);
  for (const rate of RATES) {
    const r = await offerApart(served.url, rate, SECONDS, auth, mix, { perSecond: SIGN_INS.perSecond, requests: [SIGN_IN] });
    const rss = served.processes.map((p) => ({ name: p.name, rss: rssOf(p.pid) }));
    for (const p of rss) peak = Math.max(peak, p.rss ?? 0);
    const f = (n: number) => `${n.toFixed(1)} ms`.padStart(9);
    console.log(
      `  ${`${rate}/s`.padStart(7)} ${`${r.achieved.toFixed(0)}/s`.padStart(8)} ${f(r.p50)} ${f(r.p99)} ${String(r.non2xx + r.errors).padStart(6)}  ${rss.map((p) => `${p.name} ${p.rss === null ? '?' : mb(p.rss)}`).join(', ')}${held(r) ? '' : '  (not held)'}`,
    );
    for (const [what, n] of Object.entries(r.failures).sort((x, y) => y[1] - x[1]).slice(0, 5)) console.log(`           ${String(n).padStart(6)} × ${what}`);
    if (rate === budgetRate) {
      const at = `${rate} req/s offered, ${label}`;
      rows.push(limitRow(`load: errors (not 2xx or no answer), ${at}`, r.sent === 0 ? null : r.non2xx + r.errors, 'max', LOAD_BUDGETS.errors, (n) => n.toLocaleString('en')));
      rows.push(limitRow(`load: p99, ${at}`, r.sent === 0 ? null : r.p99, 'max', LOAD_BUDGETS.p99Ms, ms));
    }
    if (!held(r)) break;
    capacity = rate;
  }
  console.log(`${label}: capacity ${capacity === null ? `below ${RATES[0]}` : `${capacity}`} requests a second (p99 ≤ ${LOAD_BUDGETS.p99Ms} ms, no error)`);
  rows.push({ figure: `load: capacity (highest rate with p99 ≤ ${LOAD_BUDGETS.p99Ms} ms, no error), ${label}`, value: capacity === null ? `< ${RATES[0]} req/s` : `${capacity} req/s`, budget: 'printed', status: 'ok' });
  rows.push(limitRow(`load: RSS of a process (the largest, at the end of a rate), ${label}`, peak === 0 ? null : peak / 1_048_576, 'max', LOAD_BUDGETS.rssMb, (n) => `${n.toFixed(0)} MB`));
  return rows;
}

/** Starts Debian's HAProxy on a free port of 127.0.0.1 in front of `backends` (round robin, `/readyz` checks); null when it is not installed. */
async function startHaproxy(backends: readonly string[]): Promise<{ url: string; stop(): Promise<void> } | null> {
  const bin = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((b) => existsSync(b));
  if (!bin) return null;
  const dir = await mkdtemp(join(tmpdir(), 'city-console-bench-haproxy-'));
  const port = await freePort();
  const cfg = join(dir, 'haproxy.cfg');
  await writeFile(cfg, haproxyConfig(port, backends.map((b, i) => ({ name: `p${i + 1}`, address: new URL(b).host }))));
  const child = spawn(bin, ['-f', cfg, '-db'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 100) throw new Error('load: HAProxy did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function loadOn(root: string, label: 'PGlite' | 'PostgreSQL', env: Record<string, string>): Promise<BudgetRow[]> {
  const rows: BudgetRow[] = [];
  const one = await startServer(root, env);
  try {
    rows.push(...(await ratesOn(`one process, ${label}`, { url: one.url, processes: [{ name: 'the process', pid: one.child.pid! }] }, label === 'PostgreSQL' ? BUDGET_RATE : null)));
  } finally {
    await stopServer(one.child);
  }
  if (label !== 'PostgreSQL') return rows;
  // Two processes on the same schema, each with its own DATA_DIR, behind HAProxy.
  const dataDir = await mkdtemp(join(tmpdir(), 'city-console-bench-load-b-'));
  const a = await startServer(root, env);
  const b = await startServer(root, { ...env, DATA_DIR: dataDir }).catch(async (err) => {
    await stopServer(a.child);
    throw err;
  });
  const proxy = await startHaproxy([a.url, b.url]).catch(() => null);
  try {
    if (!proxy) console.log('two processes behind HAProxy: skipped (haproxy is not installed)');
    else rows.push(...(await ratesOn(`two processes behind HAProxy, ${label}`, { url: proxy.url, processes: [{ name: 'a', pid: a.child.pid! }, { name: 'b', pid: b.child.pid! }] }, null)));
  } finally {
    await proxy?.stop();
    await Promise.all([stopServer(a.child), stopServer(b.child)]);
    await rm(dataDir, { recursive: true, force: true });
  }
  return rows;
}

/** Runs the load bench in `root` (see the top of this file): PGlite, then PostgreSQL with one and two processes; resolves to its budget rows. */
export async function runLoadBench(root: string): Promise<BudgetRow[]> {
  return onBothDatabases('bench_load', (label, env) => loadOn(root, label, env));
}
