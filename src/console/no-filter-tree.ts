/**
 * What antd's Table filter dropdown gets instead of antd's Tree (aliased in vite.config.ts for that
 * one importer): the dropdown imports the Tree, with rc-tree, for its `filterMode: 'tree'` alone,
 * which no list of the console sets (resources/resource-list.tsx: enum columns filter with a menu,
 * reference columns with a dropdown of their own). About 47 KB of JavaScript (12 KB over the wire)
 * off every console page (docs/performance.md 'Where a click's time goes now').
 * Throws when rendered: a column given `filterMode: 'tree'` fails visibly, not silently.
 */
export default function TreeLeftOutOfTheBuild(): never {
  throw new Error("antd Table's filterMode 'tree' is left out of the console build (vite.config.ts, src/console/no-filter-tree.ts)");
}
