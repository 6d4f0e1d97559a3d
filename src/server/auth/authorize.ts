/**
 * The one authorization check of every route (000 6 Roles; 001 8; docs/architecture.md 'Roles'): the
 * shared CASL ability of (profile, city), cached, enforced on the server, and the own-row limits read
 * from its rules.
 */
import type { FastifyRequest } from 'fastify';
import { defineAbilityFor, deniedFields, ownedRowsOf, type AbilityProfile, type AppAbility, type OwnedRows } from '../../shared/ability';
import { DEFAULT_CITY } from '../../shared/constants';
import { registry, type Action, type ResourceDef } from '../../shared/registry';
import type { City, Profile } from '../../shared/roles';
import { HttpError } from '../http-error';
import { storageCity } from '../db/resource-tables';
import { findCity } from '../repositories/city-repository';
import type { ReferenceAccess } from '../repositories/record-query';

export interface Authorized {
  profile: Profile;
  city: City;
  /** The caller's ability in that city (shared, cached: never `update` it). */
  ability: AppAbility;
}

export interface AuthorizeOptions {
  /**
   * The city to check instead of the path's `:city`: a city name, or null for a path that names no
   * city (reference data such as `/japan/prefectures`). Default: `:city`, else `default`.
   */
  city?: string | null;
}

/**
 * The profile fields `defineAbilityFor` reads (`AbilityProfile`; a field added there and missing here
 * fails to compile): the key of a cached ability is made of their values.
 */
const ABILITY_FIELD_SET: Record<keyof AbilityProfile, true> = {
  permission: true,
  is_captain_department: true,
  assign_city: true,
  id: true,
  username: true,
  school: true,
  group: true,
  classes: true,
  advertisements: true,
};
const ABILITY_FIELDS = Object.keys(ABILITY_FIELD_SET) as Array<keyof AbilityProfile>;

/** Abilities kept per resources map: at most this many (profile content, city) keys, then all are dropped. */
export const ABILITY_CACHE_MAX = 1000;

const abilities = new WeakMap<ReadonlyMap<string, ResourceDef>, Map<string, AppAbility>>();

/**
 * The ability of a profile in a city over `resources` (`defineAbilityFor` with its default pages),
 * built once and shared by every call with the same key: the resources map (by identity) and the
 * content of the profile's ability fields (role, captain flag, assigned cities, id, username, school,
 * group, classes, shops) and the city. Keyed by content, not by the profile object, which is read
 * again from the database about once a second (plugins/auth.ts): a change of any of those fields
 * makes a new key, so a stale ability is never reused. At most ABILITY_CACHE_MAX keys per resources
 * map (the whole map is dropped when full). Callers must not change the answer (`update`).
 */
export function abilityFor(profile: AbilityProfile, city: string, resources: ReadonlyMap<string, ResourceDef> = registry): AppAbility {
  let cache = abilities.get(resources);
  if (!cache) abilities.set(resources, (cache = new Map()));
  const key = JSON.stringify([city, ...ABILITY_FIELDS.map((f) => profile[f] ?? null)]);
  let ability = cache.get(key);
  if (!ability) {
    if (cache.size >= ABILITY_CACHE_MAX) cache.clear();
    ability = defineAbilityFor(profile, city, resources);
    cache.set(key, ability);
  }
  return ability;
}

/**
 * Checks that the caller may do `action` on `subject` (a resource name or `page:<name>`) in the city
 * of the path (`:city`, default `default`). With several actions or subjects, one allowed pair is
 * enough (an upload is allowed to whoever may create or update a resource with a file field).
 * Resolves to the profile and the City.
 *
 * A path that names no city (`options.city` null) is checked as in the `default` city: any signed-in
 * user who may enter some city passes the city check, the role rules of the schemas decide (they do
 * not depend on the city); the City answered is `default`.
 *
 * Errors: 401 `unauthorized` without a valid token; 404 `not_found` for a city that does not exist;
 * 403 `forbidden` for a city the profile may not enter (the `advertiser` city is for Administrators
 * only, 000 6: the shared `canEnterCity`) or an action its role may not do.
 */
export async function authorize(
  request: FastifyRequest,
  action: Action | readonly Action[],
  subject: string | readonly string[],
  options: AuthorizeOptions = {},
): Promise<Authorized> {
  const profile = request.profile;
  if (!profile) throw new HttpError('unauthorized');
  const { db } = request.server;
  const resources = request.server.hasDecorator('resources') ? request.server.resources : registry;
  const named = options.city !== undefined ? options.city : ((request.params as { city?: string } | undefined)?.city ?? DEFAULT_CITY);
  let city: City;
  let abilityCity: string;
  if (named === null) {
    const own = profile.active_city.find((c) => c.name === DEFAULT_CITY) ?? profile.active_city[0];
    if (!own) throw new HttpError('forbidden');
    city = (await findCity(db, DEFAULT_CITY)) ?? own;
    abilityCity = own.name;
  } else {
    const found = profile.active_city.find((c) => c.name === named);
    if (!found) {
      if (!(await findCity(db, named))) throw new HttpError('not_found');
      throw new HttpError('forbidden');
    }
    city = found;
    abilityCity = named;
  }
  const ability = abilityFor(profile, abilityCity, resources);
  const actions = typeof action === 'string' ? [action] : action;
  const subjects = typeof subject === 'string' ? [subject] : subject;
  if (!actions.some((a) => subjects.some((s) => ability.can(a, s)))) throw new HttpError('forbidden');
  return { profile, city, ability };
}

/**
 * The caller's own-row limits on the rows of `def` when doing `action` on `subject` (default: the
 * resource), as its ability's rules have them (src/shared/ability.ts `ownedRowsOf`; 000 6). Empty: no
 * limit. Errors: 403 `forbidden` when the ability allows no such row at all.
 */
export function ownedRowsFor(authorized: Pick<Authorized, 'ability'>, action: Action, def: ResourceDef, subject: string = def.name): OwnedRows[] {
  const owned = ownedRowsOf(authorized.ability, action, subject, def);
  if (!owned) throw new HttpError('forbidden');
  return owned;
}

/**
 * How the caller reads each resource an `x-ref` names, as it reads that resource's list: its
 * storage city key under `city` (the path's city; null: none), the list call's fixed values, the
 * caller's own-row limits and the fields it may not read; null where it may not read the resource
 * (or the registry has none of that name). The names of referenced rows in exports, and the search
 * and sort on reference fields (repositories/record-query.ts `Match.references`), go through it.
 * Answers are kept per resource for the life of the function (one request).
 */
export function referenceAccess(authorized: Pick<Authorized, 'ability'>, resources: ReadonlyMap<string, ResourceDef>, city: string | null): (resource: string) => ReferenceAccess | null {
  const known = new Map<string, ReferenceAccess | null>();
  return (name) => {
    if (known.has(name)) return known.get(name)!;
    const ref = resources.get(name);
    const owned = ref && authorized.ability.can('read', name) ? ownedRowsOf(authorized.ability, 'read', name, ref) : null;
    const access = ref && owned
      ? { def: ref, city: storageCity(ref, city), match: { where: ref.api.list.where, exclude: ref.api.list.exclude, owner: owned, unreadable: deniedFields(authorized.ability, 'read', ref) } }
      : null;
    known.set(name, access);
    return access;
  };
}

/** The signed-in profile. Errors: 401 `unauthorized`. */
export function requireProfile(request: FastifyRequest): Profile {
  if (!request.profile) throw new HttpError('unauthorized');
  return request.profile;
}
