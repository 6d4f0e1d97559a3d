/**
 * Own-row limits (docs/architecture.md 'One set of permission rules'; 000 6: an Advertiser works on its own shops, a President and
 * a Teacher in their school, a Teacher also in its group and classes), declared by `x-resource.owner`
 * and enforced in the repositories: lists answer only own rows, another shop's or school's row answers
 * 404 (like another city's), a create or update naming another one answers 403. On PGlite, and on
 * PostgreSQL when DATABASE_URL is set (tests/unit/server/helpers.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '../../../src/shared/registry';
import { createRecord } from '../../../src/server/repositories/resource-repository';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;
let admin: Record<string, string>;
let shop: Record<string, string>;
let president: Record<string, string>;
let teacher: Record<string, string>;
let captain: Record<string, string>;
let operator: Record<string, string>;
const ids = { cuMine: 0, cuOther: 0, clubMine: 0, clubOther: 0, itemA: 0, itemB: 0, lockerA: 0, lockerB: 0, purchaseA: 0, purchaseB: 0, adA: 0, adB: 0, couponA: 0, couponB: 0, jobA: 0, jobB: 0, timeB: 0, schoolA: 0, schoolB: 0, groupA: 0, classA1: 0, classA2: 0, classB: 0 };

async function make(resource: string, record: Record<string, unknown>): Promise<number> {
  const row = await createRecord(t.db, getResource(resource), 'kobe', record, { userId: null }, { trusted: true });
  return Number(row.id);
}

function couponOf(advertisement: number, title: string): Record<string, unknown> {
  const { image: _image, genre: _genre, ...example } = getResource('coupon').examples[0];
  return { ...example, title, advertisement };
}

beforeAll(async () => {
  t = await createTestApp();
  ids.adA = await make('advertisement', { name: '自店 A' });
  ids.adB = await make('advertisement', { name: '他店 B' });
  ids.couponA = await make('coupon', couponOf(ids.adA, '自店のクーポン'));
  ids.couponB = await make('coupon', couponOf(ids.adB, '他店のクーポン'));
  ids.jobA = await make('work_recruitment', { ...getResource('work_recruitment').examples[0], advertisement: ids.adA });
  ids.jobB = await make('work_recruitment', { ...getResource('work_recruitment').examples[0], advertisement: ids.adB });
  ids.timeB = await make('work_parttime_time', { ...getResource('work_parttime_time').examples[0], recruitment: ids.jobB });
  ids.itemA = await make('menu_item', { ...getResource('menu_item').examples[0], advertisement: ids.adA });
  ids.itemB = await make('menu_item', { ...getResource('menu_item').examples[1], advertisement: ids.adB });
  ids.lockerA = await make('locker', { ...getResource('locker').examples[0], advertisement: ids.adA });
  ids.lockerB = await make('locker', { ...getResource('locker').examples[1], advertisement: ids.adB });
  const purchase = getResource('menu_purchase').examples[2];
  ids.purchaseA = await make('menu_purchase', { ...purchase, advertisement: ids.adA, menu_item: ids.itemA });
  ids.purchaseB = await make('menu_purchase', { ...purchase, advertisement: ids.adB, menu_item: ids.itemB });
  // The demo Captain's club_user row has his username (the seed's first club_user example does too).
  ids.cuMine = await make('club_user', { username: 'captain', name: '部長 次郎', is_captain_department: true });
  ids.cuOther = await make('club_user', { username: 'other_captain', name: '他部 部長', is_captain_department: true });
  ids.clubMine = await make('club', { name: '自分の部', captain: ids.cuMine, members: [ids.cuMine] });
  ids.clubOther = await make('club', { name: '他の部', captain: ids.cuOther, members: [ids.cuOther] });
  ids.schoolA = await make('school', { name: '自校' });
  ids.schoolB = await make('school', { name: '他校' });
  ids.groupA = await make('school_group', { name: '1年生', school: ids.schoolA });
  ids.classA1 = await make('school_class', { name: '1年1組', school: ids.schoolA, school_group: ids.groupA });
  ids.classA2 = await make('school_class', { name: '1年2組', school: ids.schoolA, school_group: ids.groupA });
  ids.classB = await make('school_class', { name: '他校1組', school: ids.schoolB });
  await t.db.query('UPDATE users SET advertisements = $1::int[] WHERE username = $2', [[ids.adA], 'advertiser']);
  await t.db.query('UPDATE users SET school = $1 WHERE username = $2', [ids.schoolA, 'president']);
  await t.db.query('UPDATE users SET school = $1, grp = $2, classes = $3::int[] WHERE username = $4', [ids.schoolA, ids.groupA, [ids.classA1], 'teacher']);
  admin = bearer(await login(t.app, 'administrator'));
  shop = bearer(await login(t.app, 'advertiser'));
  president = bearer(await login(t.app, 'president'));
  teacher = bearer(await login(t.app, 'teacher'));
  captain = bearer(await login(t.app, 'captain'));
  operator = bearer(await login(t.app, 'operator'));
});
afterAll(() => t?.close());

async function req(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) {
  const r = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return { status: r.statusCode, body: r.body ? (r.json() as Record<string, unknown>) : {} };
}

describe('an Advertiser works on its own shops (x-resource.owner advertisements)', () => {
  it('lists only the coupons and shops of its advertisements; the Administrator sees all', async () => {
    const mine = await req('GET', '/kobe/api/coupon/?limit=100', shop);
    expect(mine.status).toBe(200);
    const rows = mine.body.content as Array<{ id: number; advertisement: number }>;
    expect(rows.map((r) => r.id)).toContain(ids.couponA);
    expect(rows.every((r) => r.advertisement === ids.adA)).toBe(true);
    expect(mine.body.total_length).toBe(rows.length);
    const all = await req('GET', '/kobe/api/coupon/?limit=100', admin);
    expect((all.body.content as Array<{ id: number }>).map((r) => r.id)).toEqual(expect.arrayContaining([ids.couponA, ids.couponB]));
    const shops = await req('GET', '/kobe/api/operator-advertisement/?limit=100', shop);
    expect((shops.body.content as Array<{ id: number }>).map((r) => r.id)).toEqual([ids.adA]);
  });

  it('answers 404 for another shop\'s row, on read, update, delete and actions', async () => {
    expect((await req('GET', `/kobe/api/coupon/${ids.couponB}/`, shop)).status).toBe(404);
    expect((await req('PUT', `/kobe/api/coupon/${ids.couponB}/`, shop, couponOf(ids.adA, '乗っ取り'))).status).toBe(404);
    expect((await req('DELETE', `/kobe/api/coupon/${ids.couponB}/`, shop)).status).toBe(404);
    expect((await req('PUT', `/kobe/api/advertisements/${ids.adB}/`, shop, { name: '他店 B' })).status).toBe(404);
    expect((await req('GET', `/kobe/api/coupon/${ids.couponB}/`, admin)).status).toBe(200);
  });

  it('answers 403 for a create or an update naming another shop, and accepts its own', async () => {
    expect((await req('POST', '/kobe/api/coupon/', shop, couponOf(ids.adB, '他店名義'))).status).toBe(403);
    const created = await req('POST', '/kobe/api/coupon/', shop, couponOf(ids.adA, '新しいクーポン'));
    expect(created.status).toBe(201);
    expect(created.body.advertisement).toBe(ids.adA);
    expect((await req('PUT', `/kobe/api/coupon/${ids.couponA}/`, shop, couponOf(ids.adB, '移し替え'))).status).toBe(403);
    const kept = await req('PUT', `/kobe/api/coupon/${ids.couponA}/`, shop, couponOf(ids.adA, '自店のクーポン（改）'));
    expect(kept.status).toBe(200);
    expect(kept.body.title).toBe('自店のクーポン（改）');
  });
});

describe('an Advertiser works on the job rows of its shops\' recruitments (owner through recruitment)', () => {
  it('lists and changes only the times of its own recruitments', async () => {
    const time = { ...getResource('work_parttime_time').examples[0] };
    expect((await req('POST', '/kobe/api/work/parttime_time/', shop, { ...time, recruitment: ids.jobB })).status).toBe(403);
    const created = await req('POST', '/kobe/api/work/parttime_time/', shop, { ...time, recruitment: ids.jobA });
    expect(created.status).toBe(201);
    const listed = await req('GET', '/kobe/api/work/parttime_time/?limit=100', shop);
    expect((listed.body.content as Array<{ recruitment: number }>).map((r) => r.recruitment)).toEqual([ids.jobA]);
    expect((await req('PUT', `/kobe/api/work/parttime_time/${ids.timeB}/`, shop, { ...time, recruitment: ids.jobA })).status).toBe(404);
    expect((await req('DELETE', `/kobe/api/work/parttime_time/${ids.timeB}/`, shop)).status).toBe(404);
    expect((await req('PUT', `/kobe/api/work/parttime_time/${created.body.id}/`, shop, { ...time, recruitment: ids.jobB })).status).toBe(403);
    const all = await req('GET', '/kobe/api/work/parttime_time/?limit=100', admin);
    expect((all.body.content as Array<{ id: number }>).map((r) => r.id)).toContain(ids.timeB);
  });
});

describe('a President and a Teacher work in their school (x-resource.owner school, group, classes)', () => {
  it('lists only its school and answers 404 for another one', async () => {
    const schools = await req('GET', '/kobe/api/school/?limit=100', president);
    expect((schools.body.content as Array<{ id: number }>).map((r) => r.id)).toEqual([ids.schoolA]);
    expect((await req('GET', `/kobe/api/school/${ids.schoolB}/`, president)).status).toBe(404);
    expect((await req('PUT', `/kobe/api/school/${ids.schoolB}/`, president, { name: '他校' })).status).toBe(404);
    const renamed = await req('PUT', `/kobe/api/school/${ids.schoolA}/`, president, { name: '自校（新）' });
    expect(renamed.status).toBe(200);
  });

  it('adds groups to its own school only, and refuses a class of another school', async () => {
    expect((await req('POST', `/kobe/api/school/${ids.schoolA}/add_group/`, president, { name: '2年生' })).status).toBe(201);
    expect((await req('POST', `/kobe/api/school/${ids.schoolB}/add_group/`, president, { name: '2年生' })).status).toBe(404);
    expect((await req('GET', `/kobe/api/class/${ids.classB}/`, president)).status).toBe(404);
    expect((await req('GET', `/kobe/api/class/${ids.classA2}/`, president)).status).toBe(200);
  });

  it('limits a Teacher to its classes, and refuses moving one to another school', async () => {
    expect((await req('GET', `/kobe/api/class/${ids.classA1}/`, teacher)).status).toBe(200);
    expect((await req('GET', `/kobe/api/class/${ids.classA2}/`, teacher)).status).toBe(404);
    expect((await req('GET', `/kobe/api/class/${ids.classB}/`, teacher)).status).toBe(404);
    const moved = await req('PUT', `/kobe/api/class/${ids.classA1}/`, teacher, { name: '1年1組', school: ids.schoolB });
    expect(moved.status).toBe(403);
    const kept = await req('PUT', `/kobe/api/class/${ids.classA1}/`, teacher, { name: '1年1組（担任）', school: ids.schoolA, school_group: ids.groupA });
    expect(kept.status).toBe(200);
  });
});

describe('an Advertiser works on the menu items, purchases and lockers of its shops (owner advertisement)', () => {
  const cases = [
    { name: 'menu items', path: '/kobe/api/manager/menu_items/', mine: () => ids.itemA, other: () => ids.itemB },
    { name: 'purchases', path: '/kobe/api/manager/purchases/', mine: () => ids.purchaseA, other: () => ids.purchaseB },
    { name: 'lockers', path: '/kobe/api/manager/lockers/', mine: () => ids.lockerA, other: () => ids.lockerB },
  ];
  for (const c of cases) {
    it(`lists and reads only its own ${c.name}; the Operator sees all`, async () => {
      const mine = await req('GET', `${c.path}?limit=100`, shop);
      expect(mine.status).toBe(200);
      const rows = mine.body.content as Array<{ id: number; advertisement: number }>;
      expect(rows.map((r) => r.id)).toContain(c.mine());
      expect(rows.every((r) => r.advertisement === ids.adA)).toBe(true);
      expect((await req('GET', `${c.path}${c.other()}/`, shop)).status).toBe(404);
      expect((await req('GET', `${c.path}${c.mine()}/`, shop)).status).toBe(200);
      const all = await req('GET', `${c.path}?limit=100`, operator);
      expect((all.body.content as Array<{ id: number }>).map((r) => r.id)).toEqual(expect.arrayContaining([c.mine(), c.other()]));
    });
  }

  it('sums only its own purchases', async () => {
    const total = await req('GET', '/kobe/api/manager/purchases/total/', shop);
    expect(total.status).toBe(200);
    const own = await req('GET', '/kobe/api/manager/purchases/?limit=1000', shop);
    const rows = own.body.content as Array<{ total_price: number }>;
    expect(total.body.count).toBe(rows.length);
    // The statistic call answers in the words of 000 3 (../../src/server/statistics/spec-calls.ts).
    expect(total.body.total_price).toBe(rows.reduce((n, r) => n + r.total_price, 0));
    const all = await req('GET', '/kobe/api/manager/purchases/total/', operator);
    expect(all.body.count as number).toBeGreaterThan(rows.length);
  });

  it('creates and changes menu items and lockers of its own shops only', async () => {
    const item = { ...getResource('menu_item').examples[0] };
    expect((await req('POST', '/kobe/api/manager/menu_items/', shop, { ...item, advertisement: ids.adB })).status).toBe(403);
    const { advertisement: _ad, ...withoutShop } = item;
    expect((await req('POST', '/kobe/api/manager/menu_items/', shop, withoutShop)).status).not.toBe(201);
    const created = await req('POST', '/kobe/api/manager/menu_items/', shop, { ...item, advertisement: ids.adA });
    expect(created.status).toBe(201);
    expect((await req('PUT', `/kobe/api/manager/menu_items/${ids.itemB}/`, shop, { ...item, advertisement: ids.adA })).status).toBe(404);
    expect((await req('DELETE', `/kobe/api/manager/menu_items/${ids.itemB}/`, shop)).status).toBe(404);
    expect((await req('PUT', `/kobe/api/manager/menu_items/${ids.itemA}/`, shop, { ...item, advertisement: ids.adB })).status).toBe(403);
    const locker = { ...getResource('locker').examples[0] };
    expect((await req('POST', '/kobe/api/manager/lockers/', shop, { ...locker, advertisement: ids.adB })).status).toBe(403);
    expect((await req('PUT', `/kobe/api/manager/lockers/${ids.lockerB}/`, shop, { ...locker, advertisement: ids.adA })).status).toBe(404);
    const renamed = await req('PUT', `/kobe/api/manager/lockers/${ids.lockerA}/`, shop, { ...locker, name: 'A-99', advertisement: ids.adA });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('A-99');
  });
});

describe('a Captain reads and sets only his own clubs, at captain_departments (owner captain through username)', () => {
  it('lists only the clubs whose captain has his username', async () => {
    const listed = await req('GET', '/kobe/api/group_chat/captain_departments/?limit=100', captain);
    expect(listed.status).toBe(200);
    const rows = listed.body.content as Array<{ id: number; captain: number }>;
    expect(rows.map((r) => r.id)).toContain(ids.clubMine);
    expect(rows.map((r) => r.id)).not.toContain(ids.clubOther);
    const mineUsers = await req('GET', '/kobe/api/group_chat/users/?search=captain&limit=100', captain);
    const captainIds = (mineUsers.body.content as Array<{ id: number; username: string }>).filter((u) => u.username === 'captain').map((u) => u.id);
    expect(rows.every((r) => captainIds.includes(r.captain))).toBe(true);
  });

  it('updates his own club, not another one, and cannot hand it to another captain', async () => {
    const body = { name: '自分の部（改）', captain: ids.cuMine, members: [ids.cuMine] };
    const kept = await req('PUT', `/kobe/api/group_chat/captain_departments/${ids.clubMine}/`, captain, body);
    expect(kept.status).toBe(200);
    expect(kept.body.name).toBe('自分の部（改）');
    expect((await req('PUT', `/kobe/api/group_chat/captain_departments/${ids.clubOther}/`, captain, { ...body, captain: ids.cuOther })).status).toBe(404);
    expect((await req('PUT', `/kobe/api/group_chat/captain_departments/${ids.clubMine}/`, captain, { ...body, captain: ids.cuOther })).status).toBe(403);
  });

  it('gets 403 on the operator paths of the same clubs, which the Operator still uses', async () => {
    expect((await req('GET', '/kobe/api/group_chat/operator_departments/', captain)).status).toBe(403);
    expect((await req('GET', '/kobe/api/group_chat/operator_departments/qr_club_code/', captain)).status).toBe(403);
    expect((await req('GET', `/kobe/api/group_chat/operator_departments/${ids.clubMine}/`, captain)).status).toBe(403);
    expect((await req('PUT', `/kobe/api/group_chat/operator_departments/${ids.clubMine}/`, captain, { name: '乗っ取り', captain: ids.cuMine })).status).toBe(403);
    const all = await req('GET', '/kobe/api/group_chat/operator_departments/?limit=100', operator);
    expect(all.status).toBe(200);
    expect((all.body.content as Array<{ id: number }>).map((r) => r.id)).toEqual(expect.arrayContaining([ids.clubMine, ids.clubOther]));
    expect((await req('PUT', `/kobe/api/group_chat/operator_departments/${ids.clubOther}/`, operator, { name: '他の部', captain: ids.cuOther })).status).toBe(200);
  });
});
