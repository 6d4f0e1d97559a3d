/**
 * The routes of revisions and the recycle bin (docs/architecture.md 'Revisions and the recycle bin';
 * ours). `{resource}` is a registry name whose rows keep revisions (`keepsRevisions`); every route
 * passes `authorize` on that resource, narrowed by the caller's own-row limits and field permissions:
 * - GET  /{city}/api/revisions/{resource}/{id}/?page= → 200 {content: [{revision, at, by: {id,
 *   username, name}, operation, changes: [{field, before, after}]}], total_length}; read permission;
 *   newest first, 20 a page; a field the caller may not read is left out of `changes`
 * - POST /{city}/api/revisions/{resource}/{id}/{revision}/restore/ {version} → 200 row; update
 *   permission; 409 when the row's version is not `version`, 400 naming a field the schema refuses now
 * - GET  /{city}/api/revisions/{resource}/deleted/?page= → 200 {content: [{id, revision, deleted_at,
 *   deleted_by, record}], total_length}; read and create permission (who may bring rows back)
 * - POST /{city}/api/revisions/{resource}/{id}/undelete/ → 201 row; create permission
 * Errors: 400 `validation`, 401, 403 (also naming a field the caller may not write), 404 (unknown
 * resource, row not found in the city or outside the caller's rows), 409 `conflict`.
 */
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { deniedFields } from '../../shared/ability';
import type { Action, ResourceDef } from '../../shared/registry';
import { authorize, ownedRowsFor, type Authorized } from '../auth/authorize';
import { keepsRevisions, storageCity } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { pathParams } from '../openapi/call-schemas';
import { answer, errorAnswers } from '../openapi/components';
import { throwIfInvalid } from '../plugins/validation';
import { REVISION_OPERATIONS } from './revision-writes';
import { int4Id } from '../openapi/integer-params';
import { listDeleted, listRevisions, pageOf, restoreRevision, undeleteRow } from './revision-repository';

const AUTHOR = {
  type: 'object',
  required: ['id', 'username', 'name'],
  properties: { id: { type: ['integer', 'null'] }, username: { type: ['string', 'null'] }, name: { type: ['string', 'null'] } },
};
const REVISION = {
  type: 'object',
  required: ['revision', 'at', 'by', 'operation', 'changes'],
  properties: {
    revision: { type: 'integer', minimum: 1 },
    at: { type: 'string', format: 'date-time' },
    by: AUTHOR,
    operation: { type: 'string', enum: [...REVISION_OPERATIONS] },
    changes: {
      type: 'array',
      items: { type: 'object', required: ['field', 'before', 'after'], properties: { field: { type: 'string' }, before: {}, after: {} } },
    },
  },
};
const DELETED = {
  type: 'object',
  required: ['id', 'revision', 'deleted_at', 'deleted_by', 'record'],
  properties: {
    id: { type: 'integer' },
    revision: { type: 'integer' },
    deleted_at: { type: 'string', format: 'date-time' },
    deleted_by: AUTHOR,
    record: { type: 'object', additionalProperties: true },
  },
};
const ROW = { type: 'object', additionalProperties: true, description: 'The stored row, as the resource’s show call answers it' };
const PAGE_QUERY = { type: 'object', properties: { page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 } } };

function schema(operationId: string, summary: string, rest: Record<string, unknown>): FastifySchema {
  return { operationId, tags: ['revisions'], summary: `${summary} (path ours)`, ...rest };
}

/** The resource of the path: a registry name whose rows keep revisions. Errors: 404 `not_found`. */
function resourceOf(app: FastifyInstance, request: FastifyRequest): ResourceDef {
  const name = (request.params as { resource?: string }).resource ?? '';
  const def = app.resources.get(name);
  if (!def || !keepsRevisions(def)) throw new HttpError('not_found');
  return def;
}

/** `authorize` on the resource with every action of `actions`. Errors: 401, 403, 404 (city). */
async function allowed(request: FastifyRequest, def: ResourceDef, actions: readonly Action[]): Promise<Authorized> {
  const authorized = await authorize(request, actions[0], def.name);
  for (const a of actions.slice(1)) if (!authorized.ability.can(a, def.name)) throw new HttpError('forbidden');
  throwIfInvalid(request);
  return authorized;
}

