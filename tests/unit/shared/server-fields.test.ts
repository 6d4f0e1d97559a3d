/**
 * The fields the server sets (src/shared/server-fields.ts) are readOnly in their schemas: the
 * project's schemas pass; a declared field left writable, a declared field the schema lacks, and a
 * writable creation time are each named; a resource no client writes may keep writable fields.
 */
import { describe, expect, it } from 'vitest';
import { buildRegistry, registry, type ResourceSchema } from '@/shared/registry';
import { SERVER_SET_FIELDS, serverFieldProblems } from '@/shared/server-fields';

/** The registry with the notification schema changed by `edit`. */
function withNotification(edit: (s: ResourceSchema) => void): ReturnType<typeof buildRegistry> {
  const schemas = [...registry.values()].map((d) => structuredClone(d.schema));
  edit(schemas.find((s) => s.$id === 'notification')!);
  return buildRegistry(schemas);
}

describe('server-set fields', () => {
  it("are readOnly in the project's schemas, and the push's state and counts are among them", () => {
    expect(serverFieldProblems(registry)).toEqual([]);
    expect(SERVER_SET_FIELDS.notification).toEqual(expect.arrayContaining(['push_status', 'read', 'recipients', 'delivered']));
  });

  it('names a declared field left writable, one the schema lacks, and a writable creation time', () => {
    const changed = withNotification((s) => {
      delete s.properties.recipients.readOnly;
      delete s.properties.created_at.readOnly;
    });
    expect(serverFieldProblems(changed, { notification: ['push_status', 'recipients', 'sent_count'] })).toEqual([
      "schemas/notification.schema.json: field 'recipients' is set by the server (src/shared/server-fields.ts) and must be readOnly",
      "src/shared/server-fields.ts: notification has no field 'sent_count' (schemas/notification.schema.json)",
      "schemas/notification.schema.json: field 'created_at' is the row's creation time, set by the server, and must be readOnly",
    ]);
  });

  it('lets a resource no client writes (no create or update call) keep its server fields writable', () => {
    const mail = registry.get('mail')!;
    expect(mail.api.create ?? mail.api.update).toBeUndefined();
    expect(mail.schema.properties.status.readOnly).toBeUndefined();
    expect(serverFieldProblems(registry, { mail: ['status'] })).toEqual([]);
  });
});
