import { describe, expect, it } from 'vitest';
import { menuFor, resolveManifest, type Manifest } from '@/shared/manifest';

describe('menu manifests (000 6)', () => {
  it('kobe extends default and adds scenes for Administrators and Operators', () => {
    expect(menuFor('Operator', 'kobe').map((e) => e.key)).toEqual(['dashboard', 'news', 'event', 'scenes']);
    expect(menuFor('Advertiser', 'kobe').map((e) => e.key)).toEqual(['dashboard', 'news', 'event']);
  });
  it('a city without a manifest gets the default sets', () => {
    expect(menuFor('Operator', 'akita').map((e) => e.key)).toEqual(['dashboard', 'news', 'event']);
    expect(menuFor('Member', 'cippoweb').map((e) => e.key)).toEqual(['dashboard']);
  });
  it('applies remove, add and order, and refuses a cycle', () => {
    const entry = (key: string) => ({ key, page: 'dashboard', icon: 'DashboardOutlined', title: `menu.${key}` });
    const all: Record<string, Manifest> = {
      default: { sets: { admin: [entry('a'), entry('b'), entry('c')] } },
      x: { extends: 'default', sets: { admin: { remove: ['b'], add: [entry('d')], order: ['d', 'a', 'c'] } } },
      loop1: { extends: 'loop2' },
      loop2: { extends: 'loop1' },
    };
    expect(resolveManifest('x', all).admin?.map((e) => e.key)).toEqual(['d', 'a', 'c']);
    expect(() => resolveManifest('loop1', all)).toThrow(/cycle/);
  });
});
