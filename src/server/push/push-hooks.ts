/**
 * What a notification's writes do (000 2.2 notification, 4 read after opening; 001 7.9), in the
 * writing transaction (repositories/write-hooks.ts):
 * - created (POST list-notify/ and every create alias): the targeting is checked
 *   (./targeting.ts), the recipients resolved into `push_recipients` (`no_device` for users
 *   without a device token), one `user_notify` inbox row written per recipient, and the delivery
 *   job queued to run at `scheduled_at` (or at once). No recipient: 400, nothing stored.
 * - updated, `push_status` moved by the client (PUT, or the `resend_notification` and
 *   `cancel_push` actions): to `cancelled` from `queued` while the job has not started (else 409:
 *   its inbox rows and recipients are removed); to `queued` from `sent`, `partial` or `failed`:
 *   a resend, the failed recipients (and those without a device then, who have one now) pending
 *   again and a new job queued. Any other change of it: 400.
 * - a `user_notify` row read (`read` false → true, or back): the notification's `opened` follows.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceDef } from '../../shared/registry';
import type { Queryable } from '../db/database';
import { storageCity, tableName } from '../db/resource-tables';
import { HttpError } from '../http-error';
import type { ResourceRow } from '../repositories/record-shape';
import { addCount } from '../repositories/resource-repository';
import { addWriteHooks } from '../repositories/write-hooks';
import { PUSH_CHANNEL, PUSH_JOB, storeProgress, type PushPayload } from './delivery';
import { publish } from '../events/live-channel';
import { recipientSql, targetingErrors, type Targeting } from './targeting';

/** Resolves city key `city` to its id. Errors: 404 for an unknown city. */
export async function cityIdOf(q: Queryable, city: string): Promise<number> {
  const [row] = await q.query<{ id: number }>('SELECT id FROM cities WHERE name = $1', [city]);
  if (!row) throw new HttpError('not_found');
  return Number(row.id);
}

/** 400 with the targeting errors of `t`, if any. */
export function throwIfBadTargeting(t: Targeting): void {
  const errors = targetingErrors(t);
  if (errors) throw new HttpError('validation', { fieldErrors: errors });
}

const changeError = (key: string) => ({ push_status: [{ key, params: {} }] });

