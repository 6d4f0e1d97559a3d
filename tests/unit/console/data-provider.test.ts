/**
 * The console's data provider against a fake fetch: Refine pagination → limit/offset, sorters →
 * order_by, filters → search and declared filter params, content/total_length, idField ↔ id,
 * city and id in the contract's paths, and errors carrying the server's field messages.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataProvider } from '@/console/providers/data-provider';
import { setCity } from '@/console/providers/session';
import { i18n } from '@/console/i18n';
import { installFetch, type Call } from './fake-fetch';

const list = (content: unknown[], total = content.length) => ({ status: 200, body: { content, total_length: total, count: content.length, limit: 20, offset: 0, page_length: 1 } });

beforeEach(async () => {
  await i18n.changeLanguage('ja');
  setCity('kobe');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('getList', () => {
  it('maps currentPage/pageSize to limit/offset, the sorter to order_by, and reads content/total_length', async () => {
    const calls = installFetch(() => list([{ id: 7, title: 'お知らせ', version: 1 }], 41));
    const res = await dataProvider.getList({
      resource: 'news',
      pagination: { currentPage: 3, pageSize: 20 },
      sorters: [{ field: 'create_at', order: 'desc' }],
    });
    expect(calls).toHaveLength(1);
    const { url, method, headers, credentials } = calls[0];
    expect(method).toBe('GET');
    expect(url.pathname).toBe('/kobe/api/city/admin-news/');
    expect(url.searchParams.get('limit')).toBe('20');
    expect(url.searchParams.get('offset')).toBe('40');
    expect(url.searchParams.get('order_by')).toBe('-create_at');
    expect(headers['Accept-Language']).toBe('ja');
    expect(credentials).toBe('same-origin');
    expect(res.total).toBe(41);
    expect(res.data).toEqual([{ id: 7, title: 'お知らせ', version: 1 }]);
  });

  it('sends ascending sorts bare and ignores sorts on undeclared fields', async () => {
    const calls = installFetch(() => list([]));
    await dataProvider.getList({ resource: 'news', pagination: { currentPage: 1, pageSize: 10 }, sorters: [{ field: 'description', order: 'asc' }, { field: 'title', order: 'asc' }] });
    expect(calls[0].url.searchParams.get('order_by')).toBe('title');
    expect(calls[0].url.searchParams.get('limit')).toBe('10');
    expect(calls[0].url.searchParams.get('offset')).toBe('0');
  });

  it('maps the search filter to search and declared filters to their params; unknown filters are left out', async () => {
    const calls = installFetch(() => list([]));
    await dataProvider.getList({
      resource: 'news',
      filters: [
        { field: 'search', operator: 'contains', value: '神戸' },
        { field: 'created_on_news', operator: 'eq', value: 'Sports' },
        { field: 'attr', operator: 'eq', value: 'news' },
        { field: 'password', operator: 'eq', value: 'x' },
      ],
    });
    const q = calls[0].url.searchParams;
    expect(q.get('search')).toBe('神戸');
    expect(q.get('created_on_news')).toBe('Sports');
    expect(q.get('attr')).toBe('news');
    expect(q.has('password')).toBe(false);
    expect(q.get('limit')).toBe('20');
  });

  it('maps a period filter (events: type=not_yet|showing|ended) and the idField event_id to id', async () => {
    const calls = installFetch(() => list([{ event_id: 3, title: '祭り' }]));
    const res = await dataProvider.getList({ resource: 'event', filters: [{ field: 'type', operator: 'eq', value: 'showing' }] });
    expect(calls[0].url.pathname).toBe('/kobe/api/events/');
    expect(calls[0].url.searchParams.get('type')).toBe('showing');
    expect(res.data[0]).toMatchObject({ id: 3, event_id: 3 });
  });

  it('uses the city of meta (the route) before the chosen city', async () => {
    const calls = installFetch(() => list([]));
    await dataProvider.getList({ resource: 'scene', meta: { city: 'fukuoka' } });
    expect(calls[0].url.pathname).toBe('/fukuoka/api/scene/');
  });
});

describe('one record', () => {
  it('getOne, update and deleteOne put the id into the path; update keeps version and drops ids and read-only fields', async () => {
    const calls = installFetch((c: Call) => {
      if (c.method === 'DELETE') return { status: 204 };
      return { status: 200, body: { event_id: 5, title: 'T', version: 2 } };
    });
    const one = await dataProvider.getOne({ resource: 'event', id: 5 });
    expect(one.data).toMatchObject({ id: 5, event_id: 5 });
    await dataProvider.update({
      resource: 'event',
      id: 5,
      variables: { id: 5, event_id: 5, title: 'T2', created_at: '2020-01-01T00:00:00Z', version: 1 },
    });
    await dataProvider.deleteOne({ resource: 'event', id: 5 });
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['GET /kobe/api/events/5/', 'PUT /kobe/api/events/5/', 'DELETE /kobe/api/events/5/']);
    expect(calls[1].body).toEqual({ title: 'T2', version: 1 });
  });

  it('create posts the writable fields only', async () => {
    const calls = installFetch(() => ({ status: 201, body: { id: 9, title: 'ニュース', version: 1 } }));
    const res = await dataProvider.create({ resource: 'news', variables: { id: 1, title: 'ニュース', description: '本文', attr: 'news', create_at: 'x' } });
    expect(calls[0].method).toBe('POST');
    expect(calls[0].url.pathname).toBe('/kobe/api/city/admin-news/');
    expect(calls[0].body).toEqual({ title: 'ニュース', description: '本文', attr: 'news' });
    expect(calls[0].headers['Content-Type']).toBe('application/json');
    expect(res.data).toMatchObject({ id: 9 });
  });

  it('getMany asks the ids in one list request (react-admin ReferenceField batching); an absent row is left out', async () => {
    const calls = installFetch(() => ({ status: 200, body: { content: [{ id: 1, name: 'n' }, { id: 2, name: 'm' }], total_length: 2 } }));
    const res = await dataProvider.getMany!({ resource: 'scene', ids: [1, 2, 2, 3] });
    expect(calls.map((c) => `${c.url.pathname}?ids=${c.url.searchParams.get('ids')}`)).toEqual(['/kobe/api/scene/?ids=1,2,3']);
    expect(res.data.map((r) => r.id)).toEqual([1, 2]);
  });
});

describe('errors', () => {
  it('a 400 becomes an HttpError with the server fields as errors and the detail as message', async () => {
    installFetch(() => ({ status: 400, body: { code: 'validation', detail: '入力内容に誤りがあります。', fields: { title: ['タイトルを入力してください。'] } } }));
    const err = await dataProvider.create({ resource: 'news', variables: {} }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      statusCode: 400,
      status: 400,
      code: 'validation',
      message: '入力内容に誤りがあります。',
      errors: { title: ['タイトルを入力してください。'] },
    });
  });

  it('a 500 says the catalogue text; 403 the permission message; 406 the session message', async () => {
    for (const [status, text] of [
      [500, 'Server Error Occured. Please Try Again !'],
      [403, i18n.t('errors.forbidden')],
      [406, 'セッションが切れました'],
    ] as const) {
      installFetch(() => ({ status, body: { code: 'x', detail: 'internal detail' } }));
      const err = await dataProvider.getList({ resource: 'news' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ statusCode: status, message: text });
    }
  });

  it('sends the current language as Accept-Language', async () => {
    await i18n.changeLanguage('en');
    const calls = installFetch(() => list([]));
    await dataProvider.getList({ resource: 'news' });
    expect(calls[0].headers['Accept-Language']).toBe('en');
  });
});

describe('401: one shared refresh, then one retry', () => {
  it('refreshes once for concurrent 401s and retries each call once', async () => {
    let refreshed = false;
    const calls = installFetch((c) => {
      if (c.url.pathname.endsWith('/refresh-token')) {
        refreshed = true;
        return { status: 200, body: { access_token: 'a', refresh_token: 'r' } };
      }
      return refreshed ? list([]) : { status: 401, body: { code: 'unauthorized', detail: 'no' } };
    });
    await Promise.all([dataProvider.getList({ resource: 'news' }), dataProvider.getList({ resource: 'scene' })]);
    const refreshes = calls.filter((c) => c.url.pathname.endsWith('/refresh-token'));
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0].method).toBe('POST');
    expect(refreshes[0].url.pathname).toBe('/kobe/api/refresh-token');
    expect(calls.filter((c) => c.url.pathname === '/kobe/api/city/admin-news/')).toHaveLength(2);
  });

  it('a failed refresh ends in a 401 error (signed out) without a second retry', async () => {
    const calls = installFetch(() => ({ status: 401, body: { code: 'unauthorized', detail: 'no' } }));
    const err = await dataProvider.getList({ resource: 'news' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ statusCode: 401 });
    expect(calls.filter((c) => c.url.pathname === '/kobe/api/city/admin-news/')).toHaveLength(1);
  });
});
