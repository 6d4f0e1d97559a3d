/**
 * The statistics calls (docs/architecture.md 'Adding a statistic'; 000 3 statistic rows; 001 7.8,
 * 7.14) on PGlite and, with DATABASE_URL, on PostgreSQL: a hand-made set of purchases whose totals
 * are computed here by hand, in Tokyo days across midnight UTC, with the previous period; the same
 * numbers from the rollups and from the table; own rows of the Advertiser; refusals and bad queries;
 * the CSV export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATISTICS, type StatisticAnswer } from '../../../src/shared/statistics';
import { registry } from '../../../src/shared/registry';
import { aggregate, type StatisticQuery } from '../../../src/server/statistics/aggregate';
import { levelFor, levelMask, rollupOf } from '../../../src/server/statistics/rollups';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;
const h: Record<string, Record<string, string>> = {};
let shops: number[] = [];

interface Purchase {
  at: string;
  user: string;
  amount: number;
  platform: 'ios' | 'android';
  env?: 'production' | 'sandbox';
  status?: string;
  city?: string;
}

// Tokyo is UTC+9: 23:30 UTC is 08:30 of the next Tokyo day; 15:00 UTC is Tokyo midnight.
const PURCHASES: Purchase[] = [
  { at: '2024-02-29T23:30:00Z', user: 'a', amount: 480, platform: 'ios' }, // Tokyo 03-01 08:30
  { at: '2024-03-01T14:59:59Z', user: 'b', amount: 1000, platform: 'android' }, // Tokyo 03-01 23:59:59
  { at: '2024-03-01T15:00:00Z', user: 'a', amount: 4800, platform: 'ios', env: 'sandbox', status: 'refunded' }, // Tokyo 03-02 00:00
  { at: '2024-03-03T14:00:00Z', user: 'c', amount: 120, platform: 'android' }, // Tokyo 03-03 23:00
  { at: '2024-03-03T15:30:00Z', user: 'd', amount: 999, platform: 'ios' }, // Tokyo 03-04: after the range
  { at: '2024-02-29T14:30:00Z', user: 'a', amount: 300, platform: 'ios' }, // Tokyo 02-29 23:30: previous period
  { at: '2024-02-26T15:00:00Z', user: 'e', amount: 200, platform: 'android' }, // Tokyo 02-27 00:00: previous period
  { at: '2024-02-26T14:59:00Z', user: 'f', amount: 50, platform: 'android' }, // Tokyo 02-26: before both
  { at: '2024-03-02T03:00:00Z', user: 'z', amount: 7777, platform: 'ios', city: 'fukuoka' }, // another city
];
const RANGE = 'start_date=2024-03-01&end_date=2024-03-03';

async function insertPurchases(rows: Purchase[]): Promise<void> {
  for (const [i, p] of rows.entries()) {
    const data = { transaction_id: `T${i}`, user_name: p.user, platform: p.platform, env: p.env ?? 'production', status: p.status ?? 'purchased', amount: p.amount, package_id: 'jp.city.bal_pass.monthly' };
    await t.db.query('INSERT INTO r_purchase_transaction (city, data, created_at) VALUES ($1, $2, $3)', [p.city ?? 'kobe', JSON.stringify(data), p.at]);
  }
}

async function get(url: string, who = 'operator') {
  const r = await t.app.inject({ method: 'GET', url, headers: h[who] });
  return { status: r.statusCode, body: r.headers['content-type']?.toString().startsWith('application/json') ? (r.json() as Record<string, unknown>) : {}, text: r.body, headers: r.headers };
}

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['operator', 'administrator', 'advertiser', 'teacher']) h[u] = bearer(await login(t.app, u));
  const session = await login(t.app, 'advertiser');
  shops = ((session.body.user as { advertisements?: number[] }).advertisements ?? []).map(Number);
  // The demo rows go (a delete rebuilds the rollups of the city), the hand-made ones come in (an insert adds to them).
  await t.db.query("DELETE FROM r_purchase_transaction WHERE city IN ('kobe', 'fukuoka')");
  await insertPurchases(PURCHASES);
}, 120_000);
afterAll(() => t?.close());

describe('a statistic over hand-made purchases (pass-purchases)', () => {
  let a: StatisticAnswer;
  beforeAll(async () => {
    const r = await get(`/kobe/api/statistics/pass-purchases/?${RANGE}`);
    expect(r.status, r.text).toBe(200);
    a = r.body as unknown as StatisticAnswer;
  });

  it('totals: sum of amounts, distinct users and rows of the Tokyo days 03-01 to 03-03', () => {
    expect(a.totals).toEqual({ total_money: 480 + 1000 + 4800 + 120, total_user: 3, count: 4 });
  });

  it('the previous period is the same number of days just before (02-27 to 02-29, a leap day)', () => {
    expect([a.previous_start_date, a.previous_end_date]).toEqual(['2024-02-27', '2024-02-29']);
    expect(a.previous).toEqual({ total_money: 300 + 200, total_user: 2, count: 2 });
  });

  it('a series of every day, a row at 23:30 UTC counted on the next Tokyo day', () => {
    expect(a.series).toEqual([
      { period: '2024-03-01', values: { total_money: 1480, total_user: 2, count: 2 } },
      { period: '2024-03-02', values: { total_money: 4800, total_user: 1, count: 1 } },
      { period: '2024-03-03', values: { total_money: 120, total_user: 1, count: 1 } },
    ]);
  });

  it('groups by the first dimension (env), main measure descending', () => {
    expect(a.by).toBe('env');
    expect(a.groups).toEqual([
      { key: 'sandbox', label: null, values: { total_money: 4800, total_user: 1, count: 1 } },
      { key: 'production', label: null, values: { total_money: 1600, total_user: 3, count: 3 } },
    ]);
  });

  it('a filter narrows everything; weeks start on Monday, months on the 1st; empty days are zeros', async () => {
    const ios = (await get(`/kobe/api/statistics/pass-purchases/?${RANGE}&platform=ios&by=platform`)).body as unknown as StatisticAnswer;
    expect(ios.totals).toEqual({ total_money: 5280, total_user: 1, count: 2 });
    expect(ios.groups).toEqual([{ key: 'ios', label: null, values: { total_money: 5280, total_user: 1, count: 2 } }]);
    expect(ios.series[2]).toEqual({ period: '2024-03-03', values: { total_money: 0, total_user: 0, count: 0 } });
    const week = (await get(`/kobe/api/statistics/pass-purchases/?${RANGE}&interval=week`)).body as unknown as StatisticAnswer;
    expect(week.series).toEqual([{ period: '2024-02-26', values: { total_money: 6400, total_user: 3, count: 4 } }]);
    const month = (await get(`/kobe/api/statistics/pass-purchases/?start_date=2024-02-27&end_date=2024-03-03&interval=month`)).body as unknown as StatisticAnswer;
    expect(month.series).toEqual([
      { period: '2024-02-01', values: { total_money: 500, total_user: 2, count: 2 } },
      { period: '2024-03-01', values: { total_money: 6400, total_user: 3, count: 4 } },
    ]);
  });

  it('the rollups and the table give the same answers', async () => {
    const stat = STATISTICS['pass-purchases'];
    const queries: StatisticQuery[] = [
      { start_date: '2024-03-01', end_date: '2024-03-03', interval: 'day' as const, by: 'env' },
      { start_date: '2024-02-20', end_date: '2024-03-10', interval: 'week' as const, by: 'platform', filters: { status: 'purchased' } },
      { start_date: '2024-01-01', end_date: '2024-12-31', interval: 'month' as const, by: 'package_id', filters: { platform: 'ios' } },
    ];
    for (const query of queries) {
      const rolled = await aggregate(t.db, stat, 'kobe', query, {}, registry);
      const read = await aggregate(t.db, stat, 'kobe', { ...query, fromTable: true }, {}, registry);
      expect(rolled).toEqual(read);
    }
  });

  it('a new purchase counts at once (the rollups are kept in the write)', async () => {
    await insertPurchases([{ at: '2024-03-02T01:00:00Z', user: 'new', amount: 5, platform: 'ios' }]);
    const r = (await get(`/kobe/api/statistics/pass-purchases/?${RANGE}`)).body as unknown as StatisticAnswer;
    expect(r.totals).toEqual({ total_money: 6405, total_user: 4, count: 5 });
    await t.db.query("DELETE FROM r_purchase_transaction WHERE city = 'kobe' AND data->>'user_name' = 'new'");
    const back = (await get(`/kobe/api/statistics/pass-purchases/?${RANGE}`)).body as unknown as StatisticAnswer;
    expect(back.totals).toEqual({ total_money: 6400, total_user: 3, count: 4 });
  });
});

describe('the coarser levels of the rollups', () => {
  const r = rollupOf(registry.get('purchase_transaction')!)!;

  it('a query reads the level with the fewest columns that keeps what it filters and groups by', () => {
    expect(r.levels).toContainEqual([]);
    expect(levelFor(r, [])).toEqual([]);
    expect(levelFor(r, ['platform'])).toEqual(['platform']);
    expect(levelFor(r, ['status'])).toEqual(['status']);
    expect(levelFor(r, ['status', 'platform'])).toEqual(r.columns);
    expect(levelMask(r, r.columns)).toBe(0);
  });

  it('each level holds, per day, what the full level sums to, after inserts and a delete', async () => {
    const [one] = PURCHASES;
    await insertPurchases([{ ...one, user: 'gone', at: '2024-03-05T01:00:00Z' }]);
    await t.db.query("DELETE FROM r_purchase_transaction WHERE data->>'user_name' = 'gone'");
    await insertPurchases([{ ...one, user: 'late', at: '2024-03-06T01:00:00Z', status: 'pending' }]);
    const day = (g: number) =>
      t.db.query<{ day: string; n: number; s: string; u: number }>(
        `SELECT city || day AS day, sum(n)::int AS n, sum(s_amount)::text AS s, bit_count(bit_or(u_user_name))::int AS u FROM ${r.days} WHERE g = $1 GROUP BY city, day ORDER BY 1`,
        [g],
      );
    const full = await day(0);
    expect(full.map((d) => d.n).reduce((a, b) => a + b)).toBe(PURCHASES.length + 1);
    for (const level of r.levels) expect(await day(levelMask(r, level)), level.join() || 'none').toEqual(full);
    await t.db.query("DELETE FROM r_purchase_transaction WHERE data->>'user_name' = 'late'");
  });
});

describe('the value sets of the rollups grow with the users', () => {
  it('past 1,024 users in one city, inserted in three writes, the distinct users stay exact', async () => {
    const stat = STATISTICS['pass-purchases'];
    // 1,000 users on 06-01; 100 on 06-02, 50 of them new (the last 26 numbered past the first 1,024); one on 06-03.
    const row = (i: number, at: string) =>
      `('akita', jsonb_build_object('transaction_id', 'W${i}', 'user_name', 'w_' || ${i}, 'platform', 'ios', 'env', 'production', 'status', 'purchased', 'amount', 100, 'package_id', 'p'), '${at}')`;
    const insert = (ids: number[], at: string) => t.db.query(`INSERT INTO r_purchase_transaction (city, data, created_at) VALUES ${ids.map((i) => row(i, at)).join(', ')}`);
    await insert(Array.from({ length: 1000 }, (_, i) => i), '2024-06-01T03:00:00Z');
    await insert(Array.from({ length: 100 }, (_, i) => 950 + i), '2024-06-02T03:00:00Z');
    await insert([5], '2024-06-03T03:00:00Z');
    const query: StatisticQuery = { start_date: '2024-06-01', end_date: '2024-06-03', interval: 'day', by: 'platform' };
    const rolled = await aggregate(t.db, stat, 'akita', query, {}, registry);
    expect(rolled.totals).toEqual({ total_money: 110_100, total_user: 1050, count: 1101 });
    expect(rolled.series.map((p) => p.values.total_user)).toEqual([1000, 100, 1]);
    expect(rolled).toEqual(await aggregate(t.db, stat, 'akita', { ...query, fromTable: true }, {}, registry));
  });
});

describe('every declaration', () => {
  it('gives the same numbers from the rollups and from the table over the demo data, for each dimension', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10);
    for (const stat of Object.values(STATISTICS)) {
      for (const dim of stat.dimensions) {
        const query = { start_date: start, end_date: today, interval: 'week' as const, by: dim.key };
        const rolled = await aggregate(t.db, stat, 'fukuoka', query, {}, registry);
        expect(rolled, `${stat.name} by ${dim.key}`).toEqual(await aggregate(t.db, stat, 'fukuoka', { ...query, fromTable: true }, {}, registry));
      }
    }
  }, 60_000);
});

describe('who may ask, and what', () => {
  it('401 without a session, 403 for a role without the resource, 404 for an unknown statistic', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/kobe/api/statistics/pass-purchases/?${RANGE}` })).statusCode).toBe(401);
    expect((await get(`/kobe/api/statistics/pass-purchases/?${RANGE}`, 'teacher')).status).toBe(403);
    expect((await get(`/kobe/api/statistics/pass-purchases/?${RANGE}`, 'advertiser')).status).toBe(403);
    expect((await get(`/kobe/api/statistics/menu-purchases/?${RANGE}`, 'administrator')).status).toBe(403);
    expect((await get(`/kobe/api/statistics/no-such-thing/?${RANGE}`)).status).toBe(404);
  });

  it.each([
    ['end before start', 'start_date=2024-03-03&end_date=2024-03-01', 'end_date'],
    ['not a day', 'start_date=2024-02-30&end_date=2024-03-01', 'start_date'],
    ['over 366 days', 'start_date=2023-01-01&end_date=2024-03-01', 'end_date'],
    ['no start', 'end_date=2024-03-01', 'start_date'],
    ['unknown by', `${RANGE}&by=nothing`, 'by'],
    ['unknown filter', `${RANGE}&colour=red`, ''],
    ['bad filter value', `${RANGE}&platform=windows`, 'platform'],
  ])('400 for %s', async (_, query, field) => {
    const r = await get(`/kobe/api/statistics/pass-purchases/?${query}`);
    expect(r.status, r.text).toBe(400);
    expect(r.body.code).toBe('validation');
    if (field) expect(Object.keys(r.body.fields as object)).toContain(field);
  });
});

describe('own rows: an Advertiser sees its shops only (menu-purchases)', () => {
  const menu = (advertisement: number, price: number, buyer: string) => ({ advertisement, menu_item: 1, menu_name: 'カレー', buyer_name: buyer, quantity: 1, unit_price: price, total_price: price, status: 'paid' });
  beforeAll(async () => {
    await t.db.query("DELETE FROM r_menu_purchase WHERE city = 'kobe'");
    const other = Math.max(0, ...shops) + 1000;
    for (const [data, at] of [
      [menu(shops[0], 700, 'x'), '2024-03-01T01:00:00Z'],
      [menu(shops[0], 300, 'y'), '2024-03-02T01:00:00Z'],
      [menu(other, 5000, 'x'), '2024-03-02T01:00:00Z'],
    ] as const) {
      await t.db.query('INSERT INTO r_menu_purchase (city, data, created_at) VALUES ($1, $2, $3)', ['kobe', JSON.stringify(data), at]);
    }
  });

  it('the Advertiser gets its own shops’ totals, the Operator every shop’s', async () => {
    expect(shops.length).toBeGreaterThan(0);
    const mine = (await get(`/kobe/api/statistics/menu-purchases/?${RANGE}&by=advertisement`, 'advertiser')).body as unknown as StatisticAnswer;
    expect(mine.totals).toEqual({ total_price: 1000, quantity: 2, count: 2, total_user: 2 });
    expect(mine.groups.map((g) => g.key)).toEqual([shops[0]]);
    const all = (await get(`/kobe/api/statistics/menu-purchases/?${RANGE}`, 'operator')).body as unknown as StatisticAnswer;
    expect(all.totals).toEqual({ total_price: 6000, quantity: 3, count: 3, total_user: 2 });
    expect(all.groups[0]).toEqual({ key: 1, label: 'カレー', values: { total_price: 6000, quantity: 3, count: 3, total_user: 2 } });
  });
});

describe('the export', () => {
  it('a CSV of the table: a row per period, a total row, Japanese titles, the file named by statistic and days', async () => {
    const r = await get(`/kobe/api/statistics/pass-purchases/export/?${RANGE}`);
    expect(r.status, r.text).toBe(200);
    expect(String(r.headers['content-type'])).toMatch(/^text\/csv/);
    expect(String(r.headers['content-disposition'])).toContain('pass-purchases_2024-03-01_2024-03-03.csv');
    expect(r.text.replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual(['期間,金額,利用者数,件数', '2024/03/01,1480,2,2', '2024/03/02,4800,1,1', '2024/03/03,120,1,1', '合計,6400,3,4']);
  });
});

describe("the spec's statistic calls answer in its words (000 3; 001 7.8, 7.14)", () => {
  beforeAll(async () => {
    await t.db.query("DELETE FROM r_voucher_usage WHERE city = 'kobe'");
    const uses = [
      { voucher: 1, user_name: 'a', amount: 1000, env: 'production', at: '2024-03-01T01:00:00Z' },
      { voucher: 1, user_name: 'a', amount: 500, env: 'production', at: '2024-03-02T01:00:00Z' },
      { voucher: 1, user_name: 'b', amount: 250, env: 'sandbox', at: '2024-03-02T23:00:00Z' }, // Tokyo 03-03
      { voucher: 2, user_name: 'c', amount: 300, env: 'production', at: '2024-03-03T15:00:00Z' }, // Tokyo 03-04
    ];
    for (const u of uses) {
      const { at, ...data } = u;
      await t.db.query('INSERT INTO r_voucher_usage (city, data, created_at) VALUES ($1, $2, $3)', ['kobe', JSON.stringify({ pass_id: 1, points: 0, is_halloween: false, ...data }), at]);
    }
  });

  it('statistics_vouchers/: a row per voucher with total_money, total_user and count; dates honoured', async () => {
    const all = (await get('/kobe/api/special-voucher/statistics_vouchers/')).body;
    expect(all).toMatchObject({ total_money: 2050, total_user: 3, count: 4, total_length: 2 });
    expect(all.content).toEqual([
      { voucher: 1, total_money: 1750, total_user: 2, count: 3, points: 0 },
      { voucher: 2, total_money: 300, total_user: 1, count: 1, points: 0 },
    ]);
    const range = (await get(`/kobe/api/special-voucher/statistics_vouchers/?${RANGE}`)).body;
    expect(range).toMatchObject({ start_date: '2024-03-01', end_date: '2024-03-03', total_money: 1750, total_user: 2, count: 3, total_length: 1 });
  });

  it('statistics_vouchers/{id}/: the uses of one voucher by user_name', async () => {
    const voucher = (await t.db.query<{ id: number }>("SELECT id FROM r_special_voucher WHERE city = 'kobe' ORDER BY id LIMIT 1"))[0].id;
    await t.db.query("UPDATE r_voucher_usage SET data = data || jsonb_build_object('voucher', $1::int) WHERE city = 'kobe' AND data->>'voucher' = '1'", [voucher]);
    const r = await get(`/kobe/api/special-voucher/statistics_vouchers/${voucher}/`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ total_money: 1750, total_user: 2, count: 3 });
    expect(r.body.content).toEqual([
      { user_name: 'a', total_money: 1500, total_user: 1, count: 2, points: 0 },
      { user_name: 'b', total_money: 250, total_user: 1, count: 1, points: 0 },
    ]);
    expect((await get('/kobe/api/special-voucher/statistics_vouchers/999999/')).status).toBe(404);
    expect((await get(`/kobe/api/special-voucher/statistics_vouchers/${voucher}/`, 'advertiser')).status).toBe(403);
  });

  it('statistics_vouchers/summary/: a row per env and the overall totals', async () => {
    const r = (await get(`/kobe/api/special-voucher/statistics_vouchers/summary/?${RANGE}`)).body;
    expect(r).toMatchObject({ total_money: 1750, total_user: 2, count: 3 });
    expect(r.content).toEqual([
      { env: 'production', total_money: 1500, total_user: 1, count: 2, points: 0 },
      { env: 'sandbox', total_money: 250, total_user: 1, count: 1, points: 0 },
    ]);
  });

  it('purchase/transaction/total/: totals and a row per env for the dates, platform, status, search and user_name', async () => {
    const r = (await get(`/kobe/api/purchase/transaction/total/?${RANGE}`)).body;
    expect(r).toMatchObject({ total_money: 6400, total_user: 3, count: 4 });
    expect(r.content).toEqual([
      { env: 'sandbox', total_money: 4800, total_user: 1, count: 1 },
      { env: 'production', total_money: 1600, total_user: 3, count: 3 },
    ]);
    const other = (await get('/kobe/api/purchase/transaction/total/?start_date=2024-02-27&end_date=2024-02-29')).body;
    expect(other).toMatchObject({ total_money: 500, total_user: 2, count: 2 });
    expect((await get(`/kobe/api/purchase/transaction/total/?${RANGE}&platform=ios&status=purchased`)).body).toMatchObject({ total_money: 480, total_user: 1, count: 1 });
    expect((await get(`/kobe/api/purchase/transaction/total/?${RANGE}&user_name=a`)).body).toMatchObject({ total_money: 5280, total_user: 1, count: 2 });
    expect((await get(`/kobe/api/purchase/transaction/total/?${RANGE}&search=T1`)).body).toMatchObject({ total_money: 1000, count: 1 });
    expect((await get('/kobe/api/purchase/transaction/total/?start_date=2024-13-01')).status).toBe(400);
  });

  it('manager/purchases/total/: the Advertiser’s own shops, a row per menu item', async () => {
    const r = (await get(`/kobe/api/manager/purchases/total/?${RANGE}`, 'advertiser')).body;
    expect(r).toMatchObject({ total_price: 1000, quantity: 2, count: 2, total_user: 2 });
    expect(r.content).toEqual([{ menu_item: 1, menu_name: 'カレー', total_price: 1000, quantity: 2, count: 2, total_user: 2 }]);
  });

  it('survey/summary_surveys/: a row per age group', async () => {
    await t.db.query("DELETE FROM r_survey WHERE city = 'kobe'");
    for (const [age, amount, at] of [['20s', 1000, '2024-03-01T01:00:00Z'], ['20s', 500, '2024-03-02T01:00:00Z'], ['30s', 2000, '2024-03-02T01:00:00Z']] as const) {
      await t.db.query('INSERT INTO r_survey (city, data, created_at) VALUES ($1, $2, $3)', ['kobe', JSON.stringify({ username: `u${amount}`, age_group: age, amount, visit_count: 1, satisfaction: 4 }), at]);
    }
    const r = (await get(`/kobe/api/survey/summary_surveys/?${RANGE}`)).body;
    expect(r).toMatchObject({ count: 3, amount: 3500, visit_count: 3, satisfaction: 12, total_user: 3 });
    expect(r.content).toEqual([
      { age_group: '20s', count: 2, amount: 1500, visit_count: 2, satisfaction: 8, total_user: 2 },
      { age_group: '30s', count: 1, amount: 2000, visit_count: 1, satisfaction: 4, total_user: 1 },
    ]);
  });
});
