/**
 * GET /openapi.json → the OpenAPI 3.1 document of every route of this app (no sign-in needed).
 * Routes are collected as they are registered (`onRoute`), so call `registerOpenApi` before the
 * routes. A route documents itself with `config.openapi` (an operation object); API routes without
 * one get a generic operation from their path. The console's own routes are left out.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceDef } from '../../shared/registry';
import { buildDocument, type DocumentedRoute } from '../openapi/document';
import type { OpenApiOperation } from '../openapi/operations';
import { isApiPath } from '../paths';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An API route whose path does not look like one (`/japan/prefectures`): the sign-in hook reads its token. */
    api?: boolean;
    /** The OpenAPI operation of the route. */
    openapi?: OpenApiOperation;
  }
}

/** Starts collecting routes and registers GET /openapi.json. */
export function registerOpenApi(app: FastifyInstance, resources: ReadonlyMap<string, ResourceDef>): void {
  const routes: DocumentedRoute[] = [];
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { api?: boolean; openapi?: OpenApiOperation };
    if (!config.openapi && !config.api && !isApiPath(route.url)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: route.url, operation: config.openapi });
    }
  });
  let document: Record<string, unknown> | null = null;
  app.get(
    '/openapi.json',
    { config: { openapi: { operationId: 'openapi', tags: ['meta'], summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } } } } },
    async (_request, reply) => {
      document ??= buildDocument(routes, resources);
      return reply.header('cache-control', 'no-cache').send(document);
    },
  );
}
