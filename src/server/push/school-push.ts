/**
 * School pushes (001 7.9 the school and president pushes: school/{school_id}/notification/,
 * notification/president/{school_id}/push_notification/; 000 2.2 group/notification): a
 * `school_notification` row (`school_id`, `groups`, `classes`, `parents`, `teachers`) is delivered
 * as every push is: in its create's transaction a `notification` of type `users` naming its
 * recipients is made, with its recipients, inbox rows, delivery job, status and counts
 * (./push-hooks.ts); the school notification keeps that push's id in `notification_id` (its status
 * and counts are read there) and the number of its recipients.
 *
 * Recipients (users of the city, by SQL):
 * - teachers: users with permission Teacher of the school, of the chosen groups or with one of the
 *   chosen classes (all the school's teachers when neither is chosen), and the `teachers` named
 *   (Teachers of the school only);
 * - parents: users of the city whose e-mail is the `parent_email` of a family (student) row of the
 *   chosen classes or of the classes of the chosen groups (all the school's classes when neither is
 *   chosen), and the `parents` named (users of the city);
 * - when `parents` or `teachers` are named and no group or class is chosen, only those named.
 * No recipient: 400, nothing stored (the notification's own rule).
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceDef } from '../../shared/registry';
import type { Queryable } from '../db/database';
import { storageCity, tableName } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { insertRecord } from '../repositories/resource-repository';
import { addWriteHooks, writeHooksOf } from '../repositories/write-hooks';
import { cityIdOf } from './push-hooks';

/** The targeting fields of a school notification. */
export interface SchoolTargeting {
  school_id: number;
  groups?: number[];
  classes?: number[];
  parents?: number[];
  teachers?: number[];
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isInteger(n) && n > 0) : []);

/**
 * The user ids a school notification reaches in city `city` (see the top of this file), ascending.
 * `resources` gives the class and family tables.
 */
export async function schoolRecipients(q: Queryable, city: string, t: SchoolTargeting, resources: ReadonlyMap<string, ResourceDef>): Promise<number[]> {
  const classDef = resources.get('school_class');
  const familyDef = resources.get('family');
  if (!classDef || !familyDef) throw new Error('school pushes need the school_class and family resources');
  const [groups, classes, parents, teachers] = [ids(t.groups), ids(t.classes), ids(t.parents), ids(t.teachers)];
  const chosen = groups.length > 0 || classes.length > 0;
  const wholeSchool = !chosen && parents.length === 0 && teachers.length === 0;
  const rows = await q.query<{ id: number }>(
    `WITH cls AS (
       SELECT id FROM ${tableName(classDef)}
        WHERE city = $2::text AND data->>'school' = $3::text AND ($10::boolean OR data->>'school_group' = ANY($5::text[]) OR id = ANY($7::bigint[]))
     ),
     picked AS (
       SELECT u.id FROM users u
        WHERE ($10::boolean OR $11::boolean) AND u.permission = 'Teacher' AND u.school = $4::int AND u.assign_city @> ARRAY[$1::int]
          AND ($10::boolean OR u.grp = ANY($6::int[]) OR u.classes && $8::int[])
       UNION
       SELECT u.id FROM users u
        WHERE ($10::boolean OR $11::boolean) AND u.assign_city @> ARRAY[$1::int] AND u.email <> ''
          AND lower(u.email) IN (SELECT lower(f.data->>'parent_email') FROM ${tableName(familyDef)} f
                                  WHERE f.city = $12::text AND f.data->>'school_class' IN (SELECT id::text FROM cls))
       UNION
       SELECT u.id FROM users u WHERE u.id = ANY($9::int[]) AND u.assign_city @> ARRAY[$1::int]
       UNION
       SELECT u.id FROM users u WHERE u.id = ANY($13::int[]) AND u.permission = 'Teacher' AND u.school = $4::int AND u.assign_city @> ARRAY[$1::int]
     )
     SELECT id FROM picked ORDER BY id`,
    [
      await cityIdOf(q, city),
      storageCity(classDef, city),
      String(t.school_id),
      Number(t.school_id),
      groups.map(String),
      groups,
      classes,
      classes,
      parents,
      wholeSchool,
      chosen,
      storageCity(familyDef, city),
      teachers,
    ],
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Adds the push of a created school notification (see the top of this file) on `app`'s database:
 * the notification push is made through the notification's own create hook, in the same transaction.
 */
export function addSchoolPushHooks(app: FastifyInstance, schoolNotification: ResourceDef, notification: ResourceDef): void {
  const { db, resources } = app;
  addWriteHooks(db, schoolNotification.name, {
    async created(tx, city, row) {
      const recipients = await schoolRecipients(tx, city, row as unknown as SchoolTargeting, resources);
      if (recipients.length === 0) throw new HttpError('validation', { fieldErrors: { _: [{ key: 'validation.content.no_recipient', params: {} }] } });
      const data: Record<string, unknown> = { title: row.title, body: row.body, type: 'users', users: recipients, type_display: 0, push_status: 'queued', read: false };
      if (row.photo_url) data.photo_url = row.photo_url;
      const made = await insertRecord(tx, notification, storageCity(notification, city), data, { userId: null }, 'create:school_notification');
      const pushed = (await writeHooksOf(db, notification.name)?.created?.(tx, city, made)) ?? made;
      const link = { notification_id: Number(pushed.id), recipients: pushed.recipients };
      await tx.query(`UPDATE ${tableName(schoolNotification)} SET data = data || $2::jsonb WHERE id = $1`, [row.id, JSON.stringify(link)]);
      return { ...row, ...link };
    },
  });
}
