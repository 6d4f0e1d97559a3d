/**
 * The sidebar entries and generated-page routes of the signed-in role in a city (000 6 Menu sets),
 * from the shared manifests: `menuFor(effectiveRole(profile), city)`.
 */
import { useMemo } from 'react';
import { menuFor, type MenuEntry } from '@/shared/manifest';
import { effectiveRole } from '@/shared/roles';
import { resourceRoutes, type ResourceRoute } from '../generated/resource-routes';
import { useSession } from './use-session';

export function useCityMenu(city: string | null | undefined): { entries: MenuEntry[]; routes: ResourceRoute[] } {
  const { profile } = useSession();
  return useMemo(() => {
    const role = profile ? effectiveRole(profile) : null;
    if (!role || !city) return { entries: [], routes: [] };
    const entries = menuFor(role, city);
    return { entries, routes: resourceRoutes(entries) };
  }, [profile, city]);
}
