/**
 * The one authorization check of every route (DESIGN.md 'One set of permission rules'; 000 6;
 * 001 8): the shared CASL ability of (profile, city), enforced on the server.
 */
import type { FastifyRequest } from 'fastify';
import { defineAbilityFor } from '../../shared/ability';
import { DEFAULT_CITY } from '../../shared/constants';
import { registry, type Action } from '../../shared/registry';
import type { City, Profile } from '../../shared/roles';
import { HttpError } from '../http-error';
import { findCity } from '../repositories/city-repository';

export interface Authorized {
  profile: Profile;
  city: City;
}

export interface AuthorizeOptions {
  /**
   * The city to check instead of the path's `:city`: a city name, or null for a path that names no
   * city (reference data such as `/japan/prefectures`). Default: `:city`, else `default`.
   */
  city?: string | null;
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
  const ability = defineAbilityFor(profile, abilityCity, resources);
  const actions = typeof action === 'string' ? [action] : action;
  const subjects = typeof subject === 'string' ? [subject] : subject;
  if (!actions.some((a) => subjects.some((s) => ability.can(a, s)))) throw new HttpError('forbidden');
  return { profile, city };
}

/** The signed-in profile. Errors: 401 `unauthorized`. */
export function requireProfile(request: FastifyRequest): Profile {
  if (!request.profile) throw new HttpError('unauthorized');
  return request.profile;
}
