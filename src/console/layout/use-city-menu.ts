/**
 * The sidebar entries and generated-page routes of the signed-in role in a city (000 6 Menu sets),
 * from the manifests the server serves (../providers/manifests): `menuFor(effectiveRole(profile),
 * city)` for the sidebar, `placedMenuFor` (the same with hidden entries) for the pages' titles and
 * breadcrumbs, and `routeEntriesFor` (hidden entries too, flattened) for the routes; none until the
 * manifests are here.
 */
import { useMemo } from 'react';
import { menuFor, placedMenuFor, routeEntriesFor, type MenuEntry } from '@/shared/manifest';
import { effectiveRole } from '@/shared/roles';
import { resourceRoutes, type ResourceRoute } from '../resources/resource-routes';
import { useManifestsLoaded } from '../providers/manifests';
import { useSessionValue } from '../hooks/use-session';

export function useCityMenu(city: string | null | undefined): { entries: MenuEntry[]; placed: MenuEntry[]; routes: ResourceRoute[]; pages: MenuEntry[] } {
  const profile = useSessionValue('profile');
  const loaded = useManifestsLoaded();
  return useMemo(() => {
    const role = profile ? effectiveRole(profile) : null;
    if (!role || !city || !loaded) return { entries: [], placed: [], routes: [], pages: [] };
    const entries = menuFor(role, city);
    // Hidden entries have routes but no sidebar line (000 2): resources and hand-written pages alike
    // (chat/:id/:shopName/img/:imgShop, group/chat/:classId/:teacherId).
    const all = routeEntriesFor(role, city);
    return { entries, placed: placedMenuFor(role, city), routes: resourceRoutes(all), pages: all.filter((e) => e.page) };
  }, [profile, city, loaded]);
}
