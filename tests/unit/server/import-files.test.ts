/**
 * The CSV import's file rules (000 5 CSV import; 001 7.16, 9): a UTF-8 file (with or without a BOM)
 * and a Shift_JIS file holding 髙, ①, ㈱ and trail bytes 0x5C (ソ, 表, 能) import exactly; a missing
 * column, an empty file, an 11 MB file (and 10 MB + 1 byte), a PNG renamed .csv, bytes that are
 * neither UTF-8 nor Shift_JIS, another extension are each refused with their message and nothing
 * stored; only Administrators and Operators of the city may import (403 for an Advertiser).
 * On PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_IMPORT_MAX_BYTES, type ImportState } from '../../../src/shared/csv-import';
import { bearer, createTestApp, login, type TestApp } from './helpers';
import { countRecords, csvRows } from '../../../src/server/import/csv-rows';
import { decodedText } from '../../../src/server/import/import-file';
import { csvText, encode, logOf, multipart, settled, shopRow, shops, SHOP_HEADER, upload } from './import-helpers';

let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await login(t.app, 'administrator'));
  // The genre path グルメ>ラーメン of the issue: a child of the demo genre グルメ.
  const [gourmet] = await t.db.query<{ id: number }>(`SELECT id FROM r_genre WHERE city = 'kobe' AND data->>'name' = 'グルメ' ORDER BY id LIMIT 1`);
  const made = await t.app.inject({
    method: 'POST',
    url: '/kobe/api/genres/',
    headers: admin,
    payload: { name: 'ラーメン', type: 20, parent_id: Number(gourmet.id) },
  });
  expect(made.statusCode, made.body).toBe(201);
});
afterAll(() => t?.close());

/** Imports, counted: the history entries, shops and jobs of kobe. */
async function stored(): Promise<number[]> {
  const count = async (sql: string) => Number((await t.db.query<{ n: number }>(sql))[0].n);
  return [
    await count(`SELECT count(*)::int AS n FROM r_csv_import WHERE city = 'kobe'`),
    await count(`SELECT count(*)::int AS n FROM r_advertisement WHERE city = 'kobe'`),
    await count(`SELECT count(*)::int AS n FROM jobs WHERE kind <> 'housekeeping'`),
  ];
}

const ENCODED = {
  name: '㈱髙橋ソフト①号店',
  description: '表示能力ソース、"引用"と改行\nあり',
  formula: '=HYPERLINK("http://example.jp")',
};

describe('a file in either encoding imports exactly', () => {
  for (const encoding of ['utf-8', 'utf-8-bom', 'shift_jis'] as const) {
    it(`${encoding}: 髙, ①, ㈱ and 0x5C trail bytes`, async () => {
      const name = `${ENCODED.name} ${encoding}`;
      const text = csvText([
        SHOP_HEADER,
        shopRow(name, { genre: 'グルメ > ラーメン', description: ENCODED.description }),
        shopRow(`${name} 2`, { description: ENCODED.formula }),
      ]);
      const bytes = encode(text, encoding);
      if (encoding === 'shift_jis') {
        expect(bytes.includes(Buffer.from([0x83, 0x5c]))).toBe(true); // ソ
        expect(bytes.includes(Buffer.from([0xfb, 0xfc]))).toBe(true); // 髙 (IBM extension)
      }
      const dry = await upload(t.app, admin, `${encoding}.csv`, bytes, '?dry_run=true');
      expect(dry.statusCode, dry.body).toBe(200);
      expect(dry.json()).toMatchObject({
        dry_run: true,
        encoding: encoding === 'shift_jis' ? 'shift_jis' : 'utf-8',
        rows: 2,
        create: 2,
        update: 0,
        errors: 0,
        warnings: 0,
        problems: [],
      });

      const started = await upload(t.app, admin, `${encoding}.csv`, bytes);
      expect(started.statusCode, started.body).toBe(202);
      const state = started.json() as ImportState;
      expect(state).toMatchObject({ kind: 'ads', status: 'processing', total: 2, file_name: `${encoding}.csv` });
      expect(await settled(t.app, admin, state.id)).toMatchObject({ status: 'success', done: 2, created: 2, errors: 0 });

      const [genre] = await t.db.query<{ id: number }>(`SELECT id FROM r_genre WHERE city = 'kobe' AND data->>'name' = 'ラーメン'`);
      const [first, second] = await shops(t.db, `${name}%`);
      expect(first).toMatchObject({
        name,
        description: ENCODED.description,
        genre: Number(genre.id),
        email: 'shop@example.jp',
        latitude: 34.69,
        user_name: 'advertiser',
      });
      expect(typeof first.category).toBe('number');
      expect(second).toMatchObject({ name: `${name} 2`, description: ENCODED.formula });
    });
  }
});

