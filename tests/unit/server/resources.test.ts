// Registry-driven CRUD (001 7.4, 7.6, 7.17; 000 5, 6): lists, writes, validation, authorization, versions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '../../../src/shared/registry';
import { fieldExpr } from '../../../src/server/db/resource-tables';
import { createRecords } from '../../../src/server/repositories/resource-repository';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let admin: Session;
let operator: Session;
const NEWS = '/kobe/api/city/admin-news/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, 'administrator');
  operator = await login(t.app, 'operator');
});
afterAll(async () => {
  await t?.close();
});

async function get(url: string, session: Session = operator) {
  return t.app.inject({ url, headers: bearer(session) });
}

describe('lists', () => {
  beforeAll(async () => {
    // 25 news in sanda: titles n00…n24, every fifth a sport news, one with a LIKE wildcard in it.
    const records = Array.from({ length: 25 }, (_, i) => ({
      title: i === 7 ? 'n07 100%_off' : `n${String(i).padStart(2, '0')}`,
      description: i % 2 === 0 ? '偶数のお知らせ' : 'odd',
      attr: 'news',
      created_on_news: i % 5 === 0 ? 'Sports' : 'News',
    }));
    await createRecords(t.db, getResource('news'), 'sanda', records, { userId: null });
  });

  it('answers content, total_length, count, limit, offset and page_length', async () => {
    const r = await get('/sanda/api/city/admin-news/', admin);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(Object.keys(body).sort()).toEqual(['content', 'count', 'limit', 'offset', 'page_length', 'total_length']);
    expect(body).toMatchObject({ total_length: 25, count: 20, limit: 20, offset: 0, page_length: 2 });
    expect(body.content[0]).toMatchObject({ id: expect.any(Number), create_at: expect.any(String), version: 1, attr: 'news' });
    // Default order: newest first.
    expect(body.content[0].title).toBe('n24');
  });

  it('pages with limit and offset', async () => {
    const body = (await get('/sanda/api/city/admin-news/?limit=10&offset=20', admin)).json();
    expect(body).toMatchObject({ total_length: 25, count: 5, limit: 10, offset: 20, page_length: 3 });
    expect(body.content.map((r: { title: string }) => r.title)).toEqual(['n04', 'n03', 'n02', 'n01', 'n00']);
  });

  it('refuses a limit past MAX_LIMIT with 400 naming it', async () => {
    const res = await get('/sanda/api/city/admin-news/?limit=100000', admin);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields ?? {})).toEqual(['limit']);
    expect((await get('/sanda/api/city/admin-news/?limit=1000', admin)).json().limit).toBe(1000);
  });

  it('searches the declared search fields, case-insensitively, with % and _ taken literally', async () => {
    const odd = (await get('/sanda/api/city/admin-news/?search=ODD&limit=100', admin)).json();
    expect(odd.total_length).toBe(12);
    const literal = (await get(`/sanda/api/city/admin-news/?search=${encodeURIComponent('0%_')}`, admin)).json();
    expect(literal.content.map((r: { title: string }) => r.title)).toEqual(['n07 100%_off']);
    const japanese = (await get(`/sanda/api/city/admin-news/?search=${encodeURIComponent('偶数')}`, admin)).json();
    expect(japanese.total_length).toBe(13);
  });

  it('orders by a declared sort field, ascending or descending', async () => {
    const asc = (await get('/sanda/api/city/admin-news/?order_by=title&limit=3', admin)).json();
    expect(asc.content.map((r: { title: string }) => r.title)).toEqual(['n00', 'n01', 'n02']);
    const desc = (await get('/sanda/api/city/admin-news/?order_by=-title&limit=2', admin)).json();
    expect(desc.content.map((r: { title: string }) => r.title)).toEqual(['n24', 'n23']);
    const unknown = (await get('/sanda/api/city/admin-news/?order_by=description&limit=1', admin)).json();
    expect(unknown.content[0].title).toBe('n24');
  });

  it('filters sport news with created_on_news=Sports', async () => {
    const body = (await get('/sanda/api/city/admin-news/?created_on_news=Sports', admin)).json();
    expect(body.total_length).toBe(5);
    expect(body.content.every((r: { created_on_news: string }) => r.created_on_news === 'Sports')).toBe(true);
    expect(body.content.map((r: { title: string }) => r.title)).toEqual(['n20', 'n15', 'n10', 'n05', 'n00']);
  });

  it('filters events by period with type=not_yet|showing|ended', async () => {
    const now = Date.now();
    const iso = (days: number) => new Date(now + days * 86_400_000).toISOString();
    const rows = [
      ['過去のイベント', iso(-10), iso(-9)],
      ['開催中のイベント', iso(-1), iso(1)],
      ['未来のイベント', iso(5), iso(6)],
    ];
    for (const [title, start, end] of rows) {
      // Past dates cannot be created through the API (x-future), so they are written directly.
      await t.db.query("INSERT INTO r_event (city, data) VALUES ('shonan', $1::jsonb)", [
        JSON.stringify({ title, image: 'https://example.jp/a.png', description: 'd', category: 'c', start_date: start, end_date: end }),
      ]);
    }
    const titles = async (type: string) =>
      (await get(`/shonan/api/events/?type=${type}`, admin)).json().content.map((r: { title: string }) => r.title);
    expect(await titles('not_yet')).toEqual(['未来のイベント']);
    expect(await titles('showing')).toEqual(['開催中のイベント']);
    expect(await titles('ended')).toEqual(['過去のイベント']);
    const bad = await get('/shonan/api/events/?type=someday', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation', fields: { type: [expect.any(String)] } });
  });

  it('serves list aliases and equals filters of other resources (scenes)', async () => {
    // Own rows in a city the seed does not fill, so the demo data (schema examples) may change.
    await createRecords(t.db, getResource('scene'), 'kawasaki', [
      { name: 'ランチ', category: 'グルメ' },
      { name: 'デート', category: 'レジャー' },
      { name: '会員パス', category: 'パス', type: 'member_pass' },
    ], { userId: null });
    const all = (await get('/kawasaki/api/scenes/', admin)).json();
    expect(all.total_length).toBe(3);
    const passes = (await get('/kawasaki/api/scene/?type=member_pass', admin)).json();
    expect(passes.content.map((r: { name: string }) => r.name)).toEqual(['会員パス']);
  });

  it('compares a nullable number field (genre.parent_id, ["integer","null"]) as a number, like an integer one', async () => {
    const genre = getResource('genre');
    expect(fieldExpr(genre, 'parent_id')).toBe(fieldExpr(genre, 'order').replace('order', 'parent_id'));
    const [root] = await createRecords(t.db, genre, 'kawasaki', [{ name: '親', type: 20 }], { userId: null });
    await createRecords(t.db, genre, 'kawasaki', [{ name: '子1', type: 20, parent_id: root }, { name: '子2', type: 20, parent_id: root }, { name: '別', type: 20 }], { userId: null });
    const names = async (q: string) => ((await get(`/kawasaki/api/genres/?${q}&order_by=name`, admin)).json().content as Array<{ name: string }>).map((r) => r.name);
    expect(await names(`parent_id=${root}`)).toEqual(['子1', '子2']);
    // As numbers, 0042 and 42.0 are 42 (as text they would match nothing).
    expect(await names(`parent_id=00${root}`)).toEqual(['子1', '子2']);
    expect(await names(`parent_id=${root}.0`)).toEqual(['子1', '子2']);
    const bad = await get('/kawasaki/api/genres/?parent_id=abc', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation', fields: { parent_id: [expect.any(String)] } });
  });
});

