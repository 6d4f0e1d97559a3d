// Answers kept until the data changes (src/server/db/read-cache.ts) and the write version they rest
// on (Database.writeVersion, PGlite only): a plain read leaves it, anything that may have written
// moves it; on PostgreSQL nothing is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadCache } from '../../../src/server/db/read-cache';
import { openTestDatabase, type TestDatabase } from './helpers';

let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase();
  await t.db.exec('CREATE TABLE cache_probe (id int PRIMARY KEY, v text NOT NULL)');
  await t.db.query("INSERT INTO cache_probe VALUES (1, 'one')");
});
afterAll(async () => {
  await t?.cleanup();
});

/** A cache over `SELECT v FROM cache_probe WHERE id = 1` that counts its reads. */
function probe(): { cache: ReadCache<string>; reads: () => number; get: () => Promise<string> } {
  const cache = new ReadCache<string>(t.db);
  let reads = 0;
  const read = async () => {
    reads++;
    return (await t.db.query<{ v: string }>('SELECT v FROM cache_probe WHERE id = 1'))[0].v;
  };
  return { cache, reads: () => reads, get: () => cache.get('one', read) };
}

describe('answers kept until the data changes', () => {
  it.runIf(!process.env.DATABASE_URL)('PGlite: a SELECT and a write of no row leave the write version; a row written, exec, a WITH and a transaction move it', async () => {
    const version = () => t.db.writeVersion!();
    const moved = async (what: () => Promise<unknown>) => {
      const before = version();
      await what();
      return version() !== before;
    };
    expect(await moved(() => t.db.query('SELECT v FROM cache_probe'))).toBe(false);
    expect(await moved(() => t.db.query("INSERT INTO cache_probe VALUES (1, 'x') ON CONFLICT (id) DO NOTHING"))).toBe(false);
    expect(await moved(() => t.db.query("UPDATE cache_probe SET v = 'x' WHERE id = 0"))).toBe(false);
    expect(await moved(() => t.db.query("INSERT INTO cache_probe VALUES (2, 'two')"))).toBe(true);
    expect(await moved(() => t.db.query('DELETE FROM cache_probe WHERE id = 2'))).toBe(true);
    expect(await moved(() => t.db.query("WITH w AS (UPDATE cache_probe SET v = v WHERE id = 1 RETURNING id) SELECT count(*) FROM w"))).toBe(true);
    expect(await moved(() => t.db.exec('SELECT 1'))).toBe(true);
    expect(await moved(() => t.db.transaction((tx) => tx.query('SELECT 1')))).toBe(true);
  });

  it('serves the answer again until a write, then reads the new data (PostgreSQL: reads every time)', async () => {
    const { get, reads } = probe();
    expect(await get()).toBe('one');
    expect(await get()).toBe('one');
    const kept = !process.env.DATABASE_URL;
    expect(reads()).toBe(kept ? 1 : 2);
    await t.db.query("UPDATE cache_probe SET v = 'uno' WHERE id = 1");
    expect(await get()).toBe('uno');
    expect(reads()).toBe(kept ? 2 : 3);
    await t.db.transaction(async (tx) => {
      await tx.query("UPDATE cache_probe SET v = 'eins' WHERE id = 1");
    });
    expect(await get()).toBe('eins');
  });

  it('does not keep an answer when a write ended while it was read', async () => {
    const cache = new ReadCache<string>(t.db);
    let reads = 0;
    const read = async () => {
      reads++;
      const [{ v }] = await t.db.query<{ v: string }>('SELECT v FROM cache_probe WHERE id = 1');
      // A write of another request ends before this read's answer is kept.
      await t.db.query(`UPDATE cache_probe SET v = 'v${reads}' WHERE id = 1`);
      return v;
    };
    const first = await cache.get('one', read);
    const second = await cache.get('one', read);
    expect(second).not.toBe(first);
    expect(reads).toBe(2);
  });
});
