/**
 * `npm run migrate [-- --dry-run]`: the versioned migrations of the fixed tables, the resource tables,
 * then the pending data migrations of `migrations/` (src/server/data-check/; docs/architecture.md
 * 'Changing an entity') on the database `npm start` would open (DATA_DIR, or DATABASE_URL and
 * DATABASE_SCHEMA), as the start does. With `--dry-run`: prints what each pending data migration
 * would change (rows read, changed, still failing, a few examples) and writes nothing to resource
 * rows. PGlite: stop the server first. Exit code 1 naming the migration that failed.
 */
import { registry } from '../src/shared/registry';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/open-database';
import { migrate } from '../src/server/db/migrations';
import { ensureResourceTables } from '../src/server/db/resource-tables';
import { loadDataMigrations } from '../src/server/data-check/load-migrations';
import { migrationReportLines, runDataMigrations } from '../src/server/data-check/migration-runner';

const dryRun = process.argv.includes('--dry-run');
try {
  const migrations = await loadDataMigrations();
  const db = await openDatabase(loadConfig(process.env), { handleSignals: true });
  try {
    // What a start makes first: the fixed tables (data_migrations among them) and the resource tables.
    await migrate(db);
    await ensureResourceTables(db, registry.values());
    const reports = await runDataMigrations(db, migrations, { resources: registry, dryRun });
    for (const line of migrationReportLines(reports, dryRun)) console.log(line);
  } finally {
    await db.close();
  }
} catch (err) {
  console.error(`migrate: ${(err as Error).message}`);
  process.exit(1);
}
