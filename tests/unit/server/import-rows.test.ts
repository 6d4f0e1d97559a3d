/**
 * The rows of a CSV import (000 5 CSV import rows; 001 7.16, 8): a file of 10 good rows, 2 bad and
 * 1 with an unknown category ends `partial` with 11 shops (one without category), 2 errors and 1
 * warning in its log with their row numbers, its failed rows as a CSV; the dry run says the same
 * and writes nothing; an `ID` column updates instead of duplicating; the same file again is a 409
 * without `confirm_duplicate`; the history entry and its deletion; malls with a parent by name.
 * On PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DryRunAnswer, ImportState } from '../../../src/shared/csv-import';
import { bearer, createTestApp, login, type TestApp } from './helpers';
import { csvText, encode, logOf, settled, shopRow, shops, SHOP_HEADER, upload } from './import-helpers';

let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await login(t.app, 'administrator'));
});
afterAll(() => t?.close());

async function adsTotal(): Promise<number> {
  const r = await t.app.inject({ method: 'GET', url: '/kobe/api/operator-advertisement/?limit=1', headers: admin });
  return (r.json() as { total_length: number }).total_length;
}

const rows = [
  ...Array.from({ length: 5 }, (_, i) => shopRow(`部分取込の店 ${i + 1}`)),
  shopRow('部分取込の店 電話', { phone: '電話なし' }), // row 7: an error
  shopRow('部分取込の店 カテゴリ', { category: '存在しないカテゴリ' }), // row 8: a warning
  ...Array.from({ length: 4 }, (_, i) => shopRow(`部分取込の店 ${i + 6}`)),
  shopRow('部分取込の店 ジャンル', { genre: 'グルメ>存在しないジャンル' }), // row 13: an error
  shopRow('部分取込の店 10'),
];
const partialFile = encode(csvText([SHOP_HEADER, ...rows]), 'shift_jis');

describe('a file with good rows, bad rows and an unknown category', () => {
  let state: ImportState;

  it('the dry run counts and lists the problems, writing nothing', async () => {
    const before = await adsTotal();
    const r = await upload(t.app, admin, '部分.csv', partialFile, '?dry_run=true');
    expect(r.statusCode, r.body).toBe(200);
    const dry = r.json() as DryRunAnswer;
    expect(dry).toMatchObject({ rows: 13, create: 11, update: 0, errors: 2, warnings: 1, encoding: 'shift_jis', duplicate_of: null });
    expect(dry.problems).toEqual([
      { row: 7, column: '電話番号', level: 'error', message: '電話番号は半角数字とハイフンで入力してください。' },
      { row: 8, column: 'カテゴリ', level: 'warning', message: 'このカテゴリが無効なものです' },
      { row: 13, column: 'ジャンル', level: 'error', message: '「グルメ>存在しないジャンル」が見つかりません。' },
    ]);
    expect(await adsTotal()).toBe(before);
  });

  it('the import ends partial: 11 shops (one without category), 2 errors and 1 warning logged by row', async () => {
    const before = await adsTotal();
    const r = await upload(t.app, admin, '部分.csv', partialFile);
    expect(r.statusCode, r.body).toBe(202);
    state = await settled(t.app, admin, (r.json() as ImportState).id);
    expect(state).toMatchObject({ status: 'partial', total: 13, done: 13, created: 11, updated: 0, errors: 2, warnings: 1 });
    const made = await shops(t.db, '部分取込の店%');
    expect(made).toHaveLength(11);
    expect(made.filter((s) => s.category === undefined).map((s) => s.name)).toEqual(['部分取込の店 カテゴリ']);
    expect(await adsTotal()).toBe(before + 11);

    const log = await logOf(t.app, admin, state.id);
    const problems = log.filter((l) => l.level !== 'info').map((l) => [l.row_number, l.level, l.column]);
    expect(problems).toEqual([
      [7, 'error', '電話番号'],
      [8, 'warning', 'カテゴリ'],
      [13, 'error', 'ジャンル'],
    ]);
    expect(log.find((l) => l.level === 'info')?.message).toBe('11件を登録し、0件を更新しました（エラー2件、警告1件）。');
    const errors = await logOf(t.app, admin, state.id, '&level=error');
    expect(errors.map((l) => l.row_number)).toEqual([7, 13]);
  });

  it('its failed rows: the rows as uploaded with an error column, importable again once fixed', async () => {
    const r = await t.app.inject({ method: 'GET', url: `/kobe/api/import-csv/${state.id}/failed-rows`, headers: admin });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = r.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toEqual([
      `${SHOP_HEADER.join(',')},エラー`,
      `${rows[5].join(',')},電話番号は半角数字とハイフンで入力してください。`,
      `${rows[11].join(',')},「グルメ>存在しないジャンル」が見つかりません。`,
    ]);
    // The error column is not one of the import's: drop it, fix the rows, check them again.
    const fixed = encode(csvText([SHOP_HEADER, shopRow('部分取込の店 電話'), shopRow('部分取込の店 ジャンル')]), 'utf-8');
    expect((await upload(t.app, admin, 'fixed.csv', fixed, '?dry_run=true')).json()).toMatchObject({ rows: 2, create: 2, errors: 0 });
  });

  it('the same file again: the dry run names the earlier import, the import asks (409) unless confirmed', async () => {
    const dry = await upload(t.app, admin, '部分.csv', partialFile, '?dry_run=true');
    expect((dry.json() as DryRunAnswer).duplicate_of).toBe(state.id);
    const refused = await upload(t.app, admin, '部分.csv', partialFile);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'duplicate_file' });
    const again = await upload(t.app, admin, '部分.csv', partialFile, '?confirm_duplicate=true');
    expect(again.statusCode).toBe(202);
    expect(await settled(t.app, admin, (again.json() as ImportState).id)).toMatchObject({ status: 'partial', created: 11 });
  });

  it('the history lists it with its counts; deleting the entry keeps the shops', async () => {
    const list = await t.app.inject({ method: 'GET', url: `/kobe/api/admin-tools/list-imported/?file_name=${encodeURIComponent('部分.csv')}`, headers: admin });
    const entries = (list.json() as { content: Array<Record<string, unknown>> }).content;
    expect(entries.find((e) => e.id === state.id)).toMatchObject({
      file_name: '部分.csv',
      kind: 'ads',
      status: 'partial',
      encoding: 'shift_jis',
      imported_by: expect.any(String),
      total_rows: 13,
      created_rows: 11,
      updated_rows: 0,
      success_rows: 11,
      error_rows: 2,
      warning_rows: 1,
    });
    const shopsBefore = (await shops(t.db, '部分取込の店%')).length;
    expect((await t.app.inject({ method: 'DELETE', url: `/kobe/api/city/list-imported/${state.id}/`, headers: admin })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/kobe/api/import-csv/${state.id}/`, headers: admin })).statusCode).toBe(404);
    expect(await shops(t.db, '部分取込の店%')).toHaveLength(shopsBefore);
  });
});

describe('an ID column', () => {
  it('updates the named shop of the city instead of making another; an unknown ID creates one', async () => {
    const created = await upload(t.app, admin, 'first.csv', encode(csvText([SHOP_HEADER, shopRow('更新前の店', { description: '前' })]), 'utf-8'));
    await settled(t.app, admin, (created.json() as ImportState).id);
    const [shop] = await shops(t.db, '更新前の店');
    const [{ version }] = await t.db.query<{ version: number }>('SELECT version FROM r_advertisement WHERE id = $1', [shop.id]);
    const before = await adsTotal();
    // No 説明 column: the description stays; an empty メールアドレス clears the e-mail.
    const header = ['id', '店舗名', '電話番号', '住所', 'ジャンル', 'カテゴリ', 'メールアドレス'];
    const cells = (name: string) => [name, '078-000-0000', '神戸市中央区', 'グルメ', '地元グルメ', ''];
    const text = csvText([header, [shop.id, ...cells('更新後の店')], [99_999_999, ...cells('新しいIDの店')]]);
    const dry = await upload(t.app, admin, 'update.csv', encode(text, 'utf-8'), '?dry_run=true');
    expect(dry.json()).toMatchObject({ rows: 2, create: 1, update: 1, errors: 0 });
    const r = await upload(t.app, admin, 'update.csv', encode(text, 'utf-8'));
    expect(await settled(t.app, admin, (r.json() as ImportState).id)).toMatchObject({ status: 'success', created: 1, updated: 1 });
    expect(await shops(t.db, '更新前の店')).toEqual([]);
    const [updated] = await shops(t.db, '更新後の店');
    expect(updated).toMatchObject({ id: shop.id, description: '前', phone: '078-000-0000', category: shop.category, user_name: 'advertiser' });
    expect(updated.email).toBeUndefined(); // an empty cell of an update clears the field
    const [{ version: after }] = await t.db.query<{ version: number }>('SELECT version FROM r_advertisement WHERE id = $1', [shop.id]);
    expect(after).toBe(version + 1);
    expect(await adsTotal()).toBe(before + 1);
  });
});

describe('malls', () => {
  it('imports malls (genres of type 24), a parent named by an earlier row or an existing mall', async () => {
    const text = csvText([
      ['モール名', '親モール', '説明'],
      ['取込モール', '', '商店街'],
      ['取込モール 東', '取込モール', '東側'],
      ['取込モール 西', '元町商店街', '西側'],
      ['取込モール 南', '無いモール', ''],
    ]);
    const r = await upload(t.app, admin, 'malls.csv', encode(text, 'shift_jis'), '', '/kobe/api/import-csv-mall/');
    expect(r.statusCode, r.body).toBe(202);
    expect(await settled(t.app, admin, (r.json() as ImportState).id)).toMatchObject({ kind: 'mall', status: 'partial', created: 3, errors: 1 });
    const malls = await t.db.query<{ id: number; data: Record<string, unknown> }>(
      `SELECT id, data FROM r_genre WHERE city = 'kobe' AND data->>'name' LIKE '取込モール%' ORDER BY id`,
    );
    const [motomachi] = await t.db.query<{ id: number }>(`SELECT id FROM r_genre WHERE city = 'kobe' AND data->>'name' = '元町商店街'`);
    expect(malls.map((m) => [m.data.name, m.data.type, m.data.parent_id])).toEqual([
      ['取込モール', 24, null],
      ['取込モール 東', 24, Number(malls[0].id)],
      ['取込モール 西', 24, Number(motomachi.id)],
    ]);
  });
});
