/**
 * Everything under /:city (000 2.2): checks the user may work in the city (else /401, or /404 for a
 * city the user does not know), keeps the URL's city as the chosen one, reloads the profile on every
 * route change (000 4), and mounts the layout with the routes of the city's manifest for the role:
 * hand-written pages by name, the generated list/create/edit/show pages of each resource entry, and
 * one settings page for each singleton resource. The session's CASL ability is provided here (the
 * registry it needs stays out of the login page's bundle).
 */
import { lazy, Suspense, useCallback, useEffect, useMemo } from 'react';
import { Navigate, Route, Routes, useLocation, useParams, type Location } from 'react-router';
import { AbilityProvider } from '@casl/react';
import type { MenuEntry } from '@/shared/manifest';
import { PAGES } from '@/shared/pages';
import { registry } from '@/shared/registry';
import { abilityFor } from '../providers/ability';
import { citiesOf, cityAllowed, fetchAccount } from '../providers/account';
import { setCity } from '../providers/session';
import { useCityMenu } from '../hooks/use-city-menu';
import { useSession } from '../hooks/use-session';
import { Loading } from '../pages/loading';
import { PAGE_COMPONENTS } from '../pages/page-components';
import { ConsoleLayout } from './console-layout';
import { RequireAbility } from './require-ability';
import { RouteFallback } from './route-fallback';

const ResourceList = lazy(() => import('../generated/resource-list').then((m) => ({ default: m.ResourceList })));
const ResourceForm = lazy(() => import('../generated/resource-form').then((m) => ({ default: m.ResourceForm })));
const ResourceShow = lazy(() => import('../generated/resource-show').then((m) => ({ default: m.ResourceShow })));
const SingletonPage = lazy(() => import('../generated/singleton-page').then((m) => ({ default: m.SingletonPage })));
const ProfilePage = lazy(() => import('./profile-page').then((m) => ({ default: m.ProfilePage })));

function singleton(r: { resource: string }): boolean {
  return registry.get(r.resource)!.singleton;
}

function pageEntries(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((e) => [...(e.page ? [e] : []), ...pageEntries(e.children ?? [])]);
}

export function CityArea() {
  const { city = '' } = useParams();
  const { pathname } = useLocation();
  const { profile, city: chosen } = useSession();
  const { entries, routes: menuRoutes } = useCityMenu(city);
  // Menus are checked by `npm run validate`; an entry naming a resource this build lacks is skipped.
  const routes = useMemo(() => menuRoutes.filter((r) => registry.has(r.resource)), [menuRoutes]);
  const allowed = !!profile && cityAllowed(profile, city);

  useEffect(() => {
    if (allowed && chosen !== city) setCity(city);
  }, [allowed, chosen, city]);

  useEffect(() => {
    fetchAccount().catch(() => undefined);
  }, [pathname]);

  // The pages at one open tab's location (console-layout.tsx keeps every open tab rendered): keys
  // come from that location, not the window's, so a hidden tab's form is not mounted anew.
  const renderPage = useCallback(
    (location: Location) => {
      const pathname = location.pathname;
      return (
      <Suspense fallback={<Loading />}>
        <Routes location={location}>
          <Route index element={<Navigate to="dashboard" replace />} />
          <Route path="profile" element={<ProfilePage />} />
          {pageEntries(entries).map((e) => {
            const Page = PAGE_COMPONENTS[e.page!];
            if (!Page || !(e.page! in PAGES)) return null;
            return (
              <Route
                key={e.key}
                path={e.route ?? e.page}
                element={
                  <RequireAbility action="read" subject={`page:${e.page}`}>
                    <Page />
                  </RequireAbility>
                }
              />
            );
          })}
          {routes.filter(singleton).map((r) => (
            <Route
              key={`${r.identifier}-settings`}
              path={r.list}
              element={
                <RequireAbility action="read" subject={r.resource}>
                  <SingletonPage key={r.identifier} route={r} />
                </RequireAbility>
              }
            />
          ))}
          {routes.filter((r) => !singleton(r)).flatMap((r) => [
            <Route
              key={`${r.identifier}-list`}
              path={r.list}
              element={
                <RequireAbility action="read" subject={r.resource}>
                  <ResourceList key={r.identifier} route={r} />
                </RequireAbility>
              }
            />,
            <Route
              key={`${r.identifier}-create`}
              path={r.create}
              element={
                <RequireAbility action="create" subject={r.resource}>
                  <ResourceForm key={pathname} route={r} mode="create" />
                </RequireAbility>
              }
            />,
            <Route
              key={`${r.identifier}-edit`}
              path={r.edit}
              element={
                <RequireAbility action="update" subject={r.resource}>
                  <ResourceForm key={pathname} route={r} mode="edit" />
                </RequireAbility>
              }
            />,
            <Route
              key={`${r.identifier}-show`}
              path={r.show}
              element={
                <RequireAbility action="read" subject={r.resource}>
                  <ResourceShow key={pathname} route={r} />
                </RequireAbility>
              }
            />,
          ])}
          <Route path="*" element={<RouteFallback />} />
        </Routes>
      </Suspense>
      );
    },
    [entries, routes],
  );

  if (!profile) return <Loading />;
  if (!allowed) {
    const known = citiesOf(profile).some((c) => c.name === city);
    return <Navigate to={known ? '/401?noGoBack=true' : '/404'} replace />;
  }
  if (chosen !== city) return <Loading />;

  return (
    <AbilityProvider value={abilityFor(profile, city)}>
      <ConsoleLayout key={city} city={city} entries={entries} routes={routes} renderPage={renderPage} />
    </AbilityProvider>
  );
}
