/**
 * Moves an installation's uploaded files between stores (`npm run files:copy -- --to s3|local`,
 * scripts/files-copy.ts; docs/deployment.md 'The object store'). Idempotent: a file the target holds
 * already with the same size is skipped, so an interrupted copy is simply run again. Nothing is
 * removed from the source.
 */
import type { Readable } from 'node:stream';
import type { FileStore } from './file-store';

/** Counts of a copy: files seen in the source, copied, skipped (already in the target). */
export interface CopyProgress {
  total: number;
  copied: number;
  skipped: number;
  bytes: number;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * Copies every stored file (FILE_NAME) of `from` that `to` lacks (or holds with another size) into
 * `to`, one at a time (a file is at most 40 MB: 000 5 Files), calling `onProgress` after each file.
 * Resolves to the final counts. Errors: the stores' errors (what was copied stays copied).
 */
export async function copyFiles(from: FileStore, to: FileStore, onProgress: (p: CopyProgress) => void = () => undefined): Promise<CopyProgress> {
  const names: string[] = [];
  for await (const name of from.list()) names.push(name);
  names.sort();
  const progress: CopyProgress = { total: names.length, copied: 0, skipped: 0, bytes: 0 };
  for (const name of names) {
    const source = await from.info(name);
    const there = await to.info(name);
    if (!source || (there && there.bytes === source.bytes)) {
      progress.skipped++;
    } else {
      const stream = await from.read(name);
      if (!stream) {
        progress.skipped++;
      } else {
        const bytes = await bytesOf(stream);
        await to.put(name, bytes);
        progress.copied++;
        progress.bytes += bytes.length;
      }
    }
    onProgress({ ...progress });
  }
  return progress;
}
