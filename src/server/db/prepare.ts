/**
 * Everything a database needs before the API serves it: migrations, resource tables, first-start
 * seed. Safe to run on every start and from several processes at once.
 */
import { registry, type ResourceDef } from '../../shared/registry';
import { ensureManifestCities, seed, type DemoStatisticsWhen } from '../seed';
import type { Manifest } from '../../shared/manifest';
import type { Database } from './database';
import { migrate } from './migrations';
import { ensureResourceTables, recountResources } from './resource-tables';
import { ensureStatisticRollups } from '../statistics/rollups';
import { moveFirstAuditTable } from '../audit/audit-log';
import type { DataMigration } from '../data-check/declared';
import { loadDataMigrations } from '../data-check/load-migrations';
import { runDataMigrations, type DataMigrationReport } from '../data-check/migration-runner';

export interface Prepared {
  /** Migrations applied by this call. */
  migrations: string[];
  /** Whether this call seeded a new database. */
  seeded: boolean;
  /** Data migrations of resource rows applied by this call (../data-check/migration-runner.ts). */
  dataMigrations: DataMigrationReport[];
}

/**
 * Migrates, creates the tables of `resources` (default: the registry), applies the pending data
 * migrations of their rows (`options.dataMigrations`, default those of `migrations/`:
 * ../data-check/load-migrations.ts; a failing one stops here, naming it) and seeds a new database
 * (demo users and content when `demo`, its statistics when `demoStatistics` says: ../seed.ts). On
 * PGlite, where this process is the only writer, the list counts are also recomputed so rows
 * written by other means are counted (not on a new database, whose tables are empty). Then every
 * city of a manifest (`options.manifests`, default menus/*.json as read at start: ../manifests.ts)
 * without a row gets one.
 */
export async function prepareDatabase(
  db: Database,
  options: { demo: boolean; resources?: ReadonlyMap<string, ResourceDef>; manifests?: Readonly<Record<string, Manifest>>; demoStatistics?: DemoStatisticsWhen; dataMigrations?: readonly DataMigration[] },
): Promise<Prepared> {
  const resources = options.resources ?? registry;
  const migrations = await migrate(db);
  // The audit log is written by every write, whatever the resources served (tests of other schemas).
  const auditLog = registry.get('audit_log');
  await ensureResourceTables(db, [...resources.values(), ...(auditLog && !resources.has('audit_log') ? [auditLog] : [])]);
  await moveFirstAuditTable(db);
  // Daily rollups of the statistics, before any seed row so its triggers count them (docs/architecture.md 'Adding a statistic').
  await ensureStatisticRollups(db, resources.values());
  // Rows stored under an older schema, changed as `migrations/` declares (docs/architecture.md 'Changing an entity').
  const dataMigrations = await runDataMigrations(db, options.dataMigrations ?? (await loadDataMigrations()), { resources });
  const fresh = migrations.includes('0001-initial');
  if (db.kind === 'pglite' && !fresh) await recountResources(db, resources.values());
  const seeded = await seed(db, { demo: options.demo, resources, demoStatistics: options.demoStatistics });
  // A city whose manifest came after the first start (npm run new-city) gets its row now.
  await ensureManifestCities(db, options.manifests);
  return { migrations, seeded, dataMigrations };
}
