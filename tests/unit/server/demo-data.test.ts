// The demo data of the statistics (src/server/statistics/demo-data.ts): made once on a new database
// with the demo content, in kobe and fukuoka, 90 Tokyo days up to now, every row a valid record of
// its schema referring to rows of its city, busier on weekends, the same figures on every new
// database (setseed), the demo accounts linked to their shops and school; made by a job after the
// server's first start, a resource at a time; and how long it takes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registry } from '../../../src/shared/registry';
import { prepareDatabase } from '../../../src/server/db/prepare';
import { tableName } from '../../../src/server/db/resource-tables';
import { composeRecord } from '../../../src/server/repositories/resource-repository';
import { seedExamples } from '../../../src/server/seed-examples';
import { JobRunner } from '../../../src/server/jobs/job-runner';
import { DEMO_DAYS, DEMO_STATISTICS_JOB, demoStatisticsJob, seedDemoStatistics, type DemoStatisticsReport } from '../../../src/server/statistics/demo-data';
import { SERIES as DEMO_SERIES } from '../../../src/server/statistics/demo-series';
import { openTestDatabase, type TestDatabase } from './helpers';

const SERIES = ['purchase_transaction', 'passport_transaction', 'voucher_usage', 'coupon_usage', 'menu_purchase', 'favorite_ad', 'user_click'];
const TOKYO = "(created_at AT TIME ZONE 'Asia/Tokyo')";

let t: TestDatabase;
let other: TestDatabase;
let later: TestDatabase;
let timed: DemoStatisticsReport;
/** The last instant of the 90 days of `other` and `later` (ms): the same rows up to it on both. */
const NOW = Date.now();

/** Rows per resource and city, as a sorted list of `resource city n`. */
async function counts(db: TestDatabase['db']): Promise<string[]> {
  const out: string[] = [];
  for (const name of SERIES) {
    const rows = await db.query<{ city: string; n: number }>(`SELECT city, count(*)::int AS n FROM ${tableName(registry.get(name)!)} GROUP BY city ORDER BY city`);
    out.push(...rows.map((r) => `${name} ${r.city} ${r.n}`));
  }
  return out;
}

beforeAll(async () => {
  [t, other, later] = await Promise.all([openTestDatabase(), openTestDatabase(), openTestDatabase()]);
  await prepareDatabase(t.db, { demo: true });
  // The other database goes the seed's way by hand, to time the demo statistics alone.
  await prepareDatabase(other.db, { demo: false });
  await seedExamples(other.db, registry);
  timed = await seedDemoStatistics(other.db, registry, NOW);
  // As the server seeds: the statistics are left to a job (run by the test below).
  await prepareDatabase(later.db, { demo: true, demoStatistics: 'job' });
}, 180_000);
afterAll(async () => {
  await Promise.all([t?.cleanup(), other?.cleanup(), later?.cleanup()]);
});

