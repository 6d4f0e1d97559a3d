/**
 * `npm run new-city -- <code> --name-ja <名前>`: scaffolds a city (000 6; docs/architecture.md 'Adding
 * a city'). Writes `menus/<code>.json` with the Japanese name, extending the default manifest (so the
 * city starts with the default sets). Nothing is built: at the next start the server reads the file
 * (src/server/manifests.ts), serves it to the console and makes the city's row
 * (src/server/seed.ts ensureManifestCities); change its menu by editing the file and restarting.
 * Refuses, with a message and exit code 1: a missing or malformed code (lowercase letters, digits and
 * `_`, starting with a letter, at most 40 characters), a code that is a top-level route of the console
 * (`login`, `terms`, `city`, …: src/shared/open-routes.ts), an existing manifest, and a missing Japanese name.
 * `MENUS_DIR=dir` writes into another folder (tests).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isReservedCityCode } from '../src/shared/open-routes';

const root = resolve(import.meta.dirname, '..');
const CODE = /^[a-z][a-z0-9_]{0,39}$/;

function fail(message: string): never {
  console.error(`new-city: ${message}`);
  console.error('usage: npm run new-city -- <code> --name-ja <名前>');
  process.exit(1);
}

function parse(argv: string[]): { code: string; nameJa: string } {
  let code: string | undefined;
  let nameJa: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--name-ja') nameJa = argv[++i];
    else if (a.startsWith('--name-ja=')) nameJa = a.slice('--name-ja='.length);
    else if (a.startsWith('-')) fail(`unknown option '${a}'`);
    else if (code === undefined) code = a;
    else fail(`unexpected argument '${a}'`);
  }
  if (!code) fail('the city code is missing');
  if (!CODE.test(code)) fail(`'${code}' is not a valid city code: lowercase letters, digits and _, starting with a letter, at most 40 characters`);
  if (isReservedCityCode(code)) fail(`'${code}' is an open route of the console or a path of the server (src/shared/open-routes.ts) and cannot be a city code`);
  if (!nameJa?.trim()) fail('the Japanese name is missing: --name-ja <名前>');
  return { code, nameJa: nameJa.trim() };
}

const { code, nameJa } = parse(process.argv.slice(2));
const menusDir = process.env.MENUS_DIR ? resolve(process.env.MENUS_DIR) : join(root, 'menus');
const file = join(menusDir, `${code}.json`);
if (existsSync(file)) fail(`the city '${code}' exists already (${file})`);
const manifest = { $schema: '../schemas/meta/manifest.schema.json', name_ja: nameJa, extends: 'default' };
await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
console.log(`new-city: wrote ${file}`);
console.log(`new-city: '${code}' (${nameJa}) is served and gets its row at the next server start; edit ${file} to change its menu (README 'Adding a city').`);
