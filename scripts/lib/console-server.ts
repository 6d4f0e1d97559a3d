/**
 * The server as shipped, for the browser figures of `npm run bench`: makes sure the console build in
 * dist/console is current (`vite build` when it is missing or older than its sources, the same rule
 * as `npm start`), then runs `scripts/start.ts` (what `npm start` runs) in a child process group on a
 * free loopback port with a new temporary PGlite data directory, and stops it (and removes that
 * directory) afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConsole, staleBuildReason } from './console-build';

/**
 * Makes the console's production build in `<root>/dist/console` when it is missing, not a production
 * build, or older than a source (scripts/lib/console-build.ts, the rule of `npm start`). Resolves to
 * the reason it built (e.g. 'src/console changed'), or null when the build was current. Rejects with
 * vite's output when the build fails.
 */
export async function ensureConsoleBuild(root: string): Promise<string | null> {
  const reason = await staleBuildReason(root, join(root, 'dist/console'));
  if (!reason) return null;
  await buildConsole(root, { logLevel: 'warn' });
  return reason;
}

/** A free TCP port on 127.0.0.1 (asked of the OS; free when returned). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

export interface ConsoleServer {
  /** Origin of the console and the API, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** The temporary PGlite data directory (removed by `stop`). */
  dataDir: string;
  /** The server's output so far (stdout and stderr, last 20,000 characters). */
  output(): string;
  /** Stops the server (SIGTERM to its process group, SIGKILL after 10 s) and removes `dataDir`. Idempotent. */
  stop(): Promise<void>;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

/**
 * Starts `node_modules/.bin/tsx scripts/start.ts` in `root` with PORT = a free port, HOST 127.0.0.1,
 * DATA_DIR = a new temporary directory, demo data (NODE_ENV unset), no sign-in rate limit (the
 * bench signs in once per scenario) and SKIP_CONSOLE_BUILD=1 (call `ensureConsoleBuild` first: a
 * background build would compete with the measurements for the CPU). Resolves once `GET /login`
 * answers the console itself (not the 'preparing' page). Rejects, with the server stopped and its
 * output in the message, when it exits or is not ready within `timeoutMs` (default 120 s).
 */
export async function startConsoleServer(root: string, timeoutMs = 120_000): Promise<ConsoleServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'city-console-bench-'));
  // No map tiles: the figures are the console's own, and nothing is fetched beyond 127.0.0.1.
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOGIN_RATE_LIMIT: '0', SKIP_CONSOLE_BUILD: '1', MAP_TILE_URL: '' };
  // NODE_ENV unset: demo data (only `production` leaves it out); the console is a production build whatever it says.
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'CONSOLE_DIR', 'NODE_ENV']) delete env[name];
  const child = spawn(join(root, 'node_modules/.bin/tsx'), ['scripts/start.ts'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // Never leave the server behind, even when the bench itself is interrupted or crashes (the server
  // has a process group of its own: a Ctrl-C in the terminal does not reach it).
  const onExit = () => {
    signalGroup(child, 'SIGKILL');
    try {
      rmSync(dataDir, { recursive: true, force: true });
    } catch {
      // a file still being closed by the dying server; the directory is in the OS's temp folder
    }
  };
  // Exiting runs every exit hook (this one, a Chrome's…).
  const onSignal = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let stopping: Promise<void> | null = null;
  const url = `http://127.0.0.1:${port}`;
  const server: ConsoleServer = {
    url,
    dataDir,
    output: () => log,
    stop() {
      stopping ??= (async () => {
        signalGroup(child, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000);
        if (child.exitCode === null && child.signalCode === null) await exited;
        clearTimeout(timer);
        // tsx's own node child may outlive its parent for a moment.
        signalGroup(child, 'SIGKILL');
        process.removeListener('exit', onExit);
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
        await rm(dataDir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };

  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const res = await fetch(`${url}/login`, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(5000) });
      const html = await res.text();
      if (res.ok && html.includes('<script') && !html.includes('コンソールを準備中')) return server;
      last = `GET /login ${res.status}${html.includes('コンソールを準備中') ? ' (console still being built)' : ''}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await server.stop();
  throw new Error(`npm start did not become ready on ${url} (${last}); its output:\n${log}`);
}
