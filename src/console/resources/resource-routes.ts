/**
 * Routes and Refine resources of the generated pages, from menu entries that name a resource
 * (docs/architecture.md 'One manifest per city'): `/:city/<route>` (list), `/:city/<route>/create`,
 * `/:city/<route>/edit/:id`, `/:city/<route>/show/:id` and `/:city/<route>/clone/:id` (the create
 * form started from a copy, 000 4 modal mode douplicate; mounted only where the schema declares
 * `x-resource.clone`), and `/:city/<route>/trash` (the recycle bin, mounted only for resources whose
 * rows keep revisions, src/shared/revisions.ts). Never one file per entity.
 */
import type { ResourceProps } from '@refinedev/core';
import type { MenuEntry } from '@/shared/manifest';

/** One resource as it is mounted in a city: its menu entry and its route paths (relative to /:city). */
export interface ResourceRoute {
  /** The menu entry's key: Refine's resource identifier (one resource may be mounted twice). */
  identifier: string;
  /** The registry's resource name: what the data provider and the ability are asked about. */
  resource: string;
  /** i18n key of the menu title. */
  title: string;
  icon: string;
  list: string;
  create: string;
  edit: string;
  show: string;
  /** The 複製 form (Refine's `clone` action): a create form filled from the row `:id`. */
  clone: string;
  /** The recycle bin (ごみ箱) of the resource's deleted rows. */
  trash: string;
}

/** The six route paths (relative to /:city) of a resource mounted at `route`. */
export function routePaths(route: string): Pick<ResourceRoute, 'list' | 'create' | 'edit' | 'show' | 'clone' | 'trash'> {
  const base = route.replace(/^\/+|\/+$/g, '');
  return { list: base, create: `${base}/create`, edit: `${base}/edit/:id`, show: `${base}/show/:id`, clone: `${base}/clone/:id`, trash: `${base}/trash` };
}

/**
 * The generated-page routes of menu entries (children included) that name a resource. Entries
 * without a route use the resource name. With `known` (e.g. `(n) => registry.has(n)`), throws for a
 * resource it does not know. No registry import here: the login page's bundle stays without it.
 */
export function resourceRoutes(entries: readonly MenuEntry[], known?: (resource: string) => boolean): ResourceRoute[] {
  const out: ResourceRoute[] = [];
  const walk = (list: readonly MenuEntry[]) => {
    for (const e of list) {
      if (e.resource) {
        if (known && !known(e.resource)) throw new Error(`menu entry '${e.key}' names unknown resource '${e.resource}'`);
        out.push({ identifier: e.key, resource: e.resource, title: e.title, icon: e.icon, ...routePaths(e.route ?? e.resource) });
      }
      if (e.children) walk(e.children);
    }
  };
  walk(entries);
  return out;
}

/**
 * Refine resources of the routes, with absolute `/:city/...` paths and translated labels. (A
 * singleton's settings page uses only `list`; its other paths are never linked.)
 */
export function refineResources(routes: readonly ResourceRoute[], t: (key: string) => string): ResourceProps[] {
  return routes.map((r) => ({
    name: r.resource,
    identifier: r.identifier,
    list: `/:city/${r.list}`,
    create: `/:city/${r.create}`,
    edit: `/:city/${r.edit}`,
    show: `/:city/${r.show}`,
    clone: `/:city/${r.clone}`,
    meta: { label: t(r.title), icon: r.icon, canDelete: true },
  }));
}
