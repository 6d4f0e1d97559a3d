/**
 * The delivery of a push (000 2.2 notification; 001 7.9), a job kind of the one runner
 * (docs/architecture.md 'Jobs', src/server/jobs/job-runner.ts): payload `{notification_id, city}`
 * (the notification's storage key). Each recipient has a `push_recipients` row (pending, sending,
 * delivered, failed, no_device), written with the notification (./push-hooks.ts). An attempt:
 * - sets `push_status` `sending`;
 * - with a non-transactional provider (FCM), ends the rows left `sending` by a crash as `failed`
 *   (`interrupted`): whether they went out is unknown, and a push is never sent twice;
 * - takes the pending recipients in batches of BATCH_SIZE in user id order and sends one message per
 *   device token; the outbox provider writes in the transaction that marks the batch, FCM between
 *   a transaction that marks it `sending` and one that records the results. A recipient is
 *   delivered when one of its devices got it; a transient error leaves it pending (attempts + 1,
 *   failed after MAX_RECIPIENT_ATTEMPTS); tokens the provider reports invalid are deleted;
 * - updates the counts on the record at most every PROGRESS_MS and when the attempt ends, and
 *   announces them (live channel `push_status`, read by push-routes.ts's stream);
 * - throws when recipients wait for another attempt: the runner retries after its backoff.
 * When the job ends (succeeded, failed or cancelled) the status becomes `sent` (nothing failed),
 * `partial` (some delivered, some failed), `failed` (none delivered) or stays `cancelled`.
 */
import type { ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import type { JobKind } from '../jobs/job-runner';
import { publish } from '../events/live-channel';
import type { PushMessage, PushProvider, PushResult } from './providers';

/** The job kind. */
export const PUSH_JOB = 'push-delivery';
/** Recipients per batch (FCM's sendEach takes at most 500 messages). */
export const BATCH_SIZE = 500;
/** Attempts of one recipient before it is failed. */
export const MAX_RECIPIENT_ATTEMPTS = 3;
/** The least time between two count updates of a running delivery (ms): each one counts the recipients. */
export const PROGRESS_MS = 1000;
/** The live channel of push progress. */
export const PUSH_CHANNEL = 'push_status';

/** The payload of a delivery job. */
export interface PushPayload {
  notification_id: number;
  city: string;
}

/** The counts of a push, as stored on the notification. */
export interface PushCounts {
  recipients: number;
  delivered: number;
  failed_count: number;
  no_device: number;
}

/** The counts of notification `id` from its recipients. */
export async function pushCounts(q: Queryable, id: number): Promise<PushCounts> {
  const rows = await q.query<{ state: string; n: number }>('SELECT state, count(*)::int AS n FROM push_recipients WHERE notification_id = $1 GROUP BY state', [id]);
  const by = Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  const recipients = rows.reduce((s, r) => s + Number(r.n), 0);
  return { recipients, delivered: by.delivered ?? 0, failed_count: by.failed ?? 0, no_device: by.no_device ?? 0 };
}

/** The final status of counts `c`. */
export function finalStatus(c: PushCounts): 'sent' | 'partial' | 'failed' {
  if (c.failed_count === 0) return 'sent';
  return c.delivered > 0 ? 'partial' : 'failed';
}

/**
 * Stores the counts (and `status` when given) on the notification, without a new version (they are
 * the server's fields), and announces them. Answers the stored data.
 */
export async function storeProgress(tx: Queryable, def: ResourceDef, p: PushPayload, status?: string): Promise<void> {
  const counts = await pushCounts(tx, p.notification_id);
  const extra = status ? { ...counts, push_status: status } : counts;
  await tx.query(`UPDATE ${tableName(def)} SET data = data || $3::jsonb WHERE id = $1 AND city = $2`, [p.notification_id, p.city, JSON.stringify(extra)]);
  await publish(tx, PUSH_CHANNEL, { id: p.notification_id, city: p.city });
}

interface Recipient {
  user_id: number;
  attempts: number;
  tokens: string[] | null;
}

/** The per-recipient outcome of one batch's results. */
function outcomes(batch: Recipient[], messages: PushMessage[], results: PushResult[]) {
  const byUser = new Map<number, PushResult[]>();
  messages.forEach((m, i) => byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), results[i]]));
  const invalid = messages.filter((_, i) => results[i]?.invalidToken).map((m) => m.token);
  const rows = batch.map((r) => {
    const rs = byUser.get(r.user_id) ?? [];
    if (rs.length === 0) return { user_id: r.user_id, state: 'no_device', error: null };
    if (rs.some((x) => x.ok)) return { user_id: r.user_id, state: 'delivered', error: null };
    const error = rs.map((x) => x.error ?? 'unknown').join(',');
    const retry = rs.some((x) => x.retry) && r.attempts + 1 < MAX_RECIPIENT_ATTEMPTS;
    return { user_id: r.user_id, state: retry ? 'pending' : 'failed', error };
  });
  return { rows, invalid };
}

