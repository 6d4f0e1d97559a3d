/**
 * Where uploaded files live: `<DATA_DIR>/files/` (a temporary folder, removed on close, when the
 * database is in memory). Names are random (128 bits), so a URL cannot be guessed. Several servers
 * on one PostgreSQL need DATA_DIR on a shared volume to serve each other's uploads.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILE_NAME } from './file-names';

export interface FileStore {
  /** The folder. */
  readonly dir: string;
  /** The path of a stored file name (checked against FILE_NAME; throws otherwise). */
  path(name: string): string;
  /** Stores bytes under a new random name with extension `ext`; resolves to the name. */
  save(bytes: Uint8Array, ext: string): Promise<string>;
  /** Removes a stored file (no error when it is gone). */
  remove(name: string): Promise<void>;
  /** Removes the folder when it is a temporary one. */
  close(): Promise<void>;
}

/** Opens (creating it when missing) the file folder of `dataDir` (`memory://`: a temporary folder). */
export async function openFileStore(dataDir: string): Promise<FileStore> {
  const temporary = dataDir === 'memory://';
  const dir = temporary ? await mkdtemp(join(tmpdir(), 'city-console-files-')) : join(dataDir, 'files');
  await mkdir(dir, { recursive: true });
  const path = (name: string) => {
    if (!FILE_NAME.test(name)) throw new Error(`not a stored file name: ${name}`);
    return join(dir, name);
  };
  return {
    dir,
    path,
    async save(bytes, ext) {
      const name = `${randomBytes(16).toString('hex')}.${ext}`;
      const partial = join(dir, `.${name}.${process.pid}.part`);
      await writeFile(partial, bytes, { flag: 'wx' });
      await rename(partial, path(name));
      return name;
    },
    async remove(name) {
      await unlink(path(name)).catch(() => undefined);
    },
    async close() {
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}
