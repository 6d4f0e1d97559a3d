/**
 * One route of a registry call (CRUD call or action, 001 7): its paths (path and aliases), the city it
 * works in, the one `authorize` check, the row id placeholder, the answer status and its Fastify
 * schema (validation after the permission checks, serialization, /openapi.json). Nothing here is per entity.
 *
 * City of a call: `{city}` when the path has it. Otherwise the literal first segment names the city
 * when it is one (`/advertiser/api/status/{id}/`), else the path names no city (`/japan/prefectures`):
 * the call is authorized as in the `default` city and works on the global rows. The caller's own-row
 * limits (`x-resource.owner`) reach the handler as `owned`; the repositories enforce them. Rows of global
 * resources are stored under the city key `*` whatever the path's city. A call declared `rowCity`
 * finds its rows (the `{id}`, or a bulk body's `ids`) in whatever city they are stored when its path
 * has no `{city}`, and is authorized in that city (./row-city).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { deniedFields, type OwnedRows } from '../../shared/ability';
import { withoutFields } from '../revisions/field-access';
import type { Action, ApiCall, ResourceDef } from '../../shared/registry';
import type { City, Profile } from '../../shared/roles';
import { authorize, ownedRowsFor, referenceAccess } from '../auth/authorize';
import type { Database } from '../db/database';
import { storageCity } from '../db/resource-tables';
import type { CallSchema } from '../openapi/call-schema';
import { idParamOf, literalCityOf, routeKey, toRoutePath } from '../paths';
import { findCity } from '../repositories/city-repository';
import type { ReferenceAccess } from '../repositories/record-query';
import { HttpError } from '../http-error';
import { checkedByHandler, serializeAsIs, throwIfInvalid, throwIfPathOutOfRange } from '../plugins/validation';
import { cityOfRows, idsOfCall } from './row-city';
import type { Actor } from '../repositories/resource-repository';

/** What a call handler gets. */
export interface CallContext {
  request: FastifyRequest;
  reply: FastifyReply;
  profile: Profile;
  /** The city the caller was authorized in (`default` for a path with no city). */
  city: City;
  /** The city the path names, or null for a path that names none. */
  named: string | null;
  /** The city key rows of this resource are read and written under (`*` for global rows: `storageCity`). */
  storageKey: string;
  /** The value of the row placeholder (the first one after the city), if the path has one. */
  id: string | undefined;
  actor: Actor;
  /** The caller's own-row limits on this resource (`x-resource.owner`, 000 6); empty: none. */
  owned: OwnedRows[];
  /** Fields of the resource the caller may not read (`x-permissions`; left out of every answer of rows). */
  unreadable: string[];
  /** Fields the caller may not write by this call's permission (create, update: `x-permissions`). */
  unwritable: string[];
  /** How the caller reads the resources this one's `x-ref` fields name (`referenceAccess`: search and sort by their titles). */
  references: (resource: string) => ReferenceAccess | null;
}

export interface CallRoute {
  def: ResourceDef;
  method: ApiCall['method'];
  path: string;
  aliases?: readonly string[];
  /** The ability action checked on the resource. */
  permission: Action;
  /** The ability subject checked (default: the resource; `<resource>#<action>` for an action with roles). */
  subject?: string;
  /** Paths checked on their own subject (`pathRoles` of the call: `callSubject`) instead of `subject`. */
  pathSubjects?: Readonly<Record<string, string>>;
  /** Who declares it, for error messages (`news.list`, `flyer.action:approve`). */
  declaredBy: string;
  /** Answer status (204 sends no body). */
  status: number;
  /** Paths without `{city}` find the rows in the city they are stored in and authorize there. */
  rowCity?: boolean;
  /**
   * The handler asks for the input's validation itself (`throwIfInvalid`, after checks of its own: a
   * second resource's permission); otherwise it is asked right after `authorize`.
   */
  checksInput?: boolean;
  /**
   * The Fastify schema of one of its paths (`alias` 0: the path, n: its n-th alias): params, query,
   * body, answers and operation (openapi/call-schemas.ts). The input is checked after `authorize`.
   */
  schema: (path: string, alias: number) => CallSchema;
  /**
   * The answer; a handler that sends the reply itself (a CSV export) answers anything: the route sees
   * `reply.sent`. (Answering the reply from an async handler does not carry it through: a Fastify reply is
   * thenable, so the handler's promise settles with what the reply's `then` gives, not with the reply.)
   */
  handler: (ctx: CallContext) => Promise<unknown>;
}

