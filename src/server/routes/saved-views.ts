/**
 * Saved views of lists (docs/architecture.md 'Beyond the spec': Saved views; ours): each user's named views of one list in one
 * city, kept on the server (repositories/saved-view-repository.ts). Every route passes `authorize`:
 * the caller must be allowed to read the list's resource in the city; a view of another user or
 * city answers 404.
 * - GET    /{city}/api/saved-views/?resource=news → 200 {content: SavedView[]} (default first, then last used)
 * - POST   /{city}/api/saved-views/ {resource, name, state, is_default?} → 201 SavedView
 * - PUT    /{city}/api/saved-views/{id}/ {name?, state?, is_default?, used?} → 200 SavedView
 * - DELETE /{city}/api/saved-views/{id}/ → 204
 * Errors: 400 `validation` (unknown resource, name empty or over 64 characters or taken, state not
 * an object of the known keys or over 16 KB), 401, 403, 404.
 */
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { FieldErrors } from '../../shared/validation';
import { authorize } from '../auth/authorize';
import { HttpError } from '../http-error';
import { pathParams } from '../openapi/call-schemas';
import { answer, errorAnswers } from '../openapi/components';
import { throwIfInvalid } from '../plugins/validation';
import { parseId } from '../repositories/resource-repository';
import { createView, deleteView, getView, listViews, updateView, type ListViewState } from '../repositories/saved-view-repository';

/** Longest view name, in characters. */
export const VIEW_NAME_MAX = 64;
/** Largest stored state, in bytes of JSON. */
export const VIEW_STATE_MAX_BYTES = 16_384;

function invalid(field: string, key: string, params: Record<string, unknown> = {}): HttpError {
  const fieldErrors: FieldErrors = { [field]: [{ key, params }] };
  return new HttpError('validation', { fieldErrors });
}

function resourceOf(app: FastifyInstance, value: unknown): string {
  if (typeof value !== 'string' || !app.resources.has(value)) throw invalid('resource', 'validation.generic.enum');
  return value;
}

/** The name as stored: trimmed (its rules: the route schema's). */
function nameOf(value: unknown): string {
  return String(value).trim();
}

const STATE_KEYS = new Set(['columns', 'filters', 'sorters', 'pageSize']);

/** The state as stored; beyond the route schema's types: no other key, at most 16 KB. Errors: 400 on `state`. */
function stateOf(value: unknown): ListViewState {
  const s = value as Record<string, unknown>;
  if (Object.keys(s).some((k) => !STATE_KEYS.has(k))) throw invalid('state', 'validation.generic.additionalProperties');
  if (Buffer.byteLength(JSON.stringify(s)) > VIEW_STATE_MAX_BYTES) throw invalid('state', 'validation.generic.maxLength', { max: VIEW_STATE_MAX_BYTES });
  return s as ListViewState;
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('_', 'validation.generic.type', { type: 'object' });
  return body as Record<string, unknown>;
}

