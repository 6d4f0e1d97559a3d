/**
 * The maintenance page outside a city (000 2.3): on the login page, /city and the session check in
 * front of them, once any API call is answered 503 (providers/maintenance.ts) the page gives way to
 * the maintenance page, centred on the screen; otherwise `children` as they are. Inside a city the
 * layout shows the same page in its content area (console-layout.tsx) and keeps the open tabs.
 * The page itself loads lazily, so the login page's JS stays small.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useMaintenance } from '../providers/maintenance';

const MaintenancePage = lazy(() => import('./maintenance-page').then((m) => ({ default: m.MaintenancePage })));

/** `children`, or the full-screen maintenance page while the service answers 503. */
export function MaintenanceGate({ children }: { children: ReactNode }) {
  const maintenance = useMaintenance();
  if (!maintenance) return children;
  return (
    <main style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Suspense fallback={null}>
        <MaintenancePage />
      </Suspense>
    </main>
  );
}