describe('a file that arrives in pieces', () => {
  // The UTF-8 check runs on the upload's chunks as they arrive (import-file.ts): a character split
  // between two chunks is still one character, and a Shift_JIS file is still told apart.
  for (const encoding of ['utf-8', 'shift_jis'] as const) {
    it(`${encoding}, sent 7 bytes at a time: the check tells its encoding and reads its rows`, async () => {
      const bytes = encode(csvText([SHOP_HEADER, shopRow(`${ENCODED.name} 分割`), shopRow('表示能力ソース 分割 2')]), encoding);
      const body = multipart(`pieces-${encoding}.csv`, bytes);
      const whole = Buffer.from(body.payload);
      const pieces = Array.from({ length: Math.ceil(whole.length / 7) }, (_, i) => whole.subarray(i * 7, i * 7 + 7));
      const r = await t.app.inject({ method: 'POST', url: '/kobe/api/import-csv/?dry_run=true', headers: { ...admin, ...body.headers }, payload: Readable.from(pieces) });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ encoding, rows: 2, create: 2, errors: 0, problems: [] });
    });
  }
});

describe('a file that is not a CSV the import reads is refused, nothing stored', () => {
  const good = encode(csvText([SHOP_HEADER, shopRow('拒否されない店')]), 'utf-8');
  const PNG = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89]),
  ]);
  const cases: Array<[string, string, Buffer, number, RegExp]> = [
    [
      'a missing column',
      'missing.csv',
      encode(csvText([SHOP_HEADER.filter((h) => h !== '電話番号'), ['店', 'a@example.jp', '住所', 'グルメ', '地元グルメ', '', '', '', '']]), 'utf-8'),
      400,
      /必須の列がありません：電話番号/,
    ],
    [
      'an unknown and a doubled column',
      'columns.csv',
      encode(
        csvText([
          [...SHOP_HEADER, '備考', 'name'],
          [...shopRow('店'), 'x', '店'],
        ]),
        'utf-8',
      ),
      400,
      /不明な列があります：備考.*同じ列が複数あります：name/,
    ],
    ['an empty file', 'empty.csv', Buffer.alloc(0), 400, /ファイルが空です/],
    ['a header without rows', 'header.csv', encode(csvText([SHOP_HEADER]), 'utf-8'), 400, /データ行がありません/],
    ['an 11 MB file', 'large.csv', Buffer.concat([good, Buffer.alloc(11 * 1024 * 1024 - good.length, 0x41)]), 413, /10,485,760/],
    ['10 MB + 1 byte', 'limit.csv', Buffer.concat([good, Buffer.alloc(CSV_IMPORT_MAX_BYTES + 1 - good.length, 0x41)]), 413, /10,485,760/],
    ['a PNG renamed .csv', 'image.csv', PNG, 400, /CSVファイルではありません（PNG）/],
    [
      'bytes neither UTF-8 nor Shift_JIS',
      'latin1.csv',
      Buffer.concat([encode('店舗名,電話番号\r\n', 'utf-8'), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0xff, 0x0d, 0x0a])]),
      400,
      /文字コードを読み取れません/,
    ],
    ['another extension', 'shops.xlsx', good, 400, /拡張子が\.csv/],
  ];
  for (const [what, fileName, bytes, status, message] of cases) {
    it(what, async () => {
      const before = await stored();
      for (const query of ['?dry_run=true', '']) {
        const r = await upload(t.app, admin, fileName, bytes, query);
        expect(r.statusCode, r.body).toBe(status);
        expect((r.json() as { detail: string }).detail).toMatch(message);
      }
      expect(await stored()).toEqual(before);
    });
  }

  it('a request without a file', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/kobe/api/import-csv/', headers: admin, payload: {} });
    expect(r.statusCode).toBe(400);
    expect((r.json() as { detail: string }).detail).toBe('CSVファイルを選択してください。');
  });
});

