/**
 * Demo data for the statistics and the dashboard (000 2.2 statistic routes; 000 3 statistic rows:
 * env, total_money, total_user, user_name): on a new database with demo content, 90 days up to now
 * of in-app purchases (`purchase_transaction`, `passport_transaction`), voucher uses
 * (`voucher_usage`, some of halloween passes), common time-sale coupon uses (`coupon_usage`), menu
 * purchases of the demo Advertiser's shops (`menu_purchase`), favourites (`favorite_ad`) and clicks
 * (`user_click`) in kobe and fukuoka. Days have a weekly rhythm (Saturdays and Sundays busier), a
 * slow growth over the quarter and a few campaigns (spikes of a few days); the buyers are a few
 * hundred demo users, some much more active than others; amounts are the products' and vouchers'
 * own yen prices.
 *
 * Every series is one `INSERT … SELECT` over `generate_series` in SQL (PostgreSQL's `random()` made
 * repeatable by `setseed`, so a new database always holds the same figures), relative to `now`:
 * the charts always show the last 90 days. The values come from the city's seeded rows (products,
 * vouchers, time sales, shops, menu items) turned into weighted "choices" here; each stored record
 * is what the API would store (every default filled in, the references real ids of the same city).
 * The demo accounts get the shops and school the figures are about (the Advertiser the first two
 * shops of kobe, the President and Teacher the first school). See docs/architecture.md 'Storage'.
 */
import type { ResourceDef } from '../../shared/registry';
import { STATISTIC_TIME_ZONE } from '../../shared/statistics';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import type { JobKind } from '../jobs/job-runner';
import { countSeeded, DEMO_CITIES } from '../seed-examples';
import { DEFER_LEVELS, refreshStatisticLevels } from './rollups';

/** The days of demo data, today included. */
export const DEMO_DAYS = 90;

/** The demo users who buy, use and click (user_name `yamada_001` …). */
export const DEMO_BUYERS = 300;

/** The seed of PostgreSQL's `random()` for the demo data (any value in [-1, 1]). */
const RANDOM_SEED = 0.4242;

/** One generated series: a resource, how many rows a day, and the SQL of the varying fields. */
interface DemoSeries {
  resource: string;
  /** Rows of an average weekday in kobe (fukuoka: `CITY_SCALE`). */
  perDay: number;
  /** Factor of Saturdays and Sundays. */
  weekend: number;
  /** Growth over the 90 days: the last day has `1 + growth` times the first day's rows. */
  growth: number;
  /** Campaigns: [first day ago, last day ago, factor]. */
  campaigns: Array<[number, number, number]>;
  /** The fixed part of each record, picked at random (a choice listed twice is twice as likely); none: no rows. */
  choices: (refs: CityRefs) => Array<Record<string, unknown>>;
  /**
   * A SQL `jsonb_build_object(…)` of the varying fields over the generated row: `u` (a demo user
   * name), `p` (a person's name), `c` (the choice), `r1`–`r3` (random in [0, 1)), `seq` (row number
   * in time order) and `tag` (of the city and series, for unique transaction ids).
   */
  fields: string;
}

/** The seeded rows of a city the choices are made from, by resource: id and data, in id order. */
type CityRefs = ReadonlyMap<string, Array<{ id: number; data: Record<string, unknown> }>>;

/** Rows of fukuoka relative to kobe. */
const CITY_SCALE: Record<string, number> = { kobe: 1, fukuoka: 0.6 };

/** The resources whose seeded rows the choices use. */
const REFERENCED = ['purchase_product', 'membership_pass_type', 'special_voucher', 'special_voucher_pass', 'common_timesale_ad', 'advertisement', 'menu_item'];

const SURNAMES = ['yamada', 'suzuki', 'tanaka', 'sato', 'takahashi', 'ito', 'watanabe', 'nakamura', 'kobayashi', 'kato', 'yoshida', 'matsumoto'];
const FAMILY_JA = ['山田', '鈴木', '田中', '佐藤', '高橋', '伊藤', '渡辺', '中村', '小林', '加藤', '吉田', '松本', '井上', '木村'];
const GIVEN_JA = ['花子', '健', '結衣', '太郎', '美咲', '翔太', '由紀', '誠', '陽向', '早苗', '亮', 'さくら', '大輝'];

