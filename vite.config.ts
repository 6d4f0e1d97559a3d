/**
 * Build of the web console (docs/architecture.md 'Console'): React plugin, output in dist/console, the `@`
 * alias to src, a dev proxy to the API on 127.0.0.1:8080, and code splitting in two passes
 * (scripts/lib/console-chunks.ts): what every page loads is one boot chunk, what a list page adds one
 * console chunk; the login page loads neither Refine nor the registry; the generated form and show
 * pages, RJSF (with ajv), charts, maps and chat are lazy chunks of their own.
 * `dist/console/.vite/manifest.json` lists every chunk and its imports.
 * Text files are written precompressed too (brotli and gzip), for the server to send as they are.
 */
import { build, type ConfigEnv, type Plugin, type ResolvedConfig, type UserConfig } from 'vite';
import type { CodeSplittingGroup, OutputChunk, RolldownOutput } from 'rolldown';
import babel from '@rolldown/plugin-babel';
import react, { reactCompilerPreset } from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { BUILD_STAMP, type BuildStamp } from './scripts/lib/console-build.js';
import { catalogueParts } from './scripts/lib/catalogue-parts.js';
import { chunkGroupsFrom } from './scripts/lib/console-chunks.js';

const api = 'http://127.0.0.1:8080';

/**
 * Packages without side effects that do not say so in their package.json (no `sideEffects` key), so
 * that what the console does not use of them is left out:
 * - what @refinedev/core and @refinedev/antd import at the top of their single-file bundles for
 *   features the console does not use (the Markdown field, CSV import); without this the login page
 *   would load them (~45 KB gzip);
 * - antd's `rc-*` and `@rc-component/*` packages, whose index modules re-export every part (the whole
 *   of rc-field-form for antd's form context): 14 KB brotli less on the login page, 8 KB on a list.
 */
const SIDE_EFFECT_FREE =
  /node_modules[\\/](rc-[^\\/]+|@rc-component[\\/][^\\/]+|react-markdown|remark-[^\\/]+|micromark[^\\/]*|mdast-[^\\/]+|hast-[^\\/]+|unist-[^\\/]+|unified|vfile[^\\/]*|property-information|space-separated-tokens|comma-separated-tokens|decode-named-character-reference|character-entities[^\\/]*|trim-lines|devlop|bail|is-plain-obj|trough|html-url-attributes|estree-util-[^\\/]+|style-to-[^\\/]+|inline-style-parser|ccount|markdown-table|longest-streak|zwitch|escape-string-regexp|papaparse)[\\/]/;

/**
 * The console does not need a schema's demo records (its top-level `examples`, a sixth of the schemas'
 * size: the server seeds them) nor its `description`s (notes for developers, in English, never shown:
 * resources/field-kinds.ts) and `$schema`: they are left out of the console's copy of schemas/*.schema.json.
 */
function schemasForTheConsole(): Plugin {
  return {
    name: 'schemas-for-the-console',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]schemas[\\/][^\\/]+\.schema\.json$/.test(id)) return null;
      const schema = JSON.parse(code) as Record<string, unknown>;
      delete schema.examples;
      delete schema.description;
      delete schema.$schema;
      for (const field of Object.values((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) delete field.description;
      return { code: JSON.stringify(schema), map: null };
    },
  };
}

/**
 * antd's Table filter dropdown without antd's Tree (src/console/no-filter-tree.ts): the dropdown
 * imports it for `filterMode: 'tree'` only, which the console never sets.
 */
function tableFilterWithoutTree(): Plugin {
  const dropdown = /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]FilterDropdown\.js$/;
  return {
    name: 'table-filter-without-tree',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === '../../../tree' && importer && dropdown.test(importer) ? resolve(import.meta.dirname, 'src/console/no-filter-tree.ts') : null;
    },
  };
}

/**
 * Writes BUILD_STAMP beside index.html at the end of a build: whether React's and antd's production
 * builds are inside (NODE_ENV was `production`), so that `npm start` never serves a development
 * bundle as the product (scripts/lib/console-build.ts `staleBuildReason`).
 */
