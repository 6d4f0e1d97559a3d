// PGlite allows one process per data directory (docs/architecture.md 'Storage'): a second process is refused
// with a clear message while the first holds it, and may open it once the first has closed, or at once
// when the first was killed (kill -9 leaves its lock behind).
import { spawn, spawnSync } from 'node:child_process';
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
  }, 120_000);

  it('takes over at once the lock of a process killed with SIGKILL, with every committed row', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pglite-lock-'));
    dirs.push(dir);
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir, 'hold'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('holding') && resolve());
      child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    const started = Date.now();
    const db = await openPglite(dir, { handleSignals: false });
    try {
      // Well before the 20 s after which proper-lockfile would call the lock stale.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(await db.query('SELECT v FROM held')).toEqual([{ v: 'committed before the kill' }]);
      // A live holder is still refused.
      expect(openInChild(dir).status).toBe(3);
    } finally {
      await db.close();
    }
  }, 120_000);
});
