/**
 * The import as a durable job (001 7.16; src/server/import/import-job.ts, src/server/jobs/): a
 * cancel while it runs leaves no shop of it behind and ends it `cancelled`; after a kill of the
 * server (SIGKILL of a child process running src/server/main.ts) during an import, once a server
 * runs on the database again it undoes what the dead one wrote and imports the file again from its
 * first row: the entry ends `success` with every row stored once, never stuck in `processing`, with
 * the list counts right. On PGlite (the child's data directory, opened again
 * by the test) and on PostgreSQL with DATABASE_URL (the child works in the test's schema).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportState } from '../../../src/shared/csv-import';
import { buildApp } from '../../../src/server/app';
import type { Database } from '../../../src/server/db/database';
import { openPglite } from '../../../src/server/db/pglite';
import { prepareDatabase } from '../../../src/server/db/prepare';
import { bearer, createTestApp, login, openTestDatabase, testConfig, type TestApp } from './helpers';
import { csvText, encode, logOf, settled, shopRow, SHOP_HEADER, upload } from './import-helpers';

const fixture = fileURLToPath(new URL('./fixtures/import-server.ts', import.meta.url));

/** A Shift_JIS file of `n` shops named `<prefix> <i>`. */
function bigFile(prefix: string, n: number): Buffer {
  return encode(csvText([SHOP_HEADER, ...Array.from({ length: n }, (_, i) => shopRow(`${prefix} ${i + 1}`, { description: '説明'.repeat(20) }))]), 'shift_jis');
}

/** Whether the stored shops named `<prefix>%` number 0 and every list count of the ads equals its rows. */
async function clean(db: Database, prefix: string): Promise<{ left: number; counted: number; rows: number }> {
  const [{ n: left }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM r_advertisement WHERE data->>'name' LIKE $1`, [`${prefix}%`]);
  const [{ n: rows }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM r_advertisement WHERE city = 'kobe'`);
  const [{ n: counted }] = await db.query<{ n: number }>(`SELECT n::int AS n FROM resource_counts WHERE resource = 'advertisement' AND city = 'kobe'`);
  return { left: Number(left), counted: Number(counted), rows: Number(rows) };
}

describe('cancel', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('a cancel while the import runs undoes every batch written and ends it cancelled', async () => {
    const admin = bearer(await login(t.app, 'administrator'));
    const r = await upload(t.app, admin, 'cancel.csv', bigFile('中止する店', 20_000));
    expect(r.statusCode, r.body).toBe(202);
    const { id } = r.json() as ImportState;
    // Once a batch or more is written …
    await expect
      .poll(async () => ((await t.app.inject({ method: 'GET', url: `/kobe/api/import-csv/${id}/`, headers: admin })).json() as ImportState).done, {
        timeout: 30_000,
        interval: 20,
      })
      .toBeGreaterThan(0);
    const cancelled = await t.app.inject({ method: 'POST', url: `/kobe/api/import-csv/${id}/cancel`, headers: admin });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ id, status: 'cancelled', created: 0, updated: 0 });
    const after = await clean(t.db, '中止する店');
    expect(after.left).toBe(0);
    expect(after.counted).toBe(after.rows);
    expect((await logOf(t.app, admin, id)).at(-1)).toMatchObject({ level: 'info', message: 'インポートを中止し、書き込んだ内容をすべて元に戻しました。' });
    expect(await t.db.query('SELECT 1 FROM job_writes')).toEqual([]);
    // A cancel of an import that has ended changes nothing.
    expect((await t.app.inject({ method: 'POST', url: `/kobe/api/import-csv/${id}/cancel`, headers: admin })).json()).toMatchObject({ status: 'cancelled' });
  });
});

describe('a kill of the server during an import', () => {
  let dir: string | null = null;
  let child: ChildProcess | null = null;
  afterAll(async () => {
    child?.kill('SIGKILL');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is finished by the next server: every row stored once, the list counts right', { timeout: 180_000 }, async () => {
    const url = process.env.DATABASE_URL;
    const pg = url ? await openTestDatabase() : null;
    let schema = '';
    if (pg) schema = (await pg.db.query<{ s: string }>('SELECT current_schema() AS s'))[0].s;
    // The data directory: PGlite's database, and on both the file store the uploaded file waits in.
    dir = await mkdtemp(join(tmpdir(), 'import-kill-'));
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      CONSOLE_DIR: join(tmpdir(), 'city-console-no-console'),
      DATA_DIR: dir,
      ...(pg ? { DATABASE_SCHEMA: schema } : {}),
    };
    child = spawn(process.execPath, ['--import', 'tsx', fixture], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const base = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on('data', (d: Buffer) => {
        output += d.toString();
        const m = /listening (\S+)/.exec(output);
        if (m) resolve(m[1]);
      });
      child!.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
    });
    const session = (await (
      await fetch(`${base}/default/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'administrator', password: 'demo1234' }),
      })
    ).json()) as { token: string };
    const auth = { authorization: `Bearer ${session.token}` };
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bigFile('強制終了の店', 20_000))]), 'kill.csv');
    const started = await fetch(`${base}/kobe/api/import-csv/`, { method: 'POST', headers: auth, body: form });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as ImportState;
    for (;;) {
      const state = (await (await fetch(`${base}/kobe/api/import-csv/${id}/`, { headers: auth })).json()) as ImportState;
      expect(state.status).toBe('processing');
      if (state.done > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    child = null;

    // A server on the same database again: PGlite in the directory (the dead process's lock removed;
    // it would go stale by itself in 20 s), or the same PostgreSQL schema.
    let db: Database;
    if (pg) db = pg.db;
    else {
      await rm(join(dir!, 'pglite.lock'), { recursive: true, force: true });
      db = await openPglite(dir!, { handleSignals: false });
    }
    await prepareDatabase(db, { demo: true });
    const app = await buildApp({ db, config: testConfig({ DATA_DIR: dir }), jobs: { staleMs: 1000, pollMs: 200 } });
    await app.ready();
    try {
      const admin = bearer(await login(app, 'administrator'));
      const state = await settled(app, admin, id, 120_000);
      expect(state).toMatchObject({ status: 'success', created: 20_000, updated: 0, errors: 0, done: 20_000, total: 20_000 });
      const after = await clean(db, '強制終了の店');
      expect(after.left).toBe(20_000);
      const [{ names }] = await db.query<{ names: number }>(`SELECT count(DISTINCT data->>'name')::int AS names FROM r_advertisement WHERE data->>'name' LIKE '強制終了の店%'`);
      expect(Number(names)).toBe(20_000);
      expect(after.counted).toBe(after.rows);
      // The log says the import started again, then sums up the attempt that imported the file.
      const log = await logOf(app, admin, id);
      expect(log.map((l) => l.level)).toEqual(['info', 'info']);
      expect(log[0]).toMatchObject({ message: 'インポート中にサーバーが停止したため、書き込んだ内容をすべて元に戻し、最初の行からやり直します。' });
      expect(await db.query(`SELECT state, attempts FROM jobs WHERE kind = 'csv_import'`)).toEqual([{ state: 'succeeded', attempts: 2 }]);
      expect(await db.query('SELECT 1 FROM job_writes')).toEqual([]);
    } finally {
      await app.close();
      if (pg) await pg.cleanup();
      else await db.close();
    }
  });
});