function buildStamp(): Plugin {
  let resolved: ResolvedConfig;
  return {
    name: 'build-stamp',
    apply: 'build',
    configResolved(config) {
      resolved = config;
    },
    async closeBundle() {
      if (resolved.build.write === false) return;
      const stamp: BuildStamp = { production: resolved.isProduction, mode: resolved.mode };
      await writeFile(join(resolve(resolved.root, resolved.build.outDir), BUILD_STAMP), `${JSON.stringify(stamp)}\n`);
    },
  };
}

/** Set in the environment of the first of the build's two passes (scripts/lib/console-chunks.ts). */
const FIRST_PASS = 'CONSOLE_BUILD_FIRST_PASS';

/** The chunks of a first build with the automatic splitting only, not written. */
async function firstPassChunks(): Promise<OutputChunk[]> {
  process.env[FIRST_PASS] = '1';
  try {
    const out = (await build({ configFile: resolve(import.meta.dirname, 'vite.config.ts'), logLevel: 'silent', build: { write: false } })) as RolldownOutput | RolldownOutput[];
    return (Array.isArray(out) ? out : [out]).flatMap((o) => o.output).filter((c): c is OutputChunk => c.type === 'chunk');
  } finally {
    delete process.env[FIRST_PASS];
  }
}

export default async function config({ command }: ConfigEnv): Promise<UserConfig> {
  const firstPass = process.env[FIRST_PASS] === '1';
  // The build's chunks (scripts/lib/console-chunks.ts): React alone (it changes least often, so it
  // stays cached across releases), then what the budgeted pages load.
  const groups: CodeSplittingGroup[] = [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 10 }];
  if (command === 'build' && !firstPass) groups.push(...chunkGroupsFrom(import.meta.dirname, await firstPassChunks()));
  return {
    // Every text file of the build also as `.br` (brotli, quality 11) and `.gz` (gzip -9) beside it:
    // the server sends them as they are (src/server/plugins/console.ts), compressing nothing per request.
    plugins: [schemasForTheConsole(), tableFilterWithoutTree(), catalogueParts(import.meta.dirname), react(), ...(process.env.REACT_COMPILER === '0' ? [] : [babel({ presets: [reactCompilerPreset()] })]), ...(firstPass ? [] : [compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, logLevel: 'silent' }), buildStamp()])],
    resolve: {
      alias: [
        { find: '@', replacement: resolve(import.meta.dirname, 'src') },
        // qs without its polyfills in the browser (src/console/qs-compat.ts).
        { find: /^qs$/, replacement: resolve(import.meta.dirname, 'src/console/qs-compat.ts') },
        // The browser's ResizeObserver instead of the polyfill antd imports (src/console/native-resize-observer.ts).
        { find: /^resize-observer-polyfill$/, replacement: resolve(import.meta.dirname, 'src/console/native-resize-observer.ts') },
        // The scroll bar measured once, not again for every table that mounts (src/console/scrollbar-size.ts).
        { find: /^rc-util\/es\/getScrollBarSize$/, replacement: resolve(import.meta.dirname, 'src/console/scrollbar-size.ts') },
        // A style already in the page answered at once, not looked for among all of <head> (src/console/dynamic-css.ts).
        { find: /^rc-util\/es\/Dom\/dynamicCSS$/, replacement: resolve(import.meta.dirname, 'src/console/dynamic-css.ts') },
      ],
    },
    server: {
      port: 5173,
      proxy: {
        '^/[^/]+/(api|login)/': { target: api, changeOrigin: false },
        '/default': { target: api, changeOrigin: false },
      },
    },
    build: {
      outDir: 'dist/console',
      emptyOutDir: true,
      manifest: true,
      chunkSizeWarningLimit: 1200,
      rolldownOptions: {
        preserveEntrySignatures: false,
        treeshake: { moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.test(id) },
        output: {
          codeSplitting: { groups },
        },
      },
    },
  };
}
