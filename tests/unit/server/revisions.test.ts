/**
 * Revisions, restore and the recycle bin (docs/architecture.md 'Revisions and the recycle bin';
 * src/server/revisions/): every kind of write keeps a revision in its transaction (create, update,
 * delete, action, CSV import, restore, undelete), read newest first with who and what changed;
 * a restore writes a past state back through the update's checks; a deleted row leaves every list
 * and comes back from the recycle bin; housekeeping prunes revisions past REVISION_DAYS. On
 * PGlite, and on PostgreSQL when DATABASE_URL is set (tests/unit/server/helpers.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '../../../src/shared/registry';
import { keepHouse } from '../../../src/server/jobs/housekeeping';
import { createRecord } from '../../../src/server/repositories/resource-repository';
import { bearer, createTestApp, login, type TestApp } from './helpers';
import { csvText, settled, shopRow, SHOP_HEADER, upload, encode } from './import-helpers';

let t: TestApp;
let admin: Record<string, string>;
let operator: Record<string, string>;
let shop: Record<string, string>;
let teacher: Record<string, string>;

type Body = Record<string, unknown>;
async function req(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) {
  const r = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Body }) });
  return { status: r.statusCode, body: (r.body ? r.json() : {}) as Body };
}

interface Rev {
  revision: number;
  at: string;
  by: { id: number | null; username: string | null; name: string | null };
  operation: string;
  changes: Array<{ field: string; before: unknown; after: unknown }>;
}
async function revisionsOf(resource: string, id: number, headers = admin, page = 1): Promise<{ content: Rev[]; total_length: number }> {
  const r = await req('GET', `/kobe/api/revisions/${resource}/${id}/?page=${page}`, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as unknown as { content: Rev[]; total_length: number };
}

const NEWS = '/kobe/api/city/admin-news/';

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await login(t.app, 'administrator'));
  operator = bearer(await login(t.app, 'operator'));
  shop = bearer(await login(t.app, 'advertiser'));
  teacher = bearer(await login(t.app, 'teacher'));
});
afterAll(() => t?.close());

describe('revisions of each kind of write', () => {
  it('create, update and delete keep revisions with who, the operation and each changed field', async () => {
    const created = await req('POST', NEWS, admin, { title: '履歴のお知らせ', description: '最初の本文', attr: 'news' });
    expect(created.status).toBe(201);
    const id = Number(created.body.id);
    const updated = await req('PUT', `${NEWS}${id}/`, operator, { ...created.body, description: '二度目の本文' });
    expect(updated.status).toBe(200);
    const history = await revisionsOf('news', id);
    expect(history.total_length).toBe(2);
    const [second, first] = history.content;
    expect(first).toMatchObject({ revision: 1, operation: 'create', by: { username: 'administrator' } });
    expect(first.changes).toEqual(expect.arrayContaining([{ field: 'title', before: null, after: '履歴のお知らせ' }]));
    expect(second).toMatchObject({ revision: 2, operation: 'update', by: { username: 'operator' } });
    expect(second.changes).toEqual([{ field: 'description', before: '最初の本文', after: '二度目の本文' }]);
    expect(typeof second.by.name).toBe('string');
    expect(Date.parse(second.at)).not.toBeNaN();

    expect((await req('DELETE', `${NEWS}${id}/`, admin)).status).toBe(204);
    const after = await revisionsOf('news', id);
    expect(after.content[0]).toMatchObject({ revision: 3, operation: 'delete' });
    expect(after.content[0].changes).toEqual(expect.arrayContaining([{ field: 'description', before: '二度目の本文', after: null }]));
  });

  it('an action keeps a revision as `action`', async () => {
    const ad = await req('POST', '/kobe/api/advertisements/', admin, { name: '履歴の店' });
    expect(ad.status).toBe(201);
    const id = Number(ad.body.id);
    expect((await req('PUT', `/kobe/api/advertisements/${id}/toppan/`, admin, {})).status).toBeLessThan(300);
    const [newest] = (await revisionsOf('advertisement', id)).content;
    expect(newest).toMatchObject({ operation: 'action' });
    expect(newest.changes).toEqual([{ field: 'is_top', before: false, after: true }]);
  });

  it('a CSV import keeps one revision per row written, as `import`', async () => {
    const file = encode(csvText([SHOP_HEADER, shopRow('履歴インポート店 1'), shopRow('履歴インポート店 2')]), 'utf-8');
    const r = await upload(t.app, admin, 'history.csv', file);
    expect(r.statusCode, r.body).toBe(202);
    const importId = (r.json() as { id: number }).id;
    const state = await settled(t.app, admin, importId);
    expect(state.status).toBe('success');
    // The import's progress on its own history row is the server's bookkeeping: no revision of it.
    const bookkeeping = await t.db.query("SELECT 1 FROM revisions WHERE resource = 'csv_import' AND row_id = $1 AND operation = 'import'", [importId]);
    expect(bookkeeping).toHaveLength(0);
    const rows = await t.db.query<{ id: number }>("SELECT id FROM r_advertisement WHERE data->>'name' LIKE '履歴インポート店%' ORDER BY id");
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const h = await revisionsOf('advertisement', Number(row.id));
      expect(h.content).toHaveLength(1);
      expect(h.content[0]).toMatchObject({ revision: 1, operation: 'import', by: { username: 'administrator' } });
    }
  });

  it('pages by 20, newest first', async () => {
    const created = await req('POST', NEWS, admin, { title: '何度も直すお知らせ', description: '0', attr: 'news' });
    const id = Number(created.body.id);
    let row = created.body;
    for (let i = 1; i <= 21; i++) row = (await req('PUT', `${NEWS}${id}/`, admin, { ...row, description: String(i) })).body;
    const first = await revisionsOf('news', id);
    expect(first.total_length).toBe(22);
    expect(first.content).toHaveLength(20);
    expect(first.content[0].revision).toBe(22);
    const second = await revisionsOf('news', id, admin, 2);
    expect(second.content.map((r) => r.revision)).toEqual([2, 1]);
  });
});

describe('restore', () => {
  it('writes the row back as it was after a revision, as a new revision; 409 on a stale version', async () => {
    const created = await req('POST', NEWS, admin, { title: '元のタイトル', description: '元の本文', attr: 'news' });
    const id = Number(created.body.id);
    const changed = await req('PUT', `${NEWS}${id}/`, admin, { ...created.body, title: '変えたタイトル', description: '変えた本文' });
    expect(changed.body.version).toBe(2);
    expect((await req('POST', `/kobe/api/revisions/news/${id}/1/restore/`, admin, { version: 1 })).status).toBe(409);
    const restored = await req('POST', `/kobe/api/revisions/news/${id}/1/restore/`, admin, { version: 2 });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ title: '元のタイトル', description: '元の本文', version: 3 });
    expect((await req('GET', `${NEWS}${id}/`, admin)).body).toMatchObject({ title: '元のタイトル' });
    const [newest] = (await revisionsOf('news', id)).content;
    expect(newest).toMatchObject({ revision: 3, operation: 'restore' });
    expect(newest.changes).toEqual(expect.arrayContaining([{ field: 'title', before: '変えたタイトル', after: '元のタイトル' }]));
  });

  it('a value the schema now refuses is a 400 naming the field', async () => {
    const created = await req('POST', NEWS, admin, { title: '古い値', description: '本文', attr: 'news' });
    const id = Number(created.body.id);
    // A revision whose title the schema refuses (longer than 200 characters), as an older schema allowed.
    await t.db.query("UPDATE revisions SET after = jsonb_set(after, '{title}', to_jsonb(repeat('長', 201))) WHERE resource = 'news' AND row_id = $1 AND revision = 1", [id]);
    await t.db.query("UPDATE r_news SET data = jsonb_set(data, '{title}', to_jsonb(repeat('長', 201))) WHERE id = $1", [id]);
    const ok = await req('PUT', `${NEWS}${id}/`, admin, { ...created.body, title: '新しい値' });
    expect(ok.status).toBe(200);
    const refused = await req('POST', `/kobe/api/revisions/news/${id}/1/restore/`, admin, { version: ok.body.version });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.fields as Body)).toEqual(['title']);
  });

  it('needs the update permission; another city or an unknown row is 404', async () => {
    const created = await req('POST', NEWS, admin, { title: '権限', description: '本文', attr: 'news' });
    const id = Number(created.body.id);
    expect((await req('POST', `/kobe/api/revisions/news/${id}/1/restore/`, shop, { version: 1 })).status).toBe(403);
    expect((await req('GET', `/kobe/api/revisions/news/999999/`, admin)).status).toBe(404);
    expect((await req('GET', `/kobe/api/revisions/no_such/1/`, admin)).status).toBe(404);
    expect((await req('GET', `/kobe/api/revisions/audit_log/1/`, admin)).status).toBe(404);
  });
});

describe('the recycle bin', () => {
  it('a deleted row leaves the list and its count, is listed in the bin and comes back with its id', async () => {
    const created = await req('POST', NEWS, admin, { title: 'ごみ箱のお知らせ', description: '本文', attr: 'news' });
    const id = Number(created.body.id);
    const before = (await req('GET', `${NEWS}?limit=1`, admin)).body.total_length as number;
    expect((await req('DELETE', `${NEWS}${id}/`, operator)).status).toBe(204);
    expect((await req('GET', `${NEWS}?limit=1`, admin)).body.total_length).toBe(before - 1);
    expect((await req('GET', `${NEWS}${id}/`, admin)).status).toBe(404);
    expect((await req('GET', `${NEWS}?search=ごみ箱のお知らせ`, admin)).body.content).toEqual([]);

    const bin = await req('GET', '/kobe/api/revisions/news/deleted/', admin);
    expect(bin.status).toBe(200);
    const entry = (bin.body.content as Array<Body>).find((e) => e.id === id);
    expect(entry).toMatchObject({ id, deleted_by: { username: 'operator' }, record: { id, title: 'ごみ箱のお知らせ' } });

    const back = await req('POST', `/kobe/api/revisions/news/${id}/undelete/`, admin);
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    const createdField = getResource('news').createdField!;
    expect(back.body).toMatchObject({ id, title: 'ごみ箱のお知らせ', [createdField]: created.body[createdField] });
    expect(created.body[createdField]).toBeTruthy();
    expect((await req('GET', `${NEWS}${id}/`, admin)).status).toBe(200);
    expect((await req('GET', `${NEWS}?limit=1`, admin)).body.total_length).toBe(before);
    expect(((await req('GET', '/kobe/api/revisions/news/deleted/', admin)).body.content as Array<Body>).some((e) => e.id === id)).toBe(false);
    const [newest] = (await revisionsOf('news', id)).content;
    expect(newest).toMatchObject({ operation: 'undelete', by: { username: 'administrator' } });
    // Not in the bin any more: a second undelete finds nothing.
    expect((await req('POST', `/kobe/api/revisions/news/${id}/undelete/`, admin)).status).toBe(404);
  });

  it("an Advertiser's bin holds its own shops' rows only, and brings back only those", async () => {
    const adA = await createRecord(t.db, getResource('advertisement'), 'kobe', { name: 'ごみ箱の自店' }, { userId: null }, { trusted: true });
    const adB = await createRecord(t.db, getResource('advertisement'), 'kobe', { name: 'ごみ箱の他店' }, { userId: null }, { trusted: true });
    await t.db.query('UPDATE users SET advertisements = $1::int[] WHERE username = $2', [[Number(adA.id)], 'advertiser']);
    const own = bearer(await login(t.app, 'advertiser'));
    const { image: _image, genre: _genre, ...example } = getResource('coupon').examples[0];
    const mine = await req('POST', '/kobe/api/coupon/', own, { ...example, title: '自店の消すクーポン', advertisement: Number(adA.id) });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const theirs = await req('POST', '/kobe/api/coupon/', admin, { ...example, title: '他店の消すクーポン', advertisement: Number(adB.id) });
    expect(theirs.status).toBe(201);
    expect((await req('DELETE', `/kobe/api/coupon/${mine.body.id}/`, own)).status).toBe(204);
    expect((await req('DELETE', `/kobe/api/coupon/${theirs.body.id}/`, admin)).status).toBe(204);
    const bin = await req('GET', '/kobe/api/revisions/coupon/deleted/', own);
    expect(bin.status).toBe(200);
    expect((bin.body.content as Array<Body>).map((e) => e.id)).toEqual([mine.body.id]);
    expect((await req('GET', `/kobe/api/revisions/coupon/${theirs.body.id}/`, own)).status).toBe(404);
    expect((await req('POST', `/kobe/api/revisions/coupon/${theirs.body.id}/undelete/`, own)).status).toBe(404);
    expect((await req('POST', `/kobe/api/revisions/coupon/${mine.body.id}/undelete/`, own)).status).toBe(201);
    const adminBin = await req('GET', '/kobe/api/revisions/coupon/deleted/', admin);
    expect((adminBin.body.content as Array<Body>).map((e) => e.id)).toContain(theirs.body.id);
    shop = own;
  });

  it('the bin needs read and create; own-row limits apply', async () => {
    expect((await req('GET', '/kobe/api/revisions/news/deleted/', shop)).status).toBe(403);
    expect((await req('GET', '/kobe/api/revisions/news/deleted/', teacher)).status).toBe(403);
  });
});

describe('housekeeping', () => {
  it('prunes revisions older than REVISION_DAYS', async () => {
    const created = await req('POST', NEWS, admin, { title: '古い履歴', description: '本文', attr: 'news' });
    const id = Number(created.body.id);
    await t.db.query("UPDATE revisions SET at = now() - interval '401 days' WHERE resource = 'news' AND row_id = $1", [id]);
    const result = await keepHouse(t.db, async () => {}, { revisionDays: 400 });
    expect(result.revisions).toBeGreaterThanOrEqual(1);
    expect((await revisionsOf('news', id)).total_length).toBe(0);
  });
});
