/**
 * Which request paths belong to the API (001 7: `/{city}/api/...`, `/default/login/logout`,
 * `/advertiser/api/...`, `/api/...`); everything else is the console's (000 2).
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
