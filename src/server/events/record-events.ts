/**
 * Records created, announced to every server process on the database (000 6 'Operator gets live
 * admin-notice updates'; 001 7.9 'a live-data service is subscribed for the collection of operator
 * notices'), for resources with `x-resource.live` (notify_operator). The creating transaction
 * publishes `{r: resource, c: city key, ids}` on the channel `record_created` (live-channel.ts: after
 * the commit only; ids in chunks of ID_CHUNK to stay within NOTIFY's 8000 bytes); each process reads
 * the rows by id once, however many of its streams listen, and hands each row to its listeners.
 */
import { EventEmitter } from 'node:events';
import type { ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { toRow, type DbRow, type ResourceRow } from '../repositories/record-shape';
import { publish, subscribe } from './live-channel';

/** What a listener gets: the resource name, the city key the row is stored under and the row. */
export interface RecordCreated {
  resource: string;
  city: string;
  row: ResourceRow;
}

/** The channel of created records. */
export const RECORD_CHANNEL = 'record_created';
/** Ids per notification: 400 ids of up to 15 digits stay far below NOTIFY's 8000 bytes. */
export const ID_CHUNK = 400;

/** Per database: the subscribed resources (their definitions and listeners) and the one channel subscription. */
interface Listeners {
  byResource: Map<string, { def: ResourceDef; emitter: EventEmitter }>;
  ready: Promise<unknown>;
}

const listeners = new WeakMap<Database, Listeners>();

/**
 * Announces rows created in `tx` (ids of `def` in city key `city`): one notification per ID_CHUNK ids,
 * delivered after the commit. Nothing for a resource without `live`.
 */
export async function announceCreated(tx: Queryable, def: ResourceDef, city: string, ids: readonly number[]): Promise<void> {
  if (!def.live) return;
  for (let i = 0; i < ids.length; i += ID_CHUNK) await publish(tx, RECORD_CHANNEL, { r: def.name, c: city, ids: ids.slice(i, i + ID_CHUNK) });
}

async function deliver(db: Database, entry: { def: ResourceDef; emitter: EventEmitter }, city: string, ids: number[]): Promise<void> {
  const rows = await db.query<DbRow>(`SELECT id, data, version, created_at FROM ${tableName(entry.def)} WHERE city = $1 AND id = ANY($2::bigint[]) ORDER BY id`, [city, ids]);
  for (const row of rows) {
    const event: RecordCreated = { resource: entry.def.name, city, row: toRow(entry.def, row) };
    for (const l of entry.emitter.listeners('created')) {
      try {
        (l as (e: RecordCreated) => void)(event);
      } catch {
        // a broken stream must not stop the others
      }
    }
  }
}

/**
 * Calls `listener` for every row of `def` created on `db` from now on, by this or any other process.
 * Resolves once listening (a create after that is heard), to the unsubscribe function. Errors: the
 * first LISTEN's (connection errors).
 */
export async function onRecordCreated(db: Database, def: ResourceDef, listener: (event: RecordCreated) => void): Promise<() => void> {
  let state = listeners.get(db);
  if (!state) {
    const byResource: Listeners['byResource'] = new Map();
    // Deliveries one after another: rows reach the streams in the order of their notifications.
    let queue: Promise<void> = Promise.resolve();
    const ready = subscribe(db, RECORD_CHANNEL, (p) => {
      const entry = typeof p.r === 'string' ? byResource.get(p.r) : undefined;
      const ids = Array.isArray(p.ids) ? p.ids.map(Number).filter((n) => Number.isSafeInteger(n)) : [];
      const city = p.c;
      if (!entry || entry.emitter.listenerCount('created') === 0 || typeof city !== 'string' || ids.length === 0) return;
      queue = queue.then(() => deliver(db, entry, city, ids).catch((err: Error) => console.error(`record events: reading ${p.r} ${ids.join(',')}: ${err.message}`)));
    });
    state = { byResource, ready };
    listeners.set(db, state);
    ready.catch(() => listeners.delete(db));
  }
  await state.ready;
  let entry = state.byResource.get(def.name);
  if (!entry) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0); // one listener per open stream
    state.byResource.set(def.name, (entry = { def, emitter }));
  }
  const { emitter } = entry;
  emitter.on('created', listener);
  return () => void emitter.off('created', listener);
}