async function applyOutcomes(tx: Queryable, id: number, out: ReturnType<typeof outcomes>): Promise<void> {
  await tx.query(
    `UPDATE push_recipients p SET state = o.state, error = o.error, attempts = p.attempts + 1, updated_at = now()
     FROM jsonb_to_recordset($2::jsonb) AS o(user_id int, state text, error text)
     WHERE p.notification_id = $1 AND p.user_id = o.user_id`,
    [id, JSON.stringify(out.rows)],
  );
  if (out.invalid.length > 0) await tx.query('DELETE FROM member_devices WHERE token = ANY($1::text[])', [out.invalid]);
}

/** The job kind of push delivery over `provider` on notification definition `def`. */
export function pushJob(db: Database, def: ResourceDef, provider: PushProvider): JobKind<PushPayload> {
  const finish = async (tx: Queryable, p: PushPayload) => {
    const [row] = await tx.query<{ status: string }>(`SELECT data->>'push_status' AS status FROM ${tableName(def)} WHERE id = $1 AND city = $2`, [p.notification_id, p.city]);
    if (!row || row.status === 'cancelled') return;
    await storeProgress(tx, def, p, finalStatus(await pushCounts(tx, p.notification_id)));
  };
  return {
    kind: PUSH_JOB,
    maxAttempts: 6,
    backoffMs: (attempt) => Math.min(300_000, 1000 * 2 ** attempt),
    async run({ job, checkpoint }) {
      const p = job.payload;
      const [n] = await db.query<{ data: Record<string, unknown> }>(`SELECT data FROM ${tableName(def)} WHERE id = $1 AND city = $2`, [p.notification_id, p.city]);
      if (!n || n.data.push_status === 'cancelled') return;
      await db.transaction(async (tx) => {
        if (!provider.transactional) {
          await tx.query(`UPDATE push_recipients SET state = 'failed', error = 'interrupted', updated_at = now() WHERE notification_id = $1 AND state = 'sending'`, [p.notification_id]);
        }
        await storeProgress(tx, def, p, 'sending');
      });
      const message = (r: Recipient, token: string): PushMessage => ({
        notificationId: p.notification_id,
        userId: r.user_id,
        token,
        title: String(n.data.title ?? ''),
        body: String(n.data.body ?? ''),
        ...(n.data.photo_url ? { imageUrl: String(n.data.photo_url) } : {}),
        data: { notification_id: String(p.notification_id), ...(n.data.url ? { url: String(n.data.url) } : {}) },
      });
      const claim = (q: Queryable, after: number) =>
        q.query<Recipient>(
          `SELECT r.user_id, r.attempts, (SELECT array_agg(d.token ORDER BY d.id) FROM member_devices d WHERE d.user_id = r.user_id) AS tokens
           FROM push_recipients r WHERE r.notification_id = $1 AND r.state = 'pending' AND r.user_id > $2 ORDER BY r.user_id LIMIT ${BATCH_SIZE} FOR UPDATE OF r SKIP LOCKED`,
          [p.notification_id, after],
        );
      let after = 0;
      let shown = Date.now();
      const progress = async (tx: Queryable) => {
        if (Date.now() - shown < PROGRESS_MS) return;
        shown = Date.now();
        await storeProgress(tx, def, p);
      };
      for (;;) {
        await checkpoint();
        const sent = await db.transaction(async (tx) => {
          const batch = await claim(tx, after);
          if (batch.length === 0) return null;
          const messages = batch.flatMap((r) => (r.tokens ?? []).map((t) => message(r, t)));
          if (!provider.transactional) {
            await tx.query(`UPDATE push_recipients SET state = 'sending', updated_at = now() WHERE notification_id = $1 AND user_id = ANY($2::int[])`, [
              p.notification_id,
              batch.map((r) => r.user_id),
            ]);
            return { batch, messages };
          }
          await applyOutcomes(tx, p.notification_id, outcomes(batch, messages, await provider.send(messages, tx)));
          await progress(tx);
          return { batch, messages, done: true };
        });
        if (!sent) break;
        after = sent.batch[sent.batch.length - 1].user_id;
        if ('done' in sent) continue;
        const results = await provider.send(sent.messages);
        await db.transaction(async (tx) => {
          await applyOutcomes(tx, p.notification_id, outcomes(sent.batch, sent.messages, results));
          await progress(tx);
        });
      }
      const [{ n: waiting }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM push_recipients WHERE notification_id = $1 AND state = 'pending'`, [
        p.notification_id,
      ]);
      if (Number(waiting) > 0) throw new Error(`${waiting} recipients wait for another attempt`);
    },
    completed: (tx, job) => finish(tx, job.payload),
    async settled(tx, job, end) {
      // Stopped for a retry: the counts as they are, the status stays `sending`.
      if (end === 'retry') return storeProgress(tx, def, job.payload);
      // The job gave up or was cancelled: the recipients still waiting are failed.
      await tx.query(`UPDATE push_recipients SET state = 'failed', error = coalesce(error, $2), updated_at = now() WHERE notification_id = $1 AND state = 'pending'`, [
        job.payload.notification_id,
        end,
      ]);
      await finish(tx, job.payload);
    },
  };
}
