/**
 * The CRUD calls of every registry resource, from each schema's `x-resource.api` (001 7;
 * docs/architecture.md 'Adding an entity'), and its actions (routes/actions.ts). Nothing here is per
 * entity.
 * - list (and its aliases): GET → 200 {content, total_length, count, limit, offset, page_length};
 *   only rows with the call's `where` values and without its `exclude` values
 * - create: POST → 201 row (the call's `where` values are stored)
 * - list and create paths may carry a field (`/{city}/api/school/{school_id}/notifications/`): lists
 *   answer only rows with that value, creates store it
 * - show: GET → 200 row
 * - update: PUT (full) or PATCH (merge) → 200 row; a stale `version` → 409
 * - delete: DELETE → 204
 * A call's `status` replaces the default status. Singletons (`singleton: true`): show answers the
 * city's record or the schema's defaults, update and create upsert it, delete removes it; a list at
 * the show's path is the show. Every call goes through `authorize` (401/403, unknown city 404); rows
 * are city-scoped (other city 404), global resources shared (see call-route.ts); the caller's own-row
 * limits (`x-resource.owner`) narrow every call: another shop's row 404, a write naming it 403.
 */
import type { FastifyInstance } from 'fastify';
import { callSubject } from '../../shared/ability';
import { isNumericField } from '../../shared/field-types';
import { OPERATION_ACTION, type ApiCall, type ApiOperation, type ResourceDef } from '../../shared/registry';
import { crudSchema } from '../openapi/call-schemas';
import { idParamOf, routeKey } from '../paths';
import type { Match } from '../repositories/record-query';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '../repositories/resource-repository';
import { deleteSingleton, getSingleton, upsertSingleton } from '../repositories/singleton-repository';
import { registerActionRoutes } from './actions';
import { registerCall, type CallContext } from './call-route';

const PERMISSION = OPERATION_ACTION;
const STATUS: Record<ApiOperation, number> = { list: 200, create: 201, show: 200, update: 200, delete: 204 };

function matchOf(call: ApiCall): Match {
  return { where: call.where, exclude: call.exclude };
}

/**
 * Path placeholders that name a field of the resource (`/{city}/api/school/{school_id}/notifications/`):
 * a list answers only rows with that value, a create stores it. Numbers for number fields.
 */
function fieldParams(def: ResourceDef, params: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries((params ?? {}) as Record<string, string>)) {
    if (k === 'city' || k === def.idField || !(k in def.schema.properties) || typeof v !== 'string') continue;
    out[k] = isNumericField(def.schema.properties[k]) && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }
  return out;
}

function crudHandler(def: ResourceDef, op: ApiOperation, call: ApiCall, resources: ReadonlyMap<string, ResourceDef>, app: FastifyInstance) {
  const { db } = app;
  const match = matchOf(call);
  const forced = call.where ?? {};
  const partial = call.method === 'PATCH';
  const byId = idParamOf(call.path) !== null;
  if (def.singleton && !(op === 'list' || (op === 'delete' && byId))) {
    switch (op) {
      case 'show':
        return (c: CallContext) => getSingleton(db, def, c.storageKey);
      case 'create':
      case 'update':
        return (c: CallContext) => upsertSingleton(db, def, c.storageKey, c.request.body, c.actor, { forced, partial, resources, unwritable: c.unwritable, unreadable: c.unreadable });
      default:
        return async (c: CallContext) => deleteSingleton(db, def, c.storageKey, c.actor);
    }
  }
  switch (op) {
    case 'list':
      return (c: CallContext) =>
        listRecords(db, def, c.storageKey, c.request.query as Record<string, unknown>, {
          ...match,
          where: { ...match.where, ...fieldParams(def, c.request.params) },
          owner: c.owned,
          unreadable: c.unreadable,
          references: c.references,
        });
    case 'create':
      return (c: CallContext) =>
        createRecord(db, def, c.storageKey, c.request.body, c.actor, {
          forced: { ...forced, ...fieldParams(def, c.request.params) },
          match: { owner: c.owned },
          resources,
          unwritable: c.unwritable,
        });
    case 'show':
      return (c: CallContext) => getRecord(db, def, c.storageKey, c.id, { ...match, owner: c.owned });
    case 'update':
      return (c: CallContext) => updateRecord(db, def, c.storageKey, c.id, c.request.body, c.actor, {
          partial,
          forced,
          match: { ...match, owner: c.owned },
          resources,
          unwritable: c.unwritable,
          unreadable: c.unreadable,
        });
    case 'delete':
      return (c: CallContext) => deleteRecord(db, def, c.storageKey, c.id, c.actor, { match: { ...match, owner: c.owned } });
  }
}

/**
 * Registers the calls and actions of every resource of `resources`.
 * Throws when two calls claim one method and path (naming both), or an action misses what its kind needs.
 */
export function registerResourceRoutes(app: FastifyInstance, resources: ReadonlyMap<string, ResourceDef>): void {
  for (const def of resources.values()) {
    const { api } = def;
    const show = api.show;
    for (const op of ['list', 'create', 'show', 'update', 'delete'] as const) {
      const call = api[op];
      if (!call) continue;
      // A singleton's list at the path of its show is the show (settings: GET and PUT one path).
      if (op === 'list' && def.singleton && show && routeKey(show.method, show.path) === routeKey(call.method, call.path)) continue;
      const status = call.status ?? (def.singleton && op === 'create' ? 200 : STATUS[op]);
      registerCall(app, {
        def,
        method: call.method,
        path: call.path,
        aliases: call.aliases,
        permission: PERMISSION[op],
        pathSubjects: Object.fromEntries(Object.keys(call.pathRoles ?? {}).map((path) => [path, callSubject(def, call.method, path)])),
        declaredBy: `${def.name}.${op}`,
        status,
        rowCity: call.rowCity,
        schema: (path, alias) => crudSchema(def, op, call, path, alias),
        handler: crudHandler(def, op, call, resources, app),
      });
    }
    registerActionRoutes(app, def, resources);
  }
}
