/**
 * The demo data's sample images and PDF (000 5 Files), bundled in demo-files/ under the names the file
 * store gives uploads (32 hex digits and the extension; scripts/make-demo-files.ts draws them). The
 * schemas' examples name them as `/files/<name>`, so a demo row's picture is served by our own
 * server (the CSP allows no foreign image) and passes the `x-upload` check of a write like any upload:
 * an operator can edit and save a demo row without choosing its image again.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Database } from '../db/database';
import { CONTENT_TYPES, FILE_NAME } from './file-names';
import type { FileStore } from './file-store';
import { sniff } from './sniff';

/** The folder of the bundled demo files. */
export const DEMO_FILES_DIR = resolve(import.meta.dirname, '../../../demo-files');

/** The stored names of the bundled demo files (`<32 hex>.jpg|pdf`), sorted. */
export async function demoFileNames(dir = DEMO_FILES_DIR): Promise<string[]> {
  return (await readdir(dir)).filter((f) => FILE_NAME.test(f)).sort();
}

/**
 * Writes a `files` row for each bundled demo file (kind, content type, size and pixels read from its
 * header, as an upload's), attributed to `city` and to no user. Run by the demo seed, in its
 * transaction or not; a row already there is kept. Throws when a bundled file is not an accepted
 * image or PDF.
 */
export async function recordDemoFiles(db: Pick<Database, 'query'>, city: string, dir = DEMO_FILES_DIR): Promise<void> {
  for (const name of await demoFileNames(dir)) {
    const bytes = await readFile(join(dir, name));
    const found = sniff(bytes);
    if (!found) throw new Error(`demo-files/${name}: not a JPEG, PNG, GIF or PDF`);
    const ext = name.slice(name.lastIndexOf('.') + 1);
    await db.query(
      `INSERT INTO files (name, city, kind, content_type, bytes, width, height, original_name) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (name) DO NOTHING`,
      [name, city, found.kind, CONTENT_TYPES[ext], bytes.length, found.width, found.height, `demo-${name}`],
    );
  }
}

/**
 * Copies into `store` each bundled demo file it does not hold yet (a new data directory or bucket, an
 * in-memory database's temporary folder). Run at every start of a server that seeds demo data;
 * costs a `stat` (a HEAD request for a bucket) per file when they are there. Each file appears
 * whole or not at all (FileStore.put): another server process may be serving the store already.
 */
export async function installDemoFiles(store: FileStore, dir = DEMO_FILES_DIR): Promise<void> {
  for (const name of await demoFileNames(dir)) {
    if (await store.info(name)) continue;
    await store.put(name, await readFile(join(dir, name)));
  }
}
