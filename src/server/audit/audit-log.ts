/**
 * The audit log (schemas/audit_log.schema.json; docs/architecture.md 'Audit log'): one row of the
 * `audit_log` resource for each write of a resource row or a user, and for each security event.
 * Every writer of the server goes through `recordAudit`, in the transaction of what it records, so
 * an entry exists exactly when its change does. The rows are global (city key `*`); `city` says which
 * city an entry concerns. Administrators read them through the generated list and show pages.
 */
import type { Database, Queryable } from '../db/database';
import { GLOBAL_CITY } from '../db/resource-tables';

/** The table of the `audit_log` resource (src/server/db/resource-tables.ts `tableName`). */
export const AUDIT_TABLE = 'r_audit_log';
/** Its name in `resource_counts`; its rows are global (`GLOBAL_CITY`). */
const RESOURCE = 'audit_log';

/** What an entry is about (the schema's `category`). */
export type AuditCategory = 'record' | 'user' | 'security';

/** One audit entry as a writer gives it. */
export interface AuditEntry {
  category: AuditCategory;
  /** What was done: `create`, `update`, `delete`, an action's name, a security event (`sign_in`, …). */
  action: string;
  /** Who did it (a user id), or null for the server (seed, job) or an unknown username. */
  userId: number | null;
  /** The city it concerns (a city code), when there is one. */
  city?: string | null;
  /** The resource of the row written (`user` for users), when there is one. */
  resource?: string | null;
  /** The id of the row written, when there is one. */
  recordId?: number | null;
  /** The client's IP address, when there is a request. */
  ip?: string | null;
  /** Details as an object; stored as its JSON text (at most 4,000 characters). */
  detail?: Record<string, unknown> | null;
}

/**
 * Writes `entries` in `tx` in one statement, with their `username` as it is now (the entry keeps it
 * when the user is deleted), and counts them in `resource_counts`. Errors: database errors (the
 * caller's transaction then fails with them).
 */
export async function recordAudit(tx: Queryable, entries: AuditEntry | readonly AuditEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries as AuditEntry];
  if (list.length === 0) return;
  const rows = list.map((e) => ({
    category: e.category,
    action: e.action,
    user_id: e.userId,
    city: e.city ?? null,
    resource: e.resource ?? null,
    record_id: e.recordId ?? null,
    ip: e.ip ?? null,
    detail: e.detail && Object.keys(e.detail).length > 0 ? JSON.stringify(e.detail).slice(0, 4000) : null,
  }));
  await tx.query(
    `WITH written AS (
       INSERT INTO ${AUDIT_TABLE} (city, data)
       SELECT $1, jsonb_strip_nulls(jsonb_build_object('category', e.category, 'action', e.action, 'user_id', e.user_id, 'username', u.username,
              'city', e.city, 'resource', e.resource, 'record_id', e.record_id, 'ip', e.ip, 'detail', e.detail))
         FROM jsonb_to_recordset($2::jsonb) AS e(category text, action text, user_id integer, city text, resource text, record_id bigint, ip text, detail text)
         LEFT JOIN users u ON u.id = e.user_id
       RETURNING 1
     )
     INSERT INTO resource_counts (resource, city, n) SELECT $3, $1, count(*) FROM written
     ON CONFLICT (resource, city) DO UPDATE SET n = resource_counts.n + EXCLUDED.n`,
    [GLOBAL_CITY, JSON.stringify(rows), RESOURCE],
  );
}

/**
 * Moves the rows of the audit table of the first releases (`audit_log`, migrations 0001 and 0007)
 * into the resource's table once, and drops it; nothing when it is gone. Run after the resource
 * tables exist (src/server/db/prepare.ts), in one transaction.
 */
export async function moveFirstAuditTable(db: Database): Promise<void> {
  const found = async (q: Queryable) => (await q.query<{ found: boolean }>(`SELECT to_regclass('audit_log') IS NOT NULL AS found`))[0].found;
  if (!(await found(db))) return;
  await db.transaction(async (tx) => {
    // Several processes may start at once on PostgreSQL: one moves, the others find it gone.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('city-console audit_log move'))`);
    if (!(await found(tx))) return;
    await tx.query(
      `WITH moved AS (
         INSERT INTO ${AUDIT_TABLE} (city, data, created_at, updated_at)
         SELECT $1, jsonb_strip_nulls(jsonb_build_object('category', CASE WHEN a.resource = 'security' THEN 'security' WHEN a.resource = 'user' THEN 'user' ELSE 'record' END,
                'action', a.action, 'user_id', a.user_id, 'username', u.username, 'city', a.city,
                'resource', CASE WHEN a.resource = 'security' THEN NULL ELSE a.resource END, 'record_id', a.record_id, 'ip', a.ip, 'detail', a.detail::text)),
                a.at, a.at
           FROM audit_log a LEFT JOIN users u ON u.id = a.user_id ORDER BY a.id
         RETURNING 1
       )
       INSERT INTO resource_counts (resource, city, n) SELECT $2, $1, count(*) FROM moved
       ON CONFLICT (resource, city) DO UPDATE SET n = resource_counts.n + EXCLUDED.n`,
      [GLOBAL_CITY, RESOURCE],
    );
    await tx.query('DROP TABLE audit_log');
  });
}
