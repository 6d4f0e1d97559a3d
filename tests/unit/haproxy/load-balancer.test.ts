// Two server processes on one PostgreSQL and one object store behind HAProxy from Debian, round
// robin with /readyz checks (docs/deployment.md). Runs in the HAProxy stage of scripts/test.sh
// (HAPROXY_STAGE=1, DATABASE_URL set); skipped elsewhere. Everything listens on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../server/s3-server';
import { png } from '../server/test-images';

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
  child: ChildProcess;
  exited: Promise<number | null>;
}

let s3: TestS3;
let work: string;
let haproxy: ChildProcess;
let lb: string;
const servers: Server[] = [];

async function startServer(name: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  await until(`${name} ready`, async () => ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 ? true : null), 120_000);
  return { name, port, child, exited };
}

beforeAll(async () => {
  if (!run) return;
  s3 = await startTestS3('lb-files', 'lb/');
  work = await mkdtemp(join(tmpdir(), 'city-console-lb-'));
  const env = {
    ...s3.env,
    DATABASE_URL: process.env.DATABASE_URL!,
    DATABASE_SCHEMA: `lb_${process.pid}`,
    DATA_DIR: join(work, 'data'),
    CONSOLE_DIR: join(work, 'no-console'),
    TRUST_PROXY: '1',
    LOGIN_RATE_LIMIT: '5',
    LOG_LEVEL: 'error',
    SHUTDOWN_GRACE_MS: '5000',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  };
  // The first prepares the schema (migrations, seed), then the second starts on it.
  servers.push(await startServer('a', env));
  servers.push(await startServer('b', env));
  const port = await freePort();
  lb = `http://127.0.0.1:${port}`;
  const cfg = join(work, 'haproxy.cfg');
  await writeFile(
    cfg,
    [
      'global',
      '  log stderr format short local0 err',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  option forwardfor',
      '  option redispatch',
      '  retries 3',
      'frontend fe',
      `  bind 127.0.0.1:${port}`,
      '  default_backend console',
      'backend console',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      '  default-server inter 300ms fall 1 rise 1',
      '  http-response set-header X-Served-By %s',
      ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`),
      '',
    ].join('\n'),
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
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS lb_${process.pid} CASCADE`);
  await client.end();
  await rm(work, { recursive: true, force: true });
}, 60_000);

async function signIn(ip: string, password = 'demo1234'): Promise<Response> {
  return fetch(`${lb}/default/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ username: 'operator', password }),
  });
}

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
});
