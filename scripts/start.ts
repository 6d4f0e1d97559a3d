/**
 * `npm start`: starts the API server at once, then, when the console build is missing or older than
 * its sources (src/console, src/shared, locales, schemas, menus, vite.config.ts, index.html), runs
 * `vite build` in a background child process. The server serves the console as soon as the build
 * lands (until then GET pages answer 'コンソールを準備中です…' and reload every 3 s).
 * Settings: see src/server/config.ts (PORT, HOST, DATA_DIR, DATABASE_URL, …). SKIP_CONSOLE_BUILD=1
 * never builds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { main } from '../src/server/main';

const root = resolve(import.meta.dirname, '..');
const SOURCES = ['src/console', 'src/shared', 'locales', 'schemas', 'menus', 'vite.config.ts', 'index.html'];

/** Newest modification time (ms) of a file or of any file under a folder; 0 when missing. */
async function newest(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let max = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    max = Math.max(max, await newest(join(path, entry.name)));
  }
  return max;
}

/** Why the console needs a build, or null when the build is current or cannot be made yet. */
async function buildReason(consoleDir: string): Promise<string | null> {
  if (!existsSync(join(root, 'vite.config.ts'))) return null;
  const built = await newest(join(consoleDir, 'index.html'));
  if (built === 0) return 'no build yet';
  for (const source of SOURCES) {
    if ((await newest(join(root, source))) > built) return `${source} changed`;
  }
  return null;
}

function runBuild(reason: string): ChildProcess {
  console.log(`console: building in the background (${reason})…`);
  const viteBin = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const child = existsSync(viteBin)
    ? spawn(process.execPath, [viteBin, 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('npx', ['vite', 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const started = Date.now();
  child.on('exit', (code, signal) => {
    if (code === 0) console.log(`console: built in ${((Date.now() - started) / 1000).toFixed(1)} s; reload the page.`);
    else if (!signal) console.error(`console: build failed (exit ${code}):\n${output}`);
  });
  return child;
}

async function start(): Promise<void> {
  const running = await main({ onSignals: false });
  let build: ChildProcess | null = null;
  if (process.env.SKIP_CONSOLE_BUILD !== '1') {
    const reason = await buildReason(running.config.consoleDir);
    if (reason) build = runBuild(reason);
  }
  const stop = (signal: NodeJS.Signals) => {
    console.log(`${signal}: shutting down`);
    if (build && build.exitCode === null && build.pid) process.kill(build.pid, 'SIGTERM');
    void running.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

start().catch((err: Error) => {
  console.error(`server did not start: ${err.message}`);
  process.exit(1);
});
