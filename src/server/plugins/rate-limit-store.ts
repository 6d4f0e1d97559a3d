/**
 * A `@fastify/rate-limit` store that counts in the database (table `rate_limits`, migration
 * 0010-rate-limits), so every process on one PostgreSQL counts the same hits: two processes behind
 * a load balancer allow the limit, not twice it (docs/deployment.md 'Processes'). Used when the
 * database is PostgreSQL (app.ts); PGlite, one process, keeps the plugin's memory store.
 * One statement per request: an upsert that starts a new window when the old one has expired and
 * answers the hits so far and the milliseconds left. Fixed windows (the plugin's default; its
 * `continueExceeding` and `exponentialBackoff` options are not used by the console). Expired rows are
 * removed now and then (every CLEANUP_EVERY calls of a process), off the request's path.
 */
import type { Queryable } from '../db/database';

/** How often (in calls of one process) expired rows are removed. */
export const CLEANUP_EVERY = 500;

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

const INCREMENT = `
  INSERT INTO rate_limits AS r (key, hits, expires_at) VALUES ($1, 1, now() + $2::int * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN r.expires_at <= now() THEN 1 ELSE r.hits + 1 END,
    expires_at = CASE WHEN r.expires_at <= now() THEN excluded.expires_at ELSE r.expires_at END
  RETURNING hits, GREATEST(0, ceil(extract(epoch FROM r.expires_at - now()) * 1000))::int AS ttl`;

const READ = `SELECT hits, GREATEST(0, ceil(extract(epoch FROM expires_at - now()) * 1000))::int AS ttl FROM rate_limits WHERE key = $1 AND expires_at > now()`;

/** The store's interface as the plugin uses it (`incr`, `read`, `child`). */
export interface DatabaseRateLimitStore {
  /** Counts a hit of `key` in a window of `timeWindow` ms; answers `{current, ttl}` (hits so far, ms left). */
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  /** The hits of `key` and the ms left, without counting one. */
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
  /** The store of one route: its keys are prefixed with the route's method and URL. */
  child(routeOptions: { routeInfo: { method: string; url: string } }): DatabaseRateLimitStore;
}

/**
 * The store class to pass as `@fastify/rate-limit`'s `store` option (the plugin makes it with
 * `new`), counting in `db`. Errors of the database reach the plugin, which answers 500 for them.
 */
export function databaseRateLimitStore(db: Queryable): new () => DatabaseRateLimitStore {
  let calls = 0;
  const make = (prefix: string): DatabaseRateLimitStore => ({
    incr(key, cb, timeWindow) {
      if (++calls % CLEANUP_EVERY === 0) void db.query(`DELETE FROM rate_limits WHERE expires_at < now()`).catch(() => undefined);
      db.query<{ hits: number; ttl: number }>(INCREMENT, [prefix + key, Math.round(timeWindow)]).then(
        ([row]) => cb(null, { current: row.hits, ttl: row.ttl }),
        (err: Error) => cb(err),
      );
    },
    read(key, cb) {
      db.query<{ hits: number; ttl: number }>(READ, [prefix + key]).then(
        ([row]) => cb(null, row ? { current: row.hits, ttl: row.ttl } : { current: 0, ttl: 0 }),
        (err: Error) => cb(err),
      );
    },
    child(routeOptions) {
      return make(`${prefix}${routeOptions.routeInfo.method}${routeOptions.routeInfo.url}-`);
    },
  });
  // A class in form only: the plugin calls `new Store(globalParams)`; the params are read per call.
  return function Store() {
    return make('');
  } as unknown as new () => DatabaseRateLimitStore;
}
