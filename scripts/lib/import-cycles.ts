/**
 * The import circles of the project's own modules (docs/architecture.md 'The picture': imports run
 * one way). ESLint's `import-x/no-cycle` sees value imports only; this graph has every edge a
 * module declares: `import`, `import type`, `export … from` and `import()` (a lazy page's chunk).
 * tests/unit/scripts/import-cycles.test.ts fails on any circle it finds.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|tsx|mts)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveSpecifier(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else if (specifier.startsWith('@/')) base = join(root, 'src', specifier.slice(2));
  else return null;
  if (/\.(ts|tsx|mts)$/.test(base) && existsSync(base)) return base;
  const noJs = base.replace(/\.js$/, '');
  for (const ext of EXTENSIONS) if (existsSync(noJs + ext) && statSync(noJs + ext).isFile()) return noJs + ext;
  return null;
}

/**
 * The module graph of `dirs` (paths relative to `root`, e.g. `['src', 'scripts']`): each file
 * (relative path) → the project files it imports, by any of the forms above.
 */
export function importGraph(root: string, dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const dir of dirs) {
    for (const file of sourceFiles(join(root, dir))) {
      const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = new Set<string>();
      for (const ref of info.importedFiles) {
        const target = resolveSpecifier(root, file, ref.fileName);
        if (target) targets.add(relative(root, target));
      }
      graph.set(relative(root, file), [...targets].sort());
    }
  }
  return graph;
}

/**
 * The circles of a graph: its strongly connected components of more than one module (Tarjan), each
 * sorted, the list sorted by its first module. A module importing itself is a circle too.
 */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}
