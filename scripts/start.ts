/**
 * `npm start`: starts the API server at once, then, when the console build is missing, not a
 * production build, or older than its sources (scripts/lib/console-build.ts BUILD_SOURCES: src/console,
 * src/shared, locales, schemas, menus, the build's configuration and index.html), runs the production
 * build (`vite build --mode production` with NODE_ENV=production, whatever this process's NODE_ENV
 * is) in a background child process.
 * The server serves the console as soon as the build lands (until then GET pages answer
 * 'コンソールを準備中です…' and reload every 3 s).
 * Settings: see src/server/config.ts (PORT, HOST, DATA_DIR, DATABASE_URL, …). SKIP_CONSOLE_BUILD=1
 * never builds.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { main } from '../src/server/main';
import { spawnConsoleBuild, staleBuildReason } from './lib/console-build';

const root = resolve(import.meta.dirname, '..');

/** Why the console needs a build, or null when the build is current or cannot be made yet. */
async function buildReason(consoleDir: string): Promise<string | null> {
  if (!existsSync(join(root, 'vite.config.ts'))) return null;
  return staleBuildReason(root, consoleDir);
}

function runBuild(reason: string): ChildProcess {
  console.log(`console: building in the background (${reason})…`);
  const child = spawnConsoleBuild(root);
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
