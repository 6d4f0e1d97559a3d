// Lists beyond the contract (docs/architecture.md 'Beyond the spec'): saved views per user and city, CSV export of any list in
// UTF-8 with BOM or Shift_JIS (streamed, read in keyset batches; the same export as the declared
// export actions), date-range filters (001 9 date-range presets).
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getResource } from '../../../src/shared/registry';
import { recordBatches } from '../../../src/server/repositories/record-batches';
import { createRecords, listRecords } from '../../../src/server/repositories/resource-repository';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let operator: Session;
let admin: Session;
let president: Session;

beforeAll(async () => {
  t = await createTestApp();
  operator = await login(t.app, 'operator');
  admin = await login(t.app, 'administrator');
  president = await login(t.app, 'president');
  const titles = ['=HYPERLINK("http://x")', '+81', '@SUM(1)', '-1', 'ＣＳＶ試験のお知らせ①'];
  await createRecords(
    t.db,
    getResource('news'),
    'fukuoka',
    titles.map((title) => ({ title, description: 'csvtest', attr: 'event', created_on_news: 'News' })),
    { userId: null },
  );
});
afterAll(async () => {
  await t?.close();
});

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, session: Session, payload?: unknown) {
  return t.app.inject({ method, url, headers: { ...bearer(session), 'accept-language': 'ja' }, payload: payload as never });
}

