/**
 * Where uploaded files live (000 5 Files; docs/deployment.md 'The object store'). One interface,
 * two stores:
 * - the local folder `<DATA_DIR>/files/` (a temporary folder, removed on close, when the database is
 *   in memory): the embedded default, for one process;
 * - an S3-compatible bucket (S3_BUCKET, with S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, S3_PREFIX;
 *   credentials from the AWS SDK's default chain), so several processes serve each other's uploads.
 *   `@aws-sdk/client-s3` and `@aws-sdk/lib-storage` are loaded only then (./s3-file-store.ts).
 * Names are random (128 bits, FILE_NAME), so a URL cannot be guessed; a stored file never changes.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { S3Settings } from '../config';

export type { S3Settings };
import { FILE_NAME, IMPORT_FILE_NAME } from './file-names';

/** What a store knows of a stored file without reading it. */
export interface FileInfo {
  /** Size in bytes. */
  bytes: number;
  /** A strong entity tag, quoted (`"…"`), as sent in `ETag`. */
  etag: string;
  lastModified: Date;
}

/** An inclusive byte range of a file, as `Range: bytes=start-end` names it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileStore {
  /** `local` or `s3`. */
  readonly kind: 'local' | 's3';
  /** Where the files are, for messages: a folder, or `s3://bucket/prefix`. */
  readonly location: string;
  /** Stores bytes under a new random name with extension `ext`; resolves to the name. */
  save(bytes: Uint8Array, ext: string): Promise<string>;
  /** Stores bytes under `name` (a FILE_NAME or IMPORT_FILE_NAME): whole or not at all; the demo files, `files:copy`, CSV imports. */
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** The size and entity tag of a stored file; null when there is none. */
  info(name: string): Promise<FileInfo | null>;
  /** A stream of a stored file's bytes (of `range` only, when given); null when there is none. */
  read(name: string, range?: ByteRange): Promise<Readable | null>;
  /** Removes a stored file (no error when it is gone). */
  remove(name: string): Promise<void>;
  /** The names of the stored files (FILE_NAME only), in no set order. */
  list(): AsyncIterable<string>;
  /** The stored CSV import files (IMPORT_FILE_NAME only) with the time each was stored, in no set order. */
  imports(): AsyncIterable<{ name: string; lastModified: Date }>;
  /** Releases the store (removes the folder when it is a temporary one). */
  close(): Promise<void>;
}


/** Throws unless `name` is a stored file name (FILE_NAME or IMPORT_FILE_NAME): no path or key can be made of anything else. */
export function checkName(name: string): string {
  if (!FILE_NAME.test(name) && !IMPORT_FILE_NAME.test(name)) throw new Error(`not a stored file name: ${name}`);
  return name;
}

/** A new random stored-file name with extension `ext`. */
export function newFileName(ext: string): string {
  return checkName(`${randomBytes(16).toString('hex')}.${ext}`);
}


/** Opens (creating it when missing) the file folder of `dataDir` (`memory://`: a temporary folder). */
export async function openLocalFileStore(dataDir: string): Promise<FileStore> {
  const temporary = dataDir === 'memory://';
  const dir = temporary ? await mkdtemp(join(tmpdir(), 'city-console-files-')) : join(dataDir, 'files');
  await mkdir(dir, { recursive: true });
  const path = (name: string) => join(dir, checkName(name));
  const put = async (name: string, bytes: Uint8Array) => {
    // Whole or not at all: another server process may be serving the folder already.
    const partial = join(dir, `.${checkName(name)}.${process.pid}.${randomBytes(4).toString('hex')}.part`);
    await writeFile(partial, bytes, { flag: 'wx' });
    await rename(partial, path(name));
  };
  const info = async (name: string): Promise<FileInfo | null> => {
    const s = await stat(path(name)).catch(() => null);
    if (!s?.isFile()) return null;
    return { bytes: s.size, etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`, lastModified: s.mtime };
  };
  return {
    kind: 'local',
    location: dir,
    async save(bytes, ext) {
      const name = newFileName(ext);
      await put(name, bytes);
      return name;
    },
    put,
    info,
    async read(name, range) {
      if (!(await info(name))) return null;
      return createReadStream(path(name), range ? { start: range.start, end: range.end } : {});
    },
    async remove(name) {
      await unlink(path(name)).catch(() => undefined);
    },
    async *list() {
      for (const f of await readdir(dir)) if (FILE_NAME.test(f)) yield f;
    },
    async *imports() {
      for (const name of await readdir(dir)) {
        if (!IMPORT_FILE_NAME.test(name)) continue;
        const s = await stat(path(name)).catch(() => null);
        if (s?.isFile()) yield { name, lastModified: s.mtime };
      }
    },
    async close() {
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}
