/**
 * The city menu manifests as the server reads them at start (000 6 Menu sets; docs/architecture.md
 * 'Adding a city'): every `menus/*.json`, checked against schemas/meta/manifest.schema.json and
 * resolved (every `extends`) once, then kept. The console receives them from
 * GET /default/api/console/manifests (routes/console-manifests.ts), so a new city is a new file and a
 * restart: no console build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { resolveManifest, type Manifest } from '../shared/manifest';

/** The folder of the manifests: `menus/` of this repository. */
export const MENUS_DIR = resolve(import.meta.dirname, '../../menus');

const loaded = new Map<string, Readonly<Record<string, Manifest>>>();

/**
 * The manifests of `dir` by name (`kobe` for menus/kobe.json), read once per folder and kept.
 * Errors: throws naming the file and the place of every manifest that does not pass the meta schema,
 * and on an `extends` naming no manifest or a cycle; the server does not start then.
 */
export function loadManifests(dir: string = MENUS_DIR): Readonly<Record<string, Manifest>> {
  const kept = loaded.get(dir);
  if (kept) return kept;
  const meta = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../schemas/meta/manifest.schema.json'), 'utf8')) as object);
  const all: Record<string, Manifest> = {};
  const problems: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const manifest = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Manifest;
    if (!meta(manifest)) problems.push(...(meta.errors ?? []).map((e) => `menus/${file}: ${e.instancePath || '/'} ${e.message}`));
    all[file.slice(0, -'.json'.length)] = manifest;
  }
  for (const name of Object.keys(all)) {
    try {
      resolveManifest(name, all);
    } catch (e) {
      problems.push(`menus/${name}.json: ${(e as Error).message}`);
    }
  }
  if (problems.length > 0) throw new Error(`manifests: ${problems.join('; ')}`);
  const frozen = Object.freeze(all);
  loaded.set(dir, frozen);
  return frozen;
}
