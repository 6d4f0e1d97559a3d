// Changing an entity (docs/architecture.md 'Changing an entity'): for each kind of change, rows stored
// under the old schema are found by the check (`npm run check:data`), counted by the migration's dry
// run, and fixed by the migration; migrations are applied once, in order, each in its own transaction,
// recorded with their counts; a failing one stops the start naming it and changes nothing.
// PGlite, and PostgreSQL with DATABASE_URL (scripts/test.sh).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry, type ResourceDef, type ResourceSchema } from '../../../src/shared/registry';
import type { Database } from '../../../src/server/db/database';
import { prepareDatabase } from '../../../src/server/db/prepare';
import { ensureResourceTables } from '../../../src/server/db/resource-tables';
import { createRecords } from '../../../src/server/repositories/resource-repository';
import { checkData, checkResource, reportLines } from '../../../src/server/data-check/check-rows';
import { defineDataMigration, jsonMigration, type DataMigration } from '../../../src/server/data-check/declared';
import { loadDataMigrations } from '../../../src/server/data-check/load-migrations';
import { appliedDataMigrations, DataMigrationError, runDataMigrations } from '../../../src/server/data-check/migration-runner';
import { openTestDatabase, type TestDatabase } from './helpers';

const STAFF = ['Administrator', 'Operator'] as const;
const id = { type: 'integer', readOnly: true, title: 'fields.id' };
const created = { type: 'string', format: 'date-time', readOnly: true, title: 'fields.created_at' };

function schema(name: string, properties: Record<string, unknown>, required: string[]): ResourceSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: name,
    title: name,
    type: 'object',
    additionalProperties: false,
    required,
    properties: { id, created_at: created, ...properties } as ResourceSchema['properties'],
    'x-resource': {
      name,
      label: `resources.${name}`,
      idField: 'id',
      createdField: 'created_at',
      permissions: { read: ['*'], create: [...STAFF], update: [...STAFF], delete: [...STAFF] },
      api: {
        list: { method: 'GET', path: `/{city}/api/${name}/` },
        create: { method: 'POST', path: `/{city}/api/${name}/` },
        show: { method: 'GET', path: `/{city}/api/${name}/{id}/` },
        update: { method: 'PUT', path: `/{city}/api/${name}/{id}/` },
        delete: { method: 'DELETE', path: `/{city}/api/${name}/{id}/` },
      },
    },
  } as ResourceSchema;
}

const text = (maxLength = 64) => ({ type: 'string', minLength: 1, maxLength, title: 'fields.name' });

/** One kind of schema change: the schema before and after, rows stored before, the migration, what the check says. */
interface Kind {
  kind: string;
  before: ResourceSchema;
  after: ResourceSchema;
  rows: Array<Record<string, unknown>>;
  migration: DataMigration;
  /** The field and rule the check names for an old row. */
  field: string;
  rule: string;
  /** How many of `rows` fail after the change. */
  failing: number;
  /** The first row after the migration. */
  fixed: Record<string, unknown>;
}

