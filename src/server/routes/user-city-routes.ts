/**
 * City calls of 001 7.3 served beside the users calls: specify, GET /city/:city/, PATCH
 * /api/city/:city/, get_operation_city (see `registerUserCityRoutes`).
 */
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { effectiveRole, type City, type Profile } from '../../shared/roles';
import { authorize, requireProfile } from '../auth/authorize';
import { HttpError } from '../http-error';
import { findCity, listCities } from '../repositories/city-repository';
import * as users from '../repositories/user-repository';
import { accessTokenOf } from '../plugins/auth';
import { throwIfInvalid } from '../plugins/validation';
import { type Body, bodyOf, stringField, isAdmin, intOf, throwIfFieldErrors } from './user-inputs';
import { USER_CITY_SCHEMAS as S } from './user-schemas';

/** The profile of a request outside the API paths (the auth hook reads API paths only), or null. */
async function profileOf(request: FastifyRequest): Promise<Profile | null> {
  if (request.profile) return request.profile;
  const token = accessTokenOf(request);
  const claims = token ? await request.server.tokens.verifyAccess(token) : null;
  return claims ? users.loadProfile(request.server.db, claims.userId, claims.family) : null;
}

/**
 * City calls of 001 7.3 that routes/cities.ts does not serve (yet; each is skipped once it does):
 * - GET   /default/api/city/specify/?name=|id= → City (signed in)
 * - GET   /city/:city/ → City (signed in)
 * - PATCH /api/city/:city/ {name_ja} → City (Administrator)
 * - GET   /get_operation_city?city_id=&user_id= → {city, user_id, assigned, operation}: whether the user is
 *   assigned to the city and may operate it (Administrator, or its Operator); asked by the user itself,
 *   an Administrator or an Operator of the city.
 */
export function registerUserCityRoutes(app: FastifyInstance): void {
  const { db } = app;
  const unlessServed = (method: 'GET' | 'PATCH', url: string, schema: FastifySchema, handler: (request: FastifyRequest) => Promise<unknown>) => {
    if (!app.hasRoute({ method, url })) app.route({ method, url, schema, handler });
  };
  const signedIn = async (request: FastifyRequest) => {
    const profile = await profileOf(request);
    if (!profile) throw new HttpError('unauthorized');
    throwIfInvalid(request);
    return profile;
  };
  const cityOr404 = (city: City | null | undefined): City => {
    if (!city) throw new HttpError('not_found');
    return city;
  };

  unlessServed('GET', '/default/api/city/specify', S.specify, async (request) => {
    requireProfile(request);
    throwIfInvalid(request);
    const q = request.query as Body;
    const id = intOf(q.id);
    if (typeof q.name !== 'string' && id === null) throwIfFieldErrors({ name: [{ key: 'validation.generic.required', params: { field: 'name' } }] });
    return cityOr404((await listCities(db)).find((c) => c.name === q.name || c.id === id));
  });

  unlessServed('GET', '/city/:city', S.byPath, async (request) => {
    await signedIn(request);
    return cityOr404(await findCity(db, (request.params as { city: string }).city));
  });

  unlessServed('PATCH', '/api/city/:city', S.rename, async (request) => {
    const { profile, city } = await authorize(request, 'update', 'city');
    if (!isAdmin(profile)) throw new HttpError('forbidden');
    throwIfInvalid(request);
    const nameJa = (stringField(bodyOf(request), 'name_ja') ?? '').trim();
    return cityOr404(await users.renameCity(db, city.name, nameJa));
  });

  unlessServed('GET', '/get_operation_city', S.operation, async (request) => {
    const caller = await signedIn(request);
    const q = request.query as Body;
    const [cityId, userId] = [intOf(q.city_id), intOf(q.user_id)];
    const city = cityOr404((await listCities(db)).find((c) => c.id === cityId));
    const callerOperates = isAdmin(caller) || (effectiveRole(caller) === 'Operator' && caller.assign_city.some((c) => c.id === cityId));
    if (caller.id !== userId && !callerOperates) throw new HttpError('forbidden');
    const user = await users.findUserBy(db, { id: userId! });
    if (!user) throw new HttpError('not_found');
    const assigned = user.assign_city.includes(city.id);
    const operation = user.permission === 'Administrator' || (user.permission === 'Operator' && assigned);
    return { city, user_id: user.id, assigned, operation };
  });
}
