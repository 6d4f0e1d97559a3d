/**
 * The gate in front of everything under /:city (000 4, 000 6, 001 8), before the city's layout:
 * - a deny rule for the city (the city `advertiser` for anyone but an Administrator, a role with no
 *   menu set there) shows the deny message and signs out;
 * - a city of the user's that is not among the active ones goes to /401?noGoBack=true&reason=area
 *   ('Your account cannot access this area');
 * - otherwise the city area (layout and routes); cities the user does not know are left to it (/404).
 */
import { lazy, useEffect } from 'react';
import { Navigate, useParams } from 'react-router';
import { useInvalidateAuthStore } from '@refinedev/core';
import { citiesOf, cityAllowed, signInDenial } from '../providers/account';
import { loadManifests, useManifestsLoaded } from '../providers/manifests';
import { signOutWith } from '../providers/auth-provider';
import { useSessionValue } from '../hooks/use-session';
import { Loading } from '../components/loading';
import { AREA_REASON } from '../pages/no-permission-reason';

// Loaded with this gate: every path it lets through shows the city area.
const cityArea = import('./city-area');
const CityArea = lazy(() => cityArea.then((m) => ({ default: m.CityArea })));

export function CityEntry() {
  const { city = '' } = useParams();
  const profile = useSessionValue('profile');
  const invalidateAuth = useInvalidateAuthStore();
  const loaded = useManifestsLoaded();
  const denial = profile ? signInDenial(profile, city) : null;

  useEffect(() => {
    if (!loaded) void loadManifests();
  }, [loaded]);

  useEffect(() => {
    if (!denial) return;
    void signOutWith(denial).then(() => invalidateAuth());
  }, [denial, invalidateAuth]);

  if (!loaded) return <Loading />;
  if (!profile) return <CityArea />;
  if (denial) return <Loading />;
  if (!cityAllowed(profile, city) && citiesOf(profile).some((c) => c.name === city)) {
    return <Navigate to={`/401?noGoBack=true&reason=${AREA_REASON}`} replace />;
  }
  return <CityArea />;
}
