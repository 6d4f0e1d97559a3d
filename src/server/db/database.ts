/**
 * The one database interface of the server (docs/architecture.md 'Storage'): PGlite in a data directory by
 * default, PostgreSQL through `pg` when DATABASE_URL is set. The same SQL runs on both. The drivers
 * (./pglite.ts, ./postgres.ts) implement it; ./open-database.ts chooses one.
 */
/** Something SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  /** Runs one statement with `$1…` parameters; answers the rows. int8 and counts come back as numbers, timestamptz as Date, json/jsonb parsed. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws (the error is re-thrown). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `handler` with the payload of every NOTIFY on `channel` (a lowercase identifier) from now
   * on: on PostgreSQL from every process on the database, through one LISTEN connection of this
   * database object (opened at the first call, reconnected after a loss: notifications sent while it
   * is down are lost, see `onListenRestored`); on PGlite within this instance. Resolves once the
   * LISTEN is active, to the unsubscribe function. A NOTIFY sent in a transaction arrives after its
   * commit, never after a rollback. Errors: connection errors of the first LISTEN.
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Calls `handler` each time the LISTEN connection is back after a loss, once every channel is
   * listened again: the notifications of the time it was down are lost, so whoever relied on them
   * reads the state again. Never called on PGlite (nothing to lose). Answers the unsubscribe function.
   */
  onListenRestored(handler: () => void): () => void;
  /** Closes the database (PGlite: shuts down cleanly and releases the directory lock). Idempotent. */
  close(): Promise<void>;
  /**
   * PGlite only, where this process is the one writer: a number that grows once a statement or
   * transaction that may have changed data has ended. A plain SELECT leaves it, and so does an
   * INSERT, UPDATE or DELETE that changed no row; anything else (a transaction, `exec`, a WITH, DDL)
   * counts as a write. An answer read while it was v holds as long as it is v (./read-cache.ts).
   * Absent on PostgreSQL, where other processes write too.
   */
  writeVersion?(): number;
  /** PGlite only: the whole cluster as a `dumpDataDir('gzip')` tarball (a template for `OpenOptions.template`). */
  dumpDataDir?(): Promise<Blob>;
}

export interface OpenOptions {
  /** PGlite only: close on SIGTERM/SIGINT and exit (default true). The server passes false and closes in its own order. */
  handleSignals?: boolean;
  /** PGlite only: a `dumpDataDir()` tarball used instead of initdb for a new database (default: the machine's template, see pglite-template.ts). */
  template?: Blob;
}
