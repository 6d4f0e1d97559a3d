/**
 * The server as `npm start` runs it, in a child process of a bench (src/server/main.ts through tsx),
 * so its memory and its death are its own: started on a free port of 127.0.0.1 without the console
 * build, stopped with SIGTERM (SIGKILL after 15 s) or killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Starts src/server/main.ts with `env` on a free port; resolves once it serves, to its URL and process.
 * `nodeArgs` go to node before the script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export async function startServer(root: string, env: Record<string, string>, nodeArgs: readonly string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(root, 'src/server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOGIN_RATE_LIMIT: '0',
      NODE_ENV: 'development',
      CONSOLE_DIR: join(tmpdir(), 'city-console-no-console'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (d: Buffer) => {
      output += d.toString();
      const m = /API and console: (http:\/\/\S+)/.exec(output);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output.slice(-2000)}`)));
  });
  return { url, child };
}

/** Stops the server with SIGTERM (its graceful close), SIGKILL when it has not exited after 15 s. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Signs in through the API; resolves to the `Authorization` header of the session. */
export async function bearerOf(url: string, username: string, password = 'demo1234'): Promise<Record<string, string>> {
  const login = await fetch(`${url}/default/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (!login.ok) throw new Error(`login ${username}: ${login.status} ${await login.text()}`);
  return { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
}

/** RSS (VmRSS) and peak RSS (VmHWM) of a process, bytes; null off Linux. */
export function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** The processes `pid` started that still run, and theirs (Linux: /proc/<pid>/task/<tid>/children); [] elsewhere. */
export function descendantsOf(pid: number): number[] {
  let children: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      children.push(...readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    }
  } catch {
    children = [];
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}
