/**
 * The fields the server sets itself, never a client (docs/architecture.md 'One schema per entity':
 * `readOnly` marks them): declared here in one place, beside the code that writes them, and checked by
 * `npm run validate` (scripts/validate.ts): each must be `readOnly` in its schema, so the generated
 * forms leave it out of a create and show it as text on edit, and a client's write of it is ignored.
 * Besides these lists, every resource's `createdField` (the row's creation time) is the server's.
 */
import type { ResourceDef } from './registry';

/** Resource → the fields its server code sets (the module that sets them in the comment). */
export const SERVER_SET_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // src/server/push/ (push-hooks.ts, delivery.ts): the push's state, its counts and its read flag.
  notification: ['push_status', 'read', 'recipients', 'delivered', 'failed_count', 'no_device', 'opened'],
  // src/server/mail/outbox.ts: a mail's sending state.
  mail: ['status', 'attempts', 'last_error', 'sent_at'],
  // src/server/import/ (import-routes.ts, import-job.ts): an import's state and counts.
  csv_import: ['status', 'total_rows', 'done_rows', 'created_rows', 'updated_rows', 'success_rows', 'error_rows', 'warning_rows'],
};

/**
 * One line per server-set field that its schema does not mark `readOnly` (or does not have), naming
 * the schema file and the field; empty when all are. A resource no client writes (no create or
 * update call: the mail outbox, the import history, stored by the server's own SQL) may leave its
 * fields writable: no form shows them and no call takes them. `declared` defaults to `SERVER_SET_FIELDS`.
 */
export function serverFieldProblems(resources: ReadonlyMap<string, ResourceDef>, declared: Readonly<Record<string, readonly string[]>> = SERVER_SET_FIELDS): string[] {
  const problems: string[] = [];
  for (const [name, fields] of Object.entries(declared)) {
    const def = resources.get(name);
    // A tree of schemas without the resource (a test's) has nothing to check for it.
    if (!def) continue;
    const written = !!(def.api.create || def.api.update);
    for (const f of fields) {
      const p = def.schema.properties[f];
      if (!p) problems.push(`src/shared/server-fields.ts: ${name} has no field '${f}' (schemas/${def.schema.$id}.schema.json)`);
      else if (written && !p.readOnly) problems.push(`schemas/${def.schema.$id}.schema.json: field '${f}' is set by the server (src/shared/server-fields.ts) and must be readOnly`);
    }
  }
  for (const def of resources.values()) {
    const created = def.createdField;
    if (created && (def.api.create || def.api.update) && def.schema.properties[created] && !def.schema.properties[created].readOnly) {
      problems.push(`schemas/${def.schema.$id}.schema.json: field '${created}' is the row's creation time, set by the server, and must be readOnly`);
    }
  }
  return problems;
}
