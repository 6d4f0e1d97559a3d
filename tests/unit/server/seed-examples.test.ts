// Demo rows from the schemas' examples (seed-examples.ts): cycling to x-seed-count with a suffix,
// kobe and fukuoka (global resources once), references as positions, dates kept in the future.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry, type ResourceDef } from '../../../src/shared/registry';
import { prepareDatabase } from '../../../src/server/db/prepare';
import { checkExamples, cycleExamples, DEMO_MIN_ROWS, labelField, shiftDates } from '../../../src/server/seed-examples';
import { openTestDatabase, type TestDatabase } from './helpers';
import { TEST_SCHEMAS } from './fixtures/test-resources';

function registry(): Map<string, ResourceDef> {
  const schemas = structuredClone(TEST_SCHEMAS);
  const find = (id: string) => schemas.find((s) => s.$id === id)!;
  find('t_ad').examples = [{ name: '喫茶ポート', price: 500, approved: true, genre: 2 }, { name: '=cmd', price: 1 }];
  find('t_ad')['x-seed-count'] = 3;
  find('t_coupon').examples = [{ title: '初回10%オフ', ad: 2 }, { title: '無効な例', ad: 1, used: 'many' }];
  find('t_mall').examples = [{ name: '三宮モール' }];
  find('t_coupon')['x-seed-count'] = 2;
  find('t_mall')['x-seed-count'] = 1;
  // Without a count of its own a resource gets at least DEMO_MIN_ROWS rows.
  delete find('t_pref')['x-seed-count'];
  find('t_setting').examples = [{ max_coupons: 999 }, { max_coupons: 10, tags: 'x' }];
  return buildRegistry(schemas);
}

let t: TestDatabase;
const resources = registry();

beforeAll(async () => {
  t = await openTestDatabase();
  await prepareDatabase(t.db, { demo: true, resources });
});
afterAll(async () => {
  await t?.cleanup();
});

async function rows(table: string, city: string): Promise<Array<{ id: number; data: Record<string, unknown> }>> {
  return t.db.query(`SELECT id, data FROM ${table} WHERE city = $1 ORDER BY id`, [city]);
}

describe('seeding examples on a new database', () => {
  it('cycles the examples up to x-seed-count per demo city, a suffix telling copies apart', async () => {
    for (const city of ['kobe', 'fukuoka']) {
      const names = (await rows('r_t_genre', city)).map((r) => r.data.name);
      expect(names).toEqual(['食べる', '遊ぶ', '食べる (2)', '遊ぶ (2)', '食べる (3)']);
    }
    expect(await rows('r_t_genre', 'akita')).toEqual([]);
    const [{ n }] = await t.db.query<{ n: number }>("SELECT n::int AS n FROM resource_counts WHERE resource = 't_genre' AND city = 'kobe'");
    expect(n).toBe(5);
  });

  it('stores global resources once, under *; without x-seed-count at least two pages, created one after another back from now', async () => {
    const prefs = await rows('r_t_pref', '*');
    expect(prefs.map((r) => r.data.name).slice(0, 3)).toEqual(['兵庫県', '福岡県', '兵庫県 (2)']);
    expect(prefs).toHaveLength(DEMO_MIN_ROWS);
    expect(await rows('r_t_pref', 'kobe')).toEqual([]);
    const times = await t.db.query<{ at: Date }>("SELECT created_at AS at FROM r_t_pref ORDER BY id");
    expect(times.every((r, i) => i === 0 || r.at < times[i - 1].at)).toBe(true);
    expect(Date.now() - times[0].at.getTime()).toBeLessThan(3_600_000);
  });

  it('turns x-ref positions into the ids of the same city (also to rows of the same resource)', async () => {
    for (const city of ['kobe', 'fukuoka']) {
      const genres = await rows('r_t_genre', city);
      expect(genres[1].data.parent_id).toBe(genres[0].id);
      expect(genres[3].data.parent_id).toBe(genres[0].id);
      const ads = await rows('r_t_ad', city);
      expect(ads.map((a) => a.data.genre)).toEqual([genres[1].id, undefined, genres[1].id]);
      const coupons = await rows('r_t_coupon', city);
      expect(coupons.map((c) => [c.data.title, c.data.ad])).toEqual([['初回10%オフ', ads[1].id]]);
    }
  });

  it('keeps server fields of the examples, stores the where values, takes a singleton\'s first valid example', async () => {
    const ads = await rows('r_t_ad', 'kobe');
    expect(ads.map((a) => a.data.approved)).toEqual([true, false, true]);
    expect(ads.map((a) => a.data.name)).toEqual(['喫茶ポート', '=cmd', '喫茶ポート (2)']);
    expect((await rows('r_t_mall', 'kobe')).map((r) => r.data)).toEqual([{ name: '三宮モール', type: 24 }]);
    const settings = await rows('r_t_setting', 'kobe');
    expect(settings.map((r) => r.data)).toEqual([{ max_coupons: 10, notice: '', tags: ['x'] }]);
  });

  it('reports the examples that break a rule', () => {
    expect(checkExamples(resources)).toEqual([
      expect.stringMatching(/^schemas\/t_setting\.schema\.json: examples\[0\]: max_coupons: /),
      expect.stringMatching(/^schemas\/t_coupon\.schema\.json: examples\[1\]: used: validation\.generic\.type/),
    ]);
  });
});

describe('example helpers', () => {
  const def = resources.get('t_ad')!;

  it('picks the first free-text field and keeps a suffix within its maxLength', () => {
    expect(labelField(def)).toBe('name');
    const long = cycleExamples(def, [{ name: 'あ'.repeat(64) }], 2);
    expect(long[1].name).toBe(`${'あ'.repeat(60)} (2)`);
    expect((long[1].name as string).length).toBe(64);
  });

  it('moves every date of an example whose future dates have passed by whole days', () => {
    const event = buildRegistry([
      {
        ...structuredClone(TEST_SCHEMAS[0]),
        $id: 't_event',
        properties: {
          id: { type: 'integer', readOnly: true, title: 'fields.id' },
          start: { type: 'string', format: 'date-time', 'x-future': true, title: 'fields.start' },
          end: { type: 'string', format: 'date-time', 'x-future': true, 'x-after': 'start', title: 'fields.end' },
          day: { type: 'string', format: 'date', title: 'fields.day' },
        },
        required: [],
        examples: [],
        'x-resource': { ...structuredClone(TEST_SCHEMAS[0]['x-resource']), name: 't_event', createdField: undefined, list: {} },
      },
    ]).get('t_event')!;
    const now = Date.parse('2030-06-15T00:00:00Z');
    const moved = shiftDates(event, { start: '2025-01-01T10:00:00Z', end: '2025-01-02T12:30:00Z', day: '2025-01-01' }, now);
    expect(Date.parse(moved.start as string)).toBeGreaterThan(now + 6 * 86_400_000);
    expect(Date.parse(moved.end as string) - Date.parse(moved.start as string)).toBe(26.5 * 3_600_000);
    expect((moved.start as string).slice(11)).toBe('10:00:00.000Z');
    expect(moved.day).toBe((moved.start as string).slice(0, 10));
    const future = { start: '2031-01-01T10:00:00Z', end: '2031-01-02T10:00:00Z' };
    expect(shiftDates(event, future, now)).toBe(future);
  });
});
