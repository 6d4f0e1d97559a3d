/**
 * PostgreSQL through a `pg` pool (docs/architecture.md 'Storage': with DATABASE_URL set, the same SQL runs on
 * PostgreSQL, and several API processes may share it; NOTIFY carries live events between them,
 * pg-listener.ts).
 */
import pg from 'pg';
import type { Database, Queryable } from './database';
import { createPgListener } from './pg-listener';

const INT8_OID = 20;

/** int8 (ids, counts) as JS numbers, as PGlite answers them; every other type as `pg` parses it. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as unknown as pg.CustomTypesConfig;

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
      const result = await client.query(sql, params);
      return result.rows as T[];
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  };
}

/**
 * Opens a pool on `url` (at most `max` connections, default 10). With `schema`, the schema is created
 * when missing and made the search path of every connection (tests use a schema per run).
 * Errors: connection errors, raised on the first query.
 */
export async function openPostgres(url: string, options: { schema?: string | null; max?: number } = {}): Promise<Database> {
  const schema = options.schema ?? null;
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name '${schema}'`);
  if (schema) {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener it would crash the process.
  pool.on('error', (err) => console.error(`postgres: idle connection error: ${err.message}`));
  await pool.query('SELECT 1');
  const listener = createPgListener(url);
  let closing: Promise<void> | null = null;
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    listen: (channel, handler) => listener.listen(channel, handler),
    onListenRestored: (handler) => listener.onRestored(handler),
    close() {
      closing ??= listener.close().then(() => pool.end());
      return closing;
    },
  };
}
