/**
 * The console's catalogues as one lazy module per part of a language (src/console/catalogue-scopes.ts:
 * its boot namespaces, its console ones, one page's), for the console build and its unit tests: the
 * Vite plugin `catalogueParts` serves
 * - `virtual:catalogue-parts`, whose default export maps `<language>:<scope>` (e.g. 'ja:console',
 *   'en:page:chat') to a loader of that part;
 * - each part, a module that imports the part's namespace files of locales/<language>/ and exports
 *   them as a list (`[tree, tree, …]`, in file name order).
 * One module per part makes one chunk per part with nothing else: a lazy import of each namespace
 * file gave one chunk per file, or, merged, a small re-export file per namespace file
 * (docs/performance.md 'What each page loads').
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { scopeOf } from '../../src/console/catalogue-scopes';

/** The id src/console/i18n.ts imports. */
export const CATALOGUE_PARTS_ID = 'virtual:catalogue-parts';
const PART_PREFIX = 'virtual:catalogue-part/';

/** `{ '<lng>:<scope>': [file path, …] }` of the catalogues under `localesDir` (`<lng>/<namespace>.json`). */
export function cataloguePartsOf(localesDir: string): Record<string, string[]> {
  const parts: Record<string, string[]> = {};
  for (const lng of readdirSync(localesDir).sort()) {
    if (!/^[a-z]{2}$/.test(lng)) continue;
    for (const file of readdirSync(join(localesDir, lng)).sort()) {
      if (!file.endsWith('.json')) continue;
      (parts[`${lng}:${scopeOf(file.slice(0, -'.json'.length))}`] ??= []).push(join(localesDir, lng, file));
    }
  }
  return parts;
}

/** The module id of a part, which names its chunk: 'ja:page:chat' → 'virtual:catalogue-part/catalogue-ja-page-chat'. */
function partId(key: string): string {
  return `${PART_PREFIX}catalogue-${key.replaceAll(':', '-')}`;
}

/** The Vite plugin of the catalogue parts of `<root>/locales`. */
export function catalogueParts(root: string): Plugin {
  const localesDir = join(root, 'locales');
  return {
    name: 'catalogue-parts',
    resolveId(id) {
      return id === CATALOGUE_PARTS_ID || id.startsWith(PART_PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith('\0virtual:catalogue-part')) return null;
      const parts = cataloguePartsOf(localesDir);
      if (id === `\0${CATALOGUE_PARTS_ID}`) {
        const loaders = Object.keys(parts).map((key) => `  ${JSON.stringify(key)}: () => import(${JSON.stringify(partId(key))}),`);
        return `export default {\n${loaders.join('\n')}\n};\n`;
      }
      const files = Object.entries(parts).find(([key]) => `\0${partId(key)}` === id)?.[1] ?? [];
      for (const file of files) this.addWatchFile(file);
      const imports = files.map((file, i) => `import n${i} from ${JSON.stringify(file)};`);
      return `${imports.join('\n')}\nexport default [${files.map((_, i) => `n${i}`).join(', ')}];\n`;
    },
  };
}
