// Backups (src/server/backup.ts, README 'Backups'): the database and the uploaded files in one
// archive and back, on PGlite (its own dump of the data directory) or on PostgreSQL (pg_dump and
// pg_restore of Debian's PostgreSQL) as DATABASE_URL says.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { backup, BackupError, restore } from '../../../src/server/backup';
import type { Config } from '../../../src/server/config';
import type { Database } from '../../../src/server/db/database';
import { DataDirLockedError, openPglite } from '../../../src/server/db/pglite';
import { openPostgres } from '../../../src/server/db/postgres';
import { prepareDatabase } from '../../../src/server/db/prepare';
import { bearer, login, testConfig } from './helpers';

const url = process.env.DATABASE_URL;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
let work: string;
const schema = `backup_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

function configOf(dataDir: string): Config {
  return testConfig({ DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : {}) });
}

async function open(config: Config): Promise<Database> {
  return url ? openPostgres(url, { schema }) : openPglite(config.dataDir, { handleSignals: false });
}

async function dropSchema(): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'backup-test-'));
});
afterAll(async () => {
  if (url) await dropSchema();
  await rm(work, { recursive: true, force: true });
});

describe(`backup and restore (${url ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('brings back the rows and the uploaded files; a restore over a database needs --force on PGlite', async () => {
    const source = configOf(join(work, 'source'));
    let db = await open(source);
    await prepareDatabase(db, { demo: true });
    let app = await buildApp({ db, config: source });
    await app.ready();
    const admin = bearer(await login(app, 'administrator'));
    const news = await app.inject({ method: 'POST', url: '/kobe/api/city/admin-news/', headers: admin, payload: { title: 'バックアップの記事', description: '本文' } });
    expect(news.statusCode, news.body).toBe(201);
    const file = await app.inject({ method: 'POST', url: '/kobe/api/files/?name=guide.pdf', headers: { ...admin, 'content-type': 'application/pdf' }, payload: PDF });
    expect(file.statusCode, file.body).toBe(201);
    const fileName = String(file.json().name);
    await app.close();
    await db.close();

    const archive = join(work, 'backup.tar.gz');
    expect(await backup(source, archive)).toMatchObject({ format: 'city-console-backup', database: url ? 'postgres' : 'pglite' });
    // What is lost after the backup: the database (PostgreSQL: its schema) and the files.
    const target = configOf(join(work, 'target'));
    if (url) await dropSchema();
    await restore(target, archive);

    db = await open(target);
    app = await buildApp({ db, config: target });
    await app.ready();
    try {
      const again = bearer(await login(app, 'administrator'));
      const read = await app.inject({ url: `/kobe/api/city/admin-news/${news.json().id}/`, headers: again });
      expect(read.json()).toMatchObject({ title: 'バックアップの記事' });
      expect(await readFile(join(target.dataDir, 'files', fileName))).toEqual(PDF);
      const served = await app.inject({ url: String(file.json().url), headers: again });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload).toEqual(PDF);
    } finally {
      await app.close();
      await db.close();
    }
    if (!url) {
      await expect(restore(target, archive)).rejects.toThrow(BackupError);
      await restore(target, archive, { force: true });
      expect((await readdir(target.dataDir)).some((n) => n.startsWith('pglite.before-restore-'))).toBe(true);
    }
  }, 240_000);

  it('refuses a file that is no backup, and on PGlite a data directory a server holds', async () => {
    const config = configOf(join(work, 'other'));
    const notBackup = join(work, 'not-backup.tar.gz');
    await writeFile(join(work, 'notes.txt'), 'not a backup');
    await create({ gzip: true, file: notBackup, cwd: work }, ['notes.txt']);
    await expect(restore(config, notBackup)).rejects.toThrow(/not a backup/);
    if (!url) {
      const held = await openPglite(join(work, 'held'), { handleSignals: false });
      try {
        await expect(backup(configOf(join(work, 'held')), join(work, 'held.tar.gz'))).rejects.toThrow(DataDirLockedError);
      } finally {
        await held.close();
      }
    }
  }, 120_000);
});
