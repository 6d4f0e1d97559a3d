/**
 * The series of the demo statistics (./demo-data.ts, which stores them): per resource how many rows
 * a day in kobe and fukuoka, the weekly rhythm, growth and campaigns, the fixed fields picked from
 * the city's seeded rows and the SQL of the varying ones; and the one `INSERT … SELECT` over
 * `generate_series` that makes a series (PostgreSQL's `random()`, made repeatable by `setseed`).
 */
import type { ResourceDef } from '../../shared/registry';
import { STATISTIC_TIME_ZONE } from '../../shared/statistics';
import type { Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';

/** The days of demo data, today included. */
export const DEMO_DAYS = 90;

/** The demo users who buy, use and click (user_name `yamada_001` …). */
export const DEMO_BUYERS = 300;

/** The seed of PostgreSQL's `random()` for the demo data (any value in [-1, 1]). */
export const RANDOM_SEED = 0.4242;

/** One generated series: a resource, how many rows a day, and the SQL of the varying fields. */
export interface DemoSeries {
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
export type CityRefs = ReadonlyMap<string, Array<{ id: number; data: Record<string, unknown> }>>;

/** Rows of fukuoka relative to kobe. */
export const CITY_SCALE: Record<string, number> = { kobe: 1, fukuoka: 0.6 };

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
export const SERIES: DemoSeries[] = [
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
export function seriesSql(table: string, fields: string): string {
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

export async function cityRefs(tx: Queryable, resources: ReadonlyMap<string, ResourceDef>, city: string): Promise<CityRefs> {
  const refs = new Map<string, Array<{ id: number; data: Record<string, unknown> }>>();
  for (const name of REFERENCED) {
    const def = resources.get(name);
    if (!def) continue;
    const rows = await tx.query<{ id: number; data: Record<string, unknown> }>(`SELECT id, data FROM ${tableName(def)} WHERE city = $1 ORDER BY id`, [city]);
    refs.set(name, rows.map((r) => ({ id: Number(r.id), data: r.data })));
  }
  return refs;
}

