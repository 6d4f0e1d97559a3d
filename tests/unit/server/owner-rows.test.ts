/**
 * Own-row limits (issue 4 One rule set; 000 6: an Advertiser works on its own shops, a President and
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
const ids = { adA: 0, adB: 0, couponA: 0, couponB: 0, jobA: 0, jobB: 0, timeB: 0, schoolA: 0, schoolB: 0, groupA: 0, classA1: 0, classA2: 0, classB: 0 };

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
