import { describe, expect, it } from 'vitest';
import { menuFor, resolveManifest, type Manifest } from '@/shared/manifest';

describe('menu manifests (000 6)', () => {
  it('kobe extends default and adds its halloween passes for Administrators and Operators', () => {
    const kobe = menuFor('Operator', 'kobe').map((e) => e.key);
    const akita = menuFor('Operator', 'akita').map((e) => e.key);
    expect(kobe.slice(0, 3)).toEqual(['dashboard', 'news', 'event']);
    expect(kobe).toEqual([...akita, 'kobe-halloween']);
  });
  it('filters entries by role: review is for Operators, menu items for Advertisers (000 6)', () => {
    expect(menuFor('Operator', 'kobe').map((e) => e.key)).toContain('review');
    expect(menuFor('Administrator', 'kobe').map((e) => e.key)).not.toContain('review');
    const ads = menuFor('Advertiser', 'kobe').map((e) => e.key);
    expect(ads).toContain('menu');
    expect(ads).not.toContain('genre');
  });
  it('hidden entries are not in the sidebar', () => {
    expect(menuFor('Operator', 'akita').map((e) => e.key)).not.toContain('stamp-card');
  });
  it('a city without a manifest gets the default sets', () => {
    expect(menuFor('Member', 'cippoweb').map((e) => e.key)).toEqual(['dashboard']);
    expect(menuFor('Police', 'akita').map((e) => e.key)).toEqual(['dashboard', 'news', 'timecard']);
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

describe('routeEntriesFor', () => {
  it('keeps hidden entries and flattens groups, still filtered by role', async () => {
    const { routeEntriesFor } = await import('@/shared/manifest');
    const keys = routeEntriesFor('Operator', 'kobe').map((e) => e.key);
    expect(keys).toContain('stamp-card');
    expect(keys).toContain('clean-trash');
    expect(keys).not.toContain('schedule');
    expect(routeEntriesFor('Advertiser', 'kobe').map((e) => e.key)).not.toContain('clean-trash');
  });
});
