/**
 * The migrations of the fixed tables of the console's features (docs/architecture.md 'Storage'): the
 * sign-in security tables, push delivery and chat. They run after those of ./migrations.ts, in this
 * order; like them, a released one is never edited: add a new one at the end of this list.
 */
import type { Migration } from './migration';

export const FEATURE_MIGRATIONS: Migration[] = [
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
  {
    // Declared data migrations of resource rows (src/server/data-check/; docs/architecture.md
    // 'Changing an entity'): each applied one, when, and the rows it read, changed and left failing.
    name: '0008-data-migrations',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE data_migrations (
          name text PRIMARY KEY,
          resource text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now(),
          rows_read bigint NOT NULL,
          rows_changed bigint NOT NULL,
          failing_after bigint NOT NULL,
          ms integer NOT NULL
        );
      `),
  },
  {
    // Staff sign-in (src/server/auth/second-factor.ts, passkeys.ts, sessions.ts): a TOTP secret per
    // user (pending until a first code confirms it, with the last time step used), hashed one-time
    // recovery codes, passkeys (WebAuthn credentials) and their one-time challenges, and a row per
    // signed-in session (its refresh family, browser, IP, start and last use) for the session list
    // and the idle and absolute limits.
    name: '0009-staff-sign-in',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE user_totp (
          user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
          secret text,
          pending_secret text,
          enabled_at timestamptz,
          last_step bigint NOT NULL DEFAULT 0
        );
        CREATE TABLE user_recovery_codes (
          id bigserial PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          code_hash text NOT NULL,
          used_at timestamptz
        );
        CREATE INDEX user_recovery_codes_user ON user_recovery_codes (user_id);
        CREATE TABLE user_passkeys (
          id bigserial PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          credential_id text NOT NULL UNIQUE,
          public_key bytea NOT NULL,
          counter bigint NOT NULL DEFAULT 0,
          transports text[] NOT NULL DEFAULT '{}',
          name text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          last_used_at timestamptz
        );
        CREATE INDEX user_passkeys_user ON user_passkeys (user_id);
        CREATE TABLE webauthn_challenges (
          challenge text PRIMARY KEY,
          user_id integer REFERENCES users(id) ON DELETE CASCADE,
          purpose text NOT NULL,
          expires_at timestamptz NOT NULL
        );
        CREATE TABLE user_sessions (
          id bigserial PRIMARY KEY,
          family uuid NOT NULL UNIQUE,
          booking_family uuid,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          user_agent text NOT NULL DEFAULT '',
          ip text,
          started_at timestamptz NOT NULL DEFAULT now(),
          last_used_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX user_sessions_user ON user_sessions (user_id);
      `),
  },
  {
    // The per-IP limits of the open calls and sign-ins, counted once for every process on one
    // PostgreSQL (src/server/plugins/rate-limit-store.ts): one row per key and window.
    name: '0010-rate-limits',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE rate_limits (
          key text PRIMARY KEY,
          hits integer NOT NULL,
          expires_at timestamptz NOT NULL
        );
        CREATE INDEX rate_limits_expires ON rate_limits (expires_at);
      `),
  },
];
