/**
 * The import's pass thread (src/server/import/pass-thread.ts; 000 5 CSV import, 001 7.16): a batch
 * crosses as bytes and comes back the same (order, text, rows without a record); errors keep their
 * answer; a pass in the thread hands on the same batches and counts as on the main thread; an error
 * of its database or of a batch is thrown as it is, and no batch is handed on after a failed one;
 * passes run side by side.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDeclaration } from '../../../src/shared/csv-import';
import { registry } from '../../../src/shared/registry';
import type { Queryable } from '../../../src/server/db/database';
import { HttpError } from '../../../src/server/http-error';
import { runPass, type ImportRow, type Pass } from '../../../src/server/import/import-pass';
import { BatchPacker, fromThreadError, threadError, transfers, unpackBatch } from '../../../src/server/import/pass-messages';
import { runPassInThread } from '../../../src/server/import/pass-thread';
import { csvText, encode, shopRow, SHOP_HEADER } from './import-helpers';

const row = (number: number, json: string | null): ImportRow => ({
  number,
  action: json === null ? 'skip' : 'create',
  id: null,
  json,
  problems: [],
  cells: json === null ? ['a', 'b'] : null,
  name: null,
});

describe('a packed batch', () => {
  it('comes back with its rows in order, their records as written and the rows without one', () => {
    const packer = new BatchPacker(16);
    const first = [row(2, '{"name":"㈱髙橋ソフト①号店"}'), row(3, null), row(4, '{"name":"😀 a \\" b"}'), row(5, '{}')];
    packer.add(first.slice(0, 2));
    packer.add(first.slice(2));
    const batch = packer.take();
    expect(transfers(batch)).toHaveLength(2);
    expect(unpackBatch(structuredClone(batch))).toEqual(first);
    // The next batch starts empty.
    packer.add([row(6, '{"n":6}')]);
    expect(unpackBatch(packer.take())).toEqual([row(6, '{"n":6}')]);
  });
});

describe('an error crossing the threads', () => {
  it('an HttpError keeps its code, message and field errors; another error its name, message and stack', () => {
    const refusal = new HttpError('validation', { detail: 'no', fieldErrors: { file: [{ key: 'validation.import.empty', params: { field: 'file' } }] } });
    const back = fromThreadError(structuredClone(threadError(refusal)));
    expect(back).toBeInstanceOf(HttpError);
    expect(back).toMatchObject({ code: 'validation', statusCode: 400, detail: 'no', fieldErrors: refusal.fieldErrors });
    const other = fromThreadError(structuredClone(threadError(new TypeError('bad bytes'))));
    expect(other).toMatchObject({ name: 'TypeError', message: 'bad bytes' });
    expect(other.stack).toContain('bad bytes');
  });
});

describe('a pass in the thread', () => {
  let dir: string;
  let path: string;
  const rows = 250;

  /** A database answering the lookups of the shop import (the demo genres, category and advertiser). */
  const db: Queryable = {
    async query<T>(sql: string): Promise<T[]> {
      if (sql.includes('username')) return [{ username: 'advertiser' }] as T[];
      return [
        { id: 1, name: 'グルメ', parent: null },
        { id: 6, name: '地元グルメ', parent: null },
      ] as T[];
    },
    async exec() {},
  };

  function pass(over: Partial<Pass> = {}): Pass {
    return {
      db,
      def: registry.get('advertisement')!,
      declaration: importDeclaration('ads', registry),
      city: 'kobe',
      path,
      encoding: 'shift_jis',
      language: undefined,
      resources: registry,
      writes: true,
      batchRows: 100,
      onBatch: async () => undefined,
      ...over,
    };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'import-thread-'));
    path = join(dir, 'shops.csv');
    const shops = Array.from({ length: rows }, (_, i) => shopRow(`スレッドの店 ${i + 1}`, i === 7 ? { phone: '電話なし' } : {}));
    await writeFile(path, encode(csvText([SHOP_HEADER, ...shops]), 'shift_jis'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('hands on the same batches and counts as on the main thread', async () => {
    const here: ImportRow[][] = [];
    const there: ImportRow[][] = [];
    const counts = await runPass(pass({ onBatch: async (b) => void here.push(b) }));
    expect(await runPassInThread(pass({ onBatch: async (b) => void there.push(b) }))).toEqual(counts);
    expect(counts).toEqual({ rows, create: rows - 1, update: 0, errors: 1, warnings: 0 });
    expect(there.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(there).toEqual(here);
  });

  it('throws the error of a batch as it is and hands on no batch after it', async () => {
    const failure = new Error('the batch failed');
    let batches = 0;
    const run = runPassInThread(
      pass({
        onBatch: async () => {
          batches += 1;
          if (batches === 2) throw failure;
        },
      }),
    );
    await expect(run).rejects.toBe(failure);
    await new Promise((r) => setTimeout(r, 200));
    expect(batches).toBe(2);
  });

  it('throws the error of its database as it is', async () => {
    const failure = new Error('connection lost');
    const broken: Queryable = { query: async () => Promise.reject(failure), exec: async () => undefined };
    await expect(runPassInThread(pass({ db: broken }))).rejects.toBe(failure);
  });

  it('runs beside another pass', async () => {
    const [a, b] = await Promise.all([runPassInThread(pass()), runPassInThread(pass({ writes: false }))]);
    expect(a).toEqual(b);
    expect(a.rows).toBe(rows);
  });
});
