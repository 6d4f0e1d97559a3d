/**
 * The city menu manifests for the console (ours; 000 6 Menu sets; docs/architecture.md 'Adding a
 * city'): GET /default/api/console/manifests → 200 `{<name>: Manifest}`, every menus/*.json as the
 * server read and checked it at start (src/server/manifests.ts). No sign-in: a manifest says which
 * menu entries a role of a city has, nothing about any row, and the console needs it before the
 * first page of a city (the manifests used to be compiled into the public console bundle). Answered
 * with an ETag and `cache-control: no-cache`: a browser asks again each time and gets a 304 until the
 * manifests change (a new city and a restart).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Manifest } from '../../shared/manifest';

/** The path of the manifests. */
export const CONSOLE_MANIFESTS_PATH = '/default/api/console/manifests';

/** Registers GET /default/api/console/manifests, answering `manifests`. */
export function registerConsoleManifestRoute(app: FastifyInstance, manifests: Readonly<Record<string, Manifest>>): void {
  const body = JSON.stringify(manifests);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  app.get(
    CONSOLE_MANIFESTS_PATH,
    {
      config: { api: true },
      schema: {
        operationId: 'consoleManifests',
        tags: ['console'],
        summary: 'The city menu manifests (menus/*.json) by name',
        security: [],
        response: {
          200: { description: 'Every manifest by name (schemas/meta/manifest.schema.json)', type: 'object', additionalProperties: { type: 'object', additionalProperties: true } },
          304: { description: 'Not modified since the ETag sent in If-None-Match', type: 'null' },
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-cache').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}
