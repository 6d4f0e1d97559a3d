/**
 * Generated-page routes: every resource of the registry gets list, create, edit, show and clone
 * routes under /:city, and every menu entry of every manifest that names a resource resolves to them.
 */
import { describe, expect, it } from 'vitest';
import { refineResources, resourceRoutes, routePaths } from '@/console/resources/resource-routes';
import { allEntries, routeEntriesFor } from '@/shared/manifest';
import { registry } from '@/shared/registry';

describe('resource routes', () => {
  it('every resource of the registry produces list, create, edit and show routes', () => {
    expect(registry.size).toBeGreaterThan(0);
    for (const def of registry.values()) {
      const routes = resourceRoutes([{ key: def.name, resource: def.name, icon: 'ReadOutlined', title: def.label }]);
      expect(routes).toHaveLength(1);
      const [r] = routes;
      expect(r).toMatchObject({ identifier: def.name, resource: def.name, list: def.name, create: `${def.name}/create`, edit: `${def.name}/edit/:id`, show: `${def.name}/show/:id`, clone: `${def.name}/clone/:id` });
      const [res] = refineResources(routes, (k) => `t:${k}`);
      expect(res).toMatchObject({
        name: def.name,
        list: `/:city/${def.name}`,
        create: `/:city/${def.name}/create`,
        edit: `/:city/${def.name}/edit/:id`,
        show: `/:city/${def.name}/show/:id`,
        clone: `/:city/${def.name}/clone/:id`,
        meta: { label: `t:${def.label}` },
      });
    }
  });

  it('menu entries keep their own route (scene at /scenes; kobe adds its halloween passes)', () => {
    const routes = resourceRoutes(routeEntriesFor('Operator', 'kobe'));
    expect(routes.map((r) => [r.identifier, r.resource, r.list])).toEqual(
      expect.arrayContaining([
        ['news', 'news', 'news'],
        ['scenes', 'scene', 'scenes'],
        ['halloween-shop', 'shop_halloween_pass', 'kobe-halloween/kobe-bread/shop'],
      ]),
    );
    expect(resourceRoutes(routeEntriesFor('Operator', 'akita')).map((r) => r.resource)).not.toContain('shop_halloween_pass');
  });

  it('every manifest entry naming a resource resolves to a registry resource', () => {
    const named = allEntries().filter((e) => e.entry.resource);
    expect(named.length).toBeGreaterThan(0);
    for (const { entry } of named) expect(() => resourceRoutes([entry], (n) => registry.has(n))).not.toThrow();
  });

  it('children are mounted too, and slashes are trimmed', () => {
    const routes = resourceRoutes([
      { key: 'group', icon: 'AppstoreOutlined', title: 'menu.news', children: [{ key: 'sport', resource: 'news', route: '/sport-news/', icon: 'ReadOutlined', title: 'menu.news' }] },
    ]);
    expect(routes).toEqual([{ identifier: 'sport', resource: 'news', title: 'menu.news', icon: 'ReadOutlined', ...routePaths('sport-news') }]);
    expect(routes[0].list).toBe('sport-news');
  });

  it('an unknown resource is an error when a registry check is given', () => {
    expect(() => resourceRoutes([{ key: 'x', resource: 'nope', icon: 'ReadOutlined', title: 'menu.news' }], (n) => registry.has(n))).toThrow(/unknown resource/);
  });
});
