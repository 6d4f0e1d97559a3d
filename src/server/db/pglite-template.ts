/**
 * An empty PGlite cluster kept as a template, so a new data directory starts from a copy instead of
 * running initdb (about 4 s on two cores; loading the copy takes well under a second). The template
 * is a `dumpDataDir('gzip')` tarball of a cluster that holds nothing of ours (made right after initdb),
 * one per PGlite version, in `PGLITE_TEMPLATE_DIR` (default `<os tmpdir>/city-console`). It is a cache:
 * deleting it only makes the next new directory pay initdb again.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/** The installed PGlite's version (its package.json is not exported: found from its entry point). */
function installedVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (dir !== dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (pkg.name === '@electric-sql/pglite') return pkg.version;
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
const pgliteVersion = installedVersion();

/** Where the template of this PGlite version lives (a path; the file may not exist yet). */
export function templatePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.PGLITE_TEMPLATE_DIR || join(tmpdir(), 'city-console'), `pglite-${pgliteVersion}.tgz`);
}

/** The template tarball when one was made on this machine, else undefined. Never throws. */
export async function readTemplate(env: NodeJS.ProcessEnv = process.env): Promise<Blob | undefined> {
  const file = templatePath(env);
  try {
    return existsSync(file) ? new Blob([await readFile(file)]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps a dump of `fresh` (a cluster just made by initdb, before any table of ours) as the template,
 * unless one exists. Written to a temporary name and renamed, so concurrent processes never read half
 * a file. A failure (read-only temp directory, full disk) is ignored: the template is only a cache.
 */
export async function saveTemplate(fresh: PGlite, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = templatePath(env);
  if (existsSync(file)) return;
  try {
    await writeTemplate(await fresh.dumpDataDir('gzip'), file);
  } catch {
    // only a cache
  }
}

async function writeTemplate(dump: Blob, file: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
}

/**
 * The template, made now (an in-memory initdb) when this machine has none yet. For tests, which open
 * many in-memory databases. Errors: PGlite start errors.
 */
export async function pgliteTemplate(env: NodeJS.ProcessEnv = process.env): Promise<Blob> {
  const found = await readTemplate(env);
  if (found) return found;
  const { PGlite } = await import('@electric-sql/pglite');
  const fresh = await PGlite.create();
  const dump = await fresh.dumpDataDir('gzip');
  await fresh.close();
  await writeTemplate(dump, templatePath(env)).catch(() => undefined);
  return dump;
}
