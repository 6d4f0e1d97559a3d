/**
 * Field permissions on the writes that are not create or update (docs/architecture.md 'Field
 * permissions'): the actions that write fields of a row (set with and without body fields, toggle,
 * set-all, bulk-update, create-child) and the singleton upserts go through the one check of
 * create and update (src/server/revisions/field-access.ts `checkFieldWrites`): a change of a field
 * the role may not write is a 403 naming it, the unchanged value passes, and a field a PUT leaves out
 * keeps its stored value. On the test-only schemas (fixtures/test-resources.ts) with field rules
 * added here: the Operator may update the rows but not write the fields below. PGlite, and
 * PostgreSQL when DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry, type ResourceSchema } from '../../../src/shared/registry';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';
import { TEST_SCHEMAS } from './fixtures/test-resources';

const ADMIN_ONLY = { 'x-permissions': { write: ['Administrator'] } };

/** The test schemas with field rules: t_ad's status, picked and note, t_coupon's title, t_setting's notice. */
function fieldRuleRegistry() {
  const schemas = structuredClone(TEST_SCHEMAS) as ResourceSchema[];
  const of = (name: string) => schemas.find((s) => s.$id === name)!;
  const props = (name: string) => of(name).properties as unknown as Record<string, Record<string, unknown>>;
  for (const f of ['status', 'picked', 'note']) Object.assign(props('t_ad')[f], ADMIN_ONLY);
  Object.assign(props('t_coupon').title, ADMIN_ONLY);
  Object.assign(props('t_setting').notice, ADMIN_ONLY);
  of('t_ad')['x-resource'].actions!.push(
    { name: 'set_note', method: 'PUT', path: '/{city}/api/t-ads/{id}/note/', kind: 'set', permission: 'update', fields: ['note'] },
    { name: 'bulk_note', method: 'PUT', path: '/{city}/api/t-ads/bulk-note/', kind: 'bulk-update', permission: 'update', fields: ['note', 'name'] },
  );
  return buildRegistry(schemas);
}

let t: TestApp;
let admin: Session;
let operator: Session;

beforeAll(async () => {
  t = await createTestApp({}, undefined, { resources: fieldRuleRegistry() });
  [admin, operator] = await Promise.all([login(t.app, 'administrator'), login(t.app, 'operator')]);
});
afterAll(() => t?.close());