const declared = new WeakMap<FastifyInstance, Map<string, string>>();
const knownCities = new WeakMap<Database, Map<string, boolean>>();

async function isCity(db: Database, name: string): Promise<boolean> {
  let cache = knownCities.get(db);
  if (!cache) knownCities.set(db, (cache = new Map()));
  let known = cache.get(name);
  if (known === undefined) {
    known = (await findCity(db, name)) !== null;
    cache.set(name, known);
  }
  return known;
}

/**
 * Registers a call on every one of its paths. Throws when another registry call already declared
 * the same method and path (two schemas claiming one route), naming both.
 */
export function registerCall(app: FastifyInstance, route: CallRoute): void {
  let seen = declared.get(app);
  if (!seen) declared.set(app, (seen = new Map()));
  const paths = [...new Set([route.path, ...(route.aliases ?? [])])];
  paths.forEach((path, alias) => {
    const key = routeKey(route.method, path);
    const other = seen.get(key);
    if (other === route.declaredBy) return; // an alias that differs only by its trailing slash
    if (other) throw new Error(`routes: ${route.method} ${path} is declared by both ${other} and ${route.declaredBy}`);
    seen.set(key, route.declaredBy);
    const idParam = idParamOf(path, route.def.idField);
    const subject = route.pathSubjects?.[path] ?? route.subject ?? route.def.name;
    const literal = literalCityOf(path);
    const { schema, listQuery, records } = route.schema(path, alias);
    app.route({
      method: route.method,
      url: toRoutePath(path),
      config: { api: true },
      schema,
      ...(listQuery ? { validatorCompiler: checkedByHandler(app, ['querystring']) } : {}),
      ...(records ? { serializerCompiler: serializeAsIs } : {}),
      handler: async (request, reply) => {
        const params = (request.params ?? {}) as Record<string, string | undefined>;
        let named: string | null;
        if (path.includes('{city}')) named = params.city ?? null;
        else if (route.rowCity && route.def.scope === 'city') {
          named = await cityOfRows(app.db, route.def, idsOfCall(idParam ? params[idParam] : undefined, request.body));
          if (named === null) {
            // No such row anywhere: who may not do this at all learns nothing (401, 403), others get 404.
            await authorize(request, route.permission, subject, { city: null });
            throwIfPathOutOfRange(request);
            throw new HttpError('not_found');
          }
        } else named = literal !== null && (await isCity(app.db, literal)) ? literal : null;
        const authorized = await authorize(request, route.permission, subject, { city: named });
        const { profile, city } = authorized;
        const owned = ownedRowsFor(authorized, route.permission, route.def, subject);
        // The input after the permission checks: who may not make the call learns nothing of its rules.
        if (!route.checksInput) throwIfInvalid(request);
        // A handler that checks its input itself may look the path's row up first: a path id out of range is answered here.
        else throwIfPathOutOfRange(request);
        const ctx: CallContext = {
          request,
          reply,
          profile,
          city,
          named,
          storageKey: storageCity(route.def, named),
          id: idParam ? params[idParam] : undefined,
          actor: { userId: profile.id },
          owned,
          unreadable: deniedFields(authorized.ability, 'read', route.def),
          unwritable: route.permission === 'create' || route.permission === 'update' ? deniedFields(authorized.ability, route.permission, route.def) : [],
          references: referenceAccess(authorized, app.resources, named),
        };
        // Field permissions: the fields the caller may not read leave every answer of rows.
        const answer = withoutFields(route.def, await route.handler(ctx), ctx.unreadable);
        if (reply.sent) return reply;
        if (route.status === 204) return reply.code(204).send();
        return reply.code(route.status).send(answer);
      },
    });
  });
}
