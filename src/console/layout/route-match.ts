/**
 * Route roles (000 4, 000 6): whether a path under /:city is a route of the city's manifest at all,
 * for any role. The console mounts only the routes of the signed-in role, so a path that falls
 * through is either a route of another role (forbidden: /401?noGoBack=true) or unknown (/404).
 */
import { matchPath } from 'react-router';
import { getManifests, resolveManifest, type Manifest, type MenuEntry } from '@/shared/manifest';
import { registry } from '@/shared/registry';
import { keepsRevisions } from '@/shared/revisions';
import { routePaths } from '../resources/resource-routes';

/**
 * The route patterns (relative to /:city) of one manifest entry: a page's route, or a resource's
 * list/create/edit/show, clone where its schema offers 複製 (`x-resource.clone`), and the recycle
 * bin where its rows keep revisions.
 */
function entryPatterns(e: MenuEntry): string[] {
  if (e.page) return [e.route ?? e.page];
  if (!e.resource) return [];
  const { clone, trash, ...paths } = routePaths(e.route ?? e.resource);
  const def = registry.get(e.resource);
  return [...Object.values(paths), ...(def?.clone ? [clone] : []), ...(def && keepsRevisions(def) ? [trash] : [])];
}

/** Every route pattern of every set of the city's manifest, hidden entries and children included. */
export function cityRoutePatterns(city: string, all: Readonly<Record<string, Manifest>> = getManifests()): string[] {
  const out: string[] = [];
  const walk = (entries: readonly MenuEntry[]) => {
    for (const e of entries) {
      out.push(...entryPatterns(e));
      if (e.children) walk(e.children);
    }
  };
  for (const set of Object.values(resolveManifest(city, all))) walk(set ?? []);
  return out;
}

/** Whether `path` (relative to /:city, e.g. `news/create`) is a route of the city's manifest for some role. */
export function isCityRoute(city: string, path: string, all: Readonly<Record<string, Manifest>> = getManifests()): boolean {
  const target = `/${path.replace(/^\/+|\/+$/g, '')}`;
  return cityRoutePatterns(city, all).some((p) => matchPath({ path: `/${p.replace(/^\/+|\/+$/g, '')}`, end: true }, target) !== null);
}

/** The landing route of the member area (000 2.2 /cippoweb/top-page/), kept even where no manifest entry names it. */
export const TOP_PAGE = 'top-page';

/**
 * What an unmatched path under /:city leads to: `landing` for top-page (rendered as the dashboard
 * until a manifest names it), `forbidden` for a route of the city another role may open, else
 * `unknown`.
 */
export function fallbackFor(city: string, path: string, all: Readonly<Record<string, Manifest>> = getManifests()): 'landing' | 'forbidden' | 'unknown' {
  if (path.replace(/^\/+|\/+$/g, '') === TOP_PAGE) return 'landing';
  return isCityRoute(city, path, all) ? 'forbidden' : 'unknown';
}
