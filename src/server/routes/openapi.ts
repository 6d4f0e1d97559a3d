/**
 * GET /openapi.json → the OpenAPI 3.1 document of every route registered after `registerOpenApi`
 * (no sign-in needed; README 'The API'), made by @fastify/swagger from the routes' own Fastify schemas
 * (openapi/document.ts) with the shared schemas of openapi/components.ts. The console's routes,
 * registered before, are left out.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { ResourceDef } from '../../shared/registry';
import { addComponentSchemas, answer } from '../openapi/components';
import { swaggerOptions } from '../openapi/document';
import { serializeAsIs } from '../plugins/validation';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An API route whose path does not look like one (`/japan/prefectures`): the sign-in hook reads its token. */
    api?: boolean;
  }
}

/** Adds the shared schemas, starts collecting the routes and registers GET /openapi.json. */
export async function registerOpenApi(app: FastifyInstance, resources: ReadonlyMap<string, ResourceDef>): Promise<void> {
  addComponentSchemas(app, resources);
  await app.register(swagger, swaggerOptions(resources));
  app.get(
    '/openapi.json',
    {
      schema: {
        operationId: 'openapi',
        tags: ['meta'],
        summary: 'This document',
        security: [],
        response: { '200': answer('OpenAPI 3.1 document', { type: 'object', additionalProperties: true }) },
      },
      serializerCompiler: serializeAsIs,
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
}
