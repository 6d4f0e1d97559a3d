/**
 * The README stays true (README 'Settings' and 'Other commands'; docs/development.md 'Settings'):
 * every environment variable the server, the console's build or `npm start` reads has one row of
 * the README's settings table; one read by the other scripts and the test set-up has a row there
 * or in docs/development.md's 'Settings of the tools'; no row names a setting nothing reads; every
 * `npm run` script the README names exists in package.json; the README is short (at most 150 lines
 * of at most 120 characters). The names are read from the code itself (scripts/lib/readme-facts.ts),
 * so a setting added later and not documented is named here.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envNamesRead, envNamesUnder, npmScriptsNamed, settingsTable } from '../../../scripts/lib/readme-facts';

const root = resolve(import.meta.dirname, '../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const development = readFileSync(join(root, 'docs/development.md'), 'utf8');
const packageScripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

/** What the server, the console's build and `npm start`/`npm run build` read: the README's table. */
const SERVER_SIDE = ['src/server', 'src/console', 'scripts/start.ts', 'scripts/build.ts', 'scripts/lib/console-build.ts', 'vite.config.ts'];
/** What the other scripts and the test set-up read: either table. */
const TOOL_SIDE = ['scripts', 'playwright.config.ts', 'vitest.config.ts'];

const readmeRows = settingsTable(readme, '## Settings');
const toolRows = settingsTable(development, '### Settings of the tools');

describe('reading the settings from the code', () => {
  it('finds the names each way the code reads them, and not the names it only writes', () => {
    const source = [
      "const port = int(env, 'PORT', 8080, 0, 65535, problems);",
      'const origin = (name: string, fallback: string) => {',
      '  const raw = env[name]?.trim() || fallback;',
      '  return raw;',
      '};',
      "const publicUrl = origin('PUBLIC_URL', `http://${host}:${port}`);",
      'const dir = env.DATA_DIR?.trim(); const s = env?.DATABASE_SCHEMA; const t = env["TOKEN_SECRET"];',
      'const r = Number(process.env.BENCH_ROWS ?? 1); const u = import.meta.env.VITE_CONTACT_US_URL;',
      "spawn('x', [], { env: { ...process.env, NODE_OPTIONS: '', LOGIN_RATE_LIMIT: '0' } });",
    ].join('\n');
    expect([...envNamesRead(source)].sort()).toEqual(['BENCH_ROWS', 'DATABASE_SCHEMA', 'DATA_DIR', 'PORT', 'PUBLIC_URL', 'TOKEN_SECRET', 'VITE_CONTACT_US_URL']);
  });

  it('finds the settings of src/server/config.ts and the other readers', () => {
    const names = envNamesUnder(root, SERVER_SIDE);
    for (const name of ['PORT', 'HOST', 'PUBLIC_URL', 'MAIL_RETRY_MS', 'DATABASE_URL', 'PGLITE_TEMPLATE_DIR', 'SKIP_CONSOLE_BUILD', 'VITE_CONTACT_US_URL']) {
      expect(names.has(name), name).toBe(true);
    }
  });

  it('parses the settings tables, one name per row', () => {
    expect(readmeRows.length).toBeGreaterThan(10);
    expect(toolRows.length).toBeGreaterThan(5);
    const several = [...readmeRows, ...toolRows].filter((row) => row.length !== 1);
    expect(several, 'rows naming no setting or several').toEqual([]);
  });
});

describe('README.md', () => {
  const inReadme = new Set(readmeRows.flat());
  const inTools = new Set(toolRows.flat());

  it('has a row for every setting the server, the console build and npm start read', () => {
    const missing = [...envNamesUnder(root, SERVER_SIDE)].filter(([name]) => !inReadme.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(missing, 'settings read but not in README.md\'s table').toEqual([]);
  });

  it('has a row, or docs/development.md has one, for every setting the scripts and the test set-up read', () => {
    const missing = [...envNamesUnder(root, TOOL_SIDE)].filter(([name]) => !inReadme.has(name) && !inTools.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(missing, "settings read but in neither table (README 'Settings', docs/development.md 'Settings of the tools')").toEqual([]);
  });

  it('names no setting that nothing reads', () => {
    const read = new Set([...envNamesUnder(root, SERVER_SIDE).keys(), ...envNamesUnder(root, TOOL_SIDE).keys()]);
    expect([...inReadme, ...inTools].filter((name) => !read.has(name))).toEqual([]);
  });

  it('names only npm scripts that exist', () => {
    for (const [file, text] of [['README.md', readme], ['docs/development.md', development]]) {
      const unknown = [...npmScriptsNamed(text)].filter((name) => !packageScripts.includes(name));
      expect(unknown, `npm scripts named in ${file} but not in package.json`).toEqual([]);
    }
  });

  it('is read in five minutes: at most 150 lines, none over 120 characters', () => {
    const lines = readme.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(150);
    expect(lines.map((line, i) => ({ line: i + 1, length: [...line].length })).filter((l) => l.length > 120)).toEqual([]);
  });
});
