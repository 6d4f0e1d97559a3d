/**
 * No import circle among the project's modules, type imports and lazy `import()` included
 * (docs/architecture.md 'The picture'; scripts/lib/import-cycles.ts, which `npm run check` also
 * runs through scripts/check-cycles.ts). ESLint's `import-x/no-cycle` does not see type imports.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../../../scripts/lib/import-cycles';

const root = resolve(import.meta.dirname, '../../..');

describe('import circles', () => {
  it('finds a circle made of a type import, a re-export and a lazy import()', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-cycles-'));
    try {
      await mkdir(join(dir, 'src/pages'), { recursive: true });
      await writeFile(join(dir, 'src/pages/table.ts'), "export const PAGES = { chat: () => import('./chat') };\n");
      await writeFile(join(dir, 'src/pages/chat.tsx'), "import type { Props } from './props';\nexport const Chat = (p: Props) => p;\n");
      await writeFile(join(dir, 'src/pages/props.ts'), "export type { Props } from '@/pages/table-types';\n");
      await writeFile(join(dir, 'src/pages/table-types.ts'), "import type { PAGES } from './table';\nexport type Props = typeof PAGES;\n");
      await writeFile(join(dir, 'src/pages/leaf.ts'), "import { PAGES } from './table';\nexport const n = PAGES;\n");
      const cycles = importCycles(importGraph(dir, ['src']));
      expect(cycles).toEqual([['src/pages/chat.tsx', 'src/pages/props.ts', 'src/pages/table-types.ts', 'src/pages/table.ts']]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('finds none in src/, scripts/ and tests/', () => {
    const graph = importGraph(root, ['src', 'scripts', 'tests']);
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('src/server/db/migrations.ts')).toContain('src/server/db/feature-migrations.ts');
    expect(importCycles(graph)).toEqual([]);
  });
});
