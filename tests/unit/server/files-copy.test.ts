// Moving an installation's files between the local folder and a bucket (src/server/files/copy-files.ts,
// `npm run files:copy`): everything arrives byte for byte, a second run copies nothing, and back.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFiles, type CopyProgress } from '../../../src/server/files/copy-files';
import { openLocalFileStore, type FileStore } from '../../../src/server/files/file-store';
import { openS3FileStore } from '../../../src/server/files/s3-file-store';
import { loadConfig } from '../../../src/server/config';
import { startTestS3, type TestS3 } from './s3-server';
import { png } from './test-images';

let s3: TestS3;
let dataDir: string;
let local: FileStore;
let bucket: FileStore;

beforeAll(async () => {
  s3 = await startTestS3('copy-test', 'console/');
  dataDir = await mkdtemp(join(tmpdir(), 'city-console-copy-'));
  local = await openLocalFileStore(dataDir);
  bucket = openS3FileStore(loadConfig({ DATA_DIR: dataDir, ...s3.env }).s3!);
});
afterAll(async () => {
  await bucket?.close();
  await s3?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function bytes(store: FileStore, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of (await store.read(name))!) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('files:copy', () => {
  it('copies the folder into the bucket, idempotently, with progress; and back', async () => {
    const names = [await local.save(png(3, 3), 'png'), await local.save(png(5, 4), 'png'), await local.save(Buffer.from('%PDF-1.4\n%%EOF\n'), 'pdf')];
    const seen: CopyProgress[] = [];
    expect(await copyFiles(local, bucket, (p) => seen.push(p))).toEqual({ total: 3, copied: 3, skipped: 0, bytes: expect.any(Number) });
    expect(seen.map((p) => p.copied + p.skipped)).toEqual([1, 2, 3]);
    for (const name of names) expect((await bytes(bucket, name)).equals(await bytes(local, name))).toBe(true);
    expect(await copyFiles(local, bucket)).toMatchObject({ total: 3, copied: 0, skipped: 3 });

    const elsewhere = await openLocalFileStore(await mkdtemp(join(tmpdir(), 'city-console-copy-back-')));
    expect(await copyFiles(bucket, elsewhere)).toMatchObject({ total: 3, copied: 3 });
    for (const name of names) expect((await bytes(elsewhere, name)).equals(await bytes(local, name))).toBe(true);
    await rm(elsewhere.location, { recursive: true, force: true });
  });
});
