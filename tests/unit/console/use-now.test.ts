/**
 * The shared clock of relative times (src/console/hooks/use-now.ts; 001 9): a component that
 * subscribes after its render sees the time it rendered with (a different one would render it again
 * at once, synchronously: every row of a list did), and the clock moves on every 30 s while read.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-28T10:00:00+09:00') });
  vi.resetModules();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the shared clock', () => {
  it('keeps the time a component rendered with when it subscribes, then ticks every 30 s', async () => {
    const { readClock, subscribeClock, NOW_TICK_MS } = await import('@/console/hooks/use-now');
    vi.advanceTimersByTime(5 * 60_000); // the module was loaded long before the first list
    const rendered = readClock();
    expect(rendered).toBe(Date.now());
    vi.advanceTimersByTime(200); // the commit, then the subscription
    const listener = vi.fn();
    const unsubscribe = subscribeClock(listener);
    expect(readClock()).toBe(rendered);
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(NOW_TICK_MS);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(readClock()).toBe(rendered + 200 + NOW_TICK_MS);
    unsubscribe();
  });

  it('moves on when read after a while without subscribers, and not within one tick', async () => {
    const { readClock, subscribeClock, NOW_TICK_MS } = await import('@/console/hooks/use-now');
    const unsubscribe = subscribeClock(() => undefined);
    const first = readClock();
    unsubscribe();
    vi.advanceTimersByTime(NOW_TICK_MS - 1);
    expect(readClock()).toBe(first);
    vi.advanceTimersByTime(10 * 60_000);
    expect(readClock()).toBe(Date.now());
  });
});
