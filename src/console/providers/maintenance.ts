/**
 * Whether the service is under maintenance (000 2.3 'a maintenance page says the service is
 * temporarily stopped for a system update'): set when an API call is answered 503 (the server or the
 * proxy in front of it during an update), cleared by the maintenance page's reload. A tiny external
 * store read by React through `useMaintenance`.
 */
import { useSyncExternalStore } from 'react';

let down = false;
const listeners = new Set<() => void>();

/** Records that the service answered 503 (or, with false, that it is back). */
export function setMaintenance(value: boolean): void {
  if (down === value) return;
  down = value;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while the service is known to be under maintenance. */
export function useMaintenance(): boolean {
  return useSyncExternalStore(subscribe, () => down, () => down);
}