const sqlArray = (items: string[]) => `ARRAY[${items.map((s) => `'${s}'`).join(', ')}]`;
const STATUS = `CASE WHEN r2 < 0.9 THEN 'purchased' WHEN r2 < 0.94 THEN 'refunded' WHEN r2 < 0.97 THEN 'pending' ELSE 'failed' END`;
const PLATFORM = `CASE WHEN r1 < 0.56 THEN 'ios' ELSE 'android' END`;
const TRANSACTION_ID = `CASE WHEN r1 < 0.56 THEN '2' || tag || lpad(seq::text, 10, '0') ELSE 'GPA.' || tag || '-' || lpad(seq::text, 6, '0') END`;
const ENV = `CASE WHEN r3 < 0.02 THEN 'sandbox' ELSE 'production' END`;
const STORE_FIELDS = `'user_name', u, 'platform', ${PLATFORM}, 'transaction_id', ${TRANSACTION_ID}, 'status', ${STATUS}, 'env', ${ENV}`;
const QUANTITY = '(1 + floor(power(r1, 2) * 4))::int';

const rowsOf = (refs: CityRefs, resource: string) => refs.get(resource) ?? [];
const times = <T>(n: number, item: T): T[] => Array.from({ length: n }, () => item);
const yenIn = (name: unknown): number | null => {
  const m = /([\d,]+)円/.exec(String(name ?? ''));
  return m ? Number(m[1].replaceAll(',', '')) : null;
};

/** The series of the demo data, in insertion order. */
const SERIES: DemoSeries[] = [
  {
    resource: 'purchase_transaction',
    perDay: 4.5,
    weekend: 1.5,
    growth: 0.35,
    campaigns: [[8, 11, 2.2], [52, 55, 1.8]],
    choices: (refs) =>
      rowsOf(refs, 'purchase_product').flatMap(({ id, data }) =>
        times(data.is_active === false ? 0 : data.product_type === 'subscription' && Number(data.price) < 1000 ? 6 : data.product_type === 'subscription' ? 1 : 3, {
          product: id,
          package_id: data.package_id,
          amount: data.price,
        }),
      ),
    fields: `jsonb_build_object(${STORE_FIELDS})`,
  },
  {
    resource: 'passport_transaction',
    perDay: 2,
    weekend: 1.5,
    growth: 0.25,
    campaigns: [[30, 33, 2.5], [8, 11, 1.6]],
    choices: (refs) => {
      const products = rowsOf(refs, 'purchase_product');
      return rowsOf(refs, 'membership_pass_type').flatMap(({ id, data }) => {
        const product = products.find((p) => p.data.package_id === data.package_id)?.data;
        const halloween = String(data.package_id ?? '').includes('halloween');
        return times(halloween ? 1 : 3, {
          pass_type: id,
          pass_name: String(product?.name ?? data.name).slice(0, 64),
          package_id: data.package_id,
          amount: product?.price ?? 480,
          is_halloween: halloween,
        });
      });
    },
    fields: `jsonb_build_object(${STORE_FIELDS})`,
  },
  {
    resource: 'voucher_usage',
    perDay: 8,
    weekend: 1.6,
    growth: 0.2,
    campaigns: [[18, 21, 2.5], [63, 66, 2]],
    choices: (refs) => {
      const passes = new Map(rowsOf(refs, 'special_voucher_pass').map((p) => [p.id, p.data]));
      return rowsOf(refs, 'special_voucher').flatMap(({ id, data }) => {
        const pass = passes.get(Number(data.pass_id));
        const halloween = String(pass?.name ?? data.name).includes('ハロウィン');
        const yen = yenIn(data.name);
        return times(pass?.is_premium ? 5 : 2, {
          voucher: id,
          ...(pass ? { pass_id: Number(data.pass_id) } : {}),
          amount: yen ?? (halloween ? 300 : 250),
          points: yen ?? 1,
          is_halloween: halloween,
        });
      });
    },
    fields: `jsonb_build_object('user_name', u, 'env', ${ENV})`,
  },
  {
    resource: 'coupon_usage',
    perDay: 4.5,
    weekend: 1.7,
    growth: 0.15,
    campaigns: [[4, 6, 3], [25, 27, 2.5], [60, 62, 2.8]],
    choices: (refs) => {
      const ads = new Map(rowsOf(refs, 'advertisement').map((a) => [a.id, a.data]));
      return rowsOf(refs, 'common_timesale_ad').flatMap(({ data }) => {
        const ad = ads.get(Number(data.advertisement));
        if (!ad) return [];
        return times(data.is_valid === false ? 1 : 3, {
          common_timesale: data.common_timesale,
          advertisement: data.advertisement,
          ad_name: String(ad.name ?? '').slice(0, 64),
        });
      });
    },
    fields: `jsonb_build_object('user_name', u, 'used_count', CASE WHEN r1 < 0.85 THEN 1 WHEN r1 < 0.97 THEN 2 ELSE 3 END)`,
  },
  {
    resource: 'menu_purchase',
    perDay: 2.5,
    weekend: 1.8,
    growth: 0.3,
    campaigns: [[14, 16, 2]],
    choices: (refs) =>
      rowsOf(refs, 'menu_item').flatMap(({ id, data }) =>
        times(data.is_available === false ? 1 : 3, { advertisement: data.advertisement, menu_item: id, menu_name: data.name, unit_price: data.price }),
      ),
    fields: `jsonb_build_object('buyer_name', p, 'quantity', ${QUANTITY}, 'total_price', ${QUANTITY} * (c->>'unit_price')::int,
      'status', CASE WHEN r2 < 0.62 THEN 'picked_up' WHEN r2 < 0.9 THEN 'paid' WHEN r2 < 0.95 THEN 'cancelled' ELSE 'refunded' END)`,
  },
  {
    resource: 'favorite_ad',
    perDay: 1.2,
    weekend: 1.4,
    growth: 0.3,
    campaigns: [[25, 27, 2]],
    choices: (refs) =>
      rowsOf(refs, 'advertisement')
        .slice(0, 6)
        .flatMap(({ id, data }, i) => times(i < 2 ? 3 : 1, { advertisement: id, ad_name: String(data.name ?? '').slice(0, 64) })),
    fields: `jsonb_build_object('user_name', u)`,
  },
  {
    resource: 'user_click',
    perDay: 5,
    weekend: 1.4,
    growth: 0.4,
    campaigns: [[4, 6, 2.2], [25, 27, 2], [60, 62, 2.2]],
    choices: (refs) => [
      ...rowsOf(refs, 'advertisement')
        .slice(0, 10)
        .flatMap(({ id, data }, i) => times(i < 3 ? 4 : 1, { target_type: 'advertisement', advertisement: id, ad_name: String(data.name ?? '').slice(0, 64) })),
      ...[...times(4, 'coupon'), ...times(3, 'timesale'), 'news', 'news', 'event', 'passport', 'map'].map((page) => ({ target_type: 'page', page })),
    ],
    fields: `jsonb_build_object('user_name', u, 'platform', CASE WHEN r1 < 0.5 THEN 'ios' WHEN r1 < 0.9 THEN 'android' ELSE 'web' END)`,
  },
];

