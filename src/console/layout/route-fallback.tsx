/**
 * The last route under /:city (000 4 'A route whose role is not allowed goes to /401 with a noGoBack
 * query'; 000 2.1 'Unknown paths go to /404'): a route of the city's manifest that the user's role may
 * not open goes to /401?noGoBack=true, anything else to /404. /:city/top-page/ (the member area's
 * landing, 000 2.2) shows the dashboard while the manifest has no entry for it.
 */
import { lazy } from 'react';
import { Navigate, useParams } from 'react-router';
import { fallbackFor } from './route-match';

const DashboardPage = lazy(() => import('../pages/dashboard-page').then((m) => ({ default: m.DashboardPage })));

export function RouteFallback() {
  const { city = '', '*': rest = '' } = useParams();
  const outcome = fallbackFor(city, rest);
  if (outcome === 'landing') return <DashboardPage />;
  return <Navigate to={outcome === 'forbidden' ? '/401?noGoBack=true' : '/404'} replace />;
}