const KINDS: Kind[] = [
  {
    kind: 'a field renamed',
    before: schema('dm_rename', { name: text(), label: text() }, ['name', 'label']),
    after: schema('dm_rename', { name: text(), caption: text() }, ['name', 'caption']),
    rows: [{ name: '本町店', label: '駅前' }, { name: '北店', label: '北口' }],
    migration: jsonMigration('001-rename-label', { resource: 'dm_rename', steps: [{ rename: 'label', to: 'caption' }] }),
    field: 'caption',
    rule: 'required',
    failing: 2,
    fixed: { name: '本町店', caption: '駅前' },
  },
  {
    kind: 'a new required field',
    before: schema('dm_default', { name: text() }, ['name']),
    after: schema('dm_default', { name: text(), category: { type: 'string', enum: ['食べる', '遊ぶ'], title: 'fields.category' } }, ['name', 'category']),
    rows: [{ name: 'パン屋' }, { name: '公園' }],
    migration: jsonMigration('002-default-category', { resource: 'dm_default', steps: [{ default: 'category', value: '食べる' }] }),
    field: 'category',
    rule: 'required',
    failing: 2,
    fixed: { name: 'パン屋', category: '食べる' },
  },
  {
    kind: 'a type narrowed',
    before: schema('dm_convert', { name: text(), capacity: { type: 'string', title: 'fields.capacity' } }, ['name']),
    after: schema('dm_convert', { name: text(), capacity: { type: 'integer', minimum: 0, title: 'fields.capacity' } }, ['name']),
    rows: [{ name: '第1駐車場', capacity: '120' }, { name: '第2駐車場', capacity: ' 80 ' }],
    migration: jsonMigration('003-capacity-integer', { resource: 'dm_convert', steps: [{ convert: 'capacity', to: 'integer' }] }),
    field: 'capacity',
    rule: 'type',
    failing: 2,
    fixed: { name: '第1駐車場', capacity: 120 },
  },
  {
    kind: 'a value moved into a nested field',
    before: schema('dm_move', { name: text(), lat: { type: 'number', title: 'fields.lat' } }, ['name']),
    after: schema(
      'dm_move',
      { name: text(), location: { type: 'object', title: 'fields.location', additionalProperties: false, properties: { lat: { type: 'number', minimum: -85, maximum: 85, title: 'fields.lat' } } } },
      ['name'],
    ),
    rows: [{ name: '市役所', lat: 34.69 }, { name: '図書館' }],
    migration: jsonMigration('004-move-lat', { resource: 'dm_move', steps: [{ move: 'lat', to: 'location.lat' }] }),
    field: 'lat',
    rule: 'additionalProperties',
    failing: 1,
    fixed: { name: '市役所', location: { lat: 34.69 } },
  },
  {
    kind: 'a field dropped',
    before: schema('dm_drop', { name: text(), fax: { type: 'string', title: 'fields.fax' } }, ['name']),
    after: schema('dm_drop', { name: text() }, ['name']),
    rows: [{ name: '観光案内所', fax: '078-000-0000' }, { name: '港' }],
    migration: jsonMigration('005-drop-fax', { resource: 'dm_drop', steps: [{ drop: 'fax' }] }),
    field: 'fax',
    rule: 'additionalProperties',
    failing: 1,
    fixed: { name: '観光案内所' },
  },
  {
    kind: 'a tighter maxLength (a .ts migration)',
    before: schema('dm_narrow', { name: text(64) }, ['name']),
    after: schema('dm_narrow', { name: text(10) }, ['name']),
    rows: [{ name: 'とても長い名前のお店の本町通り支店' }, { name: '短い名前' }],
    migration: {
      name: '006-shorten-name',
      ...defineDataMigration({
        resource: 'dm_narrow',
        description: 'names of at most 10 characters',
        up(data) {
          if (typeof data.name === 'string' && [...data.name].length > 10) data.name = [...data.name].slice(0, 10).join('');
          return data;
        },
      }),
    },
    field: 'name',
    rule: 'maxLength',
    failing: 1,
    fixed: { name: 'とても長い名前のお店' },
  },
];

const before = buildRegistry(KINDS.map((k) => k.before));
const after = buildRegistry(KINDS.map((k) => k.after));
const migrations = KINDS.map((k) => k.migration);

let t: TestDatabase;
let db: Database;
const ids = new Map<string, number[]>();

async function dataOf(def: ResourceDef, rowId: number): Promise<Record<string, unknown>> {
  const [row] = await db.query<{ data: Record<string, unknown> }>(`SELECT data FROM r_${def.name} WHERE id = $1`, [rowId]);
  return row.data;
}

beforeAll(async () => {
  t = await openTestDatabase();
  db = t.db;
  // Rows stored under the old schemas, through the repository (validated then).
  await prepareDatabase(db, { demo: false, resources: before, dataMigrations: [] });
  for (const k of KINDS) ids.set(k.kind, await createRecords(db, before.get(k.before['x-resource'].name)!, 'kobe', k.rows, { userId: null }));
  // The new schemas: their tables exist (same names), their rules are now the new ones.
  await ensureResourceTables(db, after.values());
});
afterAll(async () => {
  await t?.cleanup();
});