describe('the demo data of the statistics', () => {
  it('holds hundreds of rows a month of each series in kobe and fukuoka', async () => {
    for (const name of SERIES) {
      for (const city of ['kobe', 'fukuoka']) {
        const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${tableName(registry.get(name)!)} WHERE city = $1 AND created_at > now() - interval '30 days'`, [city]);
        expect(n, `${name} ${city}`).toBeGreaterThan(20);
      }
    }
    const [{ n: akita }] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM r_voucher_usage WHERE city NOT IN ('kobe', 'fukuoka')");
    expect(akita).toBe(0);
  });

  it('is made once: a second start of the same database adds nothing', async () => {
    const before = await counts(t.db);
    expect((await prepareDatabase(t.db, { demo: true })).seeded).toBe(false);
    expect(await counts(t.db)).toEqual(before);
  });

  it('spans the 90 Tokyo days up to now, every day, nothing in the future', async () => {
    for (const name of ['purchase_transaction', 'voucher_usage', 'user_click']) {
      const [r] = await t.db.query<{ days: number; first: number; future: number }>(
        `SELECT count(DISTINCT ${TOKYO}::date)::int AS days, ((now() AT TIME ZONE 'Asia/Tokyo')::date - min(${TOKYO}::date))::int AS first,
           count(*) FILTER (WHERE created_at > now())::int AS future
         FROM ${tableName(registry.get(name)!)} WHERE city = 'kobe'`,
      );
      expect(r, name).toEqual({ days: DEMO_DAYS, first: DEMO_DAYS - 1, future: 0 });
    }
  });

  it('is busier on Saturdays and Sundays than on weekdays (a day’s average)', async () => {
    // Whole days of Tokyo only, the last 80 before today, and none of a series' campaign days. Today
    // holds only the hours so far, and a campaign's days fall on weekdays or weekends as today's
    // weekday has it: either moved the averages with the day the test ran.
    const back = `((now() AT TIME ZONE 'Asia/Tokyo')::date - ${TOKYO}::date)`;
    for (const name of SERIES) {
      const campaigns = (DEMO_SERIES.find((x) => x.resource === name)?.campaigns ?? []).map(([from, to]) => ` AND ${back} NOT BETWEEN ${from} AND ${to}`).join('');
      const [r] = await t.db.query<{ weekend: number; weekday: number }>(
        `SELECT avg(n) FILTER (WHERE dow IN (0, 6))::float8 AS weekend, avg(n) FILTER (WHERE dow NOT IN (0, 6))::float8 AS weekday
         FROM (SELECT ${TOKYO}::date AS d, extract(dow FROM ${TOKYO})::int AS dow, count(*) AS n FROM ${tableName(registry.get(name)!)}
               WHERE city = 'kobe' AND ${back} BETWEEN 1 AND 80${campaigns} GROUP BY 1, 2) x`,
      );
      expect(r.weekend, name).toBeGreaterThan(r.weekday * 1.15);
    }
  });

  it('stores valid records of their schemas: what the API would store, referring to rows of the same city', async () => {
    for (const name of SERIES) {
      const def = registry.get(name)!;
      const rows = await t.db.query<{ city: string; data: Record<string, unknown> }>(`SELECT city, data FROM ${tableName(def)} WHERE created_at < now() - interval '1 hour' ORDER BY id`);
      expect(rows.length, name).toBeGreaterThan(100);
      for (const r of rows) expect(composeRecord(def, r.data)).toEqual(r.data);
      for (const [field, prop] of Object.entries(def.schema.properties)) {
        const ref = prop['x-ref'];
        if (!ref) continue;
        const [{ dangling }] = await t.db.query<{ dangling: number }>(
          `SELECT count(*)::int AS dangling FROM ${tableName(def)} x WHERE x.data ? $1 AND x.created_at < now() - interval '1 hour'
             AND NOT EXISTS (SELECT 1 FROM ${tableName(registry.get(ref)!)} y WHERE y.id = (x.data->>$1)::bigint AND y.city = x.city)`,
          [field],
        );
        expect(dangling, `${name}.${field}`).toBe(0);
      }
    }
  });

  it('gives revenue in yen from the products’ prices, some halloween voucher uses, a few hundred buyers', async () => {
    const [p] = await t.db.query<{ amounts: number[]; users: number }>(
      "SELECT array_agg(DISTINCT (data->>'amount')::int ORDER BY (data->>'amount')::int) AS amounts, count(DISTINCT data->>'user_name')::int AS users FROM r_purchase_transaction WHERE city = 'kobe' AND created_at < now() - interval '1 hour'",
    );
    const prices = (await t.db.query<{ price: number }>("SELECT DISTINCT (data->>'price')::int AS price FROM r_purchase_product WHERE city = 'kobe'")).map((r) => r.price);
    for (const a of p.amounts) expect(prices).toContain(a);
    expect(p.users).toBeGreaterThan(100);
    const [{ n }] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM r_voucher_usage WHERE city = 'kobe' AND data->>'is_halloween' = 'true'");
    expect(n).toBeGreaterThan(10);
  });

  it('links the demo Advertiser to two shops of kobe with menu purchases, the President and Teacher to a school', async () => {
    const users = await t.db.query<{ username: string; advertisements: number[]; school: number | null }>(
      "SELECT username, advertisements, school FROM users WHERE username IN ('advertiser', 'president', 'teacher') ORDER BY username",
    );
    const [advertiser, president, teacher] = users;
    expect(advertiser.advertisements).toHaveLength(2);
    const [{ n }] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM r_menu_purchase WHERE city = 'kobe' AND (data->>'advertisement')::int = ANY($1::int[])", [advertiser.advertisements]);
    expect(n).toBeGreaterThan(100);
    expect(president.school).not.toBeNull();
    expect(teacher.school).toBe(president.school);
  });

  it('is made by a job after a server’s first start, a resource at a time: the same rows as made at once', async () => {
    const examples = await counts(later.db);
    const [queued] = await later.db.query<{ id: number; state: string }>('SELECT id, state FROM jobs WHERE kind = $1', [DEMO_STATISTICS_JOB]);
    expect(queued.state).toBe('queued');
    // Not due by itself before a while: the server makes it due once it listens (runNow).
    const [{ due }] = await later.db.query<{ due: boolean }>('SELECT run_at <= now() AS due FROM jobs WHERE id = $1', [queued.id]);
    expect(due).toBe(false);
    // A resource an interrupted attempt made already is not made again: favorite_ad keeps its examples alone.
    await later.db.query(`UPDATE jobs SET payload = jsonb_build_object('now', $2::bigint, 'done', '["favorite_ad"]'::jsonb) WHERE id = $1`, [queued.id, NOW]);
    const runner = new JobRunner(later.db, registry, { pollMs: 50, log: () => undefined });
    runner.define(demoStatisticsJob(registry));
    runner.start();
    try {
      await runner.runNow(DEMO_STATISTICS_JOB);
      await vi.waitFor(async () => expect((await runner.get(queued.id))?.state).toBe('succeeded'), { timeout: 60_000, interval: 100 });
    } finally {
      await runner.stop();
    }
    const made = await counts(later.db);
    const [job] = await later.db.query<{ done: string[] }>("SELECT payload->'done' AS done FROM jobs WHERE id = $1", [queued.id]);
    expect([...job.done].sort()).toEqual([...SERIES].sort());
    const favorites = (rows: string[]) => rows.filter((r) => r.startsWith('favorite_ad '));
    expect(favorites(made)).toEqual(favorites(examples));
    const rest = (rows: string[]) => rows.filter((r) => !r.startsWith('favorite_ad '));
    expect(rest(made)).toEqual(rest(await counts(other.db)));
  });

  it('takes about a second on a new database, after the start (printed)', () => {
    const rows = Object.values(timed.rows).reduce((a, b) => a + b, 0);
    console.log(`demo statistics: ${rows} rows in ${timed.ms} ms (${t.db.kind})`);
    expect(rows).toBeGreaterThan(5000);
    // A loose bound: the machine running the tests may be busy.
    expect(timed.ms).toBeLessThan(5000);
  });
});
