/**
 * The one authorization check of every route (DESIGN.md 'One set of permission rules'; 000 6;
 * 001 8): the shared CASL ability of (profile, city), enforced on the server.
 */
import type { FastifyRequest } from 'fastify';
import { defineAbilityFor } from '../../shared/ability';
import { DEFAULT_CITY } from '../../shared/constants';
import type { Action } from '../../shared/registry';
import type { City, Profile } from '../../shared/roles';
import { HttpError } from '../http-error';
import { findCity } from '../repositories/city-repository';

export interface Authorized {
  profile: Profile;
  city: City;
}

/**
 * Checks that the caller may do `action` on `subject` (a resource name or `page:<name>`) in the city
 * of the path (`:city`, default `default`). Resolves to the profile and the City.
 * Errors: 401 `unauthorized` without a valid token; 404 `not_found` for a city that does not exist;
 * 403 `forbidden` for a city the profile may not enter (the `advertiser` city is for Administrators
 * only, 000 6: the shared `canEnterCity`) or an action its role may not do.
 */
export async function authorize(request: FastifyRequest, action: Action, subject: string): Promise<Authorized> {
  const profile = request.profile;
  if (!profile) throw new HttpError('unauthorized');
  const name = (request.params as { city?: string } | undefined)?.city ?? DEFAULT_CITY;
  const city = profile.active_city.find((c) => c.name === name);
  if (!city) {
    if (!(await findCity(request.server.db, name))) throw new HttpError('not_found');
    throw new HttpError('forbidden');
  }
  if (!defineAbilityFor(profile, name).can(action, subject)) throw new HttpError('forbidden');
  return { profile, city };
}

/** The signed-in profile. Errors: 401 `unauthorized`. */
export function requireProfile(request: FastifyRequest): Profile {
  if (!request.profile) throw new HttpError('unauthorized');
  return request.profile;
}