type Method = 'GET' | 'POST' | 'PUT';
async function call(method: Method, url: string, session: Session, payload?: unknown) {
  const r = await t.app.inject({ method, url, headers: bearer(session), ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: r.statusCode, body: (r.body ? r.json() : {}) as Record<string, unknown>, text: r.body };
}
/** The fields a 403 names. */
const named = (r: { body: Record<string, unknown> }) => Object.keys((r.body.fields ?? {}) as object).sort();

async function newAd(name: string): Promise<Record<string, unknown>> {
  const r = await call('POST', '/kobe/api/t-ads/', admin, { name, note: 'はじめ' });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('actions that write fields of a row', () => {
  it('set with a fixed value: refused when it would change a field the role may not write, passes for a role that may', async () => {
    const ad = await newAd('承認する店');
    const refused = await call('PUT', `/kobe/api/t-ads/${ad.id}/approve/`, operator, {});
    expect(refused.status, refused.text).toBe(403);
    // approve sets approved (writable) and status (not): only status is named, and nothing is stored.
    expect(named(refused)).toEqual(['status']);
    expect((await call('GET', `/kobe/api/t-ads/${ad.id}/`, admin)).body).toMatchObject({ status: 'private', approved: false });
    const done = await call('PUT', `/kobe/api/t-ads/${ad.id}/approve/`, admin, {});
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: 'public', approved: true });
  });

  it('set with body fields: a changed value is refused, the stored value passes', async () => {
    const ad = await newAd('メモの店');
    const refused = await call('PUT', `/kobe/api/t-ads/${ad.id}/note/`, operator, { note: '書き換え' });
    expect(refused.status, refused.text).toBe(403);
    expect(named(refused)).toEqual(['note']);
    const same = await call('PUT', `/kobe/api/t-ads/${ad.id}/note/`, operator, { note: 'はじめ' });
    expect(same.status, same.text).toBe(200);
    const byAdmin = await call('PUT', `/kobe/api/t-ads/${ad.id}/note/`, admin, { note: '書き換え' });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byAdmin.body.note).toBe('書き換え');
  });

  it('toggle of a field the role may not write is refused', async () => {
    const ad = await newAd('選ぶ店');
    const refused = await call('POST', `/kobe/api/t-ads/${ad.id}/pass_toggle_pick/`, operator, {});
    expect(refused.status, refused.text).toBe(403);
    expect(named(refused)).toEqual(['picked']);
    const done = await call('POST', `/kobe/api/t-ads/${ad.id}/pass_toggle_pick/`, admin, {});
    expect(done.status, done.text).toBe(200);
    expect(done.body.picked).toBe(true);
  });

  it('set-all naming a field the role may not write is refused whatever the rows hold', async () => {
    const ad = await newAd('一斉公開の店');
    const refused = await call('POST', '/kobe/api/t-ads/publish_all/', operator, {});
    expect(refused.status, refused.text).toBe(403);
    expect(named(refused)).toEqual(['status']);
    expect((await call('GET', `/kobe/api/t-ads/${ad.id}/`, admin)).body.status).toBe('private');
    const done = await call('POST', '/kobe/api/t-ads/publish_all/', admin, {});
    expect(done.status, done.text).toBe(200);
    expect(done.body.count).toBeGreaterThan(0);
  });

  it('bulk-update: a row whose field would change refuses the whole call; unchanged values and writable fields pass', async () => {
    const a = await newAd('一括A');
    const b = await newAd('一括B');
    const refused = await call('PUT', '/kobe/api/t-ads/bulk-note/', operator, { ids: [a.id, b.id], note: '一括メモ' });
    expect(refused.status, refused.text).toBe(403);
    expect(named(refused)).toEqual(['note']);
    expect((await call('GET', `/kobe/api/t-ads/${a.id}/`, admin)).body.note).toBe('はじめ');
    const same = await call('PUT', '/kobe/api/t-ads/bulk-note/', operator, { ids: [a.id, b.id], note: 'はじめ', name: '一括の店' });
    expect(same.status, same.text).toBe(200);
    expect((same.body.content as Array<Record<string, unknown>>).map((r) => [r.name, r.note])).toEqual([['一括の店', 'はじめ'], ['一括の店', 'はじめ']]);
  });

  it("create-child checks the child's field rules as the child's create does", async () => {
    const ad = await newAd('クーポンの店');
    const refused = await call('POST', `/kobe/api/t-ads/${ad.id}/add_coupon/`, operator, { title: '十%引き' });
    expect(refused.status, refused.text).toBe(403);
    expect(named(refused)).toEqual(['title']);
    // The same through the child's own create call: one check.
    const direct = await call('POST', '/kobe/api/t-coupons/', operator, { title: '十%引き', ad: ad.id });
    expect(direct.status).toBe(403);
    expect(named(direct)).toEqual(['title']);
    const done = await call('POST', `/kobe/api/t-ads/${ad.id}/add_coupon/`, admin, { title: '十%引き' });
    expect(done.status, done.text).toBe(201);
    expect(done.body).toMatchObject({ title: '十%引き', ad: ad.id, used: 0 });
  });
});

describe('singleton upserts', () => {
  it('the first write and later ones: a changed field is refused, a left-out one keeps its value, the unchanged one passes', async () => {
    // The first write by the Operator: the notice at its default passes, another value is refused.
    const first = await call('PUT', '/kobe/api/t-setting/', operator, { notice: 'お知らせ' });
    expect(first.status, first.text).toBe(403);
    expect(named(first)).toEqual(['notice']);
    expect((await call('PUT', '/kobe/api/t-setting/', operator, { max_coupons: 300 })).status).toBe(200);
    const byAdmin = await call('PUT', '/kobe/api/t-setting/', admin, { max_coupons: 300, notice: '市のお知らせ' });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    // A whole-record PUT by the Operator that leaves the notice out keeps it; one sending it unchanged passes.
    const left = await call('PUT', '/kobe/api/t-setting/', operator, { max_coupons: 200, version: byAdmin.body.version });
    expect(left.status, left.text).toBe(200);
    expect(left.body).toMatchObject({ max_coupons: 200, notice: '市のお知らせ' });
    const same = await call('PUT', '/kobe/api/t-setting/', operator, { ...left.body, max_coupons: 100 });
    expect(same.status, same.text).toBe(200);
    const changed = await call('PUT', '/kobe/api/t-setting/', operator, { ...same.body, notice: '書き換え' });
    expect(changed.status, changed.text).toBe(403);
    expect(named(changed)).toEqual(['notice']);
    const created = await call('POST', '/kobe/api/t-setting/', operator, { ...same.body, notice: '書き換え' });
    expect(created.status).toBe(403);
    expect((await call('GET', '/kobe/api/t-setting/', admin)).body).toMatchObject({ max_coupons: 100, notice: '市のお知らせ' });
  });
});
