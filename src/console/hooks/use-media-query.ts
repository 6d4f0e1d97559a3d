/**
 * Whether a CSS media query matches the window now, kept current as the window changes (one
 * `matchMedia` subscription per component; false outside a browser). Used by `useIsMobile` (the
 * layout's mobile mode) and `useIsPhone` (a list's cards).
 */
import { useCallback, useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const mq = window.matchMedia(query);
      mq.addEventListener('change', onChange);
      return () => mq.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
