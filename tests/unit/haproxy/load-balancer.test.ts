// Two server processes on one PostgreSQL and one object store behind HAProxy from Debian, round
// robin with /readyz checks (docs/deployment.md). Runs in the HAProxy stage of scripts/test.sh
// (HAPROXY_STAGE=1, DATABASE_URL set); skipped elsewhere. Everything listens on 127.0.0.1.
// Each process has its own DATA_DIR (nothing shared but the database and the bucket). A request
// with `X-Pin: a` (or b) goes to that process while it is up (a `use-server` rule of the test's
// proxy only), so a scenario can say which process does what; every call still goes through the
// proxy, and `X-Served-By` says which process answered.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../server/s3-server';
import { png } from '../server/test-images';
import { csvText, encode, shopRow, SHOP_HEADER } from '../server/import-helpers';
import { eventsOf, readUntil } from '../server/sse';
import { haproxyConfig } from '../../../scripts/lib/haproxy-config';

const run = process.env.HAPROXY_STAGE === '1' && !!process.env.DATABASE_URL;
const ROOT = resolve(import.meta.dirname, '../../..');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
    s.on('error', fail);
  });
}

async function until<T>(what: string, probe: () => Promise<T | null>, limitMs = 60_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const got = await probe().catch(() => null);
    if (got) return got;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Server {
  name: string;
  port: number;
  env: Record<string, string>;
  child: ChildProcess;
  exited: Promise<number | null>;
}

let s3: TestS3;
let work: string;
let haproxy: ChildProcess;
let lb: string;
const servers: Server[] = [];

async function startServer(name: string, env: Record<string, string>, port?: number): Promise<Server> {
  port ??= await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  await until(`${name} ready`, async () => ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 ? true : null), 120_000);
  return { name, port, env, child, exited };
}

