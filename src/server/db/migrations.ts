/**
 * Versioned migrations of the fixed tables (docs/architecture.md 'Storage'), run with umzug. Applied names are kept
 * in `schema_migrations`. Everything runs in one transaction under an advisory lock, so several
 * processes starting at once against one PostgreSQL migrate exactly once.
 * A migration is never edited once released: add a new one at the end.
 */
import { Umzug, type UmzugStorage } from 'umzug';
import type { Database, Queryable } from './database';
import { FEATURE_MIGRATIONS } from './feature-migrations';
import type { Migration } from './migration';
import { REVISION_MIGRATIONS } from '../revisions/revision-migrations';

/** Advisory lock keys of start-up work (any fixed numbers, distinct per kind of work). */
export const LOCK_MIGRATE = 7_412_001;
export const LOCK_RESOURCE_TABLES = 7_412_002;
export const LOCK_SEED = 7_412_003;
/** Advisory lock key of chat writes, taken with the city's hash: a city's chat events commit in id order (chat/chat-writes.ts). */
export const LOCK_CHAT = 7_412_004;

export type { Migration } from './migration';

const MIGRATIONS: Migration[] = [
  {
    name: '0001-initial',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE cities (
          id serial PRIMARY KEY,
          name text NOT NULL UNIQUE,
          name_ja text NOT NULL
        );
        CREATE TABLE users (
          id serial PRIMARY KEY,
          username text NOT NULL UNIQUE,
          password_hash text NOT NULL,
          email text NOT NULL DEFAULT '',
          name text NOT NULL DEFAULT '',
          permission text NOT NULL,
          is_captain_department boolean NOT NULL DEFAULT false,
          assign_city integer[] NOT NULL DEFAULT '{}',
          school integer,
          grp integer,
          classes integer[] NOT NULL DEFAULT '{}',
          avatar text,
          introduction text,
          email_verified boolean NOT NULL DEFAULT false,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE refresh_tokens (
          id bigserial PRIMARY KEY,
          family uuid NOT NULL,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          token_hash text NOT NULL UNIQUE,
          expires_at timestamptz NOT NULL,
          revoked_at timestamptz,
          replaced_by bigint,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX refresh_tokens_family ON refresh_tokens (family);
        CREATE TABLE settings (
          key text PRIMARY KEY,
          value text NOT NULL
        );
        CREATE TABLE resource_counts (
          resource text NOT NULL,
          city text NOT NULL,
          n bigint NOT NULL DEFAULT 0,
          PRIMARY KEY (resource, city)
        );
        CREATE TABLE audit_log (
          id bigserial PRIMARY KEY,
          at timestamptz NOT NULL DEFAULT now(),
          user_id integer,
          city text,
          resource text NOT NULL,
          action text NOT NULL,
          record_id bigint
        );
        CREATE INDEX audit_log_at ON audit_log (at DESC);
      `),
  },
  {
    // Users and account calls (001 7.1, 7.2): shop ownership of ad users, unique e-mails, the city
    // lookup of user lists, one-time tokens (password reset, e-mail verification, my-number state).
    name: '0002-users-accounts',
    up: (tx) =>
      tx.exec(`
        ALTER TABLE users ADD COLUMN advertisements integer[] NOT NULL DEFAULT '{}';
        ALTER TABLE users ADD COLUMN mynumber_linked_at timestamptz;
        CREATE UNIQUE INDEX users_email_unique ON users (lower(email)) WHERE email <> '';
        CREATE INDEX users_assign_city ON users USING gin (assign_city);
        CREATE TABLE user_tokens (
          id bigserial PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          kind text NOT NULL,
          token_hash text NOT NULL UNIQUE,
          data jsonb NOT NULL DEFAULT '{}',
          expires_at timestamptz NOT NULL,
          used_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX user_tokens_user ON user_tokens (user_id, kind);
      `),
  },
  {
    // Uploaded files (000 5 Files; 001 9): one row per stored file of <DATA_DIR>/files/.
    name: '0002-files',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE files (
          id bigserial PRIMARY KEY,
          name text NOT NULL UNIQUE,
          city text NOT NULL,
          kind text NOT NULL,
          content_type text NOT NULL,
          bytes bigint NOT NULL,
          width integer,
          height integer,
          original_name text,
          user_id integer,
          created_at timestamptz NOT NULL DEFAULT now()
        );
      `),
  },
  {
    // Saved views of lists (docs/architecture.md 'Beyond the spec'): per user, city and resource, named; one default per list.
    name: '0003-saved-views',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE saved_views (
          id bigserial PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          city text NOT NULL,
          resource text NOT NULL,
          name text NOT NULL,
          state jsonb NOT NULL DEFAULT '{}',
          is_default boolean NOT NULL DEFAULT false,
          used_at timestamptz NOT NULL DEFAULT now(),
          created_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (user_id, city, resource, name)
        );
      `),
  },
  {
    // The chat unread count of each user (000 2.3 chat badge; 001 7.9 chatAdminUnread): written by
    // the chat service through PUT /default/api/users/chat-unread/, sent in the user's account info.
    name: '0004-chat-unread',
    up: (tx) =>
      tx.exec(`
        ALTER TABLE users ADD COLUMN chat_admin_unread integer NOT NULL DEFAULT 0 CHECK (chat_admin_unread >= 0);
      `),
  },
  {
    // Nullable number fields (`["integer","null"]`, src/shared/field-types.ts) are compared and sorted
    // as numbers now: their expression indexes, made on text before, are made again by
    // db/resource-tables.ts `ensureResourceTables`, which runs after the migrations.
    name: '0005-nullable-number-indexes',
    up: (tx) =>
      tx.exec(`
        DROP INDEX IF EXISTS r_genre_s_parent_id;
        DROP INDEX IF EXISTS r_work_genre_s_parent_id;
      `),
  },
  {
    // The one job runner of long work (src/server/jobs/: CSV imports, later push delivery and
    // scheduled pushes): a durable queue claimed with FOR UPDATE SKIP LOCKED, and the journal of
    // what each job wrote, so a cancel, a failure or a crash undoes it (job-writes.ts).
    name: '0006-jobs',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE jobs (
          id bigserial PRIMARY KEY,
          kind text NOT NULL,
          payload jsonb NOT NULL DEFAULT '{}',
          state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
          cancel_requested boolean NOT NULL DEFAULT false,
          attempts integer NOT NULL DEFAULT 0,
          max_attempts integer NOT NULL DEFAULT 3,
          run_at timestamptz NOT NULL DEFAULT now(),
          worker text,
          heartbeat_at timestamptz,
          last_error text,
          created_at timestamptz NOT NULL DEFAULT now(),
          finished_at timestamptz
        );
        CREATE INDEX jobs_ready ON jobs (run_at, id) WHERE state = 'queued';
        CREATE INDEX jobs_running ON jobs (heartbeat_at) WHERE state = 'running';
        CREATE TABLE job_writes (
          id bigserial PRIMARY KEY,
          job_id bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
          resource text NOT NULL,
          city text NOT NULL,
          created_ids bigint[],
          row_id bigint,
          previous jsonb,
          previous_version integer
        );
        CREATE INDEX job_writes_job ON job_writes (job_id, id);
      `),
  },
  ...FEATURE_MIGRATIONS,
  ...REVISION_MIGRATIONS,
];

/** umzug storage in the `schema_migrations` table of the transaction it is given. */
function tableStorage(tx: Queryable): UmzugStorage<Queryable> {
  return {
    async logMigration({ name }) {
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    },
    async unlogMigration({ name }) {
      await tx.query('DELETE FROM schema_migrations WHERE name = $1', [name]);
    },
    async executed() {
      const rows = await tx.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      return rows.map((r) => r.name);
    },
  };
}

/**
 * The migrations this code knows that the database has not applied (empty when up to date; all of
 * them before the first `migrate`). A process is ready only when it is empty (routes/health.ts).
 * Errors: database errors.
 */
export async function pendingMigrations(db: Queryable): Promise<string[]> {
  const [{ present }] = await db.query<{ present: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
  const applied = present ? new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name)) : new Set<string>();
  return MIGRATIONS.map((m) => m.name).filter((name) => !applied.has(name));
}

/**
 * Applies the pending migrations. Resolves to the names applied now (empty when up to date).
 * Errors: SQL errors (nothing is applied then: one transaction).
 */
export async function migrate(db: Database): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_MIGRATE]);
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const umzug = new Umzug<Queryable>({
      migrations: MIGRATIONS.map((m) => ({ name: m.name, up: ({ context }) => m.up(context) })),
      context: tx,
      storage: tableStorage(tx),
      logger: undefined,
    });
    const applied = await umzug.up();
    return applied.map((m) => m.name);
  });
}
