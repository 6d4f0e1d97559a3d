// Generic mechanisms of the registry routes on test-only schemas (fixtures/test-resources.ts):
// where/exclude, global resources, singletons, every action kind, x-coerce, x-drop-null, x-ref,
// server (readOnly) fields, CSV export escaping, route conflicts (001 7, 7.4, 7.7, 7.9; 000 3, 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../../src/shared/registry';
import { buildApp } from '../../../src/server/app';
import { csvCell } from '../../../src/server/csv';
import { migrate } from '../../../src/server/db/migrations';
import { bearer, createTestApp, login, openTestDatabase, testConfig, type Session, type TestApp } from './helpers';
import { TEST_SCHEMAS, testRegistry } from './fixtures/test-resources';

let t: TestApp;
let admin: Session;
let operator: Session;
let advertiser: Session;
/** What the app logged at warn level for each request (e.g. a reply sent twice); the logger is off in tests. */
const warnings: unknown[] = [];

beforeAll(async () => {
  t = await createTestApp(
    {},
    (app) =>
      app.addHook('onRequest', async (_request, reply) => {
        reply.log = Object.assign(Object.create(reply.log) as typeof reply.log, { warn: (entry: unknown) => void warnings.push(entry) });
      }),
    { resources: testRegistry() },
  );
  [admin, operator, advertiser] = await Promise.all([login(t.app, 'administrator'), login(t.app, 'operator'), login(t.app, 'advertiser')]);
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
async function call(method: Method, url: string, session: Session | null = operator, payload?: unknown) {
  return t.app.inject({ method, url, headers: session ? bearer(session) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
}
async function ok(method: Method, url: string, payload?: unknown, session: Session = operator, status = method === 'POST' ? 201 : 200) {
  const r = await call(method, url, session, payload);
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBe(status);
  return status === 204 ? null : r.json();
}

describe('where and exclude', () => {
  it('stores the create call\'s where values and lists only rows with them', async () => {
    const mall = await ok('POST', '/kobe/api/t-malls/create-mall/', { name: 'モールA', type: 3 });
    expect(mall.type).toBe(24);
    // A row of another type in the same table (written directly) is not a mall.
    await t.db.query(`INSERT INTO r_t_mall (city, data) VALUES ('kobe', '{"name":"ふつう","type":5}'::jsonb)`);
    const [{ id: other }] = await t.db.query<{ id: number }>(`SELECT id FROM r_t_mall WHERE data->>'name' = 'ふつう'`);
    const list = await ok('GET', '/kobe/api/t-malls/');
    expect(list.content.map((r: { name: string }) => r.name)).toEqual(['モールA']);
    expect(list.total_length).toBe(1);
    // The update call has the same where: the other row is not found, and a mall stays a mall.
    expect((await call('PUT', `/kobe/api/t-malls/${other}/`, operator, { name: 'x' })).statusCode).toBe(404);
    expect((await ok('PUT', `/kobe/api/t-malls/${mall.id}/`, { name: 'モールB', type: 1 })).type).toBe(24);
  });

  it('leaves excluded values out of lists (type_display 28)', async () => {
    for (const type_display of [1, 28, 29, 2]) await ok('POST', '/kobe/api/t-notices/', { title: `通知${type_display}`, type_display });
    const list = await ok('GET', '/kobe/api/t-notices/');
    expect(list.content.map((r: { type_display: number }) => r.type_display).sort()).toEqual([1, 2]);
    expect(list.total_length).toBe(2);
  });

  it('counts with the list\'s exclude and the action\'s where; set-all marks every matching row', async () => {
    expect(await ok('GET', '/kobe/api/t-notices/unread/')).toEqual({ count: 2 });
    // set-all works on every unread row of the city (the excluded ones too), not on other cities.
    await ok('POST', '/fukuoka/api/t-notices/', { title: '福岡', type_display: 1 });
    expect(await ok('POST', '/kobe/api/t-notices/read_all/', {}, operator, 200)).toEqual({ count: 4 });
    expect(await ok('GET', '/kobe/api/t-notices/unread/')).toEqual({ count: 0 });
    expect(await ok('GET', '/fukuoka/api/t-notices/unread/')).toEqual({ count: 1 });
    const row = (await ok('GET', '/kobe/api/t-notices/')).content[0];
    expect(row).toMatchObject({ read: true, version: 2 });
  });
});

describe('global resources', () => {
  it('stores rows once for every city, readable from any city and from paths with no city', async () => {
    const created = await ok('POST', '/kobe/api/t-prefectures/', { name: '大阪府', code: '27' });
    const [{ city }] = await t.db.query<{ city: string }>('SELECT city FROM r_t_pref WHERE id = $1', [created.id]);
    expect(city).toBe('*');
    // Seeded from the schema's examples once (not per city), plus the new row.
    const names = (body: { content: Array<{ name: string }> }) => body.content.map((r) => r.name);
    expect(names(await ok('GET', '/fukuoka/api/t-prefectures/'))).toEqual(['大阪府', '兵庫県', '福岡県']);
    // The operator is not assigned the `default` city: a path with no city only needs a signed-in user.
    expect(names(await ok('GET', '/japan/t-prefectures'))).toEqual(['大阪府', '兵庫県', '福岡県']);
    expect(names(await ok('GET', '/japan/t-prefectures', undefined, advertiser))).toHaveLength(3);
    expect(await ok('GET', `/japan/t-prefectures/${created.id}`)).toMatchObject({ name: '大阪府', code: '27' });
  });

  it('still checks sign-in and the role rules', async () => {
    expect((await call('GET', '/japan/t-prefectures', null)).statusCode).toBe(401);
    expect((await call('POST', '/kobe/api/t-prefectures/', advertiser, { name: '京都府' })).statusCode).toBe(403);
    expect((await call('GET', '/akita/api/t-prefectures/', operator)).statusCode).toBe(403);
  });
});

describe('singletons', () => {
  const URL = '/kobe/api/t-setting/';

  it('answers the schema defaults before anything is stored', async () => {
    expect(await ok('GET', URL)).toEqual({ max_coupons: 400, notice: '', tags: [], version: 0 });
  });

  it('upserts one record per city with PUT and POST; a stale version is 409', async () => {
    const first = await ok('PUT', URL, { max_coupons: 100, tags: 'new' });
    expect(first).toMatchObject({ max_coupons: 100, notice: '', tags: ['new'], version: 1, id: expect.any(Number) });
    expect(await ok('GET', URL)).toEqual(first);
    const second = await ok('PUT', URL, { max_coupons: 120, version: 1 });
    expect(second).toMatchObject({ max_coupons: 120, tags: [], version: 2, id: first.id });
    const third = await ok('POST', URL, { max_coupons: 130 }, operator, 200);
    expect(third).toMatchObject({ max_coupons: 130, version: 3, id: first.id });
    expect((await call('PUT', URL, operator, { max_coupons: 1, version: 1 })).statusCode).toBe(409);
    const bad = await call('PUT', URL, operator, { max_coupons: 401 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.max_coupons).toHaveLength(1);
    const [{ n }] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM r_t_setting WHERE city = 'kobe'");
    expect(n).toBe(1);
    expect((await ok('GET', '/fukuoka/api/t-setting/')).max_coupons).toBe(400);
  });

  it('keeps one record when two first writes race', async () => {
    await Promise.all([1, 2, 3].map((i) => ok('PUT', '/fukuoka/api/t-setting/', { max_coupons: i })));
    const [{ n }] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM r_t_setting WHERE city = 'fukuoka'");
    expect(n).toBe(1);
  });
});

describe('field extensions', () => {
  it('coerces x-coerce fields to lists and drops null x-drop-null fields, on write and read', async () => {
    const ad = await ok('POST', '/kobe/api/t-ads/', { name: 'カフェ', pass_option: 'gold', sub_city_id: null });
    expect(ad.pass_option).toEqual(['gold']);
    expect('sub_city_id' in ad).toBe(false);
    expect((await ok('POST', '/kobe/api/t-ads/', { name: 'ベーカリー' })).pass_option).toEqual([]);
    // Rows written by other means are answered the same way.
    await t.db.query(`INSERT INTO r_t_ad (city, data) VALUES ('kobe', '{"name":"古い行","pass_option":"silver","sub_city_id":null}'::jsonb)`);
    const old = (await ok('GET', '/kobe/api/t-ads/?search=古い行')).content[0];
    expect(old.pass_option).toEqual(['silver']);
    expect('sub_city_id' in old).toBe(false);
    expect((await ok('POST', '/kobe/api/t-ads/', { name: '区', sub_city_id: 3 })).sub_city_id).toBe(3);
  });

  it('ignores server (readOnly) fields in payloads and keeps them on update', async () => {
    const ad = await ok('POST', '/kobe/api/t-ads/', { name: '勝手に承認', approved: true, picked: true });
    expect(ad).toMatchObject({ approved: false, picked: false });
    const approved = await ok('PUT', `/kobe/api/t-ads/${ad.id}/approve/`, {});
    expect(approved).toMatchObject({ approved: true, status: 'public', version: 2 });
    const edited = await ok('PUT', `/kobe/api/t-ads/${ad.id}/`, { name: '名前だけ変更', approved: false });
    expect(edited).toMatchObject({ name: '名前だけ変更', approved: true, version: 3 });
  });

  it('refuses an x-ref to a row that does not exist in the city, with a field message', async () => {
    const genre = await ok('POST', '/kobe/api/t_genre/', { name: 'グルメ' });
    const fukuokaGenre = await ok('POST', '/fukuoka/api/t_genre/', { name: '福岡のグルメ' });
    for (const bad of [999_999, fukuokaGenre.id, 'abc']) {
      const r = await call('POST', '/kobe/api/t-ads/', operator, { name: '参照', genre: bad });
      expect(r.statusCode).toBe(400);
      const fields = r.json().fields;
      // 'abc' is refused by the type rule first; ids by the reference check.
      expect(fields.genre).toHaveLength(1);
      expect(fields.genre[0]).not.toMatch(/^validation\./);
    }
    const missing = (await call('POST', '/kobe/api/t-ads/', operator, { name: '参照', genre: 999_999 })).json();
    expect(missing).toMatchObject({ code: 'validation', fields: { genre: [expect.stringMatching(/参照先|reference/i)] } });
    const ad = await ok('POST', '/kobe/api/t-ads/', { name: '参照あり', genre: genre.id });
    expect(ad.genre).toBe(genre.id);
    // A reference that went away does not block editing other fields.
    await ok('DELETE', `/kobe/api/t_genre/${genre.id}/`, undefined, operator, 204);
    expect((await ok('PUT', `/kobe/api/t-ads/${ad.id}/`, { name: '名前変更', genre: genre.id })).name).toBe('名前変更');
    expect((await call('POST', '/kobe/api/t_genre/', operator, { name: '子', parent_id: 123_456 })).statusCode).toBe(400);
  });
});

describe('actions', () => {
  let adA: { id: number };
  let adB: { id: number };

  beforeAll(async () => {
    adA = await ok('POST', '/sanda/api/t-ads/', { name: 'A店', price: 100, count: 2, status: 'private' }, admin);
    adB = await ok('POST', '/sanda/api/t-ads/', { name: 'B店', price: 250.5, count: 1, status: 'public' }, admin);
    await ok('POST', '/sanda/api/t-ads/', { name: 'C店', price: 1000, count: 5, status: 'private' }, admin);
  });

  it('set: stores the fixed values on the row; 404 in another city, 403 for a role without update', async () => {
    expect((await call('PUT', `/kobe/api/t-ads/${adA.id}/approve/`, admin, {})).statusCode).toBe(404);
    expect((await call('PUT', `/kobe/api/t-ads/${adA.id}/approve/`, advertiser, {})).statusCode).toBe(403);
    expect((await call('PUT', `/sanda/api/t-ads/${adA.id}/approve/`, operator, {})).statusCode).toBe(403);
  });

  it('toggle: flips the boolean field', async () => {
    expect((await ok('POST', `/sanda/api/t-ads/${adA.id}/pass_toggle_pick/`, {}, admin, 200)).picked).toBe(true);
    expect((await ok('POST', `/sanda/api/t-ads/${adA.id}/pass_toggle_pick/`, undefined, admin, 200)).picked).toBe(false);
  });

  it('count: rows of the list with its search and filters that match the where values', async () => {
    expect(await ok('GET', '/sanda/api/t-ads/count/', undefined, admin)).toEqual({ count: 1 });
    expect(await ok('GET', `/sanda/api/t-ads/count/?search=${encodeURIComponent('A店')}`, undefined, admin)).toEqual({ count: 0 });
  });

  it('sum: totals over the list, and grouped by a field', async () => {
    expect(await ok('GET', '/sanda/api/t-ads/total/', undefined, admin)).toEqual({ count: 3, sums: { price: 1350.5, count: 8 } });
    expect(await ok('GET', '/sanda/api/t-ads/total/?status=private', undefined, admin)).toEqual({ count: 2, sums: { price: 1100, count: 7 } });
    expect(await ok('GET', '/sanda/api/t-ads/total_by_status/', undefined, admin)).toEqual({
      content: [
        { group: 'private', count: 2, sums: { price: 1100 } },
        { group: 'public', count: 1, sums: { price: 250.5 } },
      ],
    });
  });

  it('show: the row at another path, whatever the placeholder is called', async () => {
    expect(await ok('GET', `/sanda/api/t-ads/${adB.id}/qrcode/?size=200`, undefined, admin)).toMatchObject({ id: adB.id, name: 'B店' });
    expect((await call('GET', '/sanda/api/t-ads/999999/qrcode/', admin)).statusCode).toBe(404);
  });

  it('create-child and children: rows of another resource that belong to the row', async () => {
    const coupon = await ok('POST', `/sanda/api/t-ads/${adA.id}/add_coupon/`, { title: '10%オフ', ad: adB.id, used: 9 }, admin);
    expect(coupon).toMatchObject({ title: '10%オフ', ad: adA.id, used: 0 });
    await ok('POST', `/sanda/api/t-ads/${adA.id}/add_coupon/`, { title: '送料無料' }, admin);
    await ok('POST', '/sanda/api/t-coupons/', { title: 'B店のクーポン', ad: adB.id }, admin);
    const children = await ok('GET', `/sanda/api/t-ads/${adA.id}/coupons/?limit=1`, undefined, admin);
    expect(children).toMatchObject({ total_length: 2, count: 1, limit: 1, page_length: 2 });
    const searched = await ok('GET', `/sanda/api/t-ads/${adA.id}/coupons/?search=${encodeURIComponent('送料')}`, undefined, admin);
    expect(searched.content.map((c: { title: string }) => c.title)).toEqual(['送料無料']);
    expect((await call('GET', '/sanda/api/t-ads/999999/coupons/', admin)).statusCode).toBe(404);
    expect((await call('POST', '/sanda/api/t-ads/999999/add_coupon/', admin, { title: 'x' })).statusCode).toBe(404);
    expect((await call('POST', `/sanda/api/t-ads/${adA.id}/add_coupon/`, admin, {})).statusCode).toBe(400);
  });

  it('list and create paths that carry a field filter by it and store it', async () => {
    const made = await ok('POST', `/sanda/api/t-shop/${adB.id}/coupons/`, { title: 'パスから', ad: adA.id }, admin);
    expect(made.ad).toBe(adB.id);
    const titles = (await ok('GET', `/sanda/api/t-shop/${adB.id}/coupons/`, undefined, admin)).content.map((c: { title: string }) => c.title);
    expect(titles).toEqual(['パスから', 'B店のクーポン']);
  });

  it('set-all: every matching row', async () => {
    const before = (await ok('GET', '/sanda/api/t-ads/?status=private', undefined, admin)).total_length;
    expect(await ok('POST', '/sanda/api/t-ads/publish_all/', {}, admin, 200)).toEqual({ count: before });
    expect((await ok('GET', '/sanda/api/t-ads/?status=private', undefined, admin)).total_length).toBe(0);
  });
});

describe('actions at paths with a literal city (/advertiser/api/...)', () => {
  it('bulk-update: body {ids, ...fields} checked against the field rules; all or nothing', async () => {
    const a = await ok('POST', '/advertiser/api/t-ads/', { name: '広告1', status: 'public' }, admin);
    const b = await ok('POST', '/advertiser/api/t-ads/', { name: '広告2', status: 'public' }, admin);
    const url = '/advertiser/api/t-status/bulk/';
    const done = await ok('PUT', url, { ids: [a.id, b.id], status: 'private' }, admin);
    expect(done.count).toBe(2);
    expect(done.content.map((r: { status: string; version: number }) => [r.status, r.version])).toEqual([
      ['private', 2],
      ['private', 2],
    ]);
    const badValue = await call('PUT', url, admin, { ids: [a.id], status: 'hidden' });
    expect(badValue.statusCode).toBe(400);
    expect(Object.keys(badValue.json().fields)).toEqual(['status']);
    const notAllowed = await call('PUT', url, admin, { ids: [a.id], name: '書き換え' });
    expect(notAllowed.statusCode).toBe(400);
    expect(Object.keys(notAllowed.json().fields)).toEqual(['name']);
    expect((await call('PUT', url, admin, { status: 'public' })).json().fields.ids).toHaveLength(1);
    expect((await call('PUT', url, admin, { ids: [a.id, 999_999], status: 'public' })).statusCode).toBe(404);
    expect((await ok('GET', `/advertiser/api/t-ads/${a.id}/`, undefined, admin)).status).toBe('private');
    // The advertiser city is for Administrators only (000 6).
    expect((await call('PUT', url, operator, { ids: [a.id], status: 'public' })).statusCode).toBe(403);
  });

  it('set at /advertiser/api/t-status/{id}/ works on the advertiser city\'s rows', async () => {
    const a = await ok('POST', '/advertiser/api/t-ads/', { name: '広告3', status: 'public' }, admin);
    expect((await ok('PUT', `/advertiser/api/t-status/${a.id}/`, {}, admin)).status).toBe('private');
    const kobe = await ok('POST', '/kobe/api/t-ads/', { name: '神戸の広告' }, admin);
    expect((await call('PUT', `/advertiser/api/t-status/${kobe.id}/`, admin, {})).statusCode).toBe(404);
  });
});

describe('CSV export', () => {
  it('escapes cells that begin like a formula and quotes per RFC 4180', () => {
    expect(['=SUM(A1)', '+1', '-2', '@cmd', '\tx', '\rx', 'plain', 'a,"b"', 'line\nbreak', null, 12, ['a']].map(csvCell)).toEqual([
      "'=SUM(A1)",
      "'+1",
      "'-2",
      "'@cmd",
      "'\tx",
      `"'\rx"`,
      'plain',
      '"a,""b"""',
      '"line\nbreak"',
      '',
      '12',
      '"[""a""]"',
    ]);
  });

  it('answers the list with its filters as UTF-8 CSV with a BOM, every dangerous cell escaped', async () => {
    for (const name of ['=HYPERLINK("http://x")', '+81', '@SUM(1)', '-1', '普通の店']) {
      await ok('POST', '/shonan/api/t-ads/', { name, price: 5, pass_option: ['a', 'b'], status: name === '-1' ? 'public' : 'private' }, admin);
    }
    warnings.length = 0;
    const r = await call('GET', '/shonan/api/t-ads/export/?status=private&order_by=name', admin);
    expect(r.statusCode).toBe(200);
    expect(warnings).toEqual([]); // the action's own reply is the answer: nothing is sent a second time
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toBe('attachment; filename="t_ad.csv"');
    expect(r.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = r.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    // The fields' titles in the request's language (Japanese by default; a key without a text stays the key).
    expect(lines[0]).toBe('ID,fields.name,fields.price,fields.status,fields.pass_option');
    expect(lines.slice(1).map((l) => l.replace(/^\d+,/, ''))).toEqual([
      `'+81,5,private,"[""a"",""b""]"`,
      `"'=HYPERLINK(""http://x"")",5,private,"[""a"",""b""]"`,
      `'@SUM(1),5,private,"[""a"",""b""]"`,
      `普通の店,5,private,"[""a"",""b""]"`,
    ]);
    expect((await call('GET', '/shonan/api/t-ads/export/', null)).statusCode).toBe(401);
  });
});

describe('route declarations', () => {
  it('refuses two schemas claiming one call, naming both', async () => {
    const copy = structuredClone(TEST_SCHEMAS.find((s) => s.$id === 't_coupon')!);
    copy.$id = 't_coupon2';
    copy['x-resource'].name = 't_coupon2';
    const resources = buildRegistry([...structuredClone(TEST_SCHEMAS), copy]);
    const { db, cleanup } = await openTestDatabase();
    await migrate(db);
    try {
      await expect(buildApp({ db, config: testConfig(), resources })).rejects.toThrow(/GET \/\{city\}\/api\/t-coupons\/ is declared by both t_coupon\.list and t_coupon2\.list/);
    } finally {
      await cleanup();
    }
  });

  it('refuses an action on a row whose path has no placeholder for it', async () => {
    const schemas = structuredClone(TEST_SCHEMAS);
    schemas.find((s) => s.$id === 't_ad')!['x-resource'].actions!.push({ name: 'broken', method: 'POST', path: '/{city}/api/t-ads/broken/', kind: 'toggle', permission: 'update', field: 'picked' });
    const { db, cleanup } = await openTestDatabase();
    await migrate(db);
    try {
      await expect(buildApp({ db, config: testConfig(), resources: buildRegistry(schemas) })).rejects.toThrow(/action 'broken' \(toggle\) needs a placeholder/);
    } finally {
      await cleanup();
    }
  });
});
