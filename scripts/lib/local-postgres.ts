/**
 * A throwaway PostgreSQL for `npm run bench`, started the way scripts/test.sh starts one: Debian's
 * postgresql (`/usr/lib/postgresql/<version>/bin`), a new cluster in a temporary folder with trust
 * authentication, listening on 127.0.0.1 at a free port (run as the `postgres` user when this runs as
 * root). Stopped and removed by `stop`.
 */
import pg from 'pg';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './console-server';

const run = promisify(execFile);

export interface LocalPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's bin folder, or null. */
async function pgBin(): Promise<string | null> {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = (await readdir(base)).filter((v) => existsSync(join(base, v, 'bin/initdb'))).sort((a, b) => Number(a) - Number(b));
  return versions.length > 0 ? join(base, versions[versions.length - 1], 'bin') : null;
}

/** Starts one (see the top of this file); resolves to null when PostgreSQL is not installed. Errors: initdb or pg_ctl failing. */
export async function startLocalPostgres(): Promise<LocalPostgres | null> {
  const bin = await pgBin();
  if (!bin) return null;
  const dir = await mkdtemp(join(tmpdir(), 'city-console-bench-pg-'));
  const root = process.getuid?.() === 0;
  const asPg = (cmd: string, args: string[]) => (root ? run('runuser', ['-u', 'postgres', '--', cmd, ...args]) : run(cmd, args));
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    await chown(dir, Number(stdout.trim()), -1);
  }
  const port = await freePort();
  await asPg(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres']);
  await asPg(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await asPg(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'fast', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Drops a bench's schema of `url` (and what is in it); a failure to reach the server is ignored. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client
    .connect()
    .then(() => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
    .finally(() => client.end())
    .catch(() => undefined);
}

/**
 * Runs `run` with the settings of a server on a fresh PGlite directory (label `PGlite`), then on
 * PostgreSQL (label `PostgreSQL`): DATABASE_URL, else a throwaway local cluster when postgresql is
 * installed, in a schema of its own (`<name>_<pid>`) with its own files folder. Everything made is
 * removed afterwards. Resolves to the rows of both runs in order; PostgreSQL is skipped (and said so)
 * when there is none.
 */
export async function onBothDatabases<R>(name: string, run: (label: 'PGlite' | 'PostgreSQL', env: Record<string, string>) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), `city-console-${name}-`));
  try {
    // DATABASE_URL emptied: a server child inherits this process's environment, which may name PostgreSQL.
    out.push(...(await run('PGlite', { DATABASE_URL: '', DATA_DIR: dataDir })));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const local = process.env.DATABASE_URL ? null : await startLocalPostgres().catch(() => null);
  const url = process.env.DATABASE_URL ?? local?.url;
  if (!url) {
    console.log('PostgreSQL: none (set DATABASE_URL or install postgresql)');
    return out;
  }
  const schema = `${name.replace(/\W/g, '_')}_${process.pid}`;
  const filesDir = await mkdtemp(join(tmpdir(), `city-console-${name}-files-`));
  try {
    out.push(...(await run('PostgreSQL', { DATABASE_URL: url, DATABASE_SCHEMA: schema, DATA_DIR: filesDir })));
  } finally {
    await dropSchema(url, schema);
    await local?.stop();
    await rm(filesDir, { recursive: true, force: true });
  }
  return out;
}