describe('changing an entity', () => {
  it('the old rows pass the old schemas', async () => {
    const checks = await checkData(db, { resources: before.values() });
    expect(checks.map((c) => [c.resource, c.failing])).toEqual(KINDS.map((k) => [k.before['x-resource'].name, 0]));
  });

  it.each(KINDS)('$kind: check:data finds the old row and names its field and rule', async (k) => {
    const def = after.get(k.after['x-resource'].name)!;
    const check = await checkResource(db, def);
    expect(check.checked).toBe(k.rows.length);
    expect(check.failing).toBe(k.failing);
    const first = ids.get(k.kind)![0];
    expect(check.failures).toContainEqual(expect.objectContaining({ resource: def.name, id: first, city: 'kobe', field: k.field, rule: k.rule }));
    expect(reportLines([check])).toContain(`check:data:   ${def.name} ${first} kobe ${k.field} ${k.rule}`);
  });

  it('a sample of a large table estimates the failing rows and says so', async () => {
    const def = after.get('dm_rename')!;
    const check = await checkResource(db, def, { sample: 1 });
    expect(check).toMatchObject({ sampled: true, total: 2, checked: 1, failing: 2 });
  });

  it('the dry run counts what each migration would change and writes nothing', async () => {
    const reports = await runDataMigrations(db, migrations, { resources: after, dryRun: true });
    expect(reports.map((r) => [r.name, r.rows, r.changed, r.failingAfter])).toEqual(KINDS.map((k) => [k.migration.name, k.rows.length, k.failing, 0]));
    expect(reports[0].examples[0]).toEqual({ id: ids.get(KINDS[0].kind)![0], city: 'kobe', before: { label: '駅前' }, after: { caption: '駅前' } });
    expect(await appliedDataMigrations(db)).toEqual([]);
    const def = after.get('dm_rename')!;
    expect(await dataOf(def, ids.get(KINDS[0].kind)![0])).toEqual({ name: '本町店', label: '駅前' });
  });

  it('a failing migration stops, names itself and changes nothing; those before it stay applied', async () => {
    const broken: DataMigration = {
      name: '000-broken',
      resource: 'dm_rename',
      up(data, row) {
        if (row.id === ids.get(KINDS[0].kind)![1]) throw new Error('no caption for this one');
        return { ...data, caption: 'x' };
      },
    };
    const ok: DataMigration = { name: '000-aaa-noop', resource: 'dm_drop', up: () => undefined };
    const err = await runDataMigrations(db, [broken, ok], { resources: after }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataMigrationError);
    expect((err as Error).message).toMatch(/^data migration 000-broken failed: row \d+ \(kobe\): no caption for this one$/);
    // The start stops with it too.
    await expect(prepareDatabase(db, { demo: false, resources: after, dataMigrations: [broken] })).rejects.toThrow(/data migration 000-broken failed/);
    expect((await appliedDataMigrations(db)).map((m) => m.name)).toEqual(['000-aaa-noop']);
    expect(await dataOf(after.get('dm_rename')!, ids.get(KINDS[0].kind)![0])).toEqual({ name: '本町店', label: '駅前' });
  });

  it.each(KINDS)('$kind: the migration fixes the old rows', async (k) => {
    const def = after.get(k.after['x-resource'].name)!;
    const [report] = await runDataMigrations(db, [k.migration], { resources: after });
    expect(report).toMatchObject({ name: k.migration.name, rows: k.rows.length, changed: k.failing, failingAfter: 0 });
    expect(await dataOf(def, ids.get(k.kind)![0])).toEqual(k.fixed);
    expect((await checkResource(db, def)).failing).toBe(0);
    const [{ version }] = await db.query<{ version: number }>(`SELECT version FROM r_${def.name} WHERE id = $1`, [ids.get(k.kind)![0]]);
    expect(version).toBe(2);
  });

  it('each migration is recorded with its counts and applied once', async () => {
    const applied = await appliedDataMigrations(db);
    expect(applied.map((m) => [m.name, m.resource, Number(m.rows_read), Number(m.rows_changed), Number(m.failing_after)])).toEqual([
      ['000-aaa-noop', 'dm_drop', 2, 0, 0],
      ...KINDS.map((k) => [k.migration.name, k.migration.resource, k.rows.length, k.failing, 0]),
    ]);
    expect(applied.every((m) => m.applied_at instanceof Date)).toBe(true);
    expect(await runDataMigrations(db, migrations, { resources: after })).toEqual([]);
    const audit = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM r_audit_log WHERE data->>'action' = 'data_migration'`);
    expect(audit[0].n).toBe(KINDS.length + 1);
    // Every row a migration changed kept a revision of it, by the server.
    const revisions = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM revisions WHERE operation = 'migration' AND user_id IS NULL`);
    expect(revisions[0].n).toBe(KINDS.reduce((n, k) => n + k.failing, 0));
    // Every row of every resource passes its schema now.
    const checks = await checkData(db, { resources: after.values() });
    expect(reportLines(checks).at(-1)).toBe(`check:data: ${KINDS.reduce((n, k) => n + k.rows.length, 0)} rows of ${KINDS.length} resources: all good`);
  });
});

