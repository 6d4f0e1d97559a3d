/**
 * `npm run restore -- <file> [--force]`: restores a backup of `npm run backup` into this configuration's
 * database and files (src/server/backup.ts; README 'Backups'). PGlite: stop the server first; a data
 * directory that holds a database needs `--force` (the old one is moved aside, not deleted).
 * Exit code 1 with the reason on failure.
 */
import { resolve } from 'node:path';
import { restore } from '../src/server/backup';
import { loadConfig } from '../src/server/config';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: npm run restore -- <file> [--force]');
  process.exit(1);
}
try {
  const manifest = await restore(loadConfig(process.env), resolve(file), { force: args.includes('--force') });
  console.log(`restore: the ${manifest.database} database and the files of ${manifest.created_at} restored`);
} catch (err) {
  console.error(`restore: ${(err as Error).message}`);
  process.exit(1);
}
