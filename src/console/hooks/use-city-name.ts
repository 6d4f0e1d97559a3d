/**
 * The Japanese name of a city (000 2.3 sidebar's first entry): from the profile's cities, or for an
 * Administrator working outside them, from GET /default/api/city/info/. Falls back to the code.
 */
import { useCustom } from '@refinedev/core';
import type { City } from '@/shared/roles';
import { CITY_INFO_PATH, citiesOf } from '../providers/account';
import { useSessionValue } from './use-session';

export function useCityName(city: string): string {
  const profile = useSessionValue('profile');
  const own = citiesOf(profile).find((c) => c.name === city);
  const { result } = useCustom<{ content: City[] }>({
    url: CITY_INFO_PATH,
    method: 'get',
    queryOptions: { enabled: !own && !!profile },
    errorNotification: false,
  });
  return own?.name_ja || result.data?.content?.find((c) => c.name === city)?.name_ja || city;
}
