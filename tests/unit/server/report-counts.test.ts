// The report counts of the bell (001 7.9; 000 2.3, 3 Report counts): GET dish-report/notification/
// answers {dish_report_count, review_report_count}, the unread menu and review reports of the city;
// GET matching/notification/ answers {count} of unread matching reports. Real server, real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '../../../src/shared/registry';
import { tableName } from '../../../src/server/db/resource-tables';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let operator: Session;

beforeAll(async () => {
  t = await createTestApp();
  operator = await login(t.app, 'operator');
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(operator) });
const post = (url: string) => t.app.inject({ method: 'POST', url, headers: bearer(operator), payload: {} });

/** Unread rows of `resource` in `city` whose data matches `where`, counted in SQL. */
async function unread(resource: string, city: string, where: Record<string, unknown> = {}): Promise<number> {
  const rows = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${tableName(getResource(resource))} WHERE city = $1 AND data @> $2::jsonb AND NOT data @> '{"read": true}'::jsonb`,
    [city, JSON.stringify(where)],
  );
  return Number(rows[0].n);
}

async function addReport(city: string, data: Record<string, unknown>): Promise<void> {
  await t.db.query(`INSERT INTO ${tableName(getResource('dish_report'))} (city, data) VALUES ($1, $2::jsonb)`, [city, JSON.stringify(data)]);
}

describe('GET /{city}/api/dish-report/notification/', () => {
  it('answers exactly {dish_report_count, review_report_count}: the unread menu and review reports of the city', async () => {
    await addReport('kobe', { target_type: 'review', target_id: 9, target_name: '「…」', read: false });
    await addReport('fukuoka', { target_type: 'dish', target_id: 9, target_name: 'ラーメン', read: false });
    const r = await get('/kobe/api/dish-report/notification/');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(Object.keys(body).sort()).toEqual(['dish_report_count', 'review_report_count']);
    expect(body).toEqual({
      dish_report_count: await unread('dish_report', 'kobe', { target_type: 'dish' }),
      review_report_count: await unread('dish_report', 'kobe', { target_type: 'review' }),
    });
    expect(body.review_report_count).toBeGreaterThan(0);
  });

  it('marking the reports read resets both counts; a new report counts again', async () => {
    expect((await post('/kobe/api/dish-report/read/')).statusCode).toBe(200);
    expect((await get('/kobe/api/dish-report/notification/')).json()).toEqual({ dish_report_count: 0, review_report_count: 0 });
    await addReport('kobe', { target_type: 'dish', target_id: 3, target_name: 'カレー', read: false });
    expect((await get('/kobe/api/dish-report/notification/')).json()).toEqual({ dish_report_count: 1, review_report_count: 0 });
    expect((await get('/fukuoka/api/dish-report/notification/')).json().dish_report_count).toBe(await unread('dish_report', 'fukuoka', { target_type: 'dish' }));
  });
});

describe('GET /{city}/api/matching/notification/', () => {
  it('answers exactly {count}: the unread matching reports of the city', async () => {
    const r = await get('/kobe/api/matching/notification/');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ count: await unread('matching_report', 'kobe') });
    expect((await post('/kobe/api/matching/read/')).statusCode).toBe(200);
    expect((await get('/kobe/api/matching/notification/')).json()).toEqual({ count: 0 });
  });
});
