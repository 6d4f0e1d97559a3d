/**
 * The console's Refine router provider: `@refinedev/react-router`'s, with a `parse` that matches the
 * current path against the resources once per (resources, pathname) for the whole page.
 *
 * Why: every Refine hook on a page (`useTable`, `useOne`, `useDelete`, `useCustomMutation`, …) calls
 * `parse`, and the library's `parse` runs `matchResourceFromRoute` in a `useMemo` of its own hook
 * instance: with the 111 resources of an Operator's city, a list page matched the same path about
 * 330 times while it rendered, about 1 ms each (docs/performance.md). Here the match is computed once
 * and shared through a cache keyed by the resources array (Refine's ResourceContext value, which
 * changes only when the resources do) and the pathname. The splat param of the city route is left
 * out of the params (see `useParse`). Everything else is the library's code.
 */
import { useCallback, useContext, useMemo } from 'react';
import { matchPath, useLocation, useParams } from 'react-router';
import { matchResourceFromRoute, QS_PARSE_DEPTH, ResourceContext, type ParseResponse, type RouterProvider } from '@refinedev/core';
import baseRouterProvider from '@refinedev/react-router';
import qs from 'qs';

type Match = ReturnType<typeof matchResourceFromRoute>;
type Resources = Parameters<typeof matchResourceFromRoute>[1];

/** Paths kept per resources array; a console session visits far fewer. */
const MAX_PATHS = 200;
const matches = new WeakMap<Resources, Map<string, Match>>();

/**
 * `matchResourceFromRoute(pathname, resources)`, computed once per resources array and pathname.
 * Returns the library's answer object itself (the same object for the same inputs).
 */
export function matchRoute(pathname: string, resources: Resources): Match {
  let byPath = matches.get(resources);
  if (!byPath) {
    byPath = new Map();
    matches.set(resources, byPath);
  }
  let match = byPath.get(pathname);
  if (!match) {
    if (byPath.size >= MAX_PATHS) byPath.clear();
    match = matchResourceFromRoute(pathname, resources);
    byPath.set(pathname, match);
  }
  return match;
}

const numberOrText = (value: unknown): number | string | undefined => {
  if (typeof value !== 'string') return undefined;
  const n = Number(value);
  return `${n}` === value ? n : value;
};

/** `parse` of `@refinedev/react-router` (the same answer), with the shared route match. */
function useParse(): () => ParseResponse {
  // Not the splat (`*`) of the enclosing `/:city/*` route: it follows the window's path, also in a
  // kept tab showing another page (kept-page.tsx). Refine puts the params into every query's key,
  // so with it each navigation refetched the list of every open tab.
  const { '*': _splat, ...routeParams } = useParams();
  const key = JSON.stringify(routeParams);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  let params: Record<string, string | undefined> = useMemo(() => routeParams, [key]);
  const { pathname, search } = useLocation();
  const { resources } = useContext(ResourceContext);
  const { resource, action, matchedRoute } = matchRoute(pathname, resources);
  // useParams is empty in a component that is not below a Route.
  if (Object.keys(params).length === 0 && matchedRoute) params = matchPath(matchedRoute, pathname)?.params ?? {};
  return useCallback(() => {
    const combined: Record<string, unknown> = { ...params, ...qs.parse(search, { ignoreQueryPrefix: true, depth: QS_PARSE_DEPTH }) };
    return {
      ...(resource && { resource }),
      ...(action && { action }),
      ...(params.id && { id: decodeURIComponent(params.id) }),
      pathname,
      params: {
        ...combined,
        currentPage: numberOrText(combined.currentPage) as number | undefined,
        pageSize: numberOrText(combined.pageSize) as number | undefined,
        to: combined.to ? decodeURIComponent(String(combined.to)) : undefined,
      },
    };
  }, [pathname, search, params, resource, action]);
}

/** The router provider given to `<Refine>`. */
export const routerProvider: RouterProvider = { ...baseRouterProvider, parse: useParse };
