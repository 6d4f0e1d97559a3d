/**
 * Reads the declared data migrations of `migrations/` (docs/architecture.md 'Changing an entity'):
 * files named `NNN-name.ts` or `NNN-name.json` (three or more digits, then lowercase letters, digits
 * and hyphens), in the order of their names. Other files (a README) are left alone.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { registry, type ResourceDef } from '../../shared/registry';
import { jsonMigration, type DataMigration, type DataMigrationSpec } from './declared';

/** The folder of the project's data migrations: `migrations/` at the repository's root. */
export const DATA_MIGRATIONS_DIR = resolve(import.meta.dirname, '../../../migrations');

/** The file names of data migrations: `001-rename-label.ts`, `002-default-category.json`. */
export const MIGRATION_FILE = /^(\d{3,}-[a-z0-9][a-z0-9-]*)\.(ts|json)$/;

/**
 * The data migrations of `dir` (default DATA_MIGRATIONS_DIR; none when it does not exist), sorted
 * by name, each checked: a `.ts` file's default export has a `resource` and an `up` function, a
 * `.json` file is a JSON migration (./declared.ts), and the resource is one of `resources` (default:
 * the registry). Errors: an Error naming the file and what is wrong; two files of one name.
 */
export async function loadDataMigrations(dir = DATA_MIGRATIONS_DIR, resources: ReadonlyMap<string, ResourceDef> = registry): Promise<DataMigration[]> {
  if (!existsSync(dir)) return [];
  const files = (await readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  const out: DataMigration[] = [];
  for (const file of files) {
    const [, name, ext] = MIGRATION_FILE.exec(file)!;
    if (out.some((m) => m.name === name)) throw new Error(`migrations/${file}: a migration named ${name} exists already`);
    let migration: DataMigration;
    if (ext === 'json') {
      let content: unknown;
      try {
        content = JSON.parse(await readFile(join(dir, file), 'utf8'));
      } catch (err) {
        throw new Error(`migrations/${file}: ${(err as Error).message}`);
      }
      migration = jsonMigration(name, content);
    } else {
      const spec = ((await import(pathToFileURL(join(dir, file)).href)) as { default?: DataMigrationSpec }).default;
      if (!spec || typeof spec.resource !== 'string' || typeof spec.up !== 'function') {
        throw new Error(`migrations/${file}: the default export must be defineDataMigration({resource, up})`);
      }
      migration = { name, resource: spec.resource, description: spec.description, up: spec.up.bind(spec) };
    }
    if (!resources.has(migration.resource)) throw new Error(`migrations/${file}: no resource '${migration.resource}' (schemas/)`);
    out.push(migration);
  }
  return out;
}