/**
 * The SQL of one series: days (weekday/weekend, growth, campaigns, ±20 % noise) → rows at random
 * times between 7:00 and 22:00 Tokyo time up to `now` → one INSERT; answers the rows inserted.
 * Parameters: $1 city, $2 choices (jsonb array), $3 now, $4 id tag, $5 rows a weekday, $6 weekend
 * factor, $7 growth, $8 campaigns (jsonb).
 */
function seriesSql(table: string, fields: string): string {
  const tokyo = `'${STATISTIC_TIME_ZONE}'`;
  return `
WITH days AS (
  SELECT d, (($3::timestamptz AT TIME ZONE ${tokyo})::date - d) AS day,
    round($5::float8
      * CASE WHEN extract(isodow FROM ($3::timestamptz AT TIME ZONE ${tokyo})::date - d) >= 6 THEN $6::float8 ELSE 1 END
      * (1 + $7::float8 * (${DEMO_DAYS - 1} - d) / ${DEMO_DAYS - 1}.0)
      * coalesce((SELECT max((k->>2)::float8) FROM jsonb_array_elements($8::jsonb) AS k WHERE d BETWEEN (k->>0)::int AND (k->>1)::int), 1)
      * (0.8 + random() * 0.4))::int AS n
  FROM generate_series(0, ${DEMO_DAYS - 1}) AS d
), picked AS (
  SELECT $2::jsonb -> floor(random() * jsonb_array_length($2::jsonb))::int AS c,
    1 + floor(${DEMO_BUYERS} * power(random(), 1.7))::int AS k,
    random() AS r1, random() AS r2, random() AS r3,
    (day::timestamp + make_interval(secs => 25200 + random() * 54000)) AT TIME ZONE ${tokyo} AS at
  FROM days, generate_series(1, n)
), named AS (
  SELECT *, (${sqlArray(SURNAMES)})[1 + k % ${SURNAMES.length}] || '_' || lpad(k::text, 3, '0') AS u,
    (${sqlArray(FAMILY_JA)})[1 + k % ${FAMILY_JA.length}] || ' ' || (${sqlArray(GIVEN_JA)})[1 + (k / ${FAMILY_JA.length}) % ${GIVEN_JA.length}] AS p,
    row_number() OVER (ORDER BY at) AS seq, $4::text AS tag
  FROM picked WHERE at <= $3::timestamptz
), stored AS (
  INSERT INTO ${table} (city, data, created_at, updated_at)
  SELECT $1, c || ${fields}, at, at FROM named ORDER BY at
  RETURNING 1
)
SELECT count(*)::int AS n FROM stored`;
}

