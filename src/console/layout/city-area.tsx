/**
 * Everything under /:city (000 2.2): checks the user may work in the city (else /401, or /404 for a
 * city the user does not know), keeps the URL's city as the chosen one, reloads the profile on every
 * route change (000 4), and mounts the layout with the routes of the city's manifest for the role:
 * hand-written pages by name, the generated list/create/edit/show pages of each resource entry (and
 * its 複製 form where the schema declares `x-resource.clone`, 000 4 modal mode douplicate), and
 * one settings page for each singleton resource. The session's CASL ability is provided here (the
 * registry it needs stays out of the login page's bundle).
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { Navigate, useLocation, useParams, useRoutes, type Location, type RouteObject } from 'react-router';
import { AbilityProvider } from '@casl/react';
import type { MenuEntry } from '@/shared/manifest';
import { PAGES } from '@/shared/pages';
import { registry } from '@/shared/registry';
import { keepsRevisions } from '@/shared/revisions';
import { abilityFor } from '../providers/ability';
import { citiesOf, cityAllowed, fetchAccount } from '../providers/account';
import { setCity, storedCity } from '../providers/session';
import { useCityMenu } from './use-city-menu';
import { useSessionValue } from '../hooks/use-session';
import type { ResourceRoute } from '../resources/resource-routes';
import { Loading } from '../components/loading';
import { PAGE_COMPONENTS } from '../pages/page-components';
import { ConsoleLayout } from './console-layout';
import { RequireAbility } from './require-ability';
import { RouteFallback } from './route-fallback';

// Most of a city's pages are lists: their code loads with the city area, not after the first click.
const resourceList = import('../resources/resource-list');
const ResourceList = lazy(() => resourceList.then((m) => ({ default: m.ResourceList })));
const ResourceForm = lazy(() => import('../resources/resource-form').then((m) => ({ default: m.ResourceForm })));
const ResourceShow = lazy(() => import('../resources/resource-show').then((m) => ({ default: m.ResourceShow })));
const RecycleBin = lazy(() => import('../resources/recycle-bin').then((m) => ({ default: m.RecycleBin })));
const SingletonPage = lazy(() => import('../resources/singleton-page').then((m) => ({ default: m.SingletonPage })));
const ProfilePage = lazy(() => import('./profile-page').then((m) => ({ default: m.ProfilePage })));

function singleton(r: { resource: string }): boolean {
  return registry.get(r.resource)!.singleton;
}

function pageEntries(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((e) => [...(e.page ? [e] : []), ...pageEntries(e.children ?? [])]);
}

/** The routes below /:city, grouped by the first segment of their path ('' for the index and `*`). */
type CityRouteTable = ReadonlyMap<string, RouteObject[]>;

// React Router matches paths case-insensitively: so does the grouping.
const firstSegment = (path: string) => (path.split('/')[0] ?? '').toLowerCase();

/**
 * The route objects of a city's pages (the profile, the hand-written pages of the manifest, each
 * resource's settings, list, create, edit and show pages), grouped by their first path segment;
 * paths starting with a parameter go with the index and the fallback in every group. React Router
 * then ranks the few routes that can match a path, not the city's hundreds, at every render.
 */
