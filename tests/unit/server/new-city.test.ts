/**
 * `npm run new-city` (000 6; README 'Adding a city'): the script writes a manifest extending the
 * default with the Japanese name and refuses bad input; at the next start the server makes the city's
 * row (keeping the others), the city is in GET /default/api/city/info/ (what the city page lists),
 * its API answers, and the console receives its manifest from GET /default/api/console/manifests
 * (no console build). A manifest that fails its checks stops the start, naming the file. Runs
 * against a temporary copy of menus/ (MENUS_DIR), on the real database of the server tests.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '../../../src/server/app';
import { prepareDatabase } from '../../../src/server/db/prepare';
import { ensureManifestCities } from '../../../src/server/seed';
import { loadManifests } from '../../../src/server/manifests';
import { manifestCities, menuFor } from '../../../src/shared/manifest';
import { bearer, login, openTestDatabase, testConfig } from './helpers';

const root = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const dir = await mkdtemp(join(tmpdir(), 'new-city-'));
await cp(join(root, 'menus'), dir, { recursive: true });
afterAll(() => rm(dir, { recursive: true, force: true }));

async function newCity(...args: string[]): Promise<{ code: number; out: string }> {
  return run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/new-city.ts'), ...args], { env: { ...process.env, MENUS_DIR: dir } }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}


describe('npm run new-city', () => {
  it('writes menus/<code>.json extending default with the Japanese name', async () => {
    const r = await newCity('hyogo', '--name-ja', '兵庫県');
    expect(r.code, r.out).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'hyogo.json'), 'utf8'))).toEqual({ $schema: '../schemas/meta/manifest.schema.json', name_ja: '兵庫県', extends: 'default' });
  });

  it('refuses an existing code, a bad or reserved code and a missing name, with a message', { timeout: 120_000 }, async () => {
    const cases: Array<[string[], string]> = [
      [['kobe', '--name-ja', '神戸'], "the city 'kobe' exists already"],
      [['Bad-Code', '--name-ja', '名前'], "'Bad-Code' is not a valid city code"],
      [['login', '--name-ja', '名前'], "'login' is an open route of the console"],
      [['terms', '--name-ja', '名前'], "'terms' is an open route of the console"],
      [['policy', '--name-ja', '名前'], "'policy' is an open route of the console"],
      [['openapi', '--name-ja', '名前'], "'openapi' is an open route of the console or a path of the server"],
      [['nara'], 'the Japanese name is missing'],
      [[], 'the city code is missing'],
    ];
    for (const [args, message] of cases) {
      const r = await newCity(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.out).toContain(message);
    }
    expect((await readdir(dir)).filter((f) => f.startsWith('nara') || f.startsWith('Bad'))).toEqual([]);
  });

  // Prepares a database with every table and the demo data: slow on a busy machine.
  it('the next start makes the row, keeps the others; the city is listed, answers and serves the default menu', { timeout: 180_000 }, async () => {
    const { db, cleanup } = await openTestDatabase();
    try {
      // First start with the project's manifests, then the next start sees the new one.
      await prepareDatabase(db, { demo: true });
      const before = await db.query<{ id: number; name: string }>('SELECT id, name FROM cities ORDER BY id');
      expect(before.map((c) => c.name)).not.toContain('hyogo');
      expect(before.map((c) => c.name).sort()).toEqual(manifestCities().map((c) => c.name).sort());
      const all = loadManifests(dir);
      await prepareDatabase(db, { demo: true, manifests: all });
      expect(await ensureManifestCities(db, all)).toEqual([]);
      const after = await db.query<{ id: number; name: string }>('SELECT id, name FROM cities ORDER BY id');
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.slice(before.length).map((c) => c.name)).toEqual(['hyogo']);

      const app = await buildApp({ db, config: testConfig(), manifests: all });
      await app.ready();
      try {
        const admin = await login(app, 'administrator');
        const info = await app.inject({ method: 'GET', url: '/default/api/city/info/', headers: bearer(admin) });
        expect(info.statusCode).toBe(200);
        expect(info.json().content).toContainEqual({ id: after.at(-1)!.id, name: 'hyogo', name_ja: '兵庫県' });
        const account = await app.inject({ method: 'GET', url: '/default/api/users/account', headers: bearer(admin) });
        expect(account.json().active_city.map((c: { name: string }) => c.name)).toContain('hyogo');
        const news = await app.inject({ method: 'GET', url: '/hyogo/api/city/admin-news/', headers: bearer(admin) });
        expect(news.statusCode, news.body).toBe(200);
        expect(news.json().content).toEqual([]);
        // The console's menus come from the server: the new city's manifest, then a 304 for the same ETag.
        const served = await app.inject({ method: 'GET', url: '/default/api/console/manifests' });
        expect(served.statusCode).toBe(200);
        expect(served.headers['cache-control']).toBe('no-cache');
        expect(served.json().hyogo).toEqual({ $schema: '../schemas/meta/manifest.schema.json', name_ja: '兵庫県', extends: 'default' });
        const again = await app.inject({ method: 'GET', url: '/default/api/console/manifests', headers: { 'if-none-match': String(served.headers.etag) } });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');
      } finally {
        await app.close();
      }
    } finally {
      await cleanup();
    }
    const all = loadManifests(dir);
    expect(menuFor('Administrator', 'hyogo', all).length).toBeGreaterThan(10);
    expect(menuFor('Administrator', 'hyogo', all)).toEqual(menuFor('Administrator', 'default', all));
    expect(menuFor('Advertiser', 'hyogo', all)).toEqual(menuFor('Advertiser', 'default', all));
  });

  it('refuses to start on a manifest that fails its checks, naming the file', async () => {
    const bad = await mkdtemp(join(tmpdir(), 'bad-menus-'));
    try {
      await cp(join(root, 'menus'), bad, { recursive: true });
      await writeFile(join(bad, 'nara.json'), JSON.stringify({ name_ja: '奈良市', extends: 'nowhere', colour: 'red' }));
      expect(() => loadManifests(bad)).toThrow(/menus\/nara\.json: \/ must NOT have additional properties.*menus\/nara\.json: menus: unknown manifest 'nowhere'/);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});
