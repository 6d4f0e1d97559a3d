// The import files a crash can orphan (src/server/import/import-job.ts `removeOrphanImportFiles`, a
// chore of the hourly housekeeping, src/server/jobs/housekeeping.ts): an `import-<hex>.csv` of the
// file store that no queued or running import job names, and a copy in the import folder, are
// removed once older than an hour; younger ones and those a job still names are kept. On the local
// folder here, on a bucket of s3rver in ./import-orphans-s3.test.ts; on PGlite and PostgreSQL.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_JOB, ORPHAN_IMPORT_FILE_MS, removeOrphanImportFiles } from '../../../src/server/import/import-job';
import { keepHouse } from '../../../src/server/jobs/housekeeping';
import { createTestApp, type TestApp } from './helpers';
import { testFileStoreEnv } from './test-file-store';

let t: TestApp;
let dir: string;
let store: Awaited<ReturnType<typeof testFileStoreEnv>>;

beforeAll(async () => {
  store = await testFileStoreEnv();
  dir = await mkdtemp(join(tmpdir(), 'import-orphans-'));
  t = await createTestApp({ ...store.env, DATA_DIR: dir });
  expect(t.app.files.kind).toBe(store.kind);
  // The jobs below only name files: no runner may take them up (on PGlite it would, at once).
  await t.app.jobs.stop();
});
afterAll(async () => {
  await t?.close();
  await store?.stop();
  await rm(dir, { recursive: true, force: true });
});

const importName = () => `import-${randomBytes(16).toString('hex')}.csv`;
const folder = () => join(dir, 'imports');

async function storedImports(): Promise<string[]> {
  const names: string[] = [];
  for await (const f of t.app.files.imports()) names.push(f.name);
  return names.sort();
}

/** An import job naming stored file `stored`, in state `state` (never run: due in a day). */
async function jobNaming(stored: string, state: 'queued' | 'running' | 'failed'): Promise<void> {
  await t.db.query(
    `INSERT INTO jobs (kind, payload, state, run_at, worker) VALUES ($1, jsonb_build_object('stored', $2::text, 'import', 0), $3, now() + interval '1 day', 'another process')`,
    [IMPORT_JOB, stored, state],
  );
}

describe('orphaned import files', () => {
  it('are removed once an hour old unless a queued or running import job names them', async () => {
    const [orphan, queued, running, ended] = [importName(), importName(), importName(), importName()];
    for (const name of [orphan, queued, running, ended]) await t.app.files.put(name, Buffer.from('店舗名\n'));
    await jobNaming(queued, 'queued');
    await jobNaming(running, 'running');
    await jobNaming(ended, 'failed');
    await mkdir(folder(), { recursive: true });
    const copy = join(folder(), `${randomBytes(16).toString('hex')}.csv`);
    await writeFile(copy, '店舗名\n');
    // An uploaded image is no import file: never touched.
    const image = await t.app.files.save(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'png');

    // Just stored: all kept (an upload whose job is about to be committed looks the same).
    expect(await keepHouse(t.db, undefined, { chores: t.app.jobs.chores })).toMatchObject({ chores: { 'orphaned import files': 0 } });
    expect(await storedImports()).toEqual([orphan, queued, running, ended].sort());
    expect(await readdir(folder())).toEqual([copy.slice(folder().length + 1)]);

    // An hour later: the local folder's times are set back; a bucket's cannot be, so there the
    // files are removed as if the age were past (every file counts as old).
    const past = new Date(Date.now() - ORPHAN_IMPORT_FILE_MS - 60_000);
    await utimes(copy, past, past);
    let removed: number;
    const young = importName();
    if (store.kind === 'local') {
      for (const name of [orphan, queued, running, ended]) await utimes(join(dir, 'files', name), past, past);
      await t.app.files.put(young, Buffer.from('店舗名\n'));
      // Through the hourly run's chore, as the housekeeping job runs it.
      removed = (await keepHouse(t.db, undefined, { chores: t.app.jobs.chores })).chores['orphaned import files'];
    } else {
      await t.app.files.put(young, Buffer.from('店舗名\n'));
      await jobNaming(young, 'queued');
      removed = await removeOrphanImportFiles(t.db, { store: t.app.files, dir: folder() }, -60_000);
    }
    expect(removed).toBe(3);
    expect(await storedImports()).toEqual([queued, running, young].sort());
    expect(await readdir(folder())).toEqual([]);
    expect(await t.app.files.info(image)).not.toBeNull();
  });
});
