/**
 * Which request paths belong to the API (001 7: `/{city}/api/...`, `/default/login/logout`,
 * `/advertiser/api/...`, `/api/...`); everything else is the console's (000 2). Routes of the API whose
 * path does not look like one (`/japan/prefectures`) say so with `config.api` (see plugins/auth.ts).
 * Also the helpers that read contract paths (`/{city}/api/events/{id}/`).
 */

const API_PATH = /^\/(?:[^/?#]+\/)?(?:api|login)(?:[/?#]|$)/;

/** Whether a request URL (path with optional query) is an API path. `/login` alone is the console's sign-in page. */
export function isApiPath(url: string): boolean {
  return API_PATH.test(url) && !/^\/login(?:[/?#]|$)/.test(url);
}

/** Converts a contract path (`/{city}/api/events/{id}/`) into a Fastify path (`/:city/api/events/:id/`). */
export function toRoutePath(contractPath: string): string {
  return contractPath.replace(/\{(\w+)\}/g, ':$1');
}

/** Converts a Fastify path (`/:city/api/events/:id/`) into an OpenAPI path (`/{city}/api/events/{id}/`). */
export function toContractPath(routePath: string): string {
  return routePath.replace(/:(\w+)/g, '{$1}');
}

/** The placeholder names of a contract path, in order (`/{city}/api/school/{schoolId}/users/` → city, schoolId). */
export function placeholdersOf(contractPath: string): string[] {
  return [...contractPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

/**
 * The placeholder that names the row of a call: `{id}` (or `{<idField>}`) when the path has it, else
 * the first one that is not `{city}` (`{event_id}`, `{name}`, `{schoolId}`, `{idCommon}`…), or null
 * when the path has none.
 */
export function idParamOf(contractPath: string, idField = 'id'): string | null {
  const names = placeholdersOf(contractPath).filter((p) => p !== 'city');
  return names.find((p) => p === 'id' || p === idField) ?? names[0] ?? null;
}

/**
 * The first segment of a path that has no `{city}` (`/advertiser/api/status/{id}/` → `advertiser`,
 * `/japan/prefectures` → `japan`), or null when the path names the city with `{city}` or begins with
 * a placeholder.
 */
export function literalCityOf(contractPath: string): string | null {
  if (contractPath.includes('{city}')) return null;
  const first = contractPath.split('/').find((s) => s !== '');
  return first && !first.includes('{') ? first : null;
}

/** A path in a form where `/a/{x}/` and `/a/{y}` are the same route (placeholders and trailing slash ignored). */
export function routeKey(method: string, contractPath: string): string {
  return `${method} ${contractPath.replace(/\{\w+\}/g, '{}').replace(/\/+$/, '') || '/'}`;
}
