import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkGroupsFrom, type FirstBuildChunk } from '../../../scripts/lib/console-chunks';
import { cataloguePartsOf } from '../../../scripts/lib/catalogue-parts';
import { isCityPagePath } from '@/shared/open-routes';

const root = '/p';
const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], isEntry = false): FirstBuildChunk => ({ fileName, moduleIds: moduleIds.map((m) => `${root}/${m}`), imports, isEntry });

/** The group each module id falls in (the first group by priority whose test matches), or null. */
function groupOfEach(chunks: FirstBuildChunk[]): Record<string, string | null> {
  const groups = chunkGroupsFrom(root, chunks).sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0));
  const out: Record<string, string | null> = {};
  for (const c of chunks) {
    for (const id of c.moduleIds) {
      const g = groups.find((x) => typeof x.test === 'function' && x.test(id));
      out[id.slice(root.length + 1)] = g ? (g.name as string) : null;
    }
  }
  return out;
}

describe('console chunks (scripts/lib/console-chunks.ts)', () => {
  const chunks = [
    chunk('index.js', ['src/console/main.tsx'], ['shared-a.js'], true),
    chunk('shared-a.js', ['node_modules/i18next/index.js']),
    chunk('login-page.js', ['src/console/pages/login-page.tsx'], ['both.js', 'login-only.js']),
    chunk('login-only.js', ['node_modules/antd/es/form/index.js']),
    chunk('both.js', ['node_modules/antd/es/button/index.js']),
    chunk('console-app.js', ['src/console/console-app.tsx'], ['both.js', 'refine.js']),
    chunk('refine.js', ['node_modules/@refinedev/core/dist/index.mjs']),
    chunk('city-entry.js', ['src/console/layout/city-entry.tsx'], ['refine.js']),
    chunk('city-area.js', ['src/console/layout/city-area.tsx']),
    chunk('resource-list.js', ['src/console/resources/resource-list.tsx'], ['table.js']),
    chunk('table.js', ['node_modules/antd/es/table/index.js']),
    chunk('chart.js', ['node_modules/echarts/index.js']),
    chunk('early.js', ['src/console/early-loads.ts']),
  ];

  it('puts what every page loads and what both the login and a list page load in boot', () => {
    const g = groupOfEach(chunks);
    expect(g['node_modules/i18next/index.js']).toBe('boot');
    expect(g['node_modules/antd/es/button/index.js']).toBe('boot');
  });

  it('puts what only a list page loads in console, what only the login page loads in login', () => {
    const g = groupOfEach(chunks);
    expect(g['node_modules/@refinedev/core/dist/index.mjs']).toBe('console');
    expect(g['node_modules/antd/es/table/index.js']).toBe('console');
    expect(g['src/console/layout/city-area.tsx']).toBe('console');
    expect(g['node_modules/antd/es/form/index.js']).toBe('login');
  });

  it('leaves the entry module, the early loads and what neither page loads to their own chunks', () => {
    const g = groupOfEach(chunks);
    expect(g['src/console/main.tsx']).toBeNull();
    expect(g['node_modules/echarts/index.js']).toBeNull();
    expect(g['src/console/early-loads.ts']).toBe('early');
  });

  it('refuses a first build in which a page root is in no chunk', () => {
    expect(() => chunkGroupsFrom(root, chunks.filter((c) => c.fileName !== 'city-area.js'))).toThrow(/city-area\.tsx .* is in no chunk/);
  });
});

describe('catalogue parts (scripts/lib/catalogue-parts.ts)', () => {
  it('puts each namespace file of each language in its part: boot, console or one page', () => {
    const parts = cataloguePartsOf(resolve(import.meta.dirname, '../../../locales'));
    const names = (key: string) => (parts[key] ?? []).map((f) => basename(f));
    expect(names('ja:boot')).toEqual(['access.json', 'common.json', 'console.json', 'security.json', 'shell.json']);
    expect(names('en:page:chat')).toEqual(['chat.json']);
    expect(names('zh:console')).toContain('lists.json');
    expect(names('zh:console')).not.toContain('common.json');
    expect(Object.keys(parts).filter((k) => k.startsWith('es:')).sort()).toEqual(['es:boot', 'es:console', 'es:page:chat', 'es:page:imports', 'es:page:statistics']);
  });
});

describe('isCityPagePath (src/shared/open-routes.ts, for src/console/early-loads.ts)', () => {
  it.each([
    ['/kobe/news', true],
    ['/kobe/dashboard', true],
    ['/login', false],
    ['/forgot-password', false],
    ['/kobe/policy', false],
    ['/city', false],
    ['/', false],
    ['/404', false],
  ])('%s → %s', (path, expected) => {
    expect(isCityPagePath(path)).toBe(expected);
  });
});
