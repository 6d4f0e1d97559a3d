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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../shared/validation';
import { authorize } from '../auth/authorize';
import { HttpError } from '../http-error';
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

function nameOf(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw invalid('name', 'validation.generic.required');
  const name = value.trim();
  if ([...name].length > VIEW_NAME_MAX) throw invalid('name', 'validation.generic.maxLength', { max: VIEW_NAME_MAX });
  return name;
}

const STATE_KEYS = new Set(['columns', 'filters', 'sorters', 'pageSize']);

function stateOf(value: unknown): ListViewState {
  const bad = () => invalid('state', 'validation.generic.type', { type: 'object' });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad();
  const s = value as Record<string, unknown>;
  if (Object.keys(s).some((k) => !STATE_KEYS.has(k))) throw invalid('state', 'validation.generic.additionalProperties');
  if (s.columns !== undefined && !(Array.isArray(s.columns) && s.columns.every((c) => typeof c === 'string'))) throw bad();
  if (s.filters !== undefined && !Array.isArray(s.filters)) throw bad();
  if (s.sorters !== undefined && !Array.isArray(s.sorters)) throw bad();
  if (s.pageSize !== undefined && !(Number.isInteger(s.pageSize) && (s.pageSize as number) >= 1 && (s.pageSize as number) <= 1000)) throw bad();
  if (Buffer.byteLength(JSON.stringify(s)) > VIEW_STATE_MAX_BYTES) throw invalid('state', 'validation.generic.maxLength', { max: VIEW_STATE_MAX_BYTES });
  return s as ListViewState;
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('_', 'validation.generic.type', { type: 'object' });
  return body as Record<string, unknown>;
}

const VIEW_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    resource: { type: 'string' },
    name: { type: 'string', maxLength: VIEW_NAME_MAX },
    state: { type: 'object' },
    is_default: { type: 'boolean' },
    used_at: { type: 'string', format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
};
const ERRORS = {
  '400': { $ref: '#/components/responses/Validation' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '403': { $ref: '#/components/responses/Forbidden' },
  '404': { $ref: '#/components/responses/NotFound' },
};
const CITY = { name: 'city', in: 'path', required: true, schema: { type: 'string' } };
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };

function doc(operationId: string, summary: string, extra: Record<string, unknown>) {
  return { config: { api: true, openapi: { operationId, tags: ['saved-views'], summary: `${summary} (path ours)`, ...extra } } };
}

/** Registers the saved-view routes. */
export function registerSavedViewRoutes(app: FastifyInstance): void {
  app.get(
    '/:city/api/saved-views/',
    doc('saved_views_list', "The caller's saved views of one list", {
      parameters: [CITY, { name: 'resource', in: 'query', required: true, schema: { type: 'string' } }],
      responses: { '200': { description: 'Views', content: { 'application/json': { schema: { type: 'object', properties: { content: { type: 'array', items: VIEW_SCHEMA } } } } } }, ...ERRORS },
    }),
    async (request) => {
      const resource = resourceOf(app, (request.query as Record<string, unknown>).resource);
      const { profile, city } = await authorize(request, 'read', resource);
      return { content: await listViews(app.db, { userId: profile.id, city: city.name, resource }) };
    },
  );

  app.post(
    '/:city/api/saved-views/',
    doc('saved_views_create', 'Save a view of a list', {
      parameters: [CITY],
      requestBody: { required: true, content: { 'application/json': { schema: VIEW_SCHEMA } } },
      responses: { '201': { description: 'Saved', content: { 'application/json': { schema: VIEW_SCHEMA } } }, ...ERRORS },
    }),
    async (request, reply) => {
      const body = bodyOf(request);
      const resource = resourceOf(app, body.resource);
      const { profile, city } = await authorize(request, 'read', resource);
      const view = await createView(app.db, { userId: profile.id, city: city.name, resource }, { name: nameOf(body.name), state: stateOf(body.state ?? {}), is_default: body.is_default === true });
      return reply.code(201).send(view);
    },
  );

  app.put(
    '/:city/api/saved-views/:id/',
    doc('saved_views_update', 'Rename, change, make default or mark used a saved view', {
      parameters: [CITY, ID],
      requestBody: { required: true, content: { 'application/json': { schema: { ...VIEW_SCHEMA, properties: { ...VIEW_SCHEMA.properties, used: { type: 'boolean' } } } } } },
      responses: { '200': { description: 'Changed', content: { 'application/json': { schema: VIEW_SCHEMA } } }, ...ERRORS },
    }),
    async (request) => {
      const id = parseId((request.params as { id: string }).id);
      const body = bodyOf(request);
      const { profile, city } = await authorize(request, 'read', [...app.resources.keys()]);
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
    doc('saved_views_delete', 'Delete a saved view', { parameters: [CITY, ID], responses: { '204': { description: 'Deleted' }, ...ERRORS } }),
    async (request, reply) => {
      const id = parseId((request.params as { id: string }).id);
      const { profile, city } = await authorize(request, 'read', [...app.resources.keys()]);
      const current = await getView(app.db, profile.id, city.name, id);
      await authorize(request, 'read', current.resource);
      await deleteView(app.db, profile.id, city.name, id);
      return reply.code(204).send();
    },
  );
}
