/**
 * PGlite (PostgreSQL in WASM) as the default database (docs/architecture.md 'Storage'). PGlite allows one process
 * per directory, so the directory is locked with proper-lockfile while it is open: a second process
 * fails at once with `DataDirLockedError`. Layout: `<dataDir>/pglite/` holds the database,
 * `<dataDir>/pglite.lock` the lock, `<dataDir>/pglite.owner` the process holding it.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import lockfile from 'proper-lockfile';
import type { Database, OpenOptions, Queryable } from './database';
import { readTemplate, saveTemplate } from './pglite-template';

/**
 * How long a lock without a refresh blocks the directory, in ms (proper-lockfile refreshes it every
 * half of that). A lock of a dead process of this machine is taken over at once (`lockDataDir`), so
 * this only matters for a holder on another machine, and must outlast a long stall of a live holder's
 * event loop (a heavy WASM query on a loaded machine).
 */
const LOCK_STALE_MS = 120_000;

/**
 * PostgreSQL settings of PGlite beyond its own defaults. Its page cache (shared_buffers, 128 MB by
 * default) lives in the server's process: 64 MB keeps the server's memory within its budgets (a 10 MB
 * CSV import grows its RSS by at most 100 MB, README 'Other commands'); pages beyond it are read
 * back from the data directory (the operating system's file cache).
 */
export const PGLITE_SETTINGS = ['-c', 'shared_buffers=64MB'];

/** Thrown when another process holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(dir: string, lockPath: string) {
    super(
      `The data directory ${dir} is in use by another server process (lock ${lockPath}). ` +
        'Stop that process or set DATA_DIR to another directory. ' +
        `A lock left by a process of this machine that no longer runs is taken over at once; one of another machine goes stale within ${LOCK_STALE_MS / 1000} s.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** A statement that only reads (SELECT: none of ours calls a function that writes). */
const READS = /^\s*select\b/i;
/** A statement whose count of changed rows tells whether it wrote. */
const ROW_WRITE = /^\s*(insert|update|delete)\b/i;

/** Whether a statement ended with `affectedRows` may have changed data (Database.writeVersion). */
function mayHaveWritten(sql: string, affectedRows: number | undefined): boolean {
  if (READS.test(sql)) return false;
  return ROW_WRITE.test(sql) ? (affectedRows ?? 1) > 0 : true;
}

/** The Queryable of `target`; `wrote` is called after each statement that may have changed data. */
function wrap(target: PGlite | Transaction, wrote: () => void = () => undefined): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
      const result = await target.query<T>(sql, params as unknown[] | undefined);
      if (mayHaveWritten(sql, result.affectedRows)) wrote();
      return result.rows;
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
      wrote();
    },
  };
}

/** Whether process `pid` of this machine runs (a signal 0 reaches it, or it is another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of `dir` (created when missing) and writes its owner (`<dir>/pglite.owner`: pid and
 * host). Resolves to its release function. A lock whose owner was a process of this machine that no
 * longer runs (killed, crashed) is taken over at once, so a restart after `kill -9` needs no hand
 * and no wait; a lock of a live process, or of another machine (a shared volume), is refused until
 * proper-lockfile finds it stale (`LOCK_STALE_MS` without a refresh).
 * Errors: `DataDirLockedError`; file system errors.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true });
  const lockPath = join(dir, 'pglite.lock');
  const ownerPath = join(dir, 'pglite.owner');
  const take = () =>
    lockfile.lock(dir, {
      lockfilePath: lockPath,
      stale: LOCK_STALE_MS,
      retries: 0,
      realpath: false,
      // A blocked event loop (a long WASM query) can make the lock look stale to proper-lockfile;
      // the default reaction throws from a timer and kills the server. Warn instead.
      onCompromised: (err) => console.warn(`warning: data directory lock compromised: ${err.message}`),
    });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    const owner = await readFile(ownerPath, 'utf8').then((t) => JSON.parse(t) as { pid?: number; host?: string }, () => null);
    const dead = owner !== null && owner.host === hostname() && typeof owner.pid === 'number' && owner.pid !== process.pid && !alive(owner.pid);
    if (!dead) throw new DataDirLockedError(dir, lockPath);
    console.warn(`data directory ${dir}: the lock of process ${owner!.pid}, which no longer runs, is taken over`);
    await rm(lockPath, { recursive: true, force: true });
    try {
      release = await take();
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dir, lockPath);
      throw again;
    }
  }
  await writeFile(ownerPath, JSON.stringify({ pid: process.pid, host: hostname() }));
  return async () => {
    await rm(ownerPath, { force: true });
    await release();
  };
}

/**
 * Opens PGlite in `dataDir` (locked, see above) or in memory for `memory://`.
 * A new directory starts from the machine's empty-cluster template (`options.template`, else the one
 * of ./pglite-template.ts) in about a second; without one it runs initdb (about 4 to 10 s) and keeps
 * the fresh cluster as the template for the next new directory. An existing directory opens in about 1 s.
 * Errors: `DataDirLockedError`; PGlite start errors (the lock is released first).
 */
export async function openPglite(dataDir: string, options: OpenOptions = {}): Promise<Database> {
  const memory = dataDir === 'memory://';
  const release = memory ? null : await lockDataDir(dataDir);
  let pg: PGlite;
  try {
    const pgDir = memory ? undefined : join(dataDir, 'pglite');
    const fresh = !pgDir || !existsSync(join(pgDir, 'PG_VERSION'));
    const template = fresh ? (options.template ?? (await readTemplate())) : undefined;
    pg = await PGlite.create({ dataDir: pgDir, loadDataDir: template, extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
    if (fresh && !template) await saveTemplate(pg);
  } catch (err) {
    await release?.();
    throw err;
  }

  let closing: Promise<void> | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    void db.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  // Database.writeVersion: grows after each statement or transaction that may have written, once it ended.
  let version = 0;
  const wrote = () => void version++;
  const db: Database = {
    kind: 'pglite',
    ...wrap(pg, wrote),
    transaction: async (fn) => {
      try {
        return await pg.transaction((tx) => fn(wrap(tx)));
      } finally {
        wrote();
      }
    },
    writeVersion: () => version,
    listen: async (channel, handler) => {
      const unlisten = await pg.listen(channel, handler);
      return () => unlisten();
    },
    // One process, no connection to lose.
    onListenRestored: () => () => undefined,
    dumpDataDir: async () => (await pg.dumpDataDir('gzip')) as Blob,
    close() {
      closing ??= (async () => {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        try {
          if (!memory) await pg.exec('CHECKPOINT');
        } finally {
          await pg.close();
          await release?.();
        }
      })();
      return closing;
    },
  };
  if (options.handleSignals !== false) {
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return db;
}
