/**
 * Versioned migrations of the fixed tables (docs/architecture.md 'Storage'), run with umzug. Applied names are kept
 * in `schema_migrations`. Everything runs in one transaction under an advisory lock, so several
 * processes starting at once against one PostgreSQL migrate exactly once.
 * A migration is never edited once released: add a new one at the end.
 */
import { Umzug, type UmzugStorage } from 'umzug';
import type { Database, Queryable } from './database';

/** Advisory lock keys of start-up work (any fixed numbers, distinct per kind of work). */
export const LOCK_MIGRATE = 7_412_001;
export const LOCK_RESOURCE_TABLES = 7_412_002;
export const LOCK_SEED = 7_412_003;
/** Advisory lock key of chat writes, taken with the city's hash: a city's chat events commit in id order (chat/chat-writes.ts). */
export const LOCK_CHAT = 7_412_004;

interface Migration {
  name: string;
  up: (tx: Queryable) => Promise<void>;
}

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
  {
    // Sign-in security (src/server/auth/sign-in-throttle.ts, auth/security-events.ts): failed sign-ins
    // per account whatever the IP, and the security events in the audit log with who, from where, and
    // the event's details (a username that names nobody, the roles and cities before and after).
    name: '0007-sign-in-security',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE sign_in_failures (
          username text PRIMARY KEY,
          failures integer NOT NULL,
          last_failure_at timestamptz NOT NULL,
          blocked_until timestamptz
        );
        ALTER TABLE audit_log ADD COLUMN ip text, ADD COLUMN detail jsonb;
        CREATE INDEX audit_log_security ON audit_log (action, at DESC) WHERE resource = 'security';
        CREATE INDEX refresh_tokens_expires ON refresh_tokens (expires_at);
      `),
  },
  {
    // Push delivery (src/server/push/; 000 2.2 notification, device; 001 7.9): what targeting reads of
    // a member (birth year, gender, home municipality code and point, last location and its time),
    // device tokens per app installation, the delivery state of each recipient of a push and the
    // outbox provider's record of what was sent. Points are built-in `point`s (x = longitude,
    // y = latitude) under GiST indexes: `<@ box` and `<@ polygon` use them on PGlite and PostgreSQL
    // alike (no PostGIS, no extension).
    name: '0007-push',
    up: (tx) =>
      tx.exec(`
        ALTER TABLE users ADD COLUMN birth_year integer CHECK (birth_year BETWEEN 1900 AND 2100);
        ALTER TABLE users ADD COLUMN gender text CHECK (gender IN ('male', 'female', 'other'));
        ALTER TABLE users ADD COLUMN home_municipality text;
        ALTER TABLE users ADD COLUMN home_point point;
        ALTER TABLE users ADD COLUMN last_point point;
        ALTER TABLE users ADD COLUMN last_located_at timestamptz;
        CREATE INDEX users_home_point ON users USING gist (home_point);
        CREATE INDEX users_last_point ON users USING gist (last_point);
        CREATE INDEX users_birth_year ON users (birth_year);
        CREATE TABLE member_devices (
          id bigserial PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          installation_id text NOT NULL,
          token text NOT NULL UNIQUE,
          platform text NOT NULL DEFAULT 'unknown',
          updated_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (user_id, installation_id)
        );
        CREATE TABLE push_recipients (
          notification_id bigint NOT NULL,
          city text NOT NULL,
          user_id integer NOT NULL,
          state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'delivered', 'failed', 'no_device')),
          attempts integer NOT NULL DEFAULT 0,
          error text,
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (notification_id, user_id)
        );
        CREATE INDEX push_recipients_state ON push_recipients (notification_id, state, user_id);
        CREATE TABLE push_outbox (
          id bigserial PRIMARY KEY,
          notification_id bigint NOT NULL,
          user_id integer NOT NULL,
          token text NOT NULL,
          message jsonb NOT NULL,
          sent_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (notification_id, user_id, token)
        );
      `),
  },
  {
    // Chat between a city's Operators and a shop, and a class's group chat (000 2.2 chat, group/chat;
    // 001 7.9 chatAdminUnread, 7.12; docs/architecture.md 'Chat'): conversations, their participants
    // with the last message read and the unread count (kept by each send, in its transaction),
    // messages (text of at most 2,000 characters, an optional uploaded image, a deleted flag), and
    // the events of each city in commit order (a message, a deletion) that the live streams resume from.
    name: '0007-chat',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE chat_conversations (
          id bigserial PRIMARY KEY,
          city text NOT NULL,
          kind text NOT NULL CHECK (kind IN ('shop', 'class')),
          shop_id bigint,
          class_id bigint,
          teacher_id integer REFERENCES users(id) ON DELETE CASCADE,
          last_message_id bigint,
          last_message_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now(),
          CHECK ((kind = 'shop' AND shop_id IS NOT NULL) OR (kind = 'class' AND class_id IS NOT NULL AND teacher_id IS NOT NULL))
        );
        CREATE UNIQUE INDEX chat_conversations_shop ON chat_conversations (city, shop_id) WHERE kind = 'shop';
        CREATE UNIQUE INDEX chat_conversations_class ON chat_conversations (city, class_id, teacher_id) WHERE kind = 'class';
        CREATE INDEX chat_conversations_recent ON chat_conversations (city, kind, last_message_at DESC NULLS LAST, id DESC);
        CREATE TABLE chat_participants (
          conversation_id bigint NOT NULL REFERENCES chat_conversations(id) ON DELETE CASCADE,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          side text NOT NULL CHECK (side IN ('city', 'shop', 'teacher')),
          last_read_id bigint NOT NULL DEFAULT 0,
          unread integer NOT NULL DEFAULT 0 CHECK (unread >= 0),
          PRIMARY KEY (conversation_id, user_id)
        );
        CREATE INDEX chat_participants_user ON chat_participants (user_id);
        CREATE TABLE chat_messages (
          id bigserial PRIMARY KEY,
          conversation_id bigint NOT NULL REFERENCES chat_conversations(id) ON DELETE CASCADE,
          sender_id integer REFERENCES users(id) ON DELETE SET NULL,
          sender_name text NOT NULL DEFAULT '',
          side text NOT NULL,
          text text NOT NULL DEFAULT '' CHECK (char_length(text) <= 2000),
          image_file_id bigint REFERENCES files(id),
          deleted boolean NOT NULL DEFAULT false,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX chat_messages_page ON chat_messages (conversation_id, id DESC);
        CREATE INDEX chat_messages_sender ON chat_messages (sender_id, created_at);
        CREATE TABLE chat_events (
          id bigserial PRIMARY KEY,
          city text NOT NULL,
          conversation_id bigint NOT NULL REFERENCES chat_conversations(id) ON DELETE CASCADE,
          message_id bigint NOT NULL REFERENCES chat_messages(id) ON DELETE CASCADE,
          kind text NOT NULL CHECK (kind IN ('message', 'deleted'))
        );
        CREATE INDEX chat_events_city ON chat_events (city, id);
      `),
  },
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
