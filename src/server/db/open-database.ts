/**
 * The database factory (docs/architecture.md 'Storage'): opens the driver the settings name. Above
 * the interface (./database.ts) and the drivers that implement it, so no driver imports the module
 * that loads it (docs/architecture.md 'The picture').
 */
import type { Config } from '../config';
import type { Database, OpenOptions } from './database';

/**
 * Opens the database the settings name: PostgreSQL when `config.databaseUrl` is set, else PGlite in
 * `config.dataDir` (`memory://` = in memory). Errors: PGlite directory locked by another process
 * (`DataDirLockedError`), connection errors of `pg`.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>,
  options: OpenOptions = {},
): Promise<Database> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(config.databaseUrl, { schema: config.databaseSchema });
  }
  const { openPglite } = await import('./pglite');
  return openPglite(config.dataDir, options);
}
