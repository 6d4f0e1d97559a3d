/**
 * Which API calls the console makes by itself, not at a user's action (docs/architecture.md 'Staff
 * sign-in': such calls carry `X-Background-Request: 1` and are no use of the session for its idle
 * limit, SESSION_IDLE_MINUTES).
 *
 * React Query starts some fetches on its own: when the window regains focus (off by default in Refine,
 * on for a query that asks), when the network comes back, and at a query's `refetchInterval`. Each of
 * them calls its query function synchronously from the trigger, and every query function of the
 * console reaches `request` (providers/http.ts) before its first `await` (the data provider's calls,
 * the pages' own `useQuery`). So the triggers run inside `runInBackground`, and `request` marks a call
 * made meanwhile (`startedInBackground`). A call the user started (a page opened, a search, a save,
 * a 再読み込み button) is outside, and counts as use.
 */
import { QueryCache, timeoutManager, type QueryClientConfig } from '@tanstack/react-query';

let depth = 0;

/** Runs `work` (synchronous) with every `request` it makes marked as a background call; answers its result. */
export function runInBackground<T>(work: () => T): T {
  depth += 1;
  try {
    return work();
  } finally {
    depth -= 1;
  }
}

/** Whether the code running now was started by the console itself (inside `runInBackground`). */
export function startedInBackground(): boolean {
  return depth > 0;
}

/** The query cache whose focus and reconnect refetches run in the background (see the top of this file). */
class BackgroundAwareQueryCache extends QueryCache {
  override onFocus(): void {
    runInBackground(() => super.onFocus());
  }

  override onOnline(): void {
    runInBackground(() => super.onOnline());
  }
}

let timersInstalled = false;

/** Makes React Query's interval timers (`refetchInterval`) run their fetches in the background; once. */
function installIntervalTimers(): void {
  if (timersInstalled) return;
  timersInstalled = true;
  timeoutManager.setTimeoutProvider({
    setTimeout: (callback, delay) => setTimeout(callback, delay),
    clearTimeout: (id) => clearTimeout(id),
    setInterval: (callback, delay) => setInterval(() => runInBackground(callback), delay),
    clearInterval: (id) => clearInterval(id),
  });
}

/**
 * The console's React Query client settings: `defaultOptions` as given, and a query cache (new at
 * each call: one per QueryClient) whose own refetches (focus, reconnect, interval) are background
 * calls. Call it before any query exists (the timers' provider is set once, for every client).
 */
export function backgroundAwareQueryConfig(defaultOptions: QueryClientConfig['defaultOptions'] = {}): QueryClientConfig {
  installIntervalTimers();
  return { queryCache: new BackgroundAwareQueryCache(), defaultOptions };
}
