/**
 * Helpers of the CSV import tests (src/server/import/): multipart bodies, CSV text in UTF-8 or
 * Shift_JIS (CP932), the import's state polled until it ends, the city's shops read back.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import iconv from 'iconv-lite';
import { expect } from 'vitest';
import type { ImportState } from '../../../src/shared/csv-import';
import type { Database } from '../../../src/server/db/database';

/** A multipart/form-data body with one file field. */
export function multipart(fileName: string, bytes: Buffer, field = 'file'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** CSV text of rows (cells quoted when needed), CRLF line ends. */
export function csvText(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const cell = (v: string | number) => {
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** The bytes of `text` in UTF-8 (with a BOM when asked) or Shift_JIS as Windows writes it (CP932). */
export function encode(text: string, encoding: 'utf-8' | 'utf-8-bom' | 'shift_jis'): Buffer {
  if (encoding === 'shift_jis') return iconv.encode(text, 'cp932');
  return Buffer.concat([encoding === 'utf-8-bom' ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
}

/** Uploads a file to the shop import (or `path`) and answers the response. */
export async function upload(
  app: FastifyInstance,
  headers: Record<string, string>,
  fileName: string,
  bytes: Buffer,
  query = '',
  path = '/kobe/api/import-csv/',
) {
  const body = multipart(fileName, bytes);
  return app.inject({ method: 'POST', url: `${path}${query}`, headers: { ...headers, ...body.headers }, payload: body.payload });
}

/** Polls GET /kobe/api/import-csv/{id}/ until the import is no longer processing; answers its last state. */
export async function settled(app: FastifyInstance, headers: Record<string, string>, id: number, timeoutMs = 30_000): Promise<ImportState> {
  let state: ImportState | null = null;
  await expect
    .poll(
      async () => {
        const r = await app.inject({ method: 'GET', url: `/kobe/api/import-csv/${id}/`, headers });
        state = r.json() as ImportState;
        return state.status;
      },
      { timeout: timeoutMs, interval: 100 },
    )
    .not.toBe('processing');
  return state!;
}

/** The shops of a city named like `pattern` (SQL LIKE), as stored. */
export async function shops(db: Database, pattern: string, city = 'kobe'): Promise<Array<Record<string, unknown> & { id: number }>> {
  const rows = await db.query<{ id: number; data: Record<string, unknown> }>(
    `SELECT id, data FROM r_advertisement WHERE city = $1 AND data->>'name' LIKE $2 ORDER BY id`,
    [city, pattern],
  );
  return rows.map((r) => ({ ...r.data, id: Number(r.id) }));
}

/** The log of an import through GET /kobe/api/logs-file-imported/{id}/ (all pages). */
export async function logOf(app: FastifyInstance, headers: Record<string, string>, id: number, query = ''): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (let offset = 0; ; offset += 20) {
    const r = await app.inject({ method: 'GET', url: `/kobe/api/logs-file-imported/${id}/?offset=${offset}${query}`, headers });
    expect(r.statusCode, r.body).toBe(200);
    const page = r.json() as { content: Array<Record<string, unknown>>; total_length: number };
    out.push(...page.content);
    if (page.content.length < 20) return out;
  }
}

/** The shop header in Japanese labels. */
export const SHOP_HEADER = ['店舗名', 'メールアドレス', '電話番号', '住所', 'ジャンル', 'カテゴリ', '説明', '緯度', '経度', 'ユーザー名'];

/** A good shop row under SHOP_HEADER: name, then genre path グルメ and category 地元グルメ (kobe demo data). */
export function shopRow(name: string, extra: Partial<Record<'email' | 'phone' | 'genre' | 'category' | 'description', string>> = {}): string[] {
  return [
    name,
    extra.email ?? 'shop@example.jp',
    extra.phone ?? '078-123-4567',
    '神戸市中央区元町通1-2-3',
    extra.genre ?? 'グルメ',
    extra.category ?? '地元グルメ',
    extra.description ?? '',
    '34.69',
    '135.19',
    'advertiser',
  ];
}
