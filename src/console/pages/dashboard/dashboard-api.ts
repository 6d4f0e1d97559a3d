/**
 * The dashboard's call (000 2.2 `/{city}/dashboard`): `GET /{city}/api/statistics/dashboard/`, the
 * figures of the last 30 days the signed-in role may read (src/shared/dashboard.ts), through the
 * console's http layer (cookies, one refresh on a 401, the error catalogue), cached per city.
 */
import { useQuery } from '@tanstack/react-query';
import type { DashboardAnswer } from '@/shared/dashboard';
import { request } from '../../providers/http';

/** The path of the dashboard's call in `city`. */
export function dashboardPath(city: string): string {
  return `/${encodeURIComponent(city)}/api/statistics/dashboard/`;
}

/**
 * The dashboard of `city` (TanStack Query, the cache Refine shares; a minute fresh, so coming back to
 * the dashboard shows it at once). Errors: `ApiRequestError` (403 in a city not the caller's).
 */
export function useDashboard(city: string) {
  return useQuery<DashboardAnswer>({
    queryKey: ['dashboard', city],
    queryFn: ({ signal }) => request<DashboardAnswer>(dashboardPath(city), { signal }),
    enabled: city !== '',
    staleTime: 60_000,
    retry: false,
  });
}
