/**
 * The Fastify application (docs/architecture.md 'The fastify/demo model'): external plugins, then app plugins, then
 * routes. No state of its own beyond the database, so several processes can share one PostgreSQL.
 */
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Manifest } from '../shared/manifest';
import { registry, type ResourceDef } from '../shared/registry';
import type { Config } from './config';
import type { Database } from './db/database';
import { HttpError } from './http-error';
import { registerImportRoutes } from './import/import-routes';
import { registerPushRoutes } from './push/push-routes';
import { registerJobs, type RunnerOptions } from './jobs/job-runner';
import { registerOutbox } from './mail/outbox';
import { loadManifests } from './manifests';
import { registerAuth } from './plugins/auth';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerConsole } from './plugins/console';
import { registerErrorHandler } from './plugins/errors';
import { databaseRateLimitStore } from './plugins/rate-limit-store';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { registerValidation } from './plugins/validation';
import { registerChatRoutes } from './chat/chat-routes';
import { registerChatUnreadRoutes } from './chat/chat-unread';
import { registerCityRoutes } from './routes/cities';
import { registerConsoleManifestRoute } from './routes/console-manifests';
import { registerMapSettingsRoute } from './routes/map-settings';
import { registerFileRoutes } from './files/file-routes';
import { registerHealthRoutes } from './routes/health';
import { registerNoticeStream } from './routes/notice-stream';
import { registerListExportRoute } from './routes/list-export';
import { registerOpenApi } from './routes/openapi';
import { registerResourceRoutes } from './routes/resources';
import { registerSavedViewRoutes } from './routes/saved-views';
import { registerRevisionRoutes } from './revisions/revision-routes';
import { registerSessionRoutes } from './routes/session';
import { registerUserRoutes } from './routes/users';
import { registerMfaRoutes } from './routes/mfa-routes';
import { registerTotpSecrets } from './auth/secret-box';
import { registerStatisticRoutes } from './statistics/routes';
import { registerDashboardRoutes } from './statistics/dashboard';
import { registerDataCheckRoutes } from './data-check/data-check-routes';

export interface BuildOptions {
  db: Database;
  config: Config;
  /** Fastify's `logger` option (default: off). */
  logger?: FastifyServerOptions['logger'];
  /** Resources to serve (default: the registry). */
  resources?: ReadonlyMap<string, ResourceDef>;
  /** City menu manifests to serve (default: menus/*.json, read and checked once: ./manifests.ts). */
  manifests?: Readonly<Record<string, Manifest>>;
  /** Options of the job runner (default: poll every second, a job stale after 30 s without a heartbeat). */
  jobs?: Partial<RunnerOptions>;
}

/**
 * Builds the app on a prepared database (see `db/prepare.ts`). The instance is not listening and not
 * yet ready: tests call `inject`, `main` calls `listen`. Errors: database errors while loading the
 * token secret; a manifest of menus/ that does not pass its checks (./manifests.ts).
 */
export async function buildApp({ db, config, logger = false, resources = registry, manifests = loadManifests(), jobs }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    routerOptions: { ignoreTrailingSlash: true },
    // A request that reaches a stopping process on a connection still open is answered as usual,
    // not 503: the proxy sent it before it saw the process draining (docs/deployment.md).
    return503OnClosing: false,
  });
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('resources', resources);
  // Clients often send `content-type: application/json` with an empty DELETE body; read it as no body.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : json(request, String(body), done),
  );

  // External plugins. Answers of 1 KB or more are compressed on the fly (brotli, gzip or deflate as
  // the client accepts, `Vary: Accept-Encoding`); the console's files are compressed at build time
  // and served as they are (plugins/console.ts), so this hook must come before them.
  await app.register(compress, { threshold: 1024 });
  await registerSecurityHeaders(app, config.mapTileUrl);
  await app.register(cookie);
  // Per-IP limits counted in PostgreSQL, once for all processes (plugins/rate-limit-store.ts).
  await app.register(rateLimit, {
    global: false,
    // The plugin's types give a store's `child` the route's options; at run time it passes
    // `{…params, routeInfo}` (its index.js), which is what the store reads.
    ...(db.kind === 'postgres' ? { store: databaseRateLimitStore(db) as unknown as FastifyRateLimitStoreCtor } : {}),
    errorResponseBuilder: (_request, context) =>
      new HttpError('rate_limited', { headers: { 'retry-after': String(Math.ceil(context.ttl / 1000)) } }),
  });

  // App plugins. Validation and serialization from the routes' schemas (plugins/validation.ts).
  registerErrorHandler(app);
  registerValidation(app);
  registerJobs(app, db, resources, { staleMs: config.jobStaleMs, ...jobs });
  registerOutbox(app);
  await registerAuth(app, { db, config });
  await registerConsole(app, config.consoleDir);

  // Routes (the OpenAPI document collects every route registered after it).
  await registerOpenApi(app, resources);
  registerHealthRoutes(app);
  registerSessionRoutes(app, { loginRateLimit: config.loginRateLimit });
  registerCityRoutes(app);
  registerConsoleManifestRoute(app, manifests);
  registerMapSettingsRoute(app, config);
  registerUserRoutes(app);
  await registerTotpSecrets(app);
  registerMfaRoutes(app);
  registerNoticeStream(app);
  registerChatUnreadRoutes(app);
  registerChatRoutes(app);
  await registerFileRoutes(app, { config, resources });
  registerResourceRoutes(app, resources);
  registerSavedViewRoutes(app);
  registerRevisionRoutes(app);
  registerListExportRoute(app);
  registerStatisticRoutes(app);
  registerDashboardRoutes(app, manifests);
  registerDataCheckRoutes(app, manifests);
  await registerImportRoutes(app);
  registerPushRoutes(app, resources);
  return app;
}
