/**
 * A list's first page asked for ahead of its page (docs/performance.md 'Sidebar click to a list'): the
 * page's first getList of the same request takes the answer instead of asking again, the answer is
 * there for the page's first render once it arrived, a failed one is forgotten, an old one is not
 * used; and the console knows from the manifests which generated page an address shows.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataProvider, forgetPrefetchedLists, prefetchedList, prefetchList, PREFETCH_TTL_MS } from '@/console/providers/data-provider';
import { firstListRequest } from '@/console/resources/use-resource-list';
import { generatedPageAt, handWrittenPageAt } from '@/console/console-app';
import { markSignedOut, setCity } from '@/console/providers/session';
import { installFetch } from './fake-fetch';

const answer = (title: string) => ({ status: 200, body: { content: [{ id: 1, title }], total_length: 1, count: 1, limit: 20, offset: 0, page_length: 1 } });
const news = { resource: 'news' };

beforeEach(() => {
  forgetPrefetchedLists();
  setCity('kobe');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('prefetchList', () => {
  it('asks once for a list opened by the sidebar: the page takes the answer, rows included', async () => {
    const calls = installFetch(() => answer('先に届いた'));
    prefetchList(firstListRequest(news, 'kobe'));
    expect(calls).toHaveLength(1);
    expect(calls[0].url.pathname).toBe('/kobe/api/city/admin-news/');
    expect(calls[0].url.searchParams.get('limit')).toBe('20');
    expect(calls[0].url.searchParams.get('order_by')).toBe('-create_at');
    await vi.waitFor(() => expect(prefetchedList(firstListRequest(news, 'kobe'))?.answer.data).toEqual([{ id: 1, title: '先に届いた' }]));
    // What Refine's useTable asks on the page's first render of a bare list: the same request.
    const res = await dataProvider.getList({ ...firstListRequest(news, 'kobe'), pagination: { currentPage: 1, pageSize: 20, mode: 'server' } });
    expect(res.data).toEqual([{ id: 1, title: '先に届いた' }]);
    expect(calls).toHaveLength(1);
    // Taken once: the next getList asks the server.
    await dataProvider.getList(firstListRequest(news, 'kobe'));
    expect(calls).toHaveLength(2);
  });

  it('a page that asks while the answer is on its way waits for it instead of asking twice', async () => {
    let release!: () => void;
    const calls = installFetch(() => new Promise((done) => (release = () => done(answer('途中')))));
    prefetchList(firstListRequest(news, 'kobe'));
    prefetchList(firstListRequest(news, 'kobe'));
    expect(prefetchedList(firstListRequest(news, 'kobe'))).toBeUndefined();
    const page = dataProvider.getList(firstListRequest(news, 'kobe'));
    release();
    expect((await page).data).toEqual([{ id: 1, title: '途中' }]);
    expect(calls).toHaveLength(1);
  });

  it('another page, sort or city is another request', async () => {
    const calls = installFetch(() => answer('x'));
    prefetchList(firstListRequest(news, 'kobe'));
    await dataProvider.getList({ ...firstListRequest(news, 'kobe'), pagination: { currentPage: 2, pageSize: 20 } });
    await dataProvider.getList({ ...firstListRequest(news, 'kobe'), sorters: [{ field: 'title', order: 'asc' }] });
    await dataProvider.getList(firstListRequest(news, 'fukuoka'));
    expect(calls.map((c) => `${c.url.pathname}?${c.url.searchParams}`)).toEqual([
      '/kobe/api/city/admin-news/?limit=20&offset=0&order_by=-create_at',
      '/kobe/api/city/admin-news/?limit=20&offset=20&order_by=-create_at',
      '/kobe/api/city/admin-news/?limit=20&offset=0&order_by=title',
      '/fukuoka/api/city/admin-news/?limit=20&offset=0&order_by=-create_at',
    ]);
  });

  it('a failed answer is forgotten: the page asks again and gets its own error', async () => {
    let status = 500;
    const calls = installFetch(() => (status === 500 ? { status, body: { detail: 'boom' } } : answer('二度目')));
    prefetchList(firstListRequest(news, 'kobe'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 0));
    status = 200;
    const res = await dataProvider.getList(firstListRequest(news, 'kobe'));
    expect(res.data).toEqual([{ id: 1, title: '二度目' }]);
    expect(calls).toHaveLength(2);
  });

  it('an answer slower than PREFETCH_TTL_MS is still taken: its age counts from its arrival', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let release!: () => void;
    const calls = installFetch(() => new Promise((done) => (release = () => done(answer('遅い')))));
    prefetchList(firstListRequest(news, 'kobe'));
    const arrival = Date.now() + PREFETCH_TTL_MS * 2;
    vi.setSystemTime(arrival);
    release();
    await vi.waitFor(() => expect(prefetchedList(firstListRequest(news, 'kobe'))?.at).toBeGreaterThanOrEqual(arrival));
    expect((await dataProvider.getList(firstListRequest(news, 'kobe'))).data).toEqual([{ id: 1, title: '遅い' }]);
    expect(calls).toHaveLength(1);
  });

  it('an answer older than PREFETCH_TTL_MS is not used', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const calls = installFetch(() => answer('古い'));
    prefetchList(firstListRequest(news, 'kobe'));
    await vi.waitFor(() => expect(prefetchedList(firstListRequest(news, 'kobe'))).toBeDefined());
    vi.setSystemTime(Date.now() + PREFETCH_TTL_MS + 1);
    expect(prefetchedList(firstListRequest(news, 'kobe'))).toBeUndefined();
    await dataProvider.getList(firstListRequest(news, 'kobe'));
    expect(calls).toHaveLength(2);
  });
});

it('a sign-out forgets what was asked for ahead', async () => {
  const calls = installFetch(() => answer('前の人'));
  prefetchList(firstListRequest(news, 'kobe'));
  await vi.waitFor(() => expect(prefetchedList(firstListRequest(news, 'kobe'))).toBeDefined());
  markSignedOut();
  expect(prefetchedList(firstListRequest(news, 'kobe'))).toBeUndefined();
  setCity('kobe');
  await dataProvider.getList(firstListRequest(news, 'kobe'));
  expect(calls).toHaveLength(2);
});

describe('generatedPageAt', () => {
  it("names the generated page and resource of a resource's routes, and nothing for other pages", () => {
    expect(generatedPageAt('/kobe/news')).toEqual({ page: 'list', resource: 'news' });
    expect(generatedPageAt('/kobe/news/')).toEqual({ page: 'list', resource: 'news' });
    expect(generatedPageAt('/kobe/news/create')).toEqual({ page: 'form', resource: 'news' });
    expect(generatedPageAt('/kobe/news/edit/12')).toEqual({ page: 'form', resource: 'news' });
    expect(generatedPageAt('/kobe/news/show/12')).toEqual({ page: 'show', resource: 'news' });
    expect(generatedPageAt('/kobe/dashboard')).toBeNull();
    expect(generatedPageAt('/kobe/import/upload')).toBeNull();
  });
});

describe('handWrittenPageAt', () => {
  it('names the hand-written page of a path, whose code the console then loads at once, and nothing for generated pages', () => {
    expect(handWrittenPageAt('/kobe/import/upload')).toBe('csv-import');
    expect(handWrittenPageAt('/kobe/dashboard')).toBe('dashboard');
    expect(handWrittenPageAt('/kobe/map')).toBe('maps');
    expect(handWrittenPageAt('/kobe/news')).toBeNull();
    expect(handWrittenPageAt('/kobe/import/upload/extra')).toBeNull();
  });
});
