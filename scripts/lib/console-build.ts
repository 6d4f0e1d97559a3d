/**
 * The console's production build, in one place: how it is made (`spawnConsoleBuild`: `vite build
 * --mode production` with NODE_ENV=production, whatever the caller's environment says) and when it
 * must be made again (`staleBuildReason`: missing, made otherwise than for production, or older than
 * what it is built from). Used by `npm start` (scripts/start.ts, which builds in the background),
 * `npm run build` (scripts/build.ts), the test script and the bench (scripts/lib/console-server.ts).
 * A development bundle (React's and antd's development builds, `css-dev-only-do-not-override-…`
 * class names) is what `npm run dev` serves, never what `npm start` does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The file vite.config.ts writes beside index.html at the end of every build: how it was made,
 * `{production: boolean, mode: string}` (`production`: NODE_ENV was `production`, so React's and
 * antd's production builds are inside).
 */
export const BUILD_STAMP = 'build-stamp.json';

/** What BUILD_STAMP holds. */
export interface BuildStamp {
  production: boolean;
  mode: string;
}

/**
 * Starts a production build of the console in `root` (into `outDir`, default vite.config.ts's
 * dist/console): `vite build --mode production` in a child process whose environment is `env` (default
 * this process's) with NODE_ENV=production. `logLevel` is vite's (default `info`). The caller
 * watches the child's exit code (0: built) and output.
 */
export function spawnConsoleBuild(root: string, options: { outDir?: string; logLevel?: 'info' | 'warn' | 'error' | 'silent'; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  const viteBin = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = ['build', '--mode', 'production', '--logLevel', options.logLevel ?? 'info'];
  if (options.outDir) args.push('--outDir', options.outDir, '--emptyOutDir');
  const env = { ...(options.env ?? process.env), NODE_ENV: 'production' };
  return existsSync(viteBin)
    ? spawn(process.execPath, [viteBin, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('npx', ['vite', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Runs `spawnConsoleBuild` to its end. Resolves when vite exits 0; rejects with the last 20,000
 * characters of vite's output otherwise.
 */
export function buildConsole(root: string, options: Parameters<typeof spawnConsoleBuild>[1] = {}): Promise<void> {
  const child = spawnConsoleBuild(root, options);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code, signal) => (code === 0 ? done() : fail(new Error(`vite build failed (${signal ?? `exit ${code}`}):\n${output}`))));
  });
}

/** What the console build depends on, relative to the project folder. */
export const BUILD_SOURCES = ['src/console', 'src/shared', 'locales', 'schemas', 'menus', 'vite.config.ts', 'scripts/lib/console-chunks.ts', 'scripts/lib/catalogue-parts.ts', 'index.html'];

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

/** The stamp of the build in `consoleDir`, or null when it has none (or an unreadable one). */
export async function readBuildStamp(consoleDir: string): Promise<BuildStamp | null> {
  try {
    const stamp = JSON.parse(await readFile(join(consoleDir, BUILD_STAMP), 'utf8')) as Partial<BuildStamp>;
    return typeof stamp.production === 'boolean' ? { production: stamp.production, mode: String(stamp.mode ?? '') } : null;
  } catch {
    return null;
  }
}

/**
 * Why the build in `consoleDir` needs making again ('no build yet', 'a development build', 'src/console
 * changed', …), or null when it is a production build newer than every file of BUILD_SOURCES under `root`.
 */
export async function staleBuildReason(root: string, consoleDir: string): Promise<string | null> {
  const built = await newest(join(consoleDir, 'index.html'));
  if (built === 0) return 'no build yet';
  const stamp = await readBuildStamp(consoleDir);
  if (!stamp) return 'the build does not say how it was made';
  if (!stamp.production) return 'a development build (made with NODE_ENV other than production)';
  for (const source of BUILD_SOURCES) {
    if ((await newest(join(root, source))) > built) return `${source} changed`;
  }
  return null;
}
