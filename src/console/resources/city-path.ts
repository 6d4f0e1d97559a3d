/** The absolute path of a generated page: `/<city>/<route>` with `:id` filled in. */
import type { BaseKey } from '@refinedev/core';

export function cityPath(city: string, route: string, id?: BaseKey): string {
  const filled = id === undefined ? route : route.replace(':id', encodeURIComponent(String(id)));
  return `/${encodeURIComponent(city)}/${filled}`;
}
