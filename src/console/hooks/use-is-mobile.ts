/** Whether the window is narrower than 1024 px: the layout's mobile mode (000 2.3, 001 9 Interface). */
import { useSyncExternalStore } from 'react';

export const MOBILE_QUERY = '(max-width: 1023px)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(MOBILE_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(MOBILE_QUERY).matches,
    () => false,
  );
}
