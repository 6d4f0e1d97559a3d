/**
 * The console behind a session (000 2.1, 2.2): Refine with the console's providers and the city's
 * resources, and its routes: `/` (the root entry), the hidden /city page and `/:city/*` (the city
 * gate, then the layout and the city's pages, loaded lazily). Loaded by app.tsx for every path that
 * is not an open page, so the login and open pages never load Refine. A 503 on /city or the session
 * check shows the maintenance page (MaintenanceGate; inside a city the layout shows it).
 */
import { lazy, useMemo } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Authenticated, Refine } from '@refinedev/core';
import { App as AntdApp } from 'antd';
import { ERROR_TOAST_MS } from '@/shared/constants';
import { allEntries } from '@/shared/manifest';
import { isCityPagePath } from '@/shared/open-routes';
import { registry } from '@/shared/registry';
import { loadManifests } from './providers/manifests';
import { useNotificationProvider } from './providers/notification-provider';
import { currentLanguage, loadConsoleCatalogues } from './i18n';
import { accessControlProvider } from './providers/access-control-provider';
import { rootPath } from './providers/account';
import { authProvider } from './providers/auth-provider';
import { dataProvider, prefetchList } from './providers/data-provider';
import { PAGE_LOADERS } from './pages/page-components';
import { i18nProvider } from './providers/i18n-provider';
import { routerProvider } from './providers/router-provider';
import { refineResources } from './resources/resource-routes';
import { firstListRequest } from './resources/use-resource-list';
import { prepareNumberFormat } from './resources/format-value';
import getScrollBarSize from './scrollbar-size';
import { UnsavedInputGuard } from './resources/unsaved-input-guard';
import { useCityMenu } from './layout/use-city-menu';
import { TOP_BAR_HEIGHT } from './layout/top-bar';
import { useSessionValue } from './hooks/use-session';
import { MaintenanceGate } from './layout/maintenance-gate';
import { Loading } from './components/loading';
import { backgroundAwareQueryConfig } from './providers/background-calls';

const CityPage = lazy(() => import('./pages/city-page').then((m) => ({ default: m.CityPage })));
// The console inside a city also needs its catalogue's console namespaces (i18n.ts): loaded with it.
const loadCityEntry = () => Promise.all([import('./layout/city-entry'), loadConsoleCatalogues()]);
const CityEntry = lazy(() => loadCityEntry().then(([m]) => ({ default: m.CityEntry })));
/**
 * The generated page (list, form or show) the path `/:city/…` shows by the manifests' routes (any
 * role's: the session's role is not known yet), with its resource, or null (a hand-written page,
 * the dashboard…).
 */
export function generatedPageAt(pathname: string): { page: 'list' | 'form' | 'show'; resource: string } | null {
  const rest = pathname.split('/').slice(2).join('/').replace(/\/+$/, '');
  for (const { entry } of allEntries()) {
    if (!entry.resource) continue;
    const route = entry.route ?? entry.resource;
    const at = (page: 'list' | 'form' | 'show') => ({ page, resource: entry.resource as string });
    if (rest === route) return at('list');
    if (rest === `${route}/create` || rest.startsWith(`${route}/edit/`) || rest.startsWith(`${route}/clone/`)) return at('form');
    if (rest.startsWith(`${route}/show/`)) return at('show');
  }
  return null;
}

/**
 * The hand-written page (src/shared/pages.ts PAGES) the path `/:city/…` shows by the manifests'
 * routes (any role's), or null (a generated page, the profile…).
 */
export function handWrittenPageAt(pathname: string): string | null {
  const rest = pathname.split('/').slice(2).join('/').replace(/\/+$/, '');
  for (const { entry } of allEntries()) {
    if (entry.page && rest === (entry.route ?? entry.page) && entry.page in PAGE_LOADERS) return entry.page;
  }
  return null;
}

const GENERATED_PAGES = {
  list: () => import('./resources/resource-list'),
  form: () => import('./resources/resource-form'),
  show: () => import('./resources/resource-show'),
};

