// Sorting and searching a list by the names of the rows its reference fields name (docs/architecture.md
// 'Console'; 001 9 Paging): a declared sort field with an `x-ref` sorts by the referenced row's
// `titleField`, a declared search field with one matches it, both among the referenced rows the caller
// reads (repositories/record-query.ts `referenceTitleSql`), in the list, its CSV export and on PGlite
// and PostgreSQL alike (run with DATABASE_URL for the latter).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '../../../src/shared/registry';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let operator: Session;
let advertiser: Session;

type Coupon = { id: number; title: string; advertisement: number | null };

function get(url: string, session: Session) {
  return t.app.inject({ method: 'GET', url, headers: { ...bearer(session), 'accept-language': 'ja' } });
}

async function coupons(query: string, session: Session = operator): Promise<Coupon[]> {
  const res = await get(`/kobe/api/coupon/?limit=1000&${query}`, session);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().content;
}

/** The names of kobe's shops by id, as the operator reads them. */
async function shopNames(): Promise<Map<number, string>> {
  const res = await get('/kobe/api/operator-advertisement/?limit=1000', operator);
  return new Map((res.json().content as Array<{ id: number; name: string }>).map((a) => [a.id, a.name]));
}

/** Whether `names` are in ascending order (rows without a name last), or descending with `desc` (those first). */
function inOrder(names: Array<string | undefined>, desc = false): boolean {
  const rank = (n: string | undefined) => (n === undefined ? '\uffff' : n);
  return names.every((n, i) => i === 0 || (desc ? rank(names[i - 1]) >= rank(n) : rank(names[i - 1]) <= rank(n)));
}

beforeAll(async () => {
  t = await createTestApp();
  [operator, advertiser] = await Promise.all([login(t.app, 'operator'), login(t.app, 'advertiser')]);
  // Kobe's shops named so that their name order is the reverse of their id order (ASCII names:
  // the same order in every collation), so a sort by id cannot pass for a sort by name.
  const ads = await t.db.query<{ id: string }>(`SELECT id FROM r_advertisement WHERE city = 'kobe' ORDER BY id DESC`);
  for (const [i, { id }] of ads.entries()) {
    await t.db.query(`UPDATE r_advertisement SET data = jsonb_set(data, '{name}', to_jsonb($1::text)) WHERE id = $2`, [`Shop ${String(i).padStart(3, '0')}`, id]);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('a sort on a reference field sorts by the referenced row’s name', () => {
  it('is declared where the lists need it: coupons and time sales by shop, shops by genre', () => {
    expect(getResource('coupon').list.sort).toContain('advertisement');
    expect(getResource('timesale').list.sort).toContain('advertisement');
    expect(getResource('advertisement').list.sort).toContain('genre');
  });

  it('the coupons by their shop’s name, ascending and descending, on every page', async () => {
    const names = await shopNames();
    const all = await coupons('order_by=advertisement');
    expect(new Set(all.map((c) => c.advertisement)).size).toBeGreaterThan(2);
    const named = all.map((c) => (c.advertisement === null ? undefined : names.get(c.advertisement)));
    expect(inOrder(named), named.join(', ')).toBe(true);
    // Not the id order (the names run against it).
    const ids = all.map((c) => c.advertisement ?? Infinity);
    expect(ids.every((id, i) => i === 0 || ids[i - 1] <= id)).toBe(false);
    const desc = (await coupons('order_by=-advertisement')).map((c) => (c.advertisement === null ? undefined : names.get(c.advertisement)));
    expect(inOrder(desc, true), desc.join(', ')).toBe(true);
    // Paged: the pages join into the same order (ties broken by id).
    const first = (await get('/kobe/api/coupon/?order_by=advertisement&limit=3&offset=0', operator)).json().content as Coupon[];
    const second = (await get('/kobe/api/coupon/?order_by=advertisement&limit=3&offset=3', operator)).json().content as Coupon[];
    expect([...first, ...second].map((c) => c.id)).toEqual(all.slice(0, 6).map((c) => c.id));
  });

  it('a narrowed list (search, filter) sorts the same way', async () => {
    const names = await shopNames();
    const found = await coupons('order_by=advertisement&search=Shop');
    expect(found.length).toBeGreaterThan(2);
    expect(inOrder(found.map((c) => names.get(c.advertisement!)))).toBe(true);
    const some = [...new Set(found.map((c) => c.advertisement))].slice(0, 3);
    const filtered = await coupons(`order_by=-advertisement&advertisement__in=${some.join(',')}`);
    expect(inOrder(filtered.map((c) => names.get(c.advertisement!)), true)).toBe(true);
  });

  it('the advertiser’s own coupons sort by its own shops’ names', async () => {
    const own = await coupons('order_by=-advertisement', advertiser);
    expect(own.length).toBeGreaterThan(0);
    const names = await shopNames();
    expect(inOrder(own.map((c) => names.get(c.advertisement!)), true)).toBe(true);
  });

  it('the CSV export follows the same order', async () => {
    const res = await get('/kobe/api/exports/coupon/?columns=id,advertisement&order_by=advertisement', operator);
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/).slice(1);
    const listed = (await coupons('order_by=advertisement')).map((c) => String(c.id));
    expect(lines.map((l) => l.split(',')[0])).toEqual(listed);
  });
});

describe('a search matches the names of referenced rows', () => {
  it('a shop’s name finds its coupons, and a coupon’s title still finds it', async () => {
    const all = await coupons('');
    const shop = all.find((c) => c.advertisement !== null)!.advertisement!;
    const name = (await shopNames()).get(shop)!;
    const found = await coupons(`search=${encodeURIComponent(name)}`);
    expect(found.map((c) => c.id).sort()).toEqual(all.filter((c) => c.advertisement === shop).map((c) => c.id).sort());
    // The total counts them too.
    expect((await get(`/kobe/api/coupon/?search=${encodeURIComponent(name)}&limit=1`, operator)).json().total_length).toBe(found.length);
    const titled = all.find((c) => c.title)!;
    expect((await coupons(`search=${encodeURIComponent(titled.title)}`)).map((c) => c.id)).toContain(titled.id);
  });

  it('a genre’s name finds its shops', async () => {
    const shops = (await get('/kobe/api/operator-advertisement/?limit=1000', operator)).json().content as Array<{ id: number; genre: number | null }>;
    const genre = shops.find((s) => s.genre !== null)!.genre!;
    const genres = (await get('/kobe/api/genres/?limit=1000', operator)).json();
    const name = ((genres.content ?? genres) as Array<{ id: number; name: string }>).find((g) => g.id === genre)!.name;
    const found = (await get(`/kobe/api/operator-advertisement/?limit=1000&search=${encodeURIComponent(name)}`, operator)).json().content as Array<{ id: number }>;
    const ids = new Set(found.map((s) => s.id));
    for (const s of shops.filter((x) => x.genre === genre)) expect(ids.has(s.id), `shop #${s.id}`).toBe(true);
  });

  it('the advertiser finds its coupons by its shop’s name (its own rows of both resources)', async () => {
    const own = await coupons('', advertiser);
    const shop = own.find((c) => c.advertisement !== null)!.advertisement!;
    const name = (await shopNames()).get(shop)!;
    const found = await coupons(`search=${encodeURIComponent(name)}`, advertiser);
    expect(found.map((c) => c.id).sort()).toEqual(own.filter((c) => c.advertisement === shop).map((c) => c.id).sort());
  });
});
