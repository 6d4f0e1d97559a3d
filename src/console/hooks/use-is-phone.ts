/** Whether the window is narrower than 576 px (antd's `sm`): lists show their rows as cards (000 2.3 mobile layout). */
import { useSyncExternalStore } from 'react';

export const PHONE_QUERY = '(max-width: 575px)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(PHONE_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

export function useIsPhone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  );
}
