/**
 * The CRUD calls of every registry resource, from each schema's `x-resource.api` (001 7; DESIGN.md:
 * "a developer adds an entity by adding one schema"). Nothing here is per entity.
 * - list (and its aliases): GET → 200 {content, total_length, count, limit, offset, page_length}
 * - create: POST → 201 row
 * - show: GET → 200 row
 * - update: PUT (full) or PATCH (merge) → 200 row; a stale `version` → 409
 * - delete: DELETE → 204
 * Every call goes through `authorize` (401/403, unknown city 404); rows are city-scoped (other city 404).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Action, ApiCall, ResourceDef } from '../../shared/registry';
import { authorize } from '../auth/authorize';
import { toRoutePath } from '../paths';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '../repositories/resource-repository';

type Params = { city: string; id?: string };

function route(app: FastifyInstance, call: ApiCall, action: Action, def: ResourceDef, handler: (request: FastifyRequest, city: string, userId: number) => Promise<unknown>, status = 200): void {
  for (const path of [call.path, ...(call.aliases ?? [])]) {
    app.route({
      method: call.method,
      url: toRoutePath(path),
      handler: async (request, reply) => {
        const { profile, city } = await authorize(request, action, def.name);
        const answer = await handler(request, city.name, profile.id);
        if (status === 204) return reply.code(204).send();
        return reply.code(status).send(answer);
      },
    });
  }
}

/** Registers the calls of every resource of `resources`. */
export function registerResourceRoutes(app: FastifyInstance, resources: Iterable<ResourceDef>): void {
  const { db } = app;
  for (const def of resources) {
    const { api } = def;
    const id = (request: FastifyRequest) => (request.params as Params).id;
    route(app, api.list, 'read', def, (request, city) => listRecords(db, def, city, request.query as Record<string, unknown>));
    if (api.create) route(app, api.create, 'create', def, (request, city, userId) => createRecord(db, def, city, request.body, { userId }), 201);
    if (api.show) route(app, api.show, 'read', def, (request, city) => getRecord(db, def, city, id(request)));
    if (api.update) {
      const partial = api.update.method === 'PATCH';
      route(app, api.update, 'update', def, (request, city, userId) => updateRecord(db, def, city, id(request), request.body, { userId }, { partial }));
    }
    if (api.delete) route(app, api.delete, 'delete', def, (request, city, userId) => deleteRecord(db, def, city, id(request), { userId }), 204);
  }
}