const VIEW = {
  type: 'object',
  required: ['id', 'resource', 'name', 'state', 'is_default', 'used_at', 'created_at'],
  properties: {
    id: { type: 'integer' },
    resource: { type: 'string' },
    name: { type: 'string', maxLength: VIEW_NAME_MAX },
    state: { type: 'object', additionalProperties: true },
    is_default: { type: 'boolean' },
    used_at: { type: 'string', format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
};
const REQUIRED = 'validation.generic.required';
const NAME = { type: 'string', minLength: 1, maxLength: VIEW_NAME_MAX, pattern: '\\S', 'x-messages': { minLength: REQUIRED, pattern: REQUIRED } };
const STATE = {
  type: 'object',
  description: 'columns, filters, sorters and pageSize, at most 16 KB of JSON',
  properties: {
    columns: { type: 'array', items: { type: 'string' } },
    filters: { type: 'array' },
    sorters: { type: 'array' },
    pageSize: { type: 'integer', minimum: 1, maximum: 1000 },
  },
};
const CITY_PARAMS = pathParams('/{city}/');
const VIEW_PARAMS = pathParams('/{city}/{id}/');

function schema(operationId: string, summary: string, rest: Record<string, unknown>): FastifySchema {
  return { operationId, tags: ['saved-views'], summary: `${summary} (path ours)`, ...rest };
}

/** Registers the saved-view routes. */
export function registerSavedViewRoutes(app: FastifyInstance): void {
  const RESOURCE = { type: 'string', enum: [...app.resources.keys()], 'x-messages': { required: 'validation.generic.enum' } };
  app.get(
    '/:city/api/saved-views/',
    {
      config: { api: true },
      schema: schema('saved_views_list', "The caller's saved views of one list", {
        params: CITY_PARAMS,
        querystring: { type: 'object', required: ['resource'], properties: { resource: RESOURCE } },
        response: { '200': answer('Views', { type: 'object', required: ['content'], properties: { content: { type: 'array', items: VIEW } } }), ...errorAnswers(400, 401, 403, 404) },
      }),
    },
    async (request) => {
      const resource = resourceOf(app, (request.query as Record<string, unknown>).resource);
      const { profile, city } = await authorize(request, 'read', resource);
      throwIfInvalid(request);
      return { content: await listViews(app.db, { userId: profile.id, city: city.name, resource }) };
    },
  );

  app.post(
    '/:city/api/saved-views/',
    {
      config: { api: true },
      schema: schema('saved_views_create', 'Save a view of a list', {
        params: CITY_PARAMS,
        body: { type: 'object', required: ['resource', 'name'], properties: { resource: RESOURCE, name: NAME, state: STATE, is_default: { type: 'boolean' } } },
        response: { '201': answer('Saved', VIEW), ...errorAnswers(400, 401, 403, 404) },
      }),
    },
    async (request, reply) => {
      const body = bodyOf(request);
      const resource = resourceOf(app, body.resource);
      const { profile, city } = await authorize(request, 'read', resource);
      throwIfInvalid(request);
      const view = await createView(app.db, { userId: profile.id, city: city.name, resource }, { name: nameOf(body.name), state: stateOf(body.state ?? {}), is_default: body.is_default === true });
      return reply.code(201).send(view);
    },
  );

  app.put(
    '/:city/api/saved-views/:id/',
    {
      config: { api: true },
      schema: schema('saved_views_update', 'Rename, change, make default or mark used a saved view', {
        params: VIEW_PARAMS,
        body: { type: 'object', properties: { name: NAME, state: STATE, is_default: { type: 'boolean' }, used: { type: 'boolean', description: 'Mark it as the last one chosen' } } },
        response: { '200': answer('Changed', VIEW), ...errorAnswers(400, 401, 403, 404) },
      }),
    },
    async (request) => {
      const body = bodyOf(request);
      const { profile, city } = await authorize(request, 'read', [...app.resources.keys()]);
      throwIfInvalid(request);
      const id = parseId((request.params as { id: string }).id);
      const current = await getView(app.db, profile.id, city.name, id);
      await authorize(request, 'read', current.resource);
      return updateView(app.db, profile.id, city.name, id, {
        name: body.name === undefined ? undefined : nameOf(body.name),
        state: body.state === undefined ? undefined : stateOf(body.state),
        is_default: typeof body.is_default === 'boolean' ? body.is_default : undefined,
        used: body.used === true,
      });
    },
  );

  app.delete(
    '/:city/api/saved-views/:id/',
    {
      config: { api: true },
      schema: schema('saved_views_delete', 'Delete a saved view', { params: VIEW_PARAMS, response: { '204': answer('Deleted'), ...errorAnswers(401, 403, 404) } }),
    },
    async (request, reply) => {
      const { profile, city } = await authorize(request, 'read', [...app.resources.keys()]);
      throwIfInvalid(request);
      const id = parseId((request.params as { id: string }).id);
      const current = await getView(app.db, profile.id, city.name, id);
      await authorize(request, 'read', current.resource);
      await deleteView(app.db, profile.id, city.name, id);
      return reply.code(204).send();
    },
  );
}