describe('writes', () => {
  it('creates news with a Japanese title (201) and shows it', async () => {
    const before = (await get(NEWS)).json().total_length;
    const r = await t.app.inject({
      method: 'POST',
      url: NEWS,
      headers: bearer(operator),
      payload: { title: '神戸の桜が満開です', description: '王子公園の桜が見頃を迎えました。', attr: 'news', create_at: '2000-01-01T00:00:00Z', id: 999 },
    });
    expect(r.statusCode).toBe(201);
    const row = r.json();
    expect(row).toMatchObject({ title: '神戸の桜が満開です', attr: 'news', created_on_news: 'News', version: 1 });
    expect(row.id).not.toBe(999);
    expect(Date.now() - Date.parse(row.create_at)).toBeLessThan(60_000);
    const shown = await get(`${NEWS}${row.id}/`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(row);
    expect((await get(NEWS)).json().total_length).toBe(before + 1);
    const [{ n }] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM r_audit_log WHERE data->>'resource' = 'news' AND data->>'action' = 'create' AND (data->>'record_id')::int = $1", [row.id]);
    expect(n).toBe(1);
  });

  it('rejects a 201-character title with a field error naming title', async () => {
    const r = await t.app.inject({ method: 'POST', url: NEWS, headers: bearer(operator), payload: { title: 'あ'.repeat(201), description: 'x', attr: 'news' } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'validation', detail: expect.any(String), fields: { title: ['タイトルは200文字以内で入力してください。'] } });
  });

  it('answers the scene required messages exactly', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/kobe/api/scene/', headers: bearer(operator), payload: {} });
    expect(r.statusCode).toBe(400);
    const fields = r.json().fields;
    expect(fields.name).toEqual(['シーン名を入力してください。']);
    expect(fields.category).toEqual(['カテゴリーを入力してください。']);
  });

  it('updates with the current version (200) and refuses a stale one (409)', async () => {
    const created = (await t.app.inject({ method: 'POST', url: NEWS, headers: bearer(operator), payload: { title: '版数テスト', description: 'v1', attr: 'news' } })).json();
    const url = `${NEWS}${created.id}/`;
    const ok = await t.app.inject({ method: 'PUT', url, headers: bearer(operator), payload: { ...created, description: 'v2' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: created.id, description: 'v2', version: 2, create_at: created.create_at });
    const stale = await t.app.inject({ method: 'PUT', url, headers: bearer(operator), payload: { ...created, description: 'v3' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('conflict');
    const noVersion = await t.app.inject({ method: 'PUT', url, headers: bearer(operator), payload: { title: '版数テスト', description: 'v3', attr: 'news' } });
    expect(noVersion.json().version).toBe(3);
  });

  it('deletes (204); the row is then 404 and the total drops', async () => {
    const created = (await t.app.inject({ method: 'POST', url: NEWS, headers: bearer(operator), payload: { title: '削除テスト', description: 'x', attr: 'news' } })).json();
    const before = (await get(NEWS)).json().total_length;
    // An empty body with a JSON content type (what many HTTP clients send) is no body.
    const r = await t.app.inject({ method: 'DELETE', url: `${NEWS}${created.id}/`, headers: { ...bearer(operator), 'content-type': 'application/json' } });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    expect((await get(`${NEWS}${created.id}/`)).statusCode).toBe(404);
    expect((await get(NEWS)).json().total_length).toBe(before - 1);
    expect((await t.app.inject({ method: 'DELETE', url: `${NEWS}${created.id}/`, headers: bearer(operator) })).statusCode).toBe(404);
  });
});

describe('authorization', () => {
  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ url: NEWS })).statusCode).toBe(401);
  });

  it('lets an advertiser read news in kobe but not create it (403)', async () => {
    const advertiser = await login(t.app, 'advertiser');
    expect((await get(NEWS, advertiser)).statusCode).toBe(200);
    const r = await t.app.inject({ method: 'POST', url: NEWS, headers: bearer(advertiser), payload: { title: '広告', description: 'x', attr: 'news' } });
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('forbidden');
  });

  it('answers 404 for a kobe row reached through the fukuoka path', async () => {
    const kobeRow = (await get(NEWS)).json().content[0];
    const r = await t.app.inject({
      method: 'PUT',
      url: `/fukuoka/api/city/admin-news/${kobeRow.id}/`,
      headers: bearer(operator),
      payload: { title: '書き換え', description: 'x', attr: 'news' },
    });
    expect(r.statusCode).toBe(404);
    expect((await get(`/fukuoka/api/city/admin-news/${kobeRow.id}/`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/fukuoka/api/city/admin-news/${kobeRow.id}/`, headers: bearer(operator) })).statusCode).toBe(404);
    expect((await get(`${NEWS}${kobeRow.id}/`)).json().title).toBe(kobeRow.title);
  });

  it('answers 403 in a city not assigned to the operator, 404 for a city that does not exist', async () => {
    const r = await get('/akita/api/city/admin-news/');
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('forbidden');
    expect((await get('/atlantis/api/city/admin-news/')).statusCode).toBe(404);
    expect((await get('/atlantis/api/city/admin-news/', admin)).statusCode).toBe(404);
  });

  it('keeps the advertiser city for Administrators', async () => {
    expect((await get('/advertiser/api/events/', admin)).statusCode).toBe(200);
  });
});
