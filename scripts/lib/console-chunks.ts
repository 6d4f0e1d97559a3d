/**
 * How the console's build merges its chunks (docs/performance.md 'What each page loads'), in two
 * passes of `vite build`:
 * 1. a first build, not written, with Rolldown's automatic splitting: one chunk per set of lazy
 *    imports that reach a module, which made a list page load about 150 files, half of them under
 *    1 KB (each costs its headers too, about 300 bytes);
 * 2. the real build, whose `codeSplitting` groups put each module that the first build put in a
 *    chunk of the login page or of a list page into one chunk of its kind (`chunkGroupsFrom`):
 *    - `boot`: what every page loads (the entry's static imports) and what both of those pages load;
 *    - `console`: what a list page loads beyond the login page (Refine, the layout, the list, antd's
 *      table…): opened on a list, the console comes in one file instead of four waves of requests;
 *    - `login`: what the login page loads beyond a list page.
 *    What no page of PAGE_ROOTS loads (forms, shows, statistics, maps, chat, import…) keeps the
 *    automatic splitting, so a heavy library still loads only on its own route.
 * The first build sees the modules as tree-shaken: a static reading of the imports would count every
 * component antd's index re-exports.
 * Each part of a language's catalogue is one lazy module of its own (scripts/lib/catalogue-parts.ts).
 */
import { relative, sep } from 'node:path';
import type { CodeSplittingGroup, OutputChunk } from 'rolldown';

/**
 * The modules that open each budgeted page of scripts/lib/pages.ts, relative to the project: the
 * page's lazy imports on its way, in the order the page asks for them.
 */
export const PAGE_ROOTS = {
  login: ['src/console/pages/login-page.tsx'],
  list: [
    'src/console/console-app.tsx',
    'src/console/layout/city-entry.tsx',
    'src/console/layout/city-area.tsx',
    'src/console/resources/resource-list.tsx',
  ],
} as const;

/** The module that starts the first page's loads (its chunk and the modules it imports come before boot). */
export const EARLY_LOADS = 'src/console/early-loads.ts';

/** A chunk of the first build, as Rolldown's output describes it. */
export type FirstBuildChunk = Pick<OutputChunk, 'fileName' | 'isEntry' | 'imports' | 'moduleIds'>;

/**
 * The groups of the real build from the chunks of the first one (`root` the project folder, which
 * PAGE_ROOTS are relative to). Throws when a module of PAGE_ROOTS is in no chunk (renamed or no
 * longer lazy): the budgeted pages would silently go back to many small files.
 */
export function chunkGroupsFrom(root: string, chunks: readonly FirstBuildChunk[]): CodeSplittingGroup[] {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const chunkOfModule = new Map<string, string>();
  for (const c of chunks) for (const id of c.moduleIds) chunkOfModule.set(relative(root, id).split('\\').join('/'), c.fileName);
  /** The chunk of `file` and every chunk it imports statically, transitively. */
  const closure = (files: readonly string[]): Set<string> => {
    const out = new Set<string>();
    const todo = [...files];
    while (todo.length > 0) {
      const f = todo.pop() as string;
      if (out.has(f)) continue;
      out.add(f);
      todo.push(...(byFile.get(f)?.imports ?? []));
    }
    return out;
  };
  const rootChunks = (modules: readonly string[]): string[] =>
    modules.map((m) => {
      const file = chunkOfModule.get(m);
      if (!file) throw new Error(`console chunks: ${m} (scripts/lib/console-chunks.ts PAGE_ROOTS) is in no chunk of the first build`);
      return file;
    });
  const initial = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
  const login = closure([...initial, ...rootChunks(PAGE_ROOTS.login)]);
  const list = closure([...initial, ...rootChunks(PAGE_ROOTS.list)]);
  const groupOf = new Map<string, string>();
  for (const c of chunks) {
    // The entry's own modules stay in the entry chunk, which index.html loads.
    if (c.isEntry) continue;
    const group = initial.has(c.fileName) || (login.has(c.fileName) && list.has(c.fileName)) ? 'boot' : list.has(c.fileName) ? 'console' : login.has(c.fileName) ? 'login' : null;
    if (!group) continue;
    for (const id of c.moduleIds) groupOf.set(id, group);
  }
  return [
    // src/console/early-loads.ts and what it imports, evaluated before the boot chunk (whose i18n.ts
    // waits for its catalogue at its top level): it asks at once for what the first page will wait for.
    { name: 'early', priority: 6, test: (id: string) => id.endsWith(`${sep}${EARLY_LOADS.split('/').join(sep)}`) },
    ...['boot', 'console', 'login'].map((name, i) => ({ name, priority: 5 - i, test: (id: string) => groupOf.get(id) === name })),
  ];
}
