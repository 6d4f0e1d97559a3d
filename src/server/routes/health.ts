/**
 * Health checks for a load balancer (docs/deployment.md 'Health checks'), without sign-in and
 * without a rate limit:
 * - GET /healthz → 200 `{status: 'ok'}` while the process answers at all (liveness);
 * - GET /readyz  → 200 `{status: 'ready'}` when the database answers and every migration this code
 *   knows is applied, else 503 `{status, reason}`: `draining` (the process got SIGTERM and is
 *   finishing its requests: main.ts), `database` (the query failed; its message stays in the log),
 *   `migrations` (with the names still pending). A proxy sends new requests only to ready processes.
 * Both answer `Cache-Control: no-store`. While draining, every answer of the process says
 * `Connection: close`.
 */
import type { FastifyInstance } from 'fastify';
import { pendingMigrations } from '../db/migrations';

declare module 'fastify' {
  interface FastifyInstance {
    /** True once the process was asked to stop (main.ts): /readyz answers 503 `draining`. */
    draining: boolean;
  }
}

const drainSeen = new WeakMap<FastifyInstance, Array<() => void>>();

/**
 * Resolves once a health check has been answered `draining` (the load balancer has seen that this
 * process is leaving and sends its new requests elsewhere), or after `maxMs` when none came (no
 * balancer polls this process). main.ts waits for it before it stops accepting connections, so no
 * request the balancer still sends here is refused.
 */
export function drainNoticed(app: FastifyInstance, maxMs: number): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, maxMs);
    timer.unref();
    const waiting = drainSeen.get(app) ?? [];
    waiting.push(() => {
      clearTimeout(timer);
      done();
    });
    drainSeen.set(app, waiting);
  });
}

const STATUS = {
  type: 'object',
  required: ['status'],
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['ok', 'ready', 'not_ready'] },
    reason: { type: 'string', enum: ['draining', 'database', 'migrations'], description: 'Why the process is not ready' },
    pending: { type: 'array', items: { type: 'string' }, description: 'The migrations not applied yet (reason `migrations`)' },
  },
} as const;

/** Registers /healthz and /readyz and the `draining` flag (false until main.ts sets it). */
export function registerHealthRoutes(app: FastifyInstance): void {
  app.decorate('draining', false);
  // While draining, every answer closes its connection: a proxy keeps no idle connection to this
  // process that it could reuse at the moment the process closes it (the client would see the
  // connection dropped, not an answer).
  app.addHook('onSend', async (_request, reply) => {
    if (app.draining) reply.header('connection', 'close');
  });
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'healthz',
        tags: ['health'],
        summary: 'Liveness: the process answers',
        security: [],
        response: { 200: { description: 'The process answers', content: { 'application/json': { schema: STATUS } } } },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    },
  );
  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'readyz',
        tags: ['health'],
        summary: 'Readiness: the database answers and the migrations are done',
        security: [],
        response: {
          200: { description: 'Ready for requests', content: { 'application/json': { schema: STATUS } } },
          503: { description: 'Not ready (draining, database, migrations)', content: { 'application/json': { schema: STATUS } } },
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (app.draining) {
        reply.raw.once('finish', () => {
          for (const done of drainSeen.get(app)?.splice(0) ?? []) done();
        });
        return reply.code(503).send({ status: 'not_ready', reason: 'draining' });
      }
      let pending: string[];
      try {
        pending = await pendingMigrations(app.db);
      } catch (err) {
        request.log.warn({ err }, 'readiness: the database does not answer');
        return reply.code(503).send({ status: 'not_ready', reason: 'database' });
      }
      if (pending.length > 0) return reply.code(503).send({ status: 'not_ready', reason: 'migrations', pending });
      return { status: 'ready' };
    },
  );
}