async function cityRefs(tx: Queryable, resources: ReadonlyMap<string, ResourceDef>, city: string): Promise<CityRefs> {
  const refs = new Map<string, Array<{ id: number; data: Record<string, unknown> }>>();
  for (const name of REFERENCED) {
    const def = resources.get(name);
    if (!def) continue;
    const rows = await tx.query<{ id: number; data: Record<string, unknown> }>(`SELECT id, data FROM ${tableName(def)} WHERE city = $1 ORDER BY id`, [city]);
    refs.set(name, rows.map((r) => ({ id: Number(r.id), data: r.data })));
  }
  return refs;
}

/**
 * Gives the demo accounts the rows their figures are about (000 6 own rows): the Advertiser the
 * first two shops of kobe (those with the demo menu items), the President the first school of kobe,
 * the Teacher the same school, its first group and first class. Only the accounts still without.
 */
export async function linkDemoAccounts(tx: Queryable, resources: ReadonlyMap<string, ResourceDef>): Promise<void> {
  const first = async (name: string, n: number): Promise<number[]> => {
    const def = resources.get(name);
    if (!def) return [];
    return (await tx.query<{ id: number }>(`SELECT id FROM ${tableName(def)} WHERE city = 'kobe' ORDER BY id LIMIT ${n}`)).map((r) => Number(r.id));
  };
  const shops = await first('advertisement', 2);
  if (shops.length > 0) {
    await tx.query("UPDATE users SET advertisements = $1::int[] WHERE username = 'advertiser' AND permission = 'Advertiser' AND cardinality(advertisements) = 0", [shops]);
  }
  const [school] = await first('school', 1);
  if (school === undefined) return;
  const [group] = await first('school_group', 1);
  const [schoolClass] = await first('school_class', 1);
  await tx.query("UPDATE users SET school = $1 WHERE username = 'president' AND permission = 'President' AND school IS NULL", [school]);
  await tx.query("UPDATE users SET school = $1, grp = $2, classes = $3::int[] WHERE username = 'teacher' AND permission = 'Teacher' AND school IS NULL", [
    school,
    group ?? null,
    schoolClass === undefined ? [] : [schoolClass],
  ]);
}

/** What `seedDemoStatistics` stored: rows per resource (both cities) and the time it took in ms. */
export interface DemoStatisticsReport {
  rows: Record<string, number>;
  ms: number;
}

/** The resources of the demo series present in `resources`, in insertion order. */
export function demoStatisticResources(resources: ReadonlyMap<string, ResourceDef>): string[] {
  return [...new Set(SERIES.map((s) => s.resource))].filter((name) => resources.has(name));
}

/**
 * Stores the demo rows of one resource (its series, in kobe and fukuoka) in one transaction of `db`,
 * with its list counts, a `seed` audit row per batch and its rollups' coarser levels; `within(tx)`
 * runs last in the same transaction (the job's record of progress). `now` (ms since the epoch) is
 * the last instant of the 90 days. Answers the rows stored. Errors: the database's.
 */
