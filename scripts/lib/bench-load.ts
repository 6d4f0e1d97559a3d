/**
 * The load part of `npm run bench` (`-- load`; 001 9 limits): the server as `npm start` runs it, in a
 * child process on a fresh PGlite data directory (and on PostgreSQL: DATABASE_URL, else a throwaway
 * local cluster when Debian's postgresql is installed), under LOAD_CONNECTIONS connections for
 * LOAD_SECONDS seconds of a mix of the console's calls, sent by autocannon from another process:
 * lists with and without search, shows, creates, updates, a CSV import's dry run, a statistics call,
 * a push's recipient count and the chat's conversation list, each connection sending them in turn;
 * and, at the same time, sign-ins at a fixed rate (SIGN_INS, see there). Prints errors (answers not
 * 2xx and requests without an answer; budget 0), p50 and p99 of every answer (budget p99 ≤ 200 ms)
 * with those of each call, requests per second, and the server's RSS at the end with its helper
 * processes' (budget ≤ 450 MB). docs/performance.md 'Under load' says why sign-ins are paced.
 */
import { limitRow, ms, type BudgetRow } from './budget';
import { formatByRequest, formatRow, measureApart, type MixRequest } from './load';
import { onBothDatabases } from './local-postgres';
import { bearerOf, descendantsOf, memoryOf, startServer, stopServer } from './server-process';

export const LOAD_BUDGETS = { errors: 0, p99Ms: 200, rssMb: 450 };
const CONNECTIONS = 50;

/**
 * Sign-ins run beside the mix at a fixed rate: 4 a second (14,400 an hour; the shipped server lets
 * one address sign in 20 times a minute, LOGIN_RATE_LIMIT), from 4 connections. In the closed loop
 * of the mix, one sign-in in N calls made the sign-in demand follow the other calls' speed, past
 * what two cores can hash (scrypt, src/server/auth/passwords.ts).
 */
export const SIGN_INS = { connections: 4, perSecond: 4 };
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

async function loadOn(root: string, label: string, env: Record<string, string>): Promise<BudgetRow[]> {
  const { url, child } = await startServer(root, env);
  try {
    const auth = await bearerOf(url, 'operator');
    const mix = await mixOf(url, auth);
    await probe(url, auth, [...mix, SIGN_IN]);
    const paced = { ...SIGN_INS, requests: [SIGN_IN] };
    const r = await measureApart(`mix of ${mix.length} calls and sign-ins, ${label}`, url, CONNECTIONS, SECONDS, auth, mix, paced);
    // The server's own RSS and its helper processes' (the password hashing helper: src/server/auth/hash-process.ts).
    const own = memoryOf(child.pid!)?.rss ?? null;
    const helpers = descendantsOf(child.pid!).reduce((sum, pid) => sum + (memoryOf(pid)?.rss ?? 0), 0);
    const rss = own === null ? null : own + helpers;
    const mb = (n: number) => `${(n / 1_048_576).toFixed(0)} MB`;
    console.log(formatRow(r));
    for (const line of formatByRequest(r)) console.log(line);
    console.log(`${label}: server RSS at the end ${rss === null || own === null ? 'unknown' : `${mb(rss)} (the process ${mb(own)}, its helpers ${mb(helpers)})`}`);
    const at = `c=${CONNECTIONS} + ${SIGN_INS.perSecond} sign-ins/s, ${SECONDS} s, ${label}`;
    return [
      limitRow(`load: errors (not 2xx or no answer), ${at}`, r.requests === 0 ? null : r.non2xx + r.errors, 'max', LOAD_BUDGETS.errors, (n) => n.toLocaleString('en')),
      { figure: `load: p50, requests per second, ${at}`, value: `${ms(r.p50)}, ${r.rps.toFixed(0)} req/s`, budget: 'printed', status: 'ok' },
      limitRow(`load: p99, ${at}`, r.requests === 0 ? null : r.p99, 'max', LOAD_BUDGETS.p99Ms, ms),
      limitRow(`load: server RSS at the end, ${label}`, rss === null ? null : rss / 1_048_576, 'max', LOAD_BUDGETS.rssMb, (n) => `${n.toFixed(0)} MB`),
    ];
  } finally {
    await stopServer(child);
  }
}

/** Runs the load bench in `root` (see the top of this file): PGlite, then PostgreSQL; resolves to its budget rows. */
export async function runLoadBench(root: string): Promise<BudgetRow[]> {
  return onBothDatabases('bench_load', (label, env) => loadOn(root, label, env));
}
