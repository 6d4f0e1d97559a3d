/**
 * The LISTEN side of PostgreSQL NOTIFY for one database object (docs/architecture.md 'Storage': several API
 * processes share one PostgreSQL, so live events travel through it). One dedicated `pg.Client` per
 * listener, outside the pool, carries every channel; it is opened by the first `listen` and, when it
 * is lost, reopened after 1 s, 2 s, 4 s … (at most 30 s) with every channel listened again.
 * Notifications sent while it is down are lost: once it is back, the `onRestored` handlers are
 * called, so that whoever relied on them reads again what it may have missed (the event streams send
 * `resync`, routes/event-stream.ts).
 */
import pg from 'pg';

/** The shape of a channel name: a lowercase identifier, so it needs no quoting. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const RETRY_MAX_MS = 30_000;
/** The listener connection's `application_name` (pg_stat_activity), with the process id. */
export const LISTENER_APP_NAME = `city-console-listener-${process.pid}`;

export interface PgListener {
  /** See `Database.listen`. Errors: a channel that is not a lowercase identifier; connection errors of the first LISTEN. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** See `Database.onListenRestored`. */
  onRestored(handler: () => void): () => void;
  /** Ends the connection and stops reconnecting. Idempotent. */
  close(): Promise<void>;
}

/** A listener on `url` (nothing is connected before the first `listen`). */
export function createPgListener(url: string): PgListener {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let retryMs = 1000;
  let retry: NodeJS.Timeout | null = null;
  let closed = false;
  // Set when a connection is lost, cleared by the next connection: that one is a restoration.
  let wasLost = false;
  const restored = new Set<() => void>();

  const dispatch = (msg: pg.Notification): void => {
    for (const h of handlers.get(msg.channel) ?? []) {
      try {
        h(msg.payload ?? '');
      } catch (err) {
        console.error(`postgres listener: handler of ${msg.channel} failed: ${(err as Error).message}`);
      }
    }
  };

  const scheduleRetry = (): void => {
    if (closed || handlers.size === 0 || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch((err: Error) => {
        console.error(`postgres listener: reconnect failed (${err.message}); next try in ${retryMs} ms`);
        scheduleRetry();
      });
    }, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  const lost = (c: pg.Client, err?: Error): void => {
    if (client !== c) return;
    client = null;
    wasLost = true;
    c.end().catch(() => undefined);
    if (err && !closed) console.error(`postgres listener: connection lost (${err.message}); reconnecting`);
    scheduleRetry();
  };

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString: url, application_name: LISTENER_APP_NAME });
      c.on('notification', dispatch);
      c.on('error', (err) => lost(c, err));
      c.on('end', () => lost(c));
      try {
        await c.connect();
        for (const channel of [...handlers.keys()]) await c.query(`LISTEN ${channel}`);
      } catch (err) {
        c.end().catch(() => undefined);
        throw err;
      }
      if (closed) {
        await c.end().catch(() => undefined);
        throw new Error('postgres listener: closed');
      }
      client = c;
      retryMs = 1000;
      if (wasLost) {
        wasLost = false;
        for (const h of [...restored]) {
          try {
            h();
          } catch (err) {
            console.error(`postgres listener: a restoration handler failed: ${(err as Error).message}`);
          }
        }
      }
      return c;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  return {
    async listen(channel, handler) {
      if (!CHANNEL.test(channel)) throw new Error(`invalid channel name '${channel}'`);
      if (closed) throw new Error('postgres listener: closed');
      let set = handlers.get(channel);
      const fresh = !set;
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(handler);
      try {
        const c = await connect();
        // LISTEN is idempotent: a connection opened meanwhile may already listen to it.
        if (fresh) await c.query(`LISTEN ${channel}`);
      } catch (err) {
        set.delete(handler);
        if (set.size === 0) handlers.delete(channel);
        throw err;
      }
      return async () => {
        set.delete(handler);
        if (set.size > 0 || handlers.get(channel) !== set) return;
        handlers.delete(channel);
        await client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      };
    },
    onRestored(handler) {
      restored.add(handler);
      return () => void restored.delete(handler);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client ?? (await connecting?.catch(() => null)) ?? null;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
