/**
 * The migration of the revisions (docs/architecture.md 'Revisions and the recycle bin'): one table of
 * every kept revision of a resource row, and the trigger function every resource table calls after
 * each INSERT, UPDATE and DELETE statement (db/resource-tables.ts `resourceTableSql`). Like the other
 * migrations, a released one is never edited: add a new one at the end of this list.
 *
 * A revision is kept only when the writing transaction says what it does (`keepRevisions` of
 * ./revision-writes.ts sets `app.revision_op` and `app.revision_actor`, transaction-local): the
 * repository's writes, actions, CSV imports, restores and undeletes do; the server's own bookkeeping
 * (a push's open count, an outbox state, a seed) does not. The trigger works on the statement's
 * transition tables, so a batch of 1,000 imported rows keeps its revisions in one INSERT … SELECT.
 * Per revision: the resource, the row id and city, the revision number (1 for a created row, then
 * one above the row's last), who (user id, and username and display name as they were), the
 * operation, and the changed fields' values before and after (objects holding only changed fields;
 * a created row has no `before`, a deleted one no `after` and keeps its whole data in `before`,
 * with the row's creation time, so the recycle bin can bring it back).
 */
import type { Migration } from '../db/migration';

export const REVISION_MIGRATIONS: Migration[] = [
  {
    name: '0008-revisions',
    up: (tx) =>
      tx.exec(`
        CREATE TABLE revisions (
          id bigserial PRIMARY KEY,
          resource text NOT NULL,
          row_id bigint NOT NULL,
          city text NOT NULL,
          revision integer NOT NULL,
          at timestamptz NOT NULL DEFAULT now(),
          user_id integer,
          username text,
          user_name text,
          operation text NOT NULL,
          before jsonb,
          after jsonb,
          row_created timestamptz
        );
        CREATE INDEX revisions_row ON revisions (resource, row_id, revision DESC);
        CREATE INDEX revisions_deleted ON revisions (resource, city, at DESC) WHERE operation = 'delete';
        CREATE INDEX revisions_at ON revisions USING brin (at);
        CREATE FUNCTION keep_revisions() RETURNS trigger LANGUAGE plpgsql AS $fn$
        DECLARE
          op text := nullif(current_setting('app.revision_op', true), '');
          actor integer := nullif(current_setting('app.revision_actor', true), '')::integer;
          res text := substr(TG_TABLE_NAME, 3);
          uname text;
          dname text;
        BEGIN
          IF op IS NULL THEN
            RETURN NULL;
          END IF;
          IF actor IS NOT NULL THEN
            SELECT u.username, u.name INTO uname, dname FROM users u WHERE u.id = actor;
          END IF;
          IF TG_OP = 'INSERT' THEN
            INSERT INTO revisions (resource, row_id, city, revision, user_id, username, user_name, operation, before, after, row_created)
            SELECT res, n.id, n.city, n.version, actor, uname, dname, op, NULL, n.data, n.created_at FROM new_rows n;
          ELSIF TG_OP = 'UPDATE' THEN
            INSERT INTO revisions (resource, row_id, city, revision, user_id, username, user_name, operation, before, after, row_created)
            SELECT res, n.id, n.city,
                   (SELECT coalesce(max(r.revision), 0) + 1 FROM revisions r WHERE r.resource = res AND r.row_id = n.id),
                   actor, uname, dname, op, d.before, d.after, n.created_at
              FROM new_rows n JOIN old_rows o ON o.id = n.id
              CROSS JOIN LATERAL (
                SELECT coalesce(jsonb_object_agg(k, o.data -> k) FILTER (WHERE o.data ? k), '{}'::jsonb) AS before,
                       coalesce(jsonb_object_agg(k, n.data -> k) FILTER (WHERE n.data ? k), '{}'::jsonb) AS after,
                       count(*) AS changed
                  FROM jsonb_object_keys(o.data || n.data) AS k
                 WHERE (o.data -> k) IS DISTINCT FROM (n.data -> k)
              ) d
             WHERE d.changed > 0;
          ELSE
            INSERT INTO revisions (resource, row_id, city, revision, user_id, username, user_name, operation, before, after, row_created)
            SELECT res, o.id, o.city,
                   (SELECT coalesce(max(r.revision), 0) + 1 FROM revisions r WHERE r.resource = res AND r.row_id = o.id),
                   actor, uname, dname, op, o.data, NULL, o.created_at
              FROM old_rows o;
          END IF;
          RETURN NULL;
        END
        $fn$;
      `),
  },
];