describe('the rows of a file', () => {
  it('are counted before the import as csv-parse reads them: quoted cells, doubled quotes, line breaks, stray quotes, empty lines', async () => {
    const text = 'a,b\r\n"1,x","say ""hi""\nthere"\r\n\r\n2,5" screen\n"3",\n\n4,"unclosed at the end';
    const cells: string[][] = [];
    const { writeFile, rm } = await import('node:fs/promises');
    const path = `${process.env.TMPDIR ?? '/tmp'}/count-${process.pid}.csv`;
    await writeFile(path, text.slice(0, text.lastIndexOf('\n4')));
    try {
      for await (const row of csvRows(path, 'utf-8', undefined)) cells.push(row.cells);
      expect(cells).toEqual([
        ['a', 'b'],
        ['1,x', 'say "hi"\nthere'],
        ['2', '5" screen'],
        ['3', ''],
      ]);
      expect(await countRecords(decodedText(path, 'utf-8'))).toBe(4);
    } finally {
      await rm(path, { force: true });
    }
    expect(
      await countRecords(
        (async function* () {
          yield text.slice(0, 9);
          yield text.slice(9);
        })(),
      ),
    ).toBe(5);
  });

  it('a quote never closed: the check refuses the file, an import fails with the line in its log', async () => {
    const bytes = encode(`${csvText([SHOP_HEADER, shopRow('閉じない店')])}"閉じない引用,1\r\n`, 'utf-8');
    const dry = await upload(t.app, admin, 'quote.csv', bytes, '?dry_run=true');
    expect(dry.statusCode).toBe(400);
    expect((dry.json() as { detail: string }).detail).toMatch(/CSVの形式が正しくありません（\d+行目）/);
    const started = await upload(t.app, admin, 'quote.csv', bytes);
    expect(started.statusCode).toBe(202);
    const { id } = started.json() as ImportState;
    expect(await settled(t.app, admin, id)).toMatchObject({ status: 'failed', created: 0 });
    expect(await shops(t.db, '閉じない店')).toEqual([]);
    const log = await logOf(t.app, admin, id);
    expect(log.map((l) => l.message)).toContainEqual(expect.stringMatching(/CSVの形式が正しくありません/));
  });
});

describe('who may import', () => {
  it('an Operator may, an Advertiser gets 403 on every import call', async () => {
    const bytes = encode(csvText([SHOP_HEADER, shopRow('権限の店')]), 'utf-8');
    const operator = bearer(await login(t.app, 'operator'));
    expect((await upload(t.app, operator, 'op.csv', bytes, '?dry_run=true')).statusCode).toBe(200);
    const advertiser = bearer(await login(t.app, 'advertiser'));
    const before = await stored();
    expect((await upload(t.app, advertiser, 'ad.csv', bytes)).statusCode).toBe(403);
    expect((await upload(t.app, advertiser, 'ad.csv', bytes, '?dry_run=true', '/kobe/api/import-csv-mall/')).statusCode).toBe(403);
    for (const url of [
      '/kobe/api/import-csv/template',
      '/kobe/api/import-csv/1/',
      '/kobe/api/import-csv/1/failed-rows',
      '/kobe/api/admin-tools/list-imported/',
    ]) {
      expect((await t.app.inject({ method: 'GET', url, headers: advertiser })).statusCode, url).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: '/kobe/api/import-csv/1/cancel', headers: advertiser })).statusCode).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it('the templates: header and two example rows, UTF-8 with a BOM, that the check accepts', async () => {
    for (const [kind, path] of [
      ['ads', '/kobe/api/import-csv/'],
      ['mall', '/kobe/api/import-csv-mall/'],
    ] as const) {
      const r = await t.app.inject({ method: 'GET', url: `${path}template`, headers: admin });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(r.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const lines = r.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(kind === 'ads' ? /^ID,店舗名,メールアドレス,電話番号,住所,ジャンル,カテゴリ/ : /^ID,モール名,親モール/);
      const dry = await upload(t.app, admin, `${kind}-template.csv`, r.rawPayload, '?dry_run=true', path);
      expect(dry.json(), dry.body).toMatchObject({ rows: 2, create: 2, errors: 0, warnings: 0 });
    }
  });
});