function cityRouteTable(entries: readonly MenuEntry[], routes: readonly ResourceRoute[]): CityRouteTable {
  const all: RouteObject[] = [{ path: 'profile', element: <ProfilePage /> }];
  for (const e of pageEntries(entries)) {
    const Page = PAGE_COMPONENTS[e.page!];
    if (!Page || !(e.page! in PAGES)) continue;
    // The page is handed its entry: the statistics page reads its `statistic` (and checks that
    // statistic's resource itself, src/shared/pages.ts).
    all.push({ path: e.route ?? e.page, element: <RequireAbility action="read" subject={`page:${e.page}`}><Page entry={e} /></RequireAbility> });
  }
  for (const r of routes) {
    if (singleton(r)) {
      all.push({ path: r.list, element: <RequireAbility action="read" subject={r.resource}><SingletonPage key={r.identifier} route={r} /></RequireAbility> });
      continue;
    }
    all.push(
      { path: r.list, element: <RequireAbility action="read" subject={r.resource}><ResourceList key={r.identifier} route={r} /></RequireAbility> },
      { path: r.create, element: <RequireAbility action="create" subject={r.resource}><KeyedByPath>{(path) => <ResourceForm key={path} route={r} mode="create" />}</KeyedByPath></RequireAbility> },
      { path: r.edit, element: <RequireAbility action="update" subject={r.resource}><KeyedByPath>{(path) => <ResourceForm key={path} route={r} mode="edit" />}</KeyedByPath></RequireAbility> },
      { path: r.show, element: <RequireAbility action="read" subject={r.resource}><KeyedByPath>{(path) => <ResourceShow key={path} route={r} />}</KeyedByPath></RequireAbility> },
    );
    // A copy is a new record: the create permission (access-control-provider.ts: clone → create).
    if (registry.get(r.resource)!.clone) {
      all.push({ path: r.clone, element: <RequireAbility action="create" subject={r.resource}><KeyedByPath>{(path) => <ResourceForm key={path} route={r} mode="clone" />}</KeyedByPath></RequireAbility> });
    }
    // The recycle bin: bringing a row back is a create (src/server/revisions/revision-routes.ts).
    if (keepsRevisions(registry.get(r.resource)!)) {
      all.push({ path: r.trash, element: <RequireAbility action="create" subject={r.resource}><RecycleBin key={r.identifier} route={r} /></RequireAbility> });
    }
  }
  const everywhere: RouteObject[] = [{ index: true, element: <Navigate to="dashboard" replace /> }, ...all.filter((r) => firstSegment(r.path!).startsWith(':')), { path: '*', element: <RouteFallback /> }];
  const table = new Map<string, RouteObject[]>([['', everywhere]]);
  for (const route of all) {
    const first = firstSegment(route.path!);
    if (first.startsWith(':')) continue;
    let group = table.get(first);
    if (!group) table.set(first, (group = [...everywhere]));
    group.push(route);
  }
  return table;
}

/** Renders `children` with the pathname of the route's location (a new form or page per record). */
function KeyedByPath({ children }: { children: (pathname: string) => ReactNode }) {
  return children(useLocation().pathname);
}

const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The page of `location` among the city's routes (only its first segment's group is ranked). */
function CityRoutes({ table, location }: { table: CityRouteTable; location: Location }) {
  // Below /:city/*: the path's segments after the city.
  const first = location.pathname.split('/')[2] ?? '';
  const page = useRoutes(table.get(firstSegment(safeDecode(first))) ?? table.get('')!, location);
  return <Suspense fallback={<Loading />}>{page}</Suspense>;
}

export function CityArea() {
  const { city = '' } = useParams();
  const { pathname } = useLocation();
  const profile = useSessionValue('profile');
  const chosen = useSessionValue('city');
  const { entries, placed, routes: menuRoutes, pages } = useCityMenu(city);
  // Menus are checked by `npm run validate`; an entry naming a resource this build lacks is skipped.
  const routes = useMemo(() => menuRoutes.filter((r) => registry.has(r.resource)), [menuRoutes]);
  const allowed = !!profile && cityAllowed(profile, city);

  // The address's city becomes the chosen one, kept in localStorage (it may be the session's city
  // already, taken from the address before the first render: providers/session.ts).
  useEffect(() => {
    if (allowed && (chosen !== city || storedCity() !== city)) setCity(city);
  }, [allowed, chosen, city]);

  useEffect(() => {
    fetchAccount().catch(() => undefined);
  }, [pathname]);

  // Every route of the city's pages, built once per menu (plain route objects, not JSX children that
  // React Router would turn into routes again on every render), grouped by their first segment.
  const table = useMemo(() => cityRouteTable(pages, routes), [pages, routes]);
  // The pages at one open tab's location (console-layout.tsx keeps every open tab rendered): keys
  // come from that location, not the window's, so a hidden tab's form is not mounted anew.
  const renderPage = useCallback((location: Location) => <CityRoutes table={table} location={location} />, [table]);

  if (!profile) return <Loading />;
  if (!allowed) {
    const known = citiesOf(profile).some((c) => c.name === city);
    return <Navigate to={known ? '/401?noGoBack=true' : '/404'} replace />;
  }
  if (chosen !== city) return <Loading />;

  return (
    <AbilityProvider value={abilityFor(profile, city)}>
      <ConsoleLayout key={city} city={city} entries={entries} placed={placed} routes={routes} renderPage={renderPage} />
    </AbilityProvider>
  );
}