/** Registers the revision and recycle-bin routes. */
export function registerRevisionRoutes(app: FastifyInstance): void {
  const names = [...app.resources.values()].filter(keepsRevisions).map((d) => d.name);
  const resourceParam = { type: 'string', enum: names, description: 'A resource of the registry (its name, e.g. news)' };
  const params = (path: string) => {
    const p = pathParams(path) as { properties: Record<string, unknown> };
    const revision = path.includes('{revision}') ? { revision: int4Id(1, 'The revision number') } : {};
    return { ...p, properties: { ...p.properties, resource: resourceParam, ...revision } };
  };

  app.get(
    '/:city/api/revisions/:resource/deleted/',
    {
      config: { api: true },
      schema: schema('revisions_deleted', 'The recycle bin of a resource: deleted rows, who deleted them and when', {
        params: params('/{city}/{resource}/'),
        querystring: PAGE_QUERY,
        response: { '200': answer('Deleted rows, newest delete first', { type: 'object', required: ['content', 'total_length'], properties: { content: { type: 'array', items: DELETED }, total_length: { type: 'integer' } } }), ...errorAnswers(400, 401, 403, 404) },
      }),
    },
    async (request) => {
      const def = resourceOf(app, request);
      const authorized = await allowed(request, def, ['read', 'create']);
      return listDeleted(app.db, def, storageCity(def, authorized.city.name), pageOf(request.query as Record<string, unknown>), {
        owner: ownedRowsFor(authorized, 'read', def),
        unreadable: deniedFields(authorized.ability, 'read', def),
      });
    },
  );

  app.get(
    '/:city/api/revisions/:resource/:id/',
    {
      config: { api: true },
      schema: schema('revisions_list', 'The revisions of a row, newest first', {
        params: params('/{city}/{resource}/{id}/'),
        querystring: PAGE_QUERY,
        response: { '200': answer('Revisions', { type: 'object', required: ['content', 'total_length'], properties: { content: { type: 'array', items: REVISION }, total_length: { type: 'integer' } } }), ...errorAnswers(400, 401, 403, 404) },
      }),
    },
    async (request) => {
      const def = resourceOf(app, request);
      const authorized = await allowed(request, def, ['read']);
      return listRevisions(app.db, def, storageCity(def, authorized.city.name), (request.params as { id: string }).id, pageOf(request.query as Record<string, unknown>), {
        owner: ownedRowsFor(authorized, 'read', def),
        unreadable: deniedFields(authorized.ability, 'read', def),
      });
    },
  );

  app.post(
    '/:city/api/revisions/:resource/:id/:revision/restore/',
    {
      config: { api: true },
      schema: schema('revisions_restore', 'Write a row back as it was after one of its revisions, as a new revision', {
        params: params('/{city}/{resource}/{id}/{revision}/'),
        body: { type: 'object', required: ['version'], properties: { version: { type: 'integer', minimum: 1, description: 'The version of the row the caller saw (409 when it changed since)' } } },
        response: { '200': answer('The row as written', ROW), ...errorAnswers(400, 401, 403, 404, 409) },
      }),
    },
    async (request) => {
      const def = resourceOf(app, request);
      const authorized = await allowed(request, def, ['update', 'read']);
      const p = request.params as { id: string; revision: string };
      const revision = Number(p.revision);
      if (!Number.isInteger(revision) || revision < 1) throw new HttpError('not_found');
      const row = await restoreRevision(app.db, def, storageCity(def, authorized.city.name), p.id, revision, Number((request.body as { version: number }).version), { userId: authorized.profile.id }, {
        owner: ownedRowsFor(authorized, 'update', def),
        unwritable: deniedFields(authorized.ability, 'update', def),
        unreadable: deniedFields(authorized.ability, 'read', def),
        resources: app.resources,
      });
      const hidden = deniedFields(authorized.ability, 'read', def);
      return Object.fromEntries(Object.entries(row).filter(([k]) => !hidden.includes(k)));
    },
  );

  app.post(
    '/:city/api/revisions/:resource/:id/undelete/',
    {
      config: { api: true },
      schema: schema('revisions_undelete', 'Bring a deleted row back from the recycle bin', {
        params: params('/{city}/{resource}/{id}/'),
        response: { '201': answer('The row as written', ROW), ...errorAnswers(400, 401, 403, 404, 409) },
      }),
    },
    async (request, reply) => {
      const def = resourceOf(app, request);
      const authorized = await allowed(request, def, ['create', 'read']);
      const row = await undeleteRow(app.db, def, storageCity(def, authorized.city.name), (request.params as { id: string }).id, { userId: authorized.profile.id }, {
        owner: ownedRowsFor(authorized, 'create', def),
        unwritable: deniedFields(authorized.ability, 'create', def),
        resources: app.resources,
      });
      const hidden = deniedFields(authorized.ability, 'read', def);
      return reply.code(201).send(Object.fromEntries(Object.entries(row).filter(([k]) => !hidden.includes(k))));
    },
  );
}
