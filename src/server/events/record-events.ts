/**
 * Records created, announced inside one server process (000 6 'Operator gets live admin-notice
 * updates'; 001 7.9 'a live-data service is subscribed for the collection of operator notices').
 * One emitter per database object, so test apps on their own databases do not hear each other.
 * One process only: a second process on the same PostgreSQL does not hear these (LISTEN/NOTIFY
 * would be the next step).
 */
import { EventEmitter } from 'node:events';
import type { Database } from '../db/database';
import type { ResourceRow } from '../repositories/record-shape';

/** What a listener gets: the resource name, the city key the row is stored under and the row. */
export interface RecordCreated {
  resource: string;
  city: string;
  row: ResourceRow;
}

const emitters = new WeakMap<Database, EventEmitter>();

function emitterOf(db: Database): EventEmitter {
  let e = emitters.get(db);
  if (!e) {
    e = new EventEmitter();
    e.setMaxListeners(0); // one listener per open stream
    emitters.set(db, e);
  }
  return e;
}

/** Announces a committed create. Listener errors are not the creator's: they are swallowed. */
export function announceCreated(db: Database, event: RecordCreated): void {
  const e = emitters.get(db);
  if (!e) return;
  try {
    e.emit('created', event);
  } catch {
    // a broken stream must not fail the create
  }
}

/** Calls `listener` for every record created on `db` from now on; answers the unsubscribe function. */
export function onRecordCreated(db: Database, listener: (event: RecordCreated) => void): () => void {
  const e = emitterOf(db);
  e.on('created', listener);
  return () => e.off('created', listener);
}
