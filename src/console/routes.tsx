/**
 * Top-level routes (000 2.1). Open routes, no token needed: /login, /auth-redirect, /404,
 * /redirect/:path*, /add_teacher/, /mynumber, /cippoweb/autologin, the policy, terms, app usage
 * instruction, app usage survey, bread FAQ and booking policy views, /401. Everything else is behind a
 * session: `/` (the root entry), the hidden /city page and `/:city/*` (the city gate, then the layout
 * and the city's pages, loaded lazily). Unknown paths go to /404. The logout mismatch modal (000 4)
 * sits above every route. A 503 on the login page, /city or the session check shows the maintenance
 * page (MaintenanceGate; inside a city the layout shows it).
 */
import { lazy, Suspense } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import { Authenticated } from '@refinedev/core';
import { loadConsoleCatalogues } from './i18n';
import { rootPath } from './providers/account';
import { useSession } from './hooks/use-session';
import { MaintenanceGate } from './layout/maintenance-gate';
import { Loading } from './pages/loading';
import { STATIC_VIEWS, StaticViewPage, type StaticView } from './pages/static-view-page';

const LoginPage = lazy(() => import('./pages/login-page').then((m) => ({ default: m.LoginPage })));
const CityPage = lazy(() => import('./pages/city-page').then((m) => ({ default: m.CityPage })));
const NotFoundPage = lazy(() => import('./pages/not-found-page').then((m) => ({ default: m.NotFoundPage })));
const NoPermissionPage = lazy(() => import('./pages/no-permission-page').then((m) => ({ default: m.NoPermissionPage })));
const AuthRedirectPage = lazy(() => import('./pages/auth-redirect-page').then((m) => ({ default: m.AuthRedirectPage })));
const RedirectPage = lazy(() => import('./pages/redirect-page').then((m) => ({ default: m.RedirectPage })));
const AddTeacherPage = lazy(() => import('./pages/add-teacher-page').then((m) => ({ default: m.AddTeacherPage })));
const MyNumberPage = lazy(() => import('./pages/mynumber-page').then((m) => ({ default: m.MyNumberPage })));
const AutologinPage = lazy(() => import('./pages/autologin-page').then((m) => ({ default: m.AutologinPage })));
const LogoutMismatchModal = lazy(() => import('./pages/logout-mismatch-modal').then((m) => ({ default: m.LogoutMismatchModal })));
// The console inside a city also needs its catalogue's console namespaces (i18n.ts): loaded with it.
const CityEntry = lazy(() =>
  Promise.all([import('./layout/city-entry'), loadConsoleCatalogues()]).then(([m]) => ({ default: m.CityEntry })),
);

/** The protected area: a session is required; a sign-out (e.g. failed refresh) goes to /login. */
function RequireSession() {
  const { signedOut, profile } = useSession();
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
  const { city, profile } = useSession();
  return <Navigate to={rootPath(profile, city)} replace />;
}

const staticRoutes = (Object.entries(STATIC_VIEWS) as Array<[StaticView, readonly string[]]>).flatMap(([view, paths]) =>
  paths.map((path) => <Route key={path} path={path} element={<StaticViewPage view={view} />} />),
);

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route
          path="/login"
          element={
            <MaintenanceGate>
              <Authenticated key="login" fallback={<LoginPage />} loading={<Loading />}>
                <Navigate to="/" replace />
              </Authenticated>
            </MaintenanceGate>
          }
        />
        <Route path="/auth-redirect" element={<AuthRedirectPage />} />
        <Route path="/redirect/*" element={<RedirectPage />} />
        <Route path="/add_teacher" element={<AddTeacherPage />} />
        <Route path="/mynumber" element={<MyNumberPage />} />
        <Route path="/cippoweb/autologin" element={<AutologinPage />} />
        {staticRoutes}
        <Route path="/401" element={<NoPermissionPage />} />
        <Route path="/404" element={<NotFoundPage />} />
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
      <Suspense fallback={null}>
        <LogoutMismatchModal />
      </Suspense>
    </Suspense>
  );
}
