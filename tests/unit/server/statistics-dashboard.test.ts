// The dashboard's call GET /{city}/api/statistics/dashboard/ (000 2.2 dashboard; 000 6 own rows):
// an Operator's city figures on a hand-made data set of akita (a city without demo rows), with Tokyo
// days across midnight UTC, the previous 30 days and the daily series computed here; an Advertiser's
// shop figures (its shops only); the refusals. On PGlite, and on PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/shared/constants';
import { createI18n } from '../../../src/shared/i18n';
import { routeEntriesFor } from '../../../src/shared/manifest';
import { getResource } from '../../../src/shared/registry';
import { loadManifests } from '../../../src/server/manifests';
import { tableName } from '../../../src/server/db/resource-tables';
import { DASHBOARD_FIGURES } from '../../../src/server/statistics/dashboard-figures';
import type { DashboardAnswer, DashboardFigure } from '../../../src/shared/dashboard';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let operator: Session;
let advertiser: Session;

const END = '2025-03-31';
const START = '2025-03-02';
const PREVIOUS_START = '2025-01-31';

/** The Tokyo day of an instant (Japan has no daylight saving time: UTC+9). */
const tokyoDay = (iso: string) => new Date(Date.parse(iso) + 9 * 3_600_000).toISOString().slice(0, 10);
const DAYS = Array.from({ length: 30 }, (_, i) => new Date(Date.parse(`${START}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
const inPeriod = (iso: string) => tokyoDay(iso) >= START && tokyoDay(iso) <= END;
const inPrevious = (iso: string) => tokyoDay(iso) >= PREVIOUS_START && tokyoDay(iso) < START;

interface Row {
  at: string;
  data: Record<string, unknown>;
}

/** Rows made by hand: instants on both sides of the Tokyo midnights that bound the periods. */
const PURCHASES: Row[] = [
  { at: '2025-03-01T15:10:00Z', data: { amount: 480, status: 'purchased' } }, // 2025-03-02 00:10 in Tokyo: first day
  { at: '2025-03-01T14:50:00Z', data: { amount: 1500, status: 'purchased' } }, // 2025-03-01 23:50: previous period
  { at: '2025-03-31T14:59:00Z', data: { amount: 4800, status: 'purchased' } }, // last day, 23:59
  { at: '2025-03-31T15:01:00Z', data: { amount: 480, status: 'purchased' } }, // 2025-04-01: after the period
  { at: '2025-03-10T03:00:00Z', data: { amount: 480, status: 'refunded' } }, // not sold
  { at: '2025-01-30T16:00:00Z', data: { amount: 1500, status: 'purchased' } }, // 2025-01-31 01:00: previous period's first day
];
const PASSPORTS: Row[] = [{ at: '2025-03-15T01:00:00Z', data: { amount: 1000, status: 'purchased' } }];
const COUPONS: Row[] = [
  { at: '2025-03-03T02:00:00Z', data: { used_count: 2 } },
  { at: '2025-02-10T02:00:00Z', data: { used_count: 1 } },
];
const PUSHES: Row[] = [
  { at: '2025-03-05T02:00:00Z', data: { push_status: 'sent' } },
  { at: '2025-03-06T02:00:00Z', data: { push_status: 'sent' } },
  { at: '2025-03-06T03:00:00Z', data: { push_status: 'queued' } },
  { at: '2025-02-06T03:00:00Z', data: { push_status: 'sent' } },
];
const REPORTS: Row[] = [
  { at: '2025-01-15T02:00:00Z', data: { read: false } }, // open since before both periods
  { at: '2025-03-19T16:00:00Z', data: { read: false } }, // 2025-03-20 01:00 in Tokyo
  { at: '2025-03-21T02:00:00Z', data: { read: true } },
];
const MEMBERS = ['2025-03-04T02:00:00Z', '2025-03-04T03:00:00Z', '2025-02-04T02:00:00Z', '2025-04-02T02:00:00Z'];

async function insert(resource: string, city: string, rows: Row[], base: Record<string, unknown>): Promise<void> {
  const def = getResource(resource);
  for (const r of rows) {
    await t.db.query(`INSERT INTO ${tableName(def)} (city, data, created_at, updated_at) VALUES ($1, $2::jsonb, $3, $3)`, [city, JSON.stringify({ ...base, ...r.data }), r.at]);
  }
}

beforeAll(async () => {
  t = await createTestApp();
  const purchase = { transaction_id: 'T1', user_name: 'akita_1', platform: 'ios', env: 'production', package_id: 'jp.city.bal_pass.monthly' };
  await insert('purchase_transaction', 'akita', PURCHASES, purchase);
  await insert('passport_transaction', 'akita', PASSPORTS, { ...purchase, is_halloween: false });
  await insert('coupon_usage', 'akita', COUPONS, { common_timesale: 1, advertisement: 1, ad_name: '店', user_name: 'akita_1' });
  await insert('notification', 'akita', PUSHES, { title: 'お知らせ', body: '本文', type: 'all', read: false });
  await insert('dish_report', 'akita', REPORTS, { target_type: 'dish', target_id: 1, target_name: '料理', shop_name: '店', reason: 'spam', reporter: 'r' });
  const [{ id: akita }] = await t.db.query<{ id: number }>("SELECT id FROM cities WHERE name = 'akita'");
  for (const [i, at] of MEMBERS.entries()) {
    await t.db.query("INSERT INTO users (username, password_hash, permission, assign_city, created_at) VALUES ($1, '', 'Member', $2::int[], $3)", [`akita_member_${i}`, [akita], at]);
  }
  [operator, advertiser] = await Promise.all([login(t.app, 'operator-akita'), login(t.app, 'advertiser')]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function dashboard(session: Session | null, city: string, query = `?end_date=${END}`) {
  return t.app.inject({ url: `/${city}/api/statistics/dashboard/${query}`, headers: session ? bearer(session) : {} });
}

function figureOf(answer: DashboardAnswer, key: string): DashboardFigure {
  const f = answer.figures.find((x) => x.key === key);
  if (!f) throw new Error(`no figure ${key} in ${answer.figures.map((x) => x.key).join(', ')}`);
  return f;
}

/** What a flow figure must be over the hand-made rows: in the period, the previous one, per day. */
function expectedFlow(rows: Row[], amount: (r: Row) => number = () => 1) {
  const sum = (keep: (r: Row) => boolean) => rows.filter(keep).reduce((n, r) => n + amount(r), 0);
  return {
    value: sum((r) => inPeriod(r.at)),
    previous: sum((r) => inPrevious(r.at)),
    series: DAYS.map((d) => sum((r) => tokyoDay(r.at) === d)),
  };
}

describe("an Operator's dashboard: the city's figures of the last 30 days", () => {
  let answer: DashboardAnswer;
  beforeAll(async () => {
    const r = await dashboard(operator, 'akita');
    expect(r.statusCode, r.body).toBe(200);
    answer = r.json();
  });

  it('answers the period and every city figure the Operator may read, in order', () => {
    expect(answer).toMatchObject({ scope: 'city', start_date: START, end_date: END });
    expect(answer.figures.map((f) => f.key)).toEqual(DASHBOARD_FIGURES.city.map((f) => f.key));
    for (const f of answer.figures) {
      expect(f.series).toHaveLength(30);
      expect(f.label).toBe(`dashboard.figure.${f.key}`);
    }
  });

  it('counts passes sold and their revenue in Tokyo days, purchases and passports, without refunds', () => {
    const sold = [...PURCHASES, ...PASSPORTS].filter((r) => r.data.status === 'purchased');
    expect(figureOf(answer, 'passes_sold')).toMatchObject({ ...expectedFlow(sold), format: 'number' });
    expect(figureOf(answer, 'pass_revenue')).toMatchObject({ ...expectedFlow(sold, (r) => Number(r.data.amount)), format: 'yen' });
    // by hand: 480 on 03-02 and 4800 on 03-31, 1000 on 03-15; before: 1500 + 1500
    expect(figureOf(answer, 'pass_revenue')).toMatchObject({ value: 6280, previous: 3000 });
  });

  it('sums coupon uses, counts pushes sent and new members', () => {
    expect(figureOf(answer, 'coupons_used')).toMatchObject(expectedFlow(COUPONS, (r) => Number(r.data.used_count)));
    expect(figureOf(answer, 'pushes_sent')).toMatchObject(expectedFlow(PUSHES.filter((r) => r.data.push_status === 'sent')));
    expect(figureOf(answer, 'new_members')).toMatchObject(expectedFlow(MEMBERS.map((at) => ({ at, data: {} }))));
    expect(figureOf(answer, 'new_members')).toMatchObject({ value: 2, previous: 1 });
  });

  it('counts open reports as a backlog: how many are unread at the end of each day', () => {
    const open = REPORTS.filter((r) => r.data.read === false);
    const upTo = (day: string) => open.filter((r) => tokyoDay(r.at) <= day).length;
    expect(figureOf(answer, 'open_reports')).toMatchObject({ value: upTo(END), previous: upTo('2025-03-01'), series: DAYS.map(upTo) });
    expect(figureOf(answer, 'open_reports')).toMatchObject({ value: 2, previous: 1 });
  });

  it('links each figure to a page of the Operator’s menu in the city', () => {
    const routes = new Set(routeEntriesFor('Operator', 'akita', loadManifests()).map((e) => e.route));
    const linked = answer.figures.filter((f) => f.route !== undefined);
    expect(linked.length).toBeGreaterThan(5);
    for (const f of linked) expect(routes.has(f.route)).toBe(true);
  });

  it('ends today in Tokyo without end_date', async () => {
    const r = await dashboard(operator, 'akita', '');
    expect(r.statusCode).toBe(200);
    const today = tokyoDay(new Date().toISOString());
    expect(r.json()).toMatchObject({ end_date: today });
  });
});

describe("an Advertiser's dashboard: its shops' figures only", () => {
  it('counts the menu purchases and favourites of its own shops, and no figure it may not read', async () => {
    const shops = (advertiser.body.user as { advertisements: number[] }).advertisements;
    expect(shops.length).toBeGreaterThan(0);
    const [other] = await t.db.query<{ id: number }>("SELECT id FROM r_advertisement WHERE city = 'kobe' AND NOT (id = ANY($1::bigint[])) ORDER BY id LIMIT 1", [shops]);
    const purchase = (advertisement: number, total: number): Record<string, unknown> => ({ advertisement, menu_name: '明石焼き', quantity: 1, unit_price: total, total_price: total, status: 'paid' });
    const mine: Row[] = [
      { at: '2025-03-10T03:00:00Z', data: purchase(shops[0], 700) },
      { at: '2025-03-31T14:30:00Z', data: purchase(shops[0], 1400) },
      { at: '2025-02-10T03:00:00Z', data: purchase(shops[0], 500) },
    ];
    const theirs: Row[] = [{ at: '2025-03-10T03:00:00Z', data: purchase(Number(other.id), 9000) }];
    await insert('menu_purchase', 'kobe', [...mine, ...theirs], {});
    await insert('favorite_ad', 'kobe', [{ at: '2025-03-11T03:00:00Z', data: { advertisement: shops[0] } }, { at: '2025-03-11T03:00:00Z', data: { advertisement: Number(other.id) } }], { user_name: 'fan', ad_name: '店' });

    const r = await dashboard(advertiser, 'kobe');
    expect(r.statusCode, r.body).toBe(200);
    const answer = r.json() as DashboardAnswer;
    expect(answer.scope).toBe('shops');
    // coupon uses and reviews are not the Advertiser's to read (000 6): left out
    expect(answer.figures.map((f) => f.key)).toEqual(['menu_purchases', 'menu_revenue', 'favourites', 'reservations', 'shop_reports']);
    expect(figureOf(answer, 'menu_purchases')).toMatchObject(expectedFlow(mine));
    expect(figureOf(answer, 'menu_revenue')).toMatchObject({ ...expectedFlow(mine, (x) => Number(x.data.total_price)), value: 2100, previous: 500, format: 'yen' });
    expect(figureOf(answer, 'favourites')).toMatchObject({ value: 1, previous: 0 });
    expect(figureOf(answer, 'menu_purchases').route).toBe(routeEntriesFor('Advertiser', 'kobe', loadManifests()).find((e) => e.statistic === 'menu-purchases')?.route);
  });
});

describe('refusals and checks', () => {
  it('answers 401 without a session, 403 in a city not the caller’s, 404 for no such city', async () => {
    expect((await dashboard(null, 'kobe')).statusCode).toBe(401);
    expect((await dashboard(operator, 'kobe')).statusCode).toBe(403);
    expect((await dashboard(operator, 'atlantis')).statusCode).toBe(404);
  });

  it('answers 400 with a field error for an end_date that is not a day', async () => {
    for (const q of ['?end_date=2025-02-30', '?end_date=tomorrow', '?other=1']) {
      const r = await dashboard(operator, 'akita', q);
      expect(r.statusCode, q).toBe(400);
      expect(r.json().code).toBe('validation');
    }
  });

  it('names every figure with a text of the four languages', () => {
    for (const lng of LANGUAGES) {
      const i18n = createI18n(lng);
      for (const f of Object.values(DASHBOARD_FIGURES).flat()) expect(i18n.exists(`dashboard.figure.${f.key}`), `${lng} ${f.key}`).toBe(true);
    }
  });

  it('answers every signed-in role: a role that may read nothing gets no figure', async () => {
    const police = await login(t.app, 'police');
    const r = await dashboard(police, 'kobe');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ scope: 'city', figures: [] });
    const president = await login(t.app, 'president');
    const school = (await dashboard(president, 'kobe', '')).json() as DashboardAnswer;
    expect(school.scope).toBe('school');
    expect(school.figures.map((f) => f.key)).toEqual(DASHBOARD_FIGURES.school.map((f) => f.key));
  });
});
