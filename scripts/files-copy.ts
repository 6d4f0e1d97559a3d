/**
 * `npm run files:copy -- --to s3` (or `--to local`): copies the uploaded files of this configuration
 * from `<DATA_DIR>/files/` into the bucket of S3_BUCKET (S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE,
 * S3_PREFIX; credentials from the AWS SDK's default chain), or back. Idempotent (files already there
 * are skipped; run it again after an interruption); prints a progress line; removes nothing.
 * src/server/files/copy-files.ts; docs/deployment.md 'The object store'. Exit code 1 with the reason on failure.
 */
import { loadConfig } from '../src/server/config';
import { copyFiles } from '../src/server/files/copy-files';
import { openLocalFileStore } from '../src/server/files/file-store';
import { openS3FileStore } from '../src/server/files/s3-file-store';

const at = process.argv.indexOf('--to');
const to = at >= 0 ? process.argv[at + 1] : undefined;
try {
  if (to !== 's3' && to !== 'local') throw new Error('usage: npm run files:copy -- --to s3|local');
  const config = loadConfig(process.env);
  if (!config.s3) throw new Error('S3_BUCKET is not set: the bucket to copy to or from');
  if (config.dataDir === 'memory://') throw new Error('DATA_DIR=memory:// has no files folder');
  const local = await openLocalFileStore(config.dataDir);
  const bucket = openS3FileStore(config.s3);
  const [from, target] = to === 's3' ? [local, bucket] : [bucket, local];
  const tty = process.stdout.isTTY;
  const done = await copyFiles(from, target, (p) => {
    const line = `files:copy ${from.location} → ${target.location}: ${p.copied + p.skipped}/${p.total} (${p.copied} copied, ${p.skipped} already there, ${(p.bytes / 1_048_576).toFixed(1)} MB)`;
    if (tty) process.stdout.write(`\r${line}`);
    else if ((p.copied + p.skipped) % 100 === 0 || p.copied + p.skipped === p.total) console.log(line);
  });
  if (tty) process.stdout.write('\n');
  console.log(`files:copy: done, ${done.copied} copied, ${done.skipped} already there, of ${done.total}`);
  await bucket.close();
  await local.close();
} catch (err) {
  console.error(`files:copy: ${(err as Error).message}`);
  process.exit(1);
}
