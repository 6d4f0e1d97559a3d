/**
 * Top-level routes (000 2.1). Open routes, no token needed: /login, the second step of a staff
 * sign-in (/login/mfa, /login/enrol: pages/sign-in-steps.tsx), /auth-redirect, /404,
 * /redirect/:path*, /add_teacher/, /mynumber, /cippoweb/autologin, /forgot-password, /reset-password,
 * /verify-email (the account mails' pages), the policy, terms, app usage
 * instruction, app usage survey, bread FAQ and booking policy views, /401. They render without Refine,
 * so their pages load neither Refine nor its query cache. Everything else is the console behind a
 * session (./console-app.tsx, loaded lazily with Refine). The logout mismatch modal (000 4) sits above
 * every route. A 503 on the login page shows the maintenance page (MaintenanceGate).
 */
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useSessionCheck } from './hooks/use-session-check';
import { logoutMismatchRaised, subscribeLogoutMismatch } from './providers/logout-mismatch';
import { loadManifests } from './providers/manifests';
import { MaintenanceGate } from './layout/maintenance-gate';
import { Loading } from './components/loading';
import { ACCOUNT_PATHS, STATIC_VIEWS, type StaticView } from '@/shared/open-routes';
import { StaticViewPage } from './pages/static-view-page';

const LoginPage = lazy(() => import('./pages/login-page').then((m) => ({ default: m.LoginPage })));
const MfaCodePage = lazy(() => import('./pages/sign-in-steps').then((m) => ({ default: m.MfaCodePage })));
const MfaEnrolPage = lazy(() => import('./pages/sign-in-steps').then((m) => ({ default: m.MfaEnrolPage })));
const NotFoundPage = lazy(() => import('./pages/not-found-page').then((m) => ({ default: m.NotFoundPage })));
const NoPermissionPage = lazy(() => import('./pages/no-permission-page').then((m) => ({ default: m.NoPermissionPage })));
const AuthRedirectPage = lazy(() => import('./pages/auth-redirect-page').then((m) => ({ default: m.AuthRedirectPage })));
const RedirectPage = lazy(() => import('./pages/redirect-page').then((m) => ({ default: m.RedirectPage })));
const AddTeacherPage = lazy(() => import('./pages/add-teacher-page').then((m) => ({ default: m.AddTeacherPage })));
const MyNumberPage = lazy(() => import('./pages/mynumber-page').then((m) => ({ default: m.MyNumberPage })));
const ForgotPasswordPage = lazy(() => import('./pages/account-pages').then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => import('./pages/account-pages').then((m) => ({ default: m.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => import('./pages/account-pages').then((m) => ({ default: m.VerifyEmailPage })));
const AutologinPage = lazy(() => import('./pages/autologin-page').then((m) => ({ default: m.AutologinPage })));
const LogoutMismatchModal = lazy(() => import('./pages/logout-mismatch-modal').then((m) => ({ default: m.LogoutMismatchModal })));
/** The logout mismatch modal, loaded (with antd's Modal) only once the auth provider raises it. */
function LogoutMismatch() {
  const raised = useSyncExternalStore(subscribeLogoutMismatch, logoutMismatchRaised, logoutMismatchRaised);
  return raised ? (
    <Suspense fallback={null}>
      <LogoutMismatchModal />
    </Suspense>
  ) : null;
}

// The console comes with the city menu manifests, fetched while its code downloads (./providers/manifests).
const ConsoleApp = lazy(() => Promise.all([import('./console-app'), loadManifests()]).then(([m]) => ({ default: m.ConsoleApp })));

/** /login: the sign-in form, or on to `/` when a session is already there. */
function LoginRoute() {
  const session = useSessionCheck();
  if (session === 'checking') return <Loading />;
  return session === 'signed-in' ? <Navigate to="/" replace /> : <LoginPage />;
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
              <LoginRoute />
            </MaintenanceGate>
          }
        />
        <Route path="/login/mfa" element={<MfaCodePage />} />
        <Route path="/login/enrol" element={<MfaEnrolPage />} />
        <Route path="/auth-redirect" element={<AuthRedirectPage />} />
        <Route path="/redirect/*" element={<RedirectPage />} />
        <Route path="/add_teacher" element={<AddTeacherPage />} />
        <Route path="/mynumber" element={<MyNumberPage />} />
        <Route path="/cippoweb/autologin" element={<AutologinPage />} />
        <Route path={ACCOUNT_PATHS.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={ACCOUNT_PATHS.resetPassword} element={<ResetPasswordPage />} />
        <Route path={ACCOUNT_PATHS.verifyEmail} element={<VerifyEmailPage />} />
        {staticRoutes}
        <Route path="/401" element={<NoPermissionPage />} />
        <Route path="/404" element={<NotFoundPage />} />
        <Route path="*" element={<ConsoleApp />} />
      </Routes>
      <LogoutMismatch />
    </Suspense>
  );
}