export async function seedDemoResource(
  db: Database,
  resources: ReadonlyMap<string, ResourceDef>,
  resource: string,
  now: number,
  within: (tx: Queryable) => Promise<void> = async () => {},
): Promise<number> {
  const def = resources.get(resource);
  if (!def) return 0;
  const table = tableName(def);
  return db.transaction(async (tx) => {
    // Each resource has a seed of its own, so its figures do not depend on which others were made.
    await tx.query('SELECT setseed($1)', [RANDOM_SEED / (1 + SERIES.findIndex((s) => s.resource === resource))]);
    // The rollup's coarser levels are made once at the end, not after each of the series' inserts.
    await tx.exec(`SET LOCAL ${DEFER_LEVELS} = 'on'`);
    // A GIN (trigram) index takes each row far slower than it is built over all rows at once: the
    // table's GIN indexes are dropped for the load and made again from their own definitions.
    const gin = await tx.query<{ name: string; def: string }>(
      `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexdef LIKE '% USING gin %'`,
      [table],
    );
    for (const { name } of gin) await tx.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
    const counts: Array<{ resource: string; city: string; n: number }> = [];
    for (const [c, city] of DEMO_CITIES.entries()) {
      const refs = await cityRefs(tx, resources, city);
      for (const [s, series] of SERIES.entries()) {
        const choices = series.resource === resource ? series.choices(refs) : [];
        if (choices.length === 0) continue;
        const [{ n }] = await tx.query<{ n: number }>(seriesSql(table, series.fields), [
          city,
          JSON.stringify(choices),
          new Date(now).toISOString(),
          `${c + 1}${s + 1}`,
          series.perDay * (CITY_SCALE[city] ?? 1),
          series.weekend,
          series.growth,
          JSON.stringify(series.campaigns),
        ]);
        counts.push({ resource, city, n });
      }
    }
    for (const { def: index } of gin) await tx.exec(index);
    await refreshStatisticLevels(tx, [def]);
    await tx.exec(`SET LOCAL ${DEFER_LEVELS} = 'off'`);
    await countSeeded(tx, counts);
    await within(tx);
    return counts.reduce((sum, c) => sum + c.n, 0);
  });
}

/**
 * Stores the demo rows of every series whose resource is in `resources` (a test registry without
 * them gets none), in kobe and fukuoka, one transaction per resource (`seedDemoResource`). Meant for
 * a new database right after the examples are seeded (seed.ts): the choices come from those rows.
 * The server runs it as a job after its start (`demoStatisticsJob`); tests and templates call it
 * directly. Errors: the database's.
 */
export async function seedDemoStatistics(db: Database, resources: ReadonlyMap<string, ResourceDef>, now = Date.now()): Promise<DemoStatisticsReport> {
  const started = performance.now();
  const rows: Record<string, number> = {};
  for (const resource of demoStatisticResources(resources)) rows[resource] = await seedDemoResource(db, resources, resource, now);
  return { rows, ms: Math.round(performance.now() - started) };
}

/** The kind of the job that makes the demo statistics after a first start; payload `DemoStatisticsPayload`. */
export const DEMO_STATISTICS_JOB = 'demo-statistics';

/**
 * How long after the seed the demo statistics' job is due by itself (ms): the server makes it due
 * once it listens (`JobRunner.runNow`), so it never holds up the start; this is for a start that
 * stopped between the seed and the listen.
 */
export const DEMO_STATISTICS_DELAY_MS = 30_000;

/** The demo job's payload: the last instant of the 90 days (ms since the epoch) and the resources done. */
export interface DemoStatisticsPayload {
  now: number;
  done: string[];
}

/**
 * The job kind that makes the demo statistics (`seedDemoStatistics`) in the background after a first
 * start, so the start does not wait for them: a resource at a time, each in a transaction that also
 * records it as done in the job's payload, with a checkpoint between; a retry goes on with the
 * resources left.
 */
export function demoStatisticsJob(resources: ReadonlyMap<string, ResourceDef>): JobKind<DemoStatisticsPayload> {
  return {
    kind: DEMO_STATISTICS_JOB,
    async run({ job, db, checkpoint }) {
      const done = new Set(job.payload.done ?? []);
      for (const resource of demoStatisticResources(resources).filter((r) => !done.has(r))) {
        await checkpoint();
        await seedDemoResource(db, resources, resource, job.payload.now, async (tx) => {
          await tx.query("UPDATE jobs SET payload = jsonb_set(payload, '{done}', coalesce(payload->'done', '[]') || to_jsonb($2::text)) WHERE id = $1", [job.id, resource]);
        });
      }
    },
  };
}
