/**
 * Everything under /:city (000 2.2): checks the user may work in the city (else /401, or /404 for a
 * city the user does not know), keeps the URL's city as the chosen one, reloads the profile on every
 * route change (000 4), and mounts the layout with the routes of the city's manifest for the role:
 * hand-written pages by name and the generated list/create/edit/show pages of each resource entry.
 */
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import type { MenuEntry } from '@/shared/manifest';
import { PAGES } from '@/shared/pages';
import { citiesOf, cityAllowed, fetchAccount } from '../providers/account';
import { setCity } from '../providers/session';
import { useCityMenu } from '../hooks/use-city-menu';
import { useSession } from '../hooks/use-session';
import { Loading } from '../pages/loading';
import { PAGE_COMPONENTS } from '../pages/page-components';
import { ConsoleLayout } from './console-layout';
import { RequireAbility } from './require-ability';

const ResourceList = lazy(() => import('../generated/resource-list').then((m) => ({ default: m.ResourceList })));
const ResourceForm = lazy(() => import('../generated/resource-form').then((m) => ({ default: m.ResourceForm })));
const ResourceShow = lazy(() => import('../generated/resource-show').then((m) => ({ default: m.ResourceShow })));

function pageEntries(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((e) => [...(e.page ? [e] : []), ...pageEntries(e.children ?? [])]);
}

export function CityArea() {
  const { city = '' } = useParams();
  const { pathname } = useLocation();
  const { profile, city: chosen } = useSession();
  const { entries, routes } = useCityMenu(city);
  const allowed = !!profile && cityAllowed(profile, city);

  useEffect(() => {
    if (allowed && chosen !== city) setCity(city);
  }, [allowed, chosen, city]);

  useEffect(() => {
    fetchAccount().catch(() => undefined);
  }, [pathname]);

  if (!profile) return <Loading />;
  if (!allowed) {
    const known = citiesOf(profile).some((c) => c.name === city);
    return <Navigate to={known ? '/401?noGoBack=true' : '/404'} replace />;
  }
  if (chosen !== city) return <Loading />;

  return (
    <ConsoleLayout city={city} entries={entries}>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route index element={<Navigate to="dashboard" replace />} />
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
          {routes.flatMap((r) => [
            <Route
              key={`${r.identifier}-list`}
              path={r.list}
              element={
                <RequireAbility action="read" subject={r.resource}>
                  <ResourceList route={r} />
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
                  <ResourceShow route={r} />
                </RequireAbility>
              }
            />,
          ])}
          <Route path="*" element={<Navigate to="/404" replace />} />
        </Routes>
      </Suspense>
    </ConsoleLayout>
  );
}