describe('saved views', () => {
  it('keeps named views per user and city, the default first, and shows no one else’s', async () => {
    const state = { columns: ['title', 'id'], filters: [{ field: 'search', operator: 'contains', value: 'x' }], sorters: [{ field: 'title', order: 'asc' }], pageSize: 50 };
    const a = await call('POST', '/kobe/api/saved-views/', operator, { resource: 'news', name: '自分の表示', state });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toMatchObject({ resource: 'news', name: '自分の表示', state, is_default: false });
    const b = await call('POST', '/kobe/api/saved-views/', operator, { resource: 'news', name: '既定', state: { pageSize: 10 }, is_default: true });
    expect(b.statusCode).toBe(201);

    const dup = await call('POST', '/kobe/api/saved-views/', operator, { resource: 'news', name: '既定', state: {} });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().fields.name).toEqual(['同じ名前の表示が既にあります。']);

    const list = await call('GET', '/kobe/api/saved-views/?resource=news', operator);
    expect(list.json().content.map((v: { name: string }) => v.name)).toEqual(['既定', '自分の表示']);
    // Another city, another user: none of these.
    expect((await call('GET', '/fukuoka/api/saved-views/?resource=news', operator)).json().content).toEqual([]);
    expect((await call('GET', '/kobe/api/saved-views/?resource=news', president)).json().content).toEqual([]);
    expect((await call('PUT', `/kobe/api/saved-views/${a.json().id}/`, president, { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `/kobe/api/saved-views/${a.json().id}/`, president)).statusCode).toBe(404);

    // Rename and make default: the other loses its default.
    const renamed = await call('PUT', `/kobe/api/saved-views/${a.json().id}/`, operator, { name: '改名', is_default: true });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = (await call('GET', '/kobe/api/saved-views/?resource=news', operator)).json().content;
    expect(after.map((v: { name: string; is_default: boolean }) => [v.name, v.is_default])).toEqual([
      ['改名', true],
      ['既定', false],
    ]);
    expect((await call('DELETE', `/kobe/api/saved-views/${b.json().id}/`, operator)).statusCode).toBe(204);
    expect((await call('GET', '/kobe/api/saved-views/?resource=news', operator)).json().content).toHaveLength(1);
  });

  it('refuses bad input, unknown resources, resources the role may not read, and strangers', async () => {
    expect((await call('POST', '/kobe/api/saved-views/', operator, { resource: 'news', name: '', state: {} })).statusCode).toBe(400);
    expect((await call('POST', '/kobe/api/saved-views/', operator, { resource: 'news', name: 'x'.repeat(65), state: {} })).statusCode).toBe(400);
    expect((await call('POST', '/kobe/api/saved-views/', operator, { resource: 'news', name: 'a', state: { evil: 1 } })).statusCode).toBe(400);
    expect((await call('POST', '/kobe/api/saved-views/', operator, { resource: 'nope', name: 'a', state: {} })).statusCode).toBe(400);
    expect((await call('GET', '/sanda/api/saved-views/?resource=news', operator)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/kobe/api/saved-views/?resource=news' })).statusCode).toBe(401);
  });
});

describe('CSV export of any list', () => {
  it('answers every matching row as UTF-8 with BOM, translated headers and enum labels, formulas escaped', async () => {
    const r = await call('GET', '/fukuoka/api/exports/news/?search=csvtest&order_by=title&columns=title,attr', operator);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = r.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('タイトル,種別');
    expect(lines.slice(1).sort()).toEqual([`"'=HYPERLINK(""http://x"")",イベント`, "'+81,イベント", "'-1,イベント", "'@SUM(1),イベント", 'ＣＳＶ試験のお知らせ①,イベント'].sort());
  });

  it('answers Shift_JIS bytes on asking, and refuses an unknown encoding', async () => {
    const r = await call('GET', '/fukuoka/api/exports/news/?search=%E2%91%A0&columns=title&encoding=shift_jis', operator);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=Shift_JIS');
    expect(r.rawPayload[0]).not.toBe(0xef);
    expect(iconv.decode(r.rawPayload, 'CP932')).toBe('タイトル\r\nＣＳＶ試験のお知らせ①\r\n');
    expect((await call('GET', '/fukuoka/api/exports/news/?encoding=latin1', operator)).statusCode).toBe(400);
  });

  it('goes through authorize: no token 401, a city not assigned 403, an unknown resource 404', async () => {
    expect((await t.app.inject({ url: '/fukuoka/api/exports/news/' })).statusCode).toBe(401);
    expect((await call('GET', '/fukuoka/api/exports/news/', president)).statusCode).toBe(403);
    expect((await call('GET', '/fukuoka/api/exports/nope/', admin)).statusCode).toBe(404);
  });
});

describe('CSV export limits', () => {
  it('answers only the caller’s own rows, as the list does (x-resource.owner)', async () => {
    const advertiser = await login(t.app, 'advertiser');
    const ad = getResource('advertisement');
    const listPath = ad.api.list.path.replace('{city}', 'kobe');
    const rows = async (s: Session) => (await call('GET', `/kobe/api/exports/advertisement/?columns=id`, s)).body.replace(/^\uFEFF/, '').trimEnd().split('\r\n').length - 1;
    const listed = (await call('GET', `${listPath}?limit=1000`, advertiser)).json().total_length as number;
    const all = (await call('GET', `${listPath}?limit=1000`, admin)).json().total_length as number;
    expect(all).toBeGreaterThan(listed);
    expect(await rows(advertiser)).toBe(listed);
    expect(await rows(admin)).toBe(all);
  });
});

describe('CSV export: one export behind both paths, streamed', () => {
  const N = 5_200;
  const title = (i: number) => `一括書き出し①${String(i).padStart(5, '0')}`;
  beforeAll(async () => {
    const news = Array.from({ length: N }, (_, i) => ({ title: title(i), description: 'bulkexport', attr: 'news', created_on_news: 'News' }));
    await createRecords(t.db, getResource('news'), 'fukuoka', news, { userId: null });
  }, 120_000);

  it(`answers ${N} rows in Shift_JIS as a stream, read from the database in keyset batches of 1,000 as the reader takes the bytes`, async () => {
    const batches: Array<{ sql: string; rows: number }> = [];
    const query = t.db.query.bind(t.db);
    const spy = vi.spyOn(t.db, 'query').mockImplementation(async (sql: string, params?: unknown[]) => {
      const rows = await query(sql, params);
      if (/FROM r_news\b/.test(sql) && /\bLIMIT\b/.test(sql)) batches.push({ sql, rows: rows.length });
      return rows as never;
    });
    try {
      const url = '/fukuoka/api/exports/news/?search=bulkexport&order_by=title&columns=title,description&encoding=shift_jis';
      const r = await t.app.inject({ url, headers: { ...bearer(operator), 'accept-language': 'ja' }, payloadAsStream: true });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('text/csv; charset=Shift_JIS');
      expect(r.headers['content-length']).toBeUndefined(); // a stream, not one buffer
      // Nobody reads: the stream stops pulling rows once its buffers are full, long before the end.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const whileWaiting = batches.length;
      expect(whileWaiting).toBeGreaterThanOrEqual(1);
      expect(whileWaiting).toBeLessThan(Math.ceil(N / 1000));
      const chunks: Buffer[] = [];
      for await (const chunk of r.stream()) chunks.push(chunk as Buffer);
      expect(chunks.length).toBeGreaterThan(1);
      const lines = iconv.decode(Buffer.concat(chunks), 'CP932').trimEnd().split('\r\n');
      expect(lines[0]).toBe('タイトル,説明');
      expect(lines.slice(1)).toEqual(Array.from({ length: N }, (_, i) => `${title(i)},bulkexport`));
    } finally {
      spy.mockRestore();
    }
    expect(batches.map((b) => b.rows)).toEqual([1000, 1000, 1000, 1000, 1000, 200]);
    expect(batches.every((b) => !/\bOFFSET\b/.test(b.sql))).toBe(true);
  });

  it('the declared export action and the export of any list answer the same header row and lines', async () => {
    const def = getResource('coupon_usage');
    const columns = Object.keys(def.schema.properties).join(',');
    const action = await call('GET', '/kobe/api/common-timesales/admin/dashboard/coupon-usage-conditions/export', admin);
    const generic = await call('GET', `/kobe/api/exports/coupon_usage/?columns=${columns}`, admin);
    expect(action.statusCode, action.body).toBe(200);
    expect(generic.statusCode, generic.body).toBe(200);
    const header = action.body.replace(/^\uFEFF/, '').split('\r\n')[0];
    // The export of any list adds the referenced rows' names beside each reference column (they
    // follow the column they name); less those, both answer alike.
    const cells = (line: string) => line.match(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)!.slice(0, -1).map((c) => c.replace(/,$/, ''));
    const genericLines = generic.body.replace(/^\uFEFF/, '').split('\r\n');
    const names = cells(genericLines[0]).flatMap((title, i) => (title.endsWith('（名称）') ? [i] : []));
    expect(names.length).toBeGreaterThan(0);
    const withoutNames = genericLines.map((l) => (l === '' ? l : cells(l).filter((_, i) => !names.includes(i)).join(','))).join('\r\n');
    expect(header).toBe(withoutNames.split('\r\n')[0]);
    expect(header.startsWith('ID,')).toBe(true); // titles, not field names
    expect(action.body.replace(/^\uFEFF/, '')).toBe(withoutNames);
    // `columns` picks among the action's fields, in the order asked; a name that is none is left out.
    const picked = await call('GET', '/kobe/api/common-timesales/admin/dashboard/coupon-usage-conditions/export?columns=ad_name,nope,id', admin);
    const titles = Object.fromEntries(Object.keys(def.schema.properties).map((f, i) => [f, header.split(',')[i]]));
    expect(picked.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(`${titles.ad_name},${titles.id}`);
    expect((await call('GET', '/kobe/api/common-timesales/admin/dashboard/coupon-usage-conditions/export?encoding=euc-jp', admin)).statusCode).toBe(400);
  });

  it('batches follow the list order exactly: ties, NULL sort values, both directions, numbers and times', async () => {
    const def = getResource('genre');
    // Rows written directly: every fifth without a name (NULL), names and orders repeating (ties), one created_at for all.
    await t.db.query(
      `INSERT INTO r_genre (city, data) SELECT 'sanda', CASE WHEN g % 5 = 0 THEN jsonb_build_object('type', 20, 'order', g % 3)
         ELSE jsonb_build_object('type', 20, 'order', g % 3, 'name', 'n' || (g % 4)) END FROM generate_series(1, 37) AS g`,
    );
    for (const order_by of ['name', '-name', 'order', '-order', 'created_at', '-created_at']) {
      const listed = (await listRecords(t.db, def, 'sanda', { order_by, limit: 1000 })).content.map((r) => r.id);
      const read: unknown[] = [];
      for await (const batch of recordBatches(t.db, def, 'sanda', { order_by }, {}, { batchRows: 4 })) {
        expect(batch.length).toBeLessThanOrEqual(4);
        read.push(...batch.map((r) => r.id));
      }
      expect(read, order_by).toEqual(listed);
      expect(listed).toHaveLength(37);
    }
    const capped: unknown[] = [];
    for await (const batch of recordBatches(t.db, def, 'sanda', {}, {}, { batchRows: 4, maxRows: 10 })) capped.push(...batch);
    expect(capped).toHaveLength(10);
  });
});

describe('date-range filters', () => {
  it('narrows a list to created times between __from and __to, both inclusive', async () => {
    const base = '/fukuoka/api/city/admin-news/?search=csvtest';
    const total = async (q: string) => (await call('GET', `${base}&${q}`, operator)).json().total_length as number;
    const day = 86_400_000;
    const past = new Date(Date.now() - day).toISOString();
    const future = new Date(Date.now() + day).toISOString();
    expect(await total(`create_at__from=${past}&create_at__to=${future}`)).toBe(5);
    expect(await total(`create_at__from=${future}`)).toBe(0);
    expect(await total(`create_at__to=${past}`)).toBe(0);
    expect((await call('GET', `${base}&create_at__from=yesterday`, operator)).statusCode).toBe(400);
  });
});
