// PGlite allows one process per data directory (docs/architecture.md 'Storage'): a second process is refused
// with a clear message while the first holds it, and may open it once the first has closed.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../../src/server/db/pglite';
import { pgliteTemplate } from '../../../src/server/db/pglite-template';

const fixture = fileURLToPath(new URL('./fixtures/open-data-dir.ts', import.meta.url));
const dirs: string[] = [];

function openInChild(dir: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', fixture, dir], { encoding: 'utf8', timeout: 60_000 });
}

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('PGlite data directory lock', () => {
  it('refuses a second process while the directory is open, and lets it in after close', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pglite-lock-'));
    dirs.push(dir);
    const db = await openPglite(dir, { template: await pgliteTemplate(), handleSignals: false });
    await db.exec('CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$あ$$)');
    const refused = openInChild(dir);
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain('is in use by another server process');
    await db.close();

    const opened = openInChild(dir);
    expect(opened.status, opened.stderr).toBe(0);
    expect(opened.stdout).toContain('opened');
    const again = await openPglite(dir, { handleSignals: false });
    expect(await again.query('SELECT v FROM kept')).toEqual([{ v: 'あ' }]);
    await again.close();
  });
});