// Opened on a city's page (its code asked for by ../early-loads.ts), the console starts at once what
// that page will wait for, beside the session check, instead of each once the code before it has run
// (docs/performance.md 'What each page loads'): the city entry with the console catalogues, the
// manifests, then the page's code (a hand-written page's with its texts) and, for a list opened at
// its bare path, its first page of rows (the request the page makes, `prefetchList`); and, in a
// task of its own, the number format and the scroll bar's size that the list's first render and
// commit would otherwise work out.
if (typeof location !== 'undefined' && isCityPagePath(location.pathname)) {
  void loadCityEntry();
  setTimeout(() => {
    prepareNumberFormat(currentLanguage());
    getScrollBarSize(); // measured while the page is small: in the table's first commit it lays out the whole page
  }, 0);
  const { pathname, search } = location;
  void loadManifests().then((loaded) => {
    const page = loaded ? handWrittenPageAt(pathname) : null;
    if (page) void PAGE_LOADERS[page]();
    const at = loaded ? generatedPageAt(pathname) : null;
    if (!at) return;
    void GENERATED_PAGES[at.page]();
    if (at.page === 'list' && search === '' && registry.get(at.resource)?.singleton === false) prefetchList(firstListRequest(at, pathname.split('/')[1]));
  });
}

/**
 * React Query defaults: an answer with an HTTP error is final (the catalogue's message shows at once,
 * a 403 signs out at once); only a call that got no answer at all is tried once more. Nothing is read
 * again by itself when the network comes back, as nothing is when the window regains focus (Refine's
 * default): Refine's <Authenticated> shows its loading state while the session check is read, so a
 * check read again unmounted the whole console, unsaved input with it, and each page's first reads
 * then counted as a use of the session. The refetches React Query still makes by itself (a query's
 * refetchInterval, a query that asks for them) are background calls (providers/background-calls.ts).
 */
const REACT_QUERY = {
  clientConfig: backgroundAwareQueryConfig({
    queries: {
      retry: (failures: number, error: unknown) => failures < 1 && ((error as { statusCode?: number } | null)?.statusCode ?? 0) === 0,
      refetchOnReconnect: false,
    },
  }),
};

/** The protected area: a session is required; a sign-out (e.g. failed refresh) goes to /login. */
function RequireSession() {
  const signedOut = useSessionValue('signedOut');
  const profile = useSessionValue('profile');
  if (signedOut && !profile) return <Navigate to="/login" replace />;
  return (
    <Authenticated
      key="console"
      fallback={
        <MaintenanceGate>
          <Navigate to="/login" replace />
        </MaintenanceGate>
      }
      loading={<Loading />}
    >
      <Outlet />
    </Authenticated>
  );
}

/** `/` (000 2.1 Root entry): the member area's top page, the chosen city's dashboard, else /city. */
function RootRedirect() {
  const city = useSessionValue('city');
  const profile = useSessionValue('profile');
  return <Navigate to={rootPath(profile, city)} replace />;
}

/** Refine and the routes behind a session. */
export function ConsoleApp() {
  const { t } = useTranslation();
  const city = useSessionValue('city');
  const { routes } = useCityMenu(city);
  // Rebuilt only when a route or a label's text changes, not whenever `t` does (a catalogue arriving):
  // a new resources array re-renders every Refine hook of the page.
  const labels = routes.map((r) => t(r.title)).join('\u0000');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const resources = useMemo(() => refineResources(routes, t), [routes, labels]);
  return (
    // antd's App context (message, notification, modal) with the catalogue's 5 s error toasts (001 9),
    // below the top bar: a toast hovered stays open, and one over the bell would hide it for good.
    <AntdApp notification={{ duration: ERROR_TOAST_MS / 1000, placement: 'topRight', top: TOP_BAR_HEIGHT + 8 }} message={{ duration: 3 }}>
      <Refine
        routerProvider={routerProvider}
        dataProvider={dataProvider}
        authProvider={authProvider}
        accessControlProvider={accessControlProvider}
        i18nProvider={i18nProvider}
        notificationProvider={useNotificationProvider}
        resources={resources}
        options={{ syncWithLocation: true, disableTelemetry: true, mutationMode: 'pessimistic', warnWhenUnsavedChanges: true, reactQuery: REACT_QUERY }}
      >
        <Routes>
          <Route element={<RequireSession />}>
            <Route path="/" element={<RootRedirect />} />
            <Route
              path="/city"
              element={
                <MaintenanceGate>
                  <CityPage />
                </MaintenanceGate>
              }
            />
            <Route path="/:city/*" element={<CityEntry />} />
          </Route>
          <Route path="*" element={<Navigate to="/404" replace />} />
        </Routes>
        {/* A form with unsaved input asks before the browser tab closes or reloads. */}
        <UnsavedInputGuard />
      </Refine>
    </AntdApp>
  );
}
