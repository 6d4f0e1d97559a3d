// total_length of a narrowed list (001 9 Paging; listRecords): exact up to LIST_COUNT_CAP matching
// rows, above it the planner's estimate within the bounds the pager needs. On PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '../../../src/shared/registry';
import { LIST_COUNT_CAP, createRecords } from '../../../src/server/repositories/resource-repository';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let operator: Session;
const LIST = '/fukuoka/api/city/admin-news/';
const ROWS = LIST_COUNT_CAP + 280;

beforeAll(async () => {
  t = await createTestApp();
  operator = await login(t.app, 'operator');
  // Every row has `cntall` in its title; `cntkilo` is in exactly LIST_COUNT_CAP of them, `cntmega`
  // in one more, `cntrare` in 30, the two characters `q9` (no trigram) in 5 of the oldest.
  const records = Array.from({ length: ROWS }, (_, i) => ({
    title: `cntall ${i}`,
    description:
      i < LIST_COUNT_CAP ? `cntkilo cntmega${i >= 5 && i < 10 ? ' q9' : ''}` : i === LIST_COUNT_CAP ? 'cntmega' : i <= LIST_COUNT_CAP + 30 ? 'cntrare' : 'plain',
    attr: 'news',
    created_on_news: 'News',
  }));
  await createRecords(t.db, getResource('news'), 'fukuoka', records, { userId: null });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

interface Page {
  total_length: number;
  count: number;
  page_length: number;
  limit: number;
  content: Array<{ title: string }>;
}

async function list(query: string): Promise<Page> {
  const r = await t.app.inject({ url: `${LIST}?${query}`, headers: bearer(operator) });
  expect(r.statusCode, r.body).toBe(200);
  const page = r.json() as Page;
  expect(page.page_length).toBe(Math.ceil(page.total_length / page.limit));
  return page;
}

/** Whether n has at most two significant digits (1,100; 53,000). */
function roundedUp(n: number): boolean {
  const step = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return n % step === 0;
}

describe('total_length of a narrowed list', () => {
  it('is exact when at most LIST_COUNT_CAP rows match, on every page', async () => {
    expect(await list('search=cntrare&limit=20')).toMatchObject({ total_length: 30, count: 20, page_length: 2 });
    expect(await list('search=cntrare&limit=20&offset=20')).toMatchObject({ total_length: 30, count: 10 });
    expect(await list('search=cntrare&limit=20&offset=40')).toMatchObject({ total_length: 30, count: 0 });
    expect(await list('search=cntrare&limit=50')).toMatchObject({ total_length: 30, count: 30 });
    expect(await list('search=cntnone')).toMatchObject({ total_length: 0, count: 0, page_length: 0 });
    expect(await list('search=cntnone&offset=40')).toMatchObject({ total_length: 0, count: 0 });
    // Exactly the cap: counted, exact.
    expect(await list('search=cntkilo&limit=20')).toMatchObject({ total_length: LIST_COUNT_CAP, count: 20 });
    expect(await list(`search=cntkilo&limit=20&offset=${LIST_COUNT_CAP}`)).toMatchObject({ total_length: LIST_COUNT_CAP, count: 0 });
  });

  it('finds a term too short for the trigram index among the oldest rows, newest first', async () => {
    const short = await list('search=Q9&limit=3');
    expect(short).toMatchObject({ total_length: 5, count: 3, page_length: 2 });
    expect(short.content.map((r) => r.title)).toEqual(['cntall 9', 'cntall 8', 'cntall 7']);
  });

  it('is exact on a page that ends the set, whatever the number', async () => {
    expect(await list(`search=cntall&limit=20&offset=${ROWS - 5}`)).toMatchObject({ total_length: ROWS, count: 5 });
    expect(await list(`search=cntmega&limit=${LIST_COUNT_CAP}&offset=2`)).toMatchObject({ total_length: LIST_COUNT_CAP + 1, count: LIST_COUNT_CAP - 1 });
  });

  it('above LIST_COUNT_CAP is the estimate rounded up to two digits, above the cap, with a next page after a full one', async () => {
    for (const search of ['cntmega', 'cntall']) {
      const first = await list(`search=${search}&limit=20`);
      expect(first.count).toBe(20);
      expect(first.total_length).toBeGreaterThanOrEqual(1100);
      expect(roundedUp(first.total_length)).toBe(true);
      expect(first.total_length).toBeLessThan(10 * ROWS); // a scan estimates at most the table
    }
    // A full page deep in the set: at least one row more than seen.
    const deep = await list(`search=cntall&limit=20&offset=${ROWS - 20}`);
    expect(deep.count).toBe(20);
    expect(deep.total_length).toBeGreaterThanOrEqual(ROWS + 1);
    // An empty page past the end: no more than its offset, still above the cap.
    const past = await list('search=cntall&limit=20&offset=100000');
    expect(past.count).toBe(0);
    expect(past.total_length).toBeGreaterThan(LIST_COUNT_CAP);
    expect(past.total_length).toBeLessThanOrEqual(100000);
    const justPast = await list(`search=cntall&limit=20&offset=${ROWS + 1}`);
    expect(justPast).toMatchObject({ count: 0 });
    expect(justPast.total_length).toBeGreaterThan(LIST_COUNT_CAP);
    expect(justPast.total_length).toBeLessThanOrEqual(ROWS + 1);
  });

  it('leaves the total of an unnarrowed list exact (resource_counts)', async () => {
    const all = await list('limit=20');
    expect(all.total_length).toBeGreaterThanOrEqual(ROWS);
    expect(all.total_length - ROWS).toBe((await list(`limit=20&offset=${ROWS}`)).total_length - ROWS);
    expect(await list(`limit=1000&offset=${all.total_length - 3}`)).toMatchObject({ total_length: all.total_length, count: 3 });
  });
});
