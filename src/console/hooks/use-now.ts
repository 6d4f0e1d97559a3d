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

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
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

/** The current time in ms, re-rendering the caller every 30 s. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}
