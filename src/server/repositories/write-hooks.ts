/**
 * Capability hooks on the writes of one resource (docs/architecture.md 'Storage'): a capability
 * (push delivery, src/server/push/) adds what must happen in the writing transaction of a generic
 * create or update of a resource, e.g. resolving the recipients of a new notification. Hooks are
 * kept per database object, so two apps on two databases (the tests) never share them.
 */
import type { Database, Queryable } from '../db/database';
import type { ResourceRow } from './record-shape';

/** What may run in the transaction of a write; throwing rolls the write back (an HttpError is answered). */
export interface WriteHooks {
  /** After the insert of `row` in city key `city`; may answer the row as changed. */
  created?(tx: Queryable, city: string, row: ResourceRow): Promise<ResourceRow | void>;
  /** After an update (PUT, PATCH, set and toggle actions) from data `before` to `row`; may answer the row as changed. */
  updated?(tx: Queryable, city: string, before: Readonly<Record<string, unknown>>, row: ResourceRow): Promise<ResourceRow | void>;
}

const hooks = new WeakMap<Database, Map<string, WriteHooks>>();

/** Adds `h` to the writes of `resource` on `db` (at route registration). */
export function addWriteHooks(db: Database, resource: string, h: WriteHooks): void {
  let byResource = hooks.get(db);
  if (!byResource) hooks.set(db, (byResource = new Map()));
  byResource.set(resource, h);
}

/** The hooks of `resource` on `db`, if any. */
export function writeHooksOf(db: Database, resource: string): WriteHooks | undefined {
  return hooks.get(db)?.get(resource);
}
