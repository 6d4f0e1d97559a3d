/**
 * The current time (ms since the epoch) for relative times on screen (001 9: 'just now' turns into
 * '1 min ago' after 30 s): one shared 30 s ticker while any component reads it, none otherwise.
 */
import { useSyncExternalStore } from 'react';

/** How often the shared clock moves on (ms): the smallest relative-time threshold of 001 9. */
export const NOW_TICK_MS = 30_000;

let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

/** Subscribes to the shared clock (useSyncExternalStore's shape); the first subscriber starts its ticker. */
export function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    // The clock is not set here: a component subscribes after it rendered, and a time other than the
    // one it rendered with would render it again at once, synchronously (as each row's relative time
    // did on every list page). It moved on when first read (`readClock`).
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, NOW_TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The shared clock, ms; while no ticker runs it may have stood still for long, and moves on when read. */
export function readClock(): number {
  if (!timer && Date.now() - now >= NOW_TICK_MS) now = Date.now();
  return now;
}

/** The current time in ms (at most NOW_TICK_MS behind), re-rendering the caller every 30 s. */
export function useNow(): number {
  return useSyncExternalStore(subscribeClock, readClock, readClock);
}
