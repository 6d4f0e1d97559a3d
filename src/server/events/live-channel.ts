/**
 * Live events between the server processes of one database (000 6 'Operator gets live admin-notice
 * updates'; 001 7.9 'a live-data service is subscribed'), over PostgreSQL NOTIFY/LISTEN (PGlite: within
 * its instance). A writer publishes in its own transaction, so listeners hear of a write after its
 * commit and never of a rolled-back one; every process listens once per channel (one LISTEN
 * connection per process, `Database.listen`) and fans the events out to its open streams.
 *
 * A payload is a small JSON object (NOTIFY allows under 8000 bytes: send ids, not rows). Each carries
 * the PostgreSQL schema it was written in (`s`, `current_schema()`), so processes working in other
 * schemas of the same database (the test runs) ignore it.
 */
import type { Database, Queryable } from '../db/database';

/** The most bytes of JSON a payload may have before the schema is added (NOTIFY's limit is 8000). */
export const MAX_PAYLOAD_BYTES = 7000;

type Handler = (payload: Record<string, unknown>) => void;

interface Hub {
  schema: Promise<string>;
  channels: Map<string, { handlers: Set<Handler>; ready: Promise<unknown> }>;
}

const hubs = new WeakMap<Database, Hub>();

/**
 * Sends `payload` on `channel` through `q` (a transaction: delivered on commit). Errors: a payload of
 * more than MAX_PAYLOAD_BYTES (a programming error: send ids).
 */
export async function publish(q: Queryable, channel: string, payload: Record<string, unknown>): Promise<void> {
  const json = JSON.stringify(payload);
  if (Buffer.byteLength(json) > MAX_PAYLOAD_BYTES) throw new Error(`live event on ${channel}: payload of ${Buffer.byteLength(json)} bytes is too large`);
  await q.query(`SELECT pg_notify($1, (jsonb_build_object('s', current_schema()) || $2::jsonb)::text)`, [channel, json]);
}

function hubOf(db: Database): Hub {
  let hub = hubs.get(db);
  if (!hub) {
    hub = { schema: db.query<{ s: string }>('SELECT current_schema() AS s').then((r) => r[0]?.s ?? ''), channels: new Map() };
    hubs.set(db, hub);
  }
  return hub;
}

/**
 * Calls `handler` with the payload (without `s`) of every event published on `channel` in this
 * database's schema from now on, by any process. Resolves once listening, to the unsubscribe
 * function. Handler errors are logged, never thrown at the publisher. Errors: the first LISTEN's.
 */
export async function subscribe(db: Database, channel: string, handler: Handler): Promise<() => void> {
  const hub = hubOf(db);
  let entry = hub.channels.get(channel);
  if (!entry) {
    const handlers = new Set<Handler>();
    const schema = await hub.schema;
    entry = hub.channels.get(channel);
    if (!entry) {
      const ready = db.listen(channel, (text) => {
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return;
        }
        const { s, ...payload } = parsed;
        if (s !== schema) return;
        for (const h of handlers) {
          try {
            h(payload);
          } catch (err) {
            console.error(`live event on ${channel}: ${(err as Error).message}`);
          }
        }
      });
      entry = { handlers, ready };
      hub.channels.set(channel, entry);
      ready.catch(() => hub.channels.delete(channel));
    }
  }
  await entry.ready;
  const { handlers } = entry;
  handlers.add(handler);
  return () => void handlers.delete(handler);
}
