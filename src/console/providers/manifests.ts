/**
 * The city menu manifests in the console (000 6 Menu sets; docs/architecture.md 'Adding a city'):
 * fetched once from GET /default/api/console/manifests (the server reads menus/ at start) and handed
 * to src/shared/manifest.ts `setManifests`, so every menu, route and deny rule of the console works on
 * what the server serves: a new city needs a manifest and a restart, not a console build.
 */
import { useSyncExternalStore } from 'react';
import { getManifests, setManifests, type Manifest } from '@/shared/manifest';
import { request } from './http';

/** GET /default/api/console/manifests → `{<name>: Manifest}` (ours). */
export const CONSOLE_MANIFESTS_PATH = '/default/api/console/manifests';

const listeners = new Set<() => void>();
let loading: Promise<boolean> | null = null;

/** Whether the manifests are here. */
export function manifestsLoaded(): boolean {
  return Object.keys(getManifests()).length > 0;
}

/**
 * Fetches the manifests unless they are here (one request for every concurrent caller). Resolves to
 * whether they are here; never rejects: a failed fetch (offline, maintenance) is tried again by the
 * next call.
 */
export function loadManifests(): Promise<boolean> {
  if (manifestsLoaded()) return Promise.resolve(true);
  loading ??= request<Record<string, Manifest>>(CONSOLE_MANIFESTS_PATH, { refreshOn401: false })
    .then((all) => {
      setManifests(all);
      listeners.forEach((l) => l());
      return true;
    })
    .catch(() => false)
    .finally(() => {
      loading = null;
    });
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the manifests are here, re-rendering the component when they arrive. */
export function useManifestsLoaded(): boolean {
  return useSyncExternalStore(subscribe, manifestsLoaded, manifestsLoaded);
}