/** Adds the push hooks of notification and user_notify writes on `app`'s database. */
export function addPushHooks(app: FastifyInstance, notification: ResourceDef, userNotify: ResourceDef): void {
  const { db, jobs } = app;
  const nTable = tableName(notification);
  const inboxTable = tableName(userNotify);

  const enqueue = async (tx: Queryable, p: PushPayload, scheduledAt: unknown) => {
    const delayMs = typeof scheduledAt === 'string' ? Math.max(0, Date.parse(scheduledAt) - Date.now()) : 0;
    await jobs.enqueue(tx, PUSH_JOB, { ...p }, { delayMs });
    // The job starts at the next poll after the commit (within a second), or at its time.
  };
  const reread = async (tx: Queryable, row: ResourceRow, city: string): Promise<ResourceRow> => {
    const [stored] = await tx.query<{ data: Record<string, unknown> }>(`SELECT data FROM ${nTable} WHERE id = $1 AND city = $2`, [row.id, city]);
    return { ...row, ...stored.data };
  };

  addWriteHooks(db, notification.name, {
    async created(tx, city, row) {
      const t = row as Targeting & ResourceRow;
      throwIfBadTargeting(t);
      const id = Number(row.id);
      const params: unknown[] = [];
      const select = recipientSql(t, { id: await cityIdOf(tx, city), name: city, resources: app.resources }, params);
      params.push(id, city);
      const n = params.length;
      await tx.query(
        `INSERT INTO push_recipients (notification_id, city, user_id, state)
         SELECT $${n - 1}, $${n}, r.id, CASE WHEN EXISTS (SELECT 1 FROM member_devices d WHERE d.user_id = r.id) THEN 'pending' ELSE 'no_device' END
         FROM (${select}) r`,
        params,
      );
      const inboxCity = storageCity(userNotify, city);
      const inbox = await tx.query<{ n: number }>(
        `WITH made AS (INSERT INTO ${inboxTable} (city, data)
           SELECT $2, jsonb_build_object('notification_id', $1::bigint, 'user_id', user_id, 'read', false) FROM push_recipients WHERE notification_id = $1 ORDER BY user_id RETURNING 1)
         SELECT count(*)::int AS n FROM made`,
        [id, inboxCity],
      );
      const recipients = Number(inbox[0]?.n ?? 0);
      if (recipients === 0) throw new HttpError('validation', { fieldErrors: { _: [{ key: 'validation.content.no_recipient', params: {} }] } });
      await addCount(tx, userNotify, inboxCity, recipients);
      await tx.query(`UPDATE ${nTable} SET data = data || '{"opened": 0, "read": false}'::jsonb WHERE id = $1`, [id]);
      const payload = { notification_id: id, city };
      await storeProgress(tx, notification, payload, 'queued');
      await enqueue(tx, payload, row.scheduled_at);
      return reread(tx, row, city);
    },
    async updated(tx, city, before, row) {
      const from = before.push_status;
      const to = row.push_status;
      if (from === to) return;
      const id = Number(row.id);
      const payload = { notification_id: id, city };
      if (to === 'cancelled') {
        if (from !== 'queued') throw new HttpError('conflict', { fieldErrors: changeError('validation.content.push_started') });
        const stopped = await tx.query(
          `UPDATE jobs SET state = 'cancelled', cancel_requested = true, finished_at = now()
           WHERE kind = $1 AND state = 'queued' AND (payload->>'notification_id')::bigint = $2 AND payload->>'city' = $3 RETURNING id`,
          [PUSH_JOB, id, city],
        );
        if (stopped.length === 0) throw new HttpError('conflict', { fieldErrors: changeError('validation.content.push_started') });
        const gone = await tx.query(`DELETE FROM ${inboxTable} WHERE city = $1 AND (data->>'notification_id')::bigint = $2 RETURNING 1`, [storageCity(userNotify, city), id]);
        await addCount(tx, userNotify, storageCity(userNotify, city), -gone.length);
        await tx.query('DELETE FROM push_recipients WHERE notification_id = $1', [id]);
        await storeProgress(tx, notification, payload, 'cancelled');
        return reread(tx, row, city);
      }
      if (to === 'queued' && (from === 'sent' || from === 'partial' || from === 'failed')) {
        await tx.query(
          `UPDATE push_recipients r SET state = 'pending', attempts = 0, error = NULL, updated_at = now()
           WHERE r.notification_id = $1 AND (r.state = 'failed' OR (r.state = 'no_device' AND EXISTS (SELECT 1 FROM member_devices d WHERE d.user_id = r.user_id)))`,
          [id],
        );
        await storeProgress(tx, notification, payload, 'queued');
        await enqueue(tx, payload, undefined);
        return reread(tx, row, city);
      }
      throw new HttpError('validation', { fieldErrors: changeError('validation.content.push_status_change') });
    },
  });

  addWriteHooks(db, userNotify.name, {
    async updated(tx, city, before, row) {
      const delta = (row.read === true ? 1 : 0) - (before.read === true ? 1 : 0);
      if (delta === 0) return;
      const rows = await tx.query<{ id: number; city: string }>(
        `UPDATE ${nTable} SET data = jsonb_set(data, '{opened}', to_jsonb(greatest(0, coalesce((data->>'opened')::int, 0) + $2)))
         WHERE id = $1 RETURNING id, city`,
        [row.notification_id, delta],
      );
      for (const r of rows) await publish(tx, PUSH_CHANNEL, { id: Number(r.id), city: r.city });
      void city;
    },
  });
}
