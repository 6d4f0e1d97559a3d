// Demo data worth looking at (demo seed, src/server/seed.ts): every demo account gets rows from every
// list of its menu in its city, and the managers' lists of kobe and fukuoka hold at least two pages.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FILES_DIR, demoFileNames } from '../../../src/server/files/demo-files';
import { menuFor, type MenuEntry } from '../../../src/shared/manifest';
import { fillPath, getResource, registry } from '../../../src/shared/registry';
import type { Role } from '../../../src/shared/roles';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The generated lists of a menu: entries of a resource with a list call (no singleton, no path parameter but the city). */
function lists(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((e) => {
    const def = e.resource && registry.has(e.resource) ? getResource(e.resource) : null;
    const own = def && !def.singleton && /^\/\{city\}\/[^{}]*$/.test(def.api.list.path) ? [e] : [];
    return [...own, ...lists(e.children ?? [])];
  });
}

/** `resource n` of each list of the menu of `role` in `city` holding fewer than `least` rows for `username`. */
async function thinLists(username: string, role: Role, city: string, least: number): Promise<string[]> {
  const session = await login(t.app, username);
  const out: string[] = [];
  for (const e of lists(menuFor(role, city))) {
    const def = getResource(e.resource!);
    const res = await t.app.inject({ method: 'GET', url: `${fillPath(def.api.list.path, { city })}?limit=1&offset=0`, headers: bearer(session) });
    const n = res.statusCode === 200 ? Number(res.json().total_length ?? 0) : -res.statusCode;
    // A schema may say its set is smaller (x-seed-count: the seven work cities of the spec).
    if (n < Math.min(least, def.schema['x-seed-count'] ?? least)) out.push(`${e.key}(${def.name}) ${n}`);
  }
  return out;
}

describe('the demo accounts', () => {
  it.each([
    ['advertiser', 'Advertiser', 'kobe'],
    ['president', 'President', 'kobe'],
    ['teacher', 'Teacher', 'kobe'],
    ['captain', 'Captain', 'kobe'],
    ['police', 'Police', 'kobe'],
    ['member', 'Member', 'cippoweb'],
  ] as const)('%s (%s) gets rows from every list of its menu in %s', async (username, role, city) => {
    expect(await thinLists(username, role, city, 1)).toEqual([]);
  });

  it.each(['kobe', 'fukuoka'])('the Operator pages through every list of %s: at least 25 rows each', async (city) => {
    expect(await thinLists('operator', 'Operator', city, 25)).toEqual([]);
  });
});

describe('the demo pictures (demo-files/)', () => {
  /** Every `/files/…` value of every schema's examples, with where it is. */
  const named = [...registry.values()].flatMap((def) =>
    def.examples.flatMap((row) =>
      Object.entries(row).flatMap(([field, value]) =>
        [value]
          .flat()
          .filter((v): v is string => typeof v === 'string' && /^(?:\/files\/|https?:)/.test(v) && !!def.schema.properties[field]?.['x-upload'])
          .map((url) => ({ where: `${def.name}.${field}`, url })),
      ),
    ),
  );

  it('an example names a bundled file by its stored name (the MD5 of its bytes), never a foreign URL', async () => {
    const bundled = await demoFileNames();
    expect(named.length).toBeGreaterThan(20);
    for (const { where, url } of named) {
      expect(url, where).toMatch(/^\/files\//);
      const name = url.slice('/files/'.length);
      expect(bundled, where).toContain(name);
      expect(createHash('md5').update(readFileSync(join(DEMO_FILES_DIR, name))).digest('hex'), where).toBe(name.slice(0, 32));
    }
  });

  it('a demo event shows its picture from our server, and a new row may name it as an upload', async () => {
    const session = await login(t.app, 'operator');
    const events = await t.app.inject({ method: 'GET', url: '/kobe/api/events/?limit=20&offset=0', headers: bearer(session) });
    const image = (events.json().content as Array<{ image?: string }>).map((e) => e.image).find((i) => i?.startsWith('/files/'));
    expect(image).toBeDefined();
    const picture = await t.app.inject({ method: 'GET', url: image! });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    expect(picture.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const made = await t.app.inject({ method: 'POST', url: '/kobe/api/city/admin-news/', headers: bearer(session), payload: { title: 'デモ画像の記事', description: '本文', image } });
    expect(made.statusCode, made.body).toBe(201);
  });
});
