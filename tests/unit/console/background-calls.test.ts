/**
 * The console's own refetches are background calls (providers/background-calls.ts): a React Query
 * client with the console's settings, the real data provider and `request`, against a fake fetch.
 * The refetch when the window regains focus, when the network comes back, and at a refetchInterval
 * carries X-Background-Request: 1 (no use of the session for its idle limit); the first load, a
 * refetch the user asks for, and a call that says `background: false` do not.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver, environmentManager, focusManager, onlineManager } from '@tanstack/react-query';
import { backgroundAwareQueryConfig, runInBackground, startedInBackground } from '@/console/providers/background-calls';
import { dataProvider } from '@/console/providers/data-provider';
import { request } from '@/console/providers/http';
import { setCity } from '@/console/providers/session';
import { i18n } from '@/console/i18n';
import { BACKGROUND_HEADER } from '@/shared/sessions';
import { installFetch, type Call } from './fake-fetch';

const list = { status: 200, body: { content: [{ id: 1, title: 'お知らせ', version: 1 }], total_length: 1, count: 1, limit: 20, offset: 0, page_length: 1 } };
const marked = (calls: Call[]) => calls.map((c) => c.headers[BACKGROUND_HEADER] ?? null);

let client: QueryClient;
let unsubscribe: () => void = () => undefined;

beforeEach(async () => {
  // A browser, not a server: React Query schedules its interval timers only there.
  environmentManager.setIsServer(() => false);
  await i18n.changeLanguage('ja');
  setCity('kobe');
  client = new QueryClient(backgroundAwareQueryConfig({ queries: { retry: false } }));
  client.mount();
  focusManager.setFocused(true);
  onlineManager.setOnline(true);
});
afterEach(() => {
  unsubscribe();
  client.unmount();
  client.clear();
  focusManager.setFocused(undefined);
  environmentManager.setIsServer(() => typeof window === 'undefined');
  onlineManager.setOnline(true);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** An observed news list as Refine's useList asks for it (the query function calls the data provider at once), once loaded. */
async function observeList(options: { refetchOnWindowFocus?: boolean; refetchInterval?: number } = {}) {
  const observer = new QueryObserver(client, {
    queryKey: ['news', 'list'],
    queryFn: () => dataProvider.getList({ resource: 'news', pagination: { currentPage: 1, pageSize: 20 } }),
    ...options,
  });
  unsubscribe = observer.subscribe(() => undefined);
  await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
  return observer;
}

describe('background calls', () => {
  it('a refetch when the window regains focus is a background call; the first load is not', async () => {
    const calls = installFetch(() => list);
    await observeList({ refetchOnWindowFocus: true });
    expect(calls).toHaveLength(1);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(marked(calls)).toEqual([null, '1']);
    expect(calls[1].url.pathname).toBe('/kobe/api/city/admin-news/');
    expect(startedInBackground()).toBe(false);
  });

  it('a refetch when the network comes back is a background call; a refetch the user asks for is not', async () => {
    const calls = installFetch(() => list);
    const observer = await observeList();
    expect(calls).toHaveLength(1);
    onlineManager.setOnline(false);
    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await observer.refetch();
    expect(marked(calls)).toEqual([null, '1', null]);
  });

  it('a refetchInterval poll is a background call', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const calls = installFetch(() => list);
    await observeList({ refetchInterval: 5_000 });
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5_000);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(marked(calls)).toEqual([null, '1']);
  });

  it('inside runInBackground a call is marked unless it says background: false; outside it is not', async () => {
    const calls = installFetch(() => ({ status: 200, body: {} }));
    await runInBackground(() => request('/default/api/users/account'));
    await runInBackground(() => request('/default/api/users/account', { background: false }));
    await request('/default/api/users/account');
    expect(marked(calls)).toEqual(['1', null, null]);
  });
});
