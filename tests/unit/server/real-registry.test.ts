// The whole registry of schemas/ (whatever exists): a new database with every table prepares and the
// app builds in time, every call is routed and documented, every example is valid (001 7; docs/architecture.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleAllowed } from '../../../src/shared/ability';
import { registry, buildRegistry, type ResourceSchema } from '../../../src/shared/registry';
import { buildApp } from '../../../src/server/app';
import { prepareDatabase } from '../../../src/server/db/prepare';
import { tableName } from '../../../src/server/db/resource-tables';
import { checkExamples } from '../../../src/server/seed-examples';
import type { FastifyInstance } from 'fastify';
import { bearer, login, openTestDatabase, testConfig, type TestDatabase } from './helpers';
import { checkOpenApi } from './openapi-check';
import { TEST_SCHEMAS } from './fixtures/test-resources';

async function tables(db: TestDatabase['db']): Promise<Set<string>> {
  const rows = await db.query<{ name: string }>(
    "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = current_schema()",
  );
  return new Set(rows.map((r) => r.name));
}

describe('the real registry', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  let startMs = 0;

  beforeAll(async () => {
    t = await openTestDatabase();
    const started = performance.now();
    await prepareDatabase(t.db, { demo: true });
    app = await buildApp({ db: t.db, config: testConfig() });
    await app.ready();
    startMs = performance.now() - started;
    console.log(`real registry: ${registry.size} resources prepared (new database, seeded) and built in ${Math.round(startMs)} ms`);
  });
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
  });

  // Start time is a figure printed here and by scripts/start-time.ts, not an assertion (timed tests flake on a loaded machine).
  it('prepares a new database with a table per resource and builds the app', async () => {
    const names = await tables(t.db);
    for (const def of registry.values()) expect(names.has(tableName(def)), tableName(def)).toBe(true);
  });

  it('documents every call and action in a sound OpenAPI document', async () => {
    const doc = (await app.inject({ url: '/openapi.json' })).json();
    expect(checkOpenApi(doc, registry)).toEqual([]);
  });

  it('answers every list call of the registry to the Administrator in kobe (the Operator where the route is not the Administrator\'s, 000 6)', async () => {
    const admin = bearer(await login(app, 'administrator'));
    const operator = bearer(await login(app, 'operator'));
    const failures: string[] = [];
    for (const def of registry.values()) {
      const path = def.api.list.path.replaceAll('{city}', 'kobe');
      if (/\{/.test(path)) continue;
      const headers = roleAllowed(def.permissions.read, 'Administrator') ? admin : operator;
      const r = await app.inject({ url: path, headers });
      if (r.statusCode !== 200) failures.push(`${def.name}: GET ${path} → ${r.statusCode} ${r.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it('has only valid examples (the seed skips invalid ones)', () => {
    expect(checkExamples(registry)).toEqual([]);
  });
});

describe('start time with many resources', () => {
  it('prepares 60 resources with search, sort, filters and examples, and builds', async () => {
    const base = TEST_SCHEMAS.find((s) => s.$id === 't_ad')!;
    const schemas: ResourceSchema[] = Array.from({ length: 60 }, (_, i) => {
      const s = structuredClone(base);
      const name = `t_many_${i}`;
      s.$id = name;
      s['x-resource'].name = name;
      s['x-resource'].actions = [];
      for (const call of Object.values(s['x-resource'].api)) if (call) call.path = call.path.replace('t-ads', `t-many-${i}`);
      s.properties.genre['x-ref'] = name;
      s.examples = [{ name: `例${i}`, price: i, status: 'public' }, { name: `別の例${i}`, count: 2 }];
      s['x-seed-count'] = 20;
      return s;
    });
    const resources = buildRegistry(schemas);
    const t = await openTestDatabase();
    try {
      const started = performance.now();
      await prepareDatabase(t.db, { demo: true, resources });
      const app = await buildApp({ db: t.db, config: testConfig(), resources });
      await app.ready();
      const ms = performance.now() - started;
      console.log(`60 synthetic resources: prepared (new database, ${60 * 40} demo rows) and built in ${Math.round(ms)} ms`);
      await app.close();
      expect((await tables(t.db)).size).toBeGreaterThanOrEqual(60 + 7);
      const [{ n }] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM r_t_many_59 WHERE city = 'fukuoka'");
      expect(n).toBe(20);
    } finally {
      await t.cleanup();
    }
  });
});
