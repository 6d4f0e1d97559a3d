import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_STAMP, buildConsole, readBuildStamp, staleBuildReason } from '../../../scripts/lib/console-build';
import { createTestApp, type TestApp } from '../server/helpers';

const root = resolve(import.meta.dirname, '../../..');

/** Strings only React's and antd's development builds carry. */
const DEVELOPMENT_MARKERS = ['css-dev-only-do-not-override', 'Each child in a list should have a unique'];

// The console served by `npm start` is a production build whatever NODE_ENV the shell has
// (scripts/lib/console-build.ts): built here under NODE_ENV=development, then served by the server.
describe('the console build (scripts/lib/console-build.ts)', () => {
  let outDir: string;
  let t: TestApp;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'city-console-build-'));
    await buildConsole(root, { outDir, logLevel: 'error', env: { ...process.env, NODE_ENV: 'development' } });
    t = await createTestApp({ CONSOLE_DIR: outDir });
  }, 600_000);
  afterAll(async () => {
    await t?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('is a production build, stamped so, and current', async () => {
    expect(await readBuildStamp(outDir)).toEqual({ production: true, mode: 'production' });
    expect(await staleBuildReason(root, outDir)).toBeNull();
  });

  it('serves no development marker in any script', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    const scripts = (await readdir(join(outDir, 'assets'))).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(10);
    expect(page.body).toMatch(/<script[^>]+src="\/assets\/[^"]+\.js"/);
    for (const name of scripts) {
      const res = await t.app.inject({ method: 'GET', url: `/assets/${name}`, headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode, name).toBe(200);
      for (const marker of DEVELOPMENT_MARKERS) expect(res.body.includes(marker), `${name} holds '${marker}'`).toBe(false);
    }
  });

  // vite.config.ts `tableFilterWithoutTree`: antd's Table filter dropdown gets src/console/no-filter-tree.ts
  // instead of antd's Tree; 'draggable-icon' is a class name only antd's Tree and rc-tree write.
  it("leaves antd's Tree out: the table's filter dropdown has the stand-in", async () => {
    const bodies = await Promise.all(
      (await readdir(join(outDir, 'assets'))).filter((name) => name.endsWith('.js')).map(async (name) => (await readFile(join(outDir, 'assets', name), 'utf8')).toString()),
    );
    expect(bodies.filter((b) => b.includes('draggable-icon'))).toHaveLength(0);
    expect(bodies.filter((b) => b.includes("filterMode 'tree' is left out of the console build"))).toHaveLength(1);
  });

  it('calls a build made otherwise, or one without a stamp, stale', async () => {
    await writeFile(join(outDir, BUILD_STAMP), JSON.stringify({ production: false, mode: 'production' }));
    expect(await staleBuildReason(root, outDir)).toMatch(/development build/);
    await rm(join(outDir, BUILD_STAMP));
    expect(await staleBuildReason(root, outDir)).toMatch(/does not say how it was made/);
  });
});
