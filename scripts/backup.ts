/**
 * `npm run backup [-- <file>]`: the database and the uploaded files of this configuration (DATA_DIR,
 * DATABASE_URL, DATABASE_SCHEMA as for `npm start`) in one `.tar.gz` (src/server/backup.ts; README
 * 'Backups'); default file `backups/city-console-<time>.tar.gz`. PGlite: stop the server first.
 * Exit code 1 with the reason on failure.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { backup } from '../src/server/backup';
import { loadConfig } from '../src/server/config';

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file = resolve(process.argv[2] ?? `backups/city-console-${stamp}.tar.gz`);
try {
  await mkdir(dirname(file), { recursive: true });
  const manifest = await backup(loadConfig(process.env), file);
  const config = loadConfig(process.env);
  if (config.s3) {
    // The uploads are in the bucket (docs/deployment.md 'Backups'): the archive holds the database only.
    console.log(`backup: ${manifest.database} database written to ${file}`);
    console.log(
      `backup: the uploaded files stay in s3://${config.s3.bucket}/${config.s3.prefix} and are not in the archive: keep them with the bucket's own versioning (and a lifecycle rule for old versions) or its replication`,
    );
  } else {
    console.log(`backup: ${manifest.database} database and uploaded files written to ${file}`);
  }
} catch (err) {
  console.error(`backup: ${(err as Error).message}`);
  process.exit(1);
}
