/**
 * What the README promises, read from the code (tests/unit/scripts/readme.test.ts keeps it true):
 * the environment variables the server, the console's build and the scripts read, the settings
 * tables of README.md and docs/development.md, and the `npm run` scripts a text names.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** An environment variable's name as the code spells it: upper case, digits and `_`. */
const NAME = '[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*';

/**
 * The platform's variables the server passes on to a child process without being a setting of its
 * own (src/server/auth/hash-process.ts adds its malloc tunable to whatever GLIBC_TUNABLES says).
 */
export const NOT_SETTINGS = new Set(['GLIBC_TUNABLES']);

/**
 * The names of the environment variables one source text reads: `process.env.<name>`,
 * `env.<name>`, `env?.<name>`, `env['<name>']`, `import.meta.env.<name>`, a name handed to a
 * reading helper beside `env` (`int(env, 'PORT', …)`), and a name handed as the first argument to
 * a helper of the same text that reads `env[<its first parameter>]` (`origin('PUBLIC_URL', …)`),
 * as in src/server/config.ts. A name only written (`{ ...process.env, PORT: '0' }`) is not read.
 */
export function envNamesRead(source: string): Set<string> {
  const names = new Set<string>();
  const patterns = [
    new RegExp(`\\benv\\??\\.(${NAME})\\b`, 'g'),
    new RegExp(`\\benv\\[\\s*['"\`](${NAME})['"\`]\\s*\\]`, 'g'),
    new RegExp(`\\b\\w+\\(\\s*env\\s*,\\s*'(${NAME})'`, 'g'),
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) names.add(m[1]);
  for (const helper of source.matchAll(/(?:function\s+(\w+)|const\s+(\w+)\s*=\s*)\(\s*(\w+)\s*:\s*string[^)]*\)[^{]*\{/g)) {
    const body = source.slice(helper.index + helper[0].length, helper.index + helper[0].length + 400);
    if (!body.includes(`env[${helper[3]}]`)) continue;
    const call = new RegExp(`\\b${helper[1] ?? helper[2]}\\(\\s*'(${NAME})'`, 'g');
    for (const m of source.matchAll(call)) names.add(m[1]);
  }
  for (const name of NOT_SETTINGS) names.delete(name);
  return names;
}

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|tsx|mts|mjs|js)$/.test(entry)) out.push(path);
  }
  return out;
}

/** Each name read under the given files and folders of `root` → the files (relative) that read it. */
export function envNamesUnder(root: string, paths: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const path of paths) {
    const full = join(root, path);
    const files = statSync(full).isDirectory() ? walk(full, []) : [full];
    for (const file of files) {
      for (const name of envNamesRead(readFileSync(file, 'utf8'))) {
        found.set(name, [...(found.get(name) ?? []), relative(root, file)]);
      }
    }
  }
  return found;
}

/**
 * The rows of the first `| variable | default | meaning |` table under the heading `heading`
 * (`## Settings`) of a Markdown text: each row's first cell, as the backticked names in it.
 */
export function settingsTable(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) return [];
  const rows: string[][] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,6} /.test(line) && !inTable) break;
    if (line.startsWith('| variable | default | meaning |')) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    if (!line.startsWith('|')) break;
    if (/^\|[-| ]+\|$/.test(line)) continue;
    const first = line.split(/(?<!\\)\|/)[1] ?? '';
    rows.push([...first.matchAll(new RegExp(`\`(${NAME})\``, 'g'))].map((m) => m[1]));
  }
  return rows;
}

/** The scripts a text runs as `npm run <name>`, `npm start` or `npm test`. */
export function npmScriptsNamed(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/\bnpm run ([a-z][\w:-]*)/g)) names.add(m[1]);
  for (const m of text.matchAll(/\bnpm (start|test)\b/g)) names.add(m[1]);
  return names;
}
