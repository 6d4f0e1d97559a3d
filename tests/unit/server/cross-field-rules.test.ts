// Cross-field rules of 000 §5 on the server, through Fastify inject on a real database: a bad write
// answers 400 with `fields.<name>` holding the spec's message (Japanese by default, English on
// request), a good one is stored. Rules against read-only server fields compare with the stored row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '../../../src/shared/registry';
import { tableName } from '../../../src/server/db/resource-tables';
import { sampleRecord } from '../../../scripts/lib/sample-record';
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

type Json = Record<string, unknown>;
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url, headers: { ...bearer(operator), ...headers }, ...(payload !== undefined ? { payload } : {}) });
}

/** The id of the first stored row of `resource` in kobe. */
async function firstId(resource: string): Promise<number> {
  const rows = await t.db.query<{ id: number }>(`SELECT id FROM ${tableName(getResource(resource))} WHERE city = 'kobe' ORDER BY id LIMIT 1`);
  return Number(rows[0].id);
}

/** A valid body of `resource` (a sample record with real references of kobe) changed by `patch`. */
async function body(resource: string, patch: Json): Promise<Json> {
  const def = getResource(resource);
  const out: Json = { ...sampleRecord(def, 1) };
  for (const [field, prop] of Object.entries(def.schema.properties)) {
    if (prop['x-ref'] && field in out) out[field] = await firstId(prop['x-ref']);
    if (prop['x-upload']) delete out[field];
  }
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Sets a read-only server field of a stored row (as the server's own counting would). */
async function setServerField(resource: string, id: number, field: string, value: number): Promise<void> {
  await t.db.query(`UPDATE ${tableName(getResource(resource))} SET data = jsonb_set(data, $2, $3::jsonb) WHERE id = $1`, [id, `{${field}}`, JSON.stringify(value)]);
}

describe('declared cross-field rules answer 400 with the field and the message', () => {
  it('time sale periods must be continuous', async () => {
    const bad = await call('POST', '/kobe/api/timesale/', await body('timesale', { periods: [{ start: at(1), end: at(2) }, { start: at(3), end: at(4) }] }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.periods).toEqual(['期間は連続させてください（各期間の開始は前の期間の終了と同じ日時にしてください）。']);
    const good = await call('POST', '/kobe/api/timesale/', await body('timesale', { periods: [{ start: at(1), end: at(2) }, { start: at(2), end: at(4) }] }));
    expect(good.statusCode, good.body).toBe(201);
  });

  it('coupon end not after the discount day (English on request)', async () => {
    const bad = await call('POST', '/kobe/api/coupon/', await body('coupon', { start_date: at(1), end_date: at(6), discount_day: at(5) }), { 'accept-language': 'en' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.end_date).toEqual(['The end must not be later than the discount day.']);
    const good = await call('POST', '/kobe/api/coupon/', await body('coupon', { start_date: at(1), end_date: at(5), discount_day: at(5) }));
    expect(good.statusCode, good.body).toBe(201);
  });

  it('a job with a salary range needs its upper bound', async () => {
    const bad = await call('POST', '/kobe/api/work/recruitment/', await body('work_recruitment', { salary_range: 'range', salary_min: 1000, salary_max: undefined }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ salary_max: ['給与を範囲で指定する場合は上限を入力してください。'] });
    const good = await call('POST', '/kobe/api/work/recruitment/', await body('work_recruitment', { salary_range: 'no_range', salary_min: 1000, salary_max: undefined }));
    expect(good.statusCode, good.body).toBe(201);
  });

  it('a voucher owner must be a user of the city', async () => {
    const url = '/kobe/api/special-voucher/vouchers/';
    const bad = await call('POST', url, await body('special_voucher', { owner: 'nobody_such_user' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.owner).toEqual(['所有者のユーザーが存在しません。']);
    const other = await call('POST', url, await body('special_voucher', { owner: 'member' })); // a user of cippoweb only
    expect(other.statusCode).toBe(400);
    expect(other.json().fields.owner).toEqual(['所有者のユーザーが存在しません。']);
    const good = await call('POST', url, await body('special_voucher', { owner: 'advertiser' }));
    expect(good.statusCode, good.body).toBe(201);
  });

  it('a voucher number may not go below the count already shared (the stored server field)', async () => {
    const created = await call('POST', '/kobe/api/special-voucher/vouchers/', await body('special_voucher', { owner: 'advertiser', number: 100 }));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    await setServerField('special_voucher', id, 'shared_count', 40);
    const url = `/kobe/api/special-voucher/vouchers/${id}/`;
    const bad = await call('PUT', url, { ...created.json(), number: 39, shared_count: 0, version: undefined });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ number: ['発行数は配布済みの数以上にしてください。'] });
    const good = await call('PUT', url, { ...created.json(), number: 40, version: undefined });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ number: 40, shared_count: 40 });
  });

  it('a time sale limit must exceed the count already taken (strictly)', async () => {
    const created = await call('POST', '/kobe/api/common-timesales/admin/dashboard/advertisements/', await body('common_timesale_ad', { coupon_count: 20 }));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    await setServerField('common_timesale_ad', id, 'taken_count', 10);
    const url = `/kobe/api/common-timesales/admin/dashboard/advertisements/${id}/`;
    const equal = await call('PUT', url, { ...created.json(), coupon_count: 10, version: undefined });
    expect(equal.statusCode).toBe(400);
    expect(equal.json().fields).toEqual({ coupon_count: ['上限は取得済みの枚数より大きくしてください。'] });
    const good = await call('PUT', url, { ...created.json(), coupon_count: 11, version: undefined });
    expect(good.statusCode, good.body).toBe(200);
  });
});
