/**
 * Top-level routes (000 2.1): open pages (/login, /401, /404), then everything else behind a session:
 * `/` (to /{city}/dashboard or /city), the hidden /city page and `/:city/*` (layout and the city's
 * pages, loaded lazily). Unknown paths go to /404.
 */
import { lazy, Suspense } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import { Authenticated } from '@refinedev/core';
import { landingPath } from './providers/account';
import { useSession } from './hooks/use-session';
import { Loading } from './pages/loading';

const LoginPage = lazy(() => import('./pages/login-page').then((m) => ({ default: m.LoginPage })));
const CityPage = lazy(() => import('./pages/city-page').then((m) => ({ default: m.CityPage })));
const NotFoundPage = lazy(() => import('./pages/not-found-page').then((m) => ({ default: m.NotFoundPage })));
const NoPermissionPage = lazy(() => import('./pages/no-permission-page').then((m) => ({ default: m.NoPermissionPage })));
const CityArea = lazy(() => import('./layout/city-area').then((m) => ({ default: m.CityArea })));

/** The protected area: a session is required; a sign-out (e.g. failed refresh) goes to /login. */
function RequireSession() {
  const { signedOut, profile } = useSession();
  if (signedOut && !profile) return <Navigate to="/login" replace />;
  return (
    <Authenticated key="console" fallback={<Navigate to="/login" replace />} loading={<Loading />}>
      <Outlet />
    </Authenticated>
  );
}

/** `/`: the chosen city's dashboard, else the city page (000 2.1 Root entry). */
function RootRedirect() {
  const { city } = useSession();
  return <Navigate to={landingPath(city)} replace />;
}

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route
          path="/login"
          element={
            <Authenticated key="login" fallback={<LoginPage />} loading={<Loading />}>
              <Navigate to="/" replace />
            </Authenticated>
          }
        />
        <Route path="/401" element={<NoPermissionPage />} />
        <Route path="/404" element={<NotFoundPage />} />
        <Route element={<RequireSession />}>
          <Route path="/" element={<RootRedirect />} />
          <Route path="/city" element={<CityPage />} />
          <Route path="/:city/*" element={<CityArea />} />
        </Route>
        <Route path="*" element={<Navigate to="/404" replace />} />
      </Routes>
    </Suspense>
  );
}
