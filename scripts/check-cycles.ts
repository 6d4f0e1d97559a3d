/**
 * `npm run check`'s import-circle check (docs/architecture.md 'The picture'): prints every circle of
 * the project's modules under src/, scripts/ and tests/, counting `import type` and `import()` too
 * (scripts/lib/import-cycles.ts; ESLint's `import-x/no-cycle` sees value imports only), and exits 1
 * when there is one. Usage: `npx tsx scripts/check-cycles.ts`.
 */
import { resolve } from 'node:path';
import { importCycles, importGraph } from './lib/import-cycles';

const root = resolve(import.meta.dirname, '..');
const graph = importGraph(root, ['src', 'scripts', 'tests']);
const cycles = importCycles(graph);
for (const cycle of cycles) console.error(`import circle: ${cycle.join(' ↔ ')}`);
if (cycles.length > 0) process.exit(1);
console.log(`imports: no circle among ${graph.size} modules (type imports and import() included)`);
