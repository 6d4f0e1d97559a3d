import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';
import { catalogueParts } from './scripts/lib/catalogue-parts';

// Unit tests: shared rules, the server through Fastify inject on a real database (PGlite, or
// PostgreSQL when DATABASE_URL is set), the console's providers. Playwright tests live in tests/e2e.
export default defineConfig({
  // The console's catalogue parts (src/console/i18n.ts imports them as the build serves them).
  plugins: [catalogueParts(import.meta.dirname)],
  resolve: { alias: { '@': resolve(import.meta.dirname, 'src') } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
    // The menu manifests as the server reads them (src/shared/manifest.ts works on what it is given).
    setupFiles: ['tests/use-manifests.ts'],
  },
});