describe('migration files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'data-migrations-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads NNN-name.ts and NNN-name.json in name order and leaves other files alone', async () => {
    await writeFile(join(dir, '002-default.json'), JSON.stringify({ resource: 'dm_default', steps: [{ default: 'category', value: '遊ぶ' }] }));
    await writeFile(
      join(dir, '001-shorten.ts'),
      `export default { resource: 'dm_narrow', description: 'short names', up(data: Record<string, unknown>) { return { ...data, name: String(data.name).slice(0, 3) }; } };\n`,
    );
    await writeFile(join(dir, 'README.md'), '# notes\n');
    const loaded = await loadDataMigrations(dir, after);
    expect(loaded.map((m) => [m.name, m.resource])).toEqual([
      ['001-shorten', 'dm_narrow'],
      ['002-default', 'dm_default'],
    ]);
    expect(loaded[0].up({ name: 'abcdef' }, { id: 1, city: 'kobe' })).toEqual({ name: 'abc' });
    expect(loaded[1].up({ name: 'x' }, { id: 1, city: 'kobe' })).toEqual({ name: 'x', category: '遊ぶ' });
  });

  it('refuses a JSON migration that is not one, and an unknown resource, naming the file', async () => {
    expect(() => jsonMigration('009-bad', { resource: 'dm_drop', steps: [{ rename: 'a' }] })).toThrow(/^migrations\/009-bad\.json: \/steps\/0 /);
    await writeFile(join(dir, '003-unknown.json'), JSON.stringify({ resource: 'no_such', steps: [{ drop: 'x' }] }));
    await expect(loadDataMigrations(dir, after)).rejects.toThrow("migrations/003-unknown.json: no resource 'no_such'");
  });

  it('converts only what it can convert without losing what it says', () => {
    const m = jsonMigration('010-convert', { resource: 'dm_convert', steps: [{ convert: 'n', to: 'integer' }, { convert: 'b', to: 'boolean' }, { convert: 'l', to: 'array' }] });
    expect(m.up({ n: '12.5', b: 'yes', l: 'a' }, { id: 1, city: 'kobe' })).toEqual({ n: '12.5', b: 'yes', l: ['a'] });
    expect(m.up({ n: '12', b: '0', l: null }, { id: 1, city: 'kobe' })).toEqual({ n: 12, b: false, l: [] });
  });

  it('the repository has no migration that does not load', async () => {
    await expect(loadDataMigrations()).resolves.toBeInstanceOf(Array);
  });
});