beforeAll(async () => {
  if (!run) return;
  s3 = await startTestS3('lb-files', 'lb/');
  work = await mkdtemp(join(tmpdir(), 'city-console-lb-'));
  const env = {
    ...s3.env,
    DATABASE_URL: process.env.DATABASE_URL!,
    DATABASE_SCHEMA: `lb_${process.pid}`,
    CONSOLE_DIR: join(work, 'no-console'),
    TRUST_PROXY: '1',
    LOGIN_RATE_LIMIT: '5',
    LOG_LEVEL: 'error',
    SHUTDOWN_GRACE_MS: '20000',
    // A dead process's job is taken over after 3 s (the default 30 s would make the stage slow).
    JOB_STALE_MS: '3000',
    // Long enough that only the NOTIFY can explain another process forgetting a cached session.
    AUTH_CACHE_MS: '60000',
    CHAT_RATE_LIMIT: '0',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  };
  // The first prepares the schema (migrations, seed), then the second starts on it.
  servers.push(await startServer('a', { ...env, DATA_DIR: join(work, 'data-a') }));
  servers.push(await startServer('b', { ...env, DATA_DIR: join(work, 'data-b') }));
  const port = await freePort();
  lb = `http://127.0.0.1:${port}`;
  const cfg = join(work, 'haproxy.cfg');
  await writeFile(
    cfg,
    haproxyConfig(
      port,
      servers.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` })),
      ['  http-response set-header X-Served-By %s', ...servers.map((s) => `  use-server ${s.name} if { req.hdr(x-pin) -m str ${s.name} }`)],
    ),
  );
  haproxy = spawn(process.env.HAPROXY_BIN || 'haproxy', ['-f', cfg, '-db'], { stdio: ['ignore', 'ignore', 'inherit'] });
  // Both servers are up behind the proxy once two calls in a row were answered by both.
  await until('both servers behind HAProxy', async () => {
    const by = new Set<string>();
    for (let i = 0; i < 4; i++) by.add((await fetch(`${lb}/healthz`)).headers.get('x-served-by') ?? '');
    return by.has('a') && by.has('b') ? true : null;
  });
}, 300_000);

afterAll(async () => {
  if (!run) return;
  haproxy?.kill('SIGTERM');
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.exited));
  await s3?.stop();
  await db?.end();
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS lb_${process.pid} CASCADE`);
  await client.end();
  await rm(work, { recursive: true, force: true });
}, 60_000);

async function signIn(ip: string, password = 'demo1234', username = 'operator'): Promise<Response> {
  return fetch(`${lb}/default/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ username, password }),
  });
}

let signIns = 0;
/** The access token of `username` (each sign-in from its own address: the per-IP limit is 5 here). */
async function tokenOf(username: string): Promise<string> {
  const r = await signIn(`10.1.0.${++signIns}`, 'demo1234', username);
  expect(r.status).toBe(200);
  return ((await r.json()) as { token: string }).token;
}

/** A call through the proxy as `token`, to process `pin` when given. */
function call(path: string, token: string | null, init: RequestInit & { pin?: string } = {}): Promise<Response> {
  const { pin, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (pin) headers.set('x-pin', pin);
  return fetch(`${lb}${path}`, { ...rest, headers });
}

/** The keys in the test's bucket. */
async function bucketKeys(): Promise<string[]> {
  const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  try {
    const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (page.Contents ?? []).map((o) => o.Key ?? '');
  } finally {
    client.destroy();
  }
}

const servedBy = (r: Response) => r.headers.get('x-served-by');
const serverNamed = (name: string) => servers.find((s) => s.name === name)!;

/** A connection to the test's schema, for what the scenarios set up and check beside the calls. */
let db: pg.Client | undefined;
async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  if (!db) {
    db = new pg.Client({ connectionString: process.env.DATABASE_URL, options: `-c search_path=lb_${process.pid}` });
    await db.connect();
  }
  return (await db.query<T>(text, values)).rows;
}

/** The process whose job runner holds job `id` (`jobs.worker` is `<host>:<pid>:<random>`), or null. */
async function runnerOf(id: number): Promise<Server | null> {
  const [row] = await sql<{ worker: string | null; state: string }>('SELECT worker, state FROM jobs WHERE id = $1', [id]);
  const pid = Number(row?.worker?.split(':')[1]);
  return servers.find((s) => s.child.pid === pid) ?? null;
}

/** A shop CSV file of `n` rows named `<prefix> <i>` (Shift_JIS, as the import tests write them). */
function shopFile(prefix: string, n: number): Buffer {
  return encode(csvText([SHOP_HEADER, ...Array.from({ length: n }, (_, i) => shopRow(`${prefix} ${i + 1}`, { description: '説明'.repeat(20) }))]), 'shift_jis');
}

interface ImportState {
  id: number;
  status: string;
  total: number;
  done: number;
  created: number;
}

async function importThrough(pin: string, token: string, name: string, bytes: Buffer, query = ''): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return call(`/kobe/api/import-csv/${query}`, token, { method: 'POST', body: form, pin });
}

async function importState(pin: string, token: string, id: number): Promise<ImportState & { by: string | null }> {
  const r = await call(`/kobe/api/import-csv/${id}/`, token, { pin });
  expect(r.status).toBe(200);
  return { ...((await r.json()) as ImportState), by: servedBy(r) };
}

async function jobOfImport(id: number): Promise<number> {
  const [row] = await sql<{ job: string }>("SELECT data->>'job' AS job FROM r_csv_import WHERE id = $1", [id]);
  return Number(row.job);
}

const shopsNamed = async (prefix: string) =>
  (await sql<{ n: number; names: number }>(`SELECT count(*)::int AS n, count(DISTINCT data->>'name')::int AS names FROM r_advertisement WHERE data->>'name' LIKE $1`, [`${prefix} %`]))[0];

describe.skipIf(!run)('two processes behind HAProxy', () => {
  it('a sign-in and an image uploaded through one process are served by the other', async () => {
    const login = await signIn('10.0.0.1');
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const image = png(6, 4);
    const up = await fetch(`${lb}/kobe/api/files/?kind=image`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' }, body: new Uint8Array(image) });
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };
    const by = new Map<string, Buffer>();
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${lb}${url}`);
      expect(r.status).toBe(200);
      by.set(r.headers.get('x-served-by') ?? '', Buffer.from(await r.arrayBuffer()));
    }
    // The token is accepted by either process.
    const whoami = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${lb}/default/api/users/whoami`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(200);
      whoami.add(r.headers.get('x-served-by') ?? '');
    }
    expect(whoami.size).toBe(2);
    expect([...by.keys()].sort()).toEqual(['a', 'b']);
    for (const bytes of by.values()) expect(bytes.equals(image)).toBe(true);
  });

  it('counts the per-IP sign-in limit once for both processes', async () => {
    const statuses: number[] = [];
    const by = new Set<string>();
    for (let i = 0; i < 7; i++) {
      const r = await signIn('10.0.0.2', 'wrong-password');
      statuses.push(r.status);
      by.add(r.headers.get('x-served-by') ?? '');
    }
    expect(by.size).toBe(2);
    expect(statuses.slice(0, 5).includes(429)).toBe(false);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('a chat message sent through one process arrives live on a stream held by the other', async () => {
    const operator = await tokenOf('operator');
    const advertiser = await tokenOf('advertiser');
    const abort = new AbortController();
    try {
      const stream = await call('/kobe/api/chat/stream', operator, { pin: 'b', signal: abort.signal });
      expect(stream.status).toBe(200);
      expect(servedBy(stream)).toBe('b');
      await readUntil(stream.body!, /: connected\nid: \d+\n\n/);
      const list = await call('/kobe/api/chat/conversations/', advertiser, { pin: 'a' });
      const conv = ((await list.json()) as { content: Array<{ id: number }> }).content[0];
      const sent = await call(`/kobe/api/chat/conversations/${conv.id}/messages/`, advertiser, {
        pin: 'a',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'プロセスaから' }),
      });
      expect(sent.status).toBe(201);
      expect(servedBy(sent)).toBe('a');
      const message = (await sent.json()) as { id: number };
      const text = await readUntil(stream.body!, /プロセスaから[\s\S]*\n\n/);
      expect(eventsOf<{ id: number; text: string }>(text, 'message')).toEqual([expect.objectContaining({ id: message.id, text: 'プロセスaから' })]);
    } finally {
      abort.abort();
    }
  });

  it('a sign-out through one process ends the session in the other at once (its cache dropped by NOTIFY)', async () => {
    const token = await tokenOf('operator');
    // Process b caches the session's profile (AUTH_CACHE_MS is a minute here).
    const before = await call('/kobe/api/events/?limit=1', token, { pin: 'b' });
    expect([before.status, servedBy(before)]).toEqual([200, 'b']);
    const out = await call('/default/login/logout', token, { pin: 'a', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([out.status, servedBy(out)]).toEqual([200, 'a']);
    await expect.poll(async () => (await call('/kobe/api/events/?limit=1', token, { pin: 'b' })).status, { timeout: 5000, interval: 50 }).toBe(401);
  });

  it('each push is delivered exactly once while both processes run their job loop', async () => {
    const [{ id: akita }] = await sql<{ id: number }>("SELECT id FROM cities WHERE name = 'akita'");
    const members = await sql<{ id: number }>(
      `INSERT INTO users (username, password_hash, permission, assign_city, home_point)
       SELECT 'lb_member_' || g, '', 'Member', ARRAY[$1::int], point(140.1, 39.7) FROM generate_series(1, 1200) g RETURNING id`,
      [akita],
    );
    const ids = members.map((m) => Number(m.id));
    await sql(`INSERT INTO member_devices (user_id, installation_id, token) SELECT id, 'i', 'tok-' || id FROM users WHERE id = ANY($1::int[])`, [ids]);
    const admin = await tokenOf('administrator');
    const pushes: number[] = [];
    // Four pushes queued at once, two through each process: both runners poll for them.
    const created = await Promise.all(
      ['a', 'b', 'a', 'b'].map((pin, i) =>
        call('/akita/api/notification/create_notification_users/', admin, {
          pin,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: `お知らせ${i}`, body: '本文', type: 'users', users: ids }),
        }),
      ),
    );
    for (const r of created) {
      expect(r.status).toBe(201);
      pushes.push(Number(((await r.json()) as { id: number }).id));
    }
    for (const id of pushes) {
      await expect
        .poll(async () => ((await (await call(`/akita/api/notification/list-notify/${id}/`, admin)).json()) as { push_status: string }).push_status, {
          timeout: 60_000,
          interval: 200,
        })
        .toBe('sent');
      const shown = (await (await call(`/akita/api/notification/list-notify/${id}/`, admin)).json()) as Record<string, unknown>;
      expect(shown).toMatchObject({ recipients: 1200, delivered: 1200, failed_count: 0 });
      const out = await sql<{ n: number; users: number }>('SELECT count(*)::int AS n, count(DISTINCT user_id)::int AS users FROM push_outbox WHERE notification_id = $1', [id]);
      expect(out).toEqual([{ n: 1200, users: 1200 }]);
    }
    // One attempt each: no job was claimed twice.
    const jobs = await sql<{ state: string; attempts: number }>(
      "SELECT state, attempts FROM jobs WHERE kind = 'push-delivery' AND (payload->>'notification_id')::bigint = ANY($1::bigint[])",
      [pushes],
    );
    expect(jobs).toEqual(pushes.map(() => ({ state: 'succeeded', attempts: 1 })));
  });

  it('imports: one started through a busy process runs on the other from the bucket and is watched through the first; kill -9 of a runner, and the other finishes its job', async () => {
    const admin = await tokenOf('administrator');
    // A long import: whichever process claims it is busy with it (one job at a time each).
    const big = await importThrough('a', admin, 'lb-big.csv', shopFile('LB大量', 20_000));
    expect(big.status).toBe(202);
    const bigId = ((await big.json()) as ImportState).id;
    const bigJob = await jobOfImport(bigId);
    const busy = await until('the long import running', async () => {
      const s = await runnerOf(bigJob);
      return s && (await importState(s.name, admin, bigId)).done > 0 ? s : null;
    });
    const other = servers.find((s) => s !== busy)!;

    // (c) A second import uploaded through the busy process: the other one claims it, reads the
    // file from the bucket (its own DATA_DIR has none), and its progress is read through the first.
    const small = await importThrough(busy.name, admin, 'lb-small.csv', shopFile('LB少量', 3000));
    expect([small.status, servedBy(small)]).toEqual([202, busy.name]);
    const smallId = ((await small.json()) as ImportState).id;
    const seen: number[] = [];
    let last: ImportState & { by: string | null };
    for (;;) {
      last = await importState(busy.name, admin, smallId);
      expect(last.by).toBe(busy.name);
      seen.push(last.done);
      if (last.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(last).toMatchObject({ status: 'success', total: 3000, done: 3000, created: 3000 });
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect((await runnerOf(await jobOfImport(smallId)))?.name).toBe(other.name);
    expect(await shopsNamed('LB少量')).toEqual({ n: 3000, names: 3000 });

    // (d) kill -9 of the process running the long import: after the lease (JOB_STALE_MS) the other
    // takes the job over, undoes every row the dead one wrote and imports the file again from its
    // first row, to the end. Its progress, read through the survivor, goes back to 0 once (the new
    // attempt, said in the log) and otherwise only increases.
    const before = await importState(other.name, admin, bigId);
    expect(before.status).toBe('processing');
    busy.child.kill('SIGKILL');
    await busy.exited;
    const progress: number[] = [before.done];
    let ended: ImportState & { by: string | null };
    await until(
      'the other process to finish the long import',
      async () => {
        ended = await importState(other.name, admin, bigId);
        progress.push(ended.done);
        return ended.status !== 'processing' ? true : null;
      },
      90_000,
    );
    expect(ended!).toMatchObject({ status: 'success', total: 20_000, done: 20_000, created: 20_000, by: other.name });
    const drops = progress.flatMap((d, i) => (i > 0 && d < progress[i - 1] ? [d] : []));
    expect(drops.length).toBeLessThanOrEqual(1);
    expect(await shopsNamed('LB大量')).toEqual({ n: 20_000, names: 20_000 });
    expect(await sql('SELECT state, attempts FROM jobs WHERE id = $1', [bigJob])).toEqual([{ state: 'succeeded', attempts: 2 }]);
    expect((await runnerOf(bigJob))?.name).toBe(other.name);
    expect(await sql('SELECT 1 FROM job_writes WHERE job_id = $1', [bigJob])).toEqual([]);
    const lines = await sql<{ level: string; row: string }>(
      `SELECT data->>'level' AS level, data->>'row_number' AS row FROM r_csv_import_log WHERE (data->>'csv_import')::bigint = $1 ORDER BY id`,
      [bigId],
    );
    expect(lines).toEqual([
      { level: 'info', row: '0' },
      { level: 'info', row: '0' },
    ]);
    // The uploaded files are gone from the bucket once their imports ended.
    expect(await bucketKeys()).not.toContainEqual(expect.stringMatching(/import-[0-9a-f]{32}\.csv$/));

    // The killed process comes back on its port; the proxy sends it requests again.
    servers[servers.indexOf(busy)] = await startServer(busy.name, busy.env, busy.port);
    await until('the restarted process behind the proxy', async () => (servedBy(await fetch(`${lb}/healthz`, { headers: { 'x-pin': busy.name } })) === busy.name ? true : null));
  }, 180_000);

  it('SIGTERM of one process: requests under way complete, new ones go to the other, no client sees a 5xx', async () => {
    const token = await tokenOf('operator');
    const leaving = serverNamed('a');
    const statuses: Array<number | string> = [];
    const by: string[] = [];
    let stop = false;
    let exitedAt = -1;
    const loop = async () => {
      while (!stop) {
        try {
          const r = await call('/kobe/api/events/?limit=1', token);
          statuses.push(r.status);
          by.push(servedBy(r) ?? '');
          await r.arrayBuffer();
        } catch (err) {
          statuses.push(`${String(err)} ${String((err as Error).cause ?? '')}`);
        }
      }
    };
    const loops = Array.from({ length: 4 }, loop);
    await until('both processes answering the loops', async () => (by.includes('a') && by.includes('b') ? true : null));
    // A long request to the leaving process (the check of a 5,000-row file) when SIGTERM comes.
    const check = importThrough('a', await tokenOf('administrator'), 'lb-check.csv', shopFile('LB点検', 5000), '?dry_run=true');
    leaving.child.kill('SIGTERM');
    expect(await leaving.exited).toBe(0);
    exitedAt = by.length;
    await until('requests after the exit', async () => (by.length > exitedAt + 40 ? true : null));
    stop = true;
    await Promise.all(loops);
    const checked = await check;
    expect(checked.status).toBe(200);
    expect(await checked.json()).toMatchObject({ dry_run: true, rows: 5000, create: 5000, errors: 0 });
    expect(statuses.filter((x) => x !== 200)).toEqual([]);
    expect(by.slice(exitedAt)).not.toContain('a');
  }, 60_000);
});
