/**
 * Backups of a console's data (README 'Backups'): the database and the uploaded files in one
 * `.tar.gz`, and their restore. The archive holds
 * - `backup.json`: `{format: 'city-console-backup', version: 1, database: 'pglite' | 'postgres', created_at}`;
 * - `database/pglite.tar.gz`: PGlite's own dump of its data directory (`dumpDataDir`), or
 *   `database/postgres.dump`: `pg_dump --format=custom` of the database (of `DATABASE_SCHEMA` alone
 *   when set), by Debian's PostgreSQL client;
 * - `files/…`: `<DATA_DIR>/files/` as it was.
 * PGlite serves one process per data directory: a PGlite backup or restore needs the server stopped
 * (`DataDirLockedError` otherwise). A PostgreSQL backup runs beside a live server.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import * as tar from 'tar';
import type { Config } from './config';
import { lockDataDir, PGLITE_SETTINGS } from './db/pglite';
import { openPostgres } from './db/postgres';
import { enableTrigrams } from './db/resource-tables';

const execFileAsync = promisify(execFile);

/** Runs a PostgreSQL program; its failure is a `BackupError` with what it printed. */
async function run(program: string, args: string[]): Promise<void> {
  try {
    await execFileAsync(program, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const said = String((err as { stderr?: string }).stderr ?? '').trim().split('\n').slice(0, 6).join('\n');
    throw new BackupError(`${program.split('/').pop()} failed: ${said || (err as Error).message}`);
  }
}

/** What `backup.json` says. */
export interface BackupManifest {
  format: 'city-console-backup';
  version: 1;
  database: 'pglite' | 'postgres';
  created_at: string;
}

/** A refusal of a backup or restore, with the reason for the operator (no stack needed). */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** A program of Debian's newest PostgreSQL (`pg_dump`, `pg_restore`), else the one on the PATH. */
async function postgresTool(name: 'pg_dump' | 'pg_restore'): Promise<string> {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? (await readdir(root)).filter((v) => existsSync(join(root, v, 'bin', name))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], 'bin', name) : name;
}

/** `DATABASE_URL` with `DATABASE_SCHEMA` applied as the tools' options. */
function schemaArgs(config: Config): string[] {
  return config.databaseSchema ? ['--schema', config.databaseSchema] : [];
}

/**
 * Writes a backup of the database and the uploaded files of `config` to `file` (a `.tar.gz` path).
 * Resolves to the manifest. Errors: `DataDirLockedError` while a server holds a PGlite directory;
 * `BackupError` for a memory database; pg_dump's failure (its message) on PostgreSQL.
 */
export async function backup(config: Config, file: string): Promise<BackupManifest> {
  if (!config.databaseUrl && config.dataDir === 'memory://') throw new BackupError('an in-memory database cannot be backed up');
  const work = await mkdtemp(join(tmpdir(), 'city-console-backup-'));
  try {
    await mkdir(join(work, 'database'));
    const manifest: BackupManifest = { format: 'city-console-backup', version: 1, database: config.databaseUrl ? 'postgres' : 'pglite', created_at: new Date().toISOString() };
    if (config.databaseUrl) {
      await run(await postgresTool('pg_dump'), ['--format=custom', '--no-owner', '--no-privileges', ...schemaArgs(config), '--file', join(work, 'database', 'postgres.dump'), config.databaseUrl]);
    } else {
      const release = await lockDataDir(config.dataDir);
      try {
        const pg = await PGlite.create({ dataDir: join(config.dataDir, 'pglite'), extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
        try {
          const dump = await pg.dumpDataDir('gzip');
          await writeFile(join(work, 'database', 'pglite.tar.gz'), Buffer.from(await dump.arrayBuffer()));
        } finally {
          await pg.close();
        }
      } finally {
        await release();
      }
    }
    const files = join(config.dataDir, 'files');
    // With S3_BUCKET the uploads are in the bucket, kept by its own versioning (docs/deployment.md 'Backups').
    if (!config.s3 && config.dataDir !== 'memory://' && existsSync(files)) await cp(files, join(work, 'files'), { recursive: true });
    else await mkdir(join(work, 'files'));
    await writeFile(join(work, 'backup.json'), JSON.stringify(manifest, null, 2));
    await tar.create({ gzip: true, file, cwd: work, portable: true }, ['backup.json', 'database', 'files']);
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Restores `file` (made by `backup`) into the database and files of `config`. PGlite: the data
 * directory must hold no database unless `force` (then the old one is moved aside to
 * `<DATA_DIR>/pglite.before-restore-<time>`); PostgreSQL: the backup's objects replace those of the
 * same names (`pg_restore --clean --if-exists`). The files of the backup are copied over
 * `<DATA_DIR>/files/` (files it does not hold are kept). Resolves to the backup's manifest.
 * Errors: `BackupError` (not a backup, a database of the other kind, a database in the way);
 * `DataDirLockedError`; pg_restore's failure.
 */
export async function restore(config: Config, file: string, options: { force?: boolean } = {}): Promise<BackupManifest> {
  const work = await mkdtemp(join(tmpdir(), 'city-console-restore-'));
  try {
    await tar.extract({ file, cwd: work, strict: true });
    const manifest = JSON.parse(await readFile(join(work, 'backup.json'), 'utf8').catch(() => '{}')) as Partial<BackupManifest>;
    if (manifest.format !== 'city-console-backup') throw new BackupError(`${file} is not a backup of the city console`);
    const kind = config.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database !== kind) throw new BackupError(`${file} holds a ${manifest.database} database; this configuration uses ${kind}`);
    if (kind === 'postgres') {
      // The schema and pg_trgm first: a schema's dump (pg_dump --schema) holds neither.
      const db = await openPostgres(config.databaseUrl!, { schema: config.databaseSchema, max: 1 });
      try {
        await enableTrigrams(db);
      } finally {
        await db.close();
      }
      await run(await postgresTool('pg_restore'), ['--clean', '--if-exists', '--no-owner', '--no-privileges', ...schemaArgs(config), '--dbname', config.databaseUrl!, join(work, 'database', 'postgres.dump')]);
    } else {
      await mkdir(config.dataDir, { recursive: true });
      const release = await lockDataDir(config.dataDir);
      try {
        const pgDir = join(config.dataDir, 'pglite');
        if (existsSync(pgDir)) {
          if (!options.force) throw new BackupError(`${config.dataDir} holds a database already: restore into an empty DATA_DIR, or pass --force to move it aside`);
          await rename(pgDir, `${pgDir}.before-restore-${Date.now()}`);
        }
        const dump = new Blob([await readFile(join(work, 'database', 'pglite.tar.gz'))]);
        const pg = await PGlite.create({ dataDir: pgDir, loadDataDir: dump, extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
        await pg.exec('CHECKPOINT');
        await pg.close();
      } finally {
        await release();
      }
    }
    if (config.dataDir !== 'memory://') await cp(join(work, 'files'), join(config.dataDir, 'files'), { recursive: true });
    return manifest as BackupManifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
