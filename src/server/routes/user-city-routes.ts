/**
 * City calls of 001 7.3 served beside the users calls: specify, GET /city/:city/, PATCH
 * /api/city/:city/, get_operation_city (see `registerUserCityRoutes`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { effectiveRole, type City, type Profile } from '../../shared/roles';
import type { FieldErrors } from '../../shared/validation';
import { authorize, requireProfile } from '../auth/authorize';
import { HttpError } from '../http-error';
import { findCity, listCities } from '../repositories/city-repository';
import * as users from '../repositories/user-repository';
import { accessTokenOf } from '../plugins/auth';
import { type Body, NAME_MAX, bodyOf, text, isAdmin, intOf, add, check } from './user-inputs';

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
  const unlessServed = (method: 'GET' | 'PATCH', url: string, handler: (request: FastifyRequest) => Promise<unknown>) => {
    if (!app.hasRoute({ method, url })) app.route({ method, url, handler });
  };
  const signedIn = async (request: FastifyRequest) => {
    const profile = await profileOf(request);
    if (!profile) throw new HttpError('unauthorized');
    return profile;
  };
  const cityOr404 = (city: City | null | undefined): City => {
    if (!city) throw new HttpError('not_found');
    return city;
  };

  unlessServed('GET', '/default/api/city/specify', async (request) => {
    requireProfile(request);
    const q = request.query as Body;
    const id = intOf(q.id);
    if (typeof q.name !== 'string' && id === null) check({ name: [{ key: 'validation.generic.required', params: { field: 'name' } }] });
    return cityOr404((await listCities(db)).find((c) => c.name === q.name || c.id === id));
  });

  unlessServed('GET', '/city/:city', async (request) => {
    await signedIn(request);
    return cityOr404(await findCity(db, (request.params as { city: string }).city));
  });

  unlessServed('PATCH', '/api/city/:city', async (request) => {
    const { profile, city } = await authorize(request, 'update', 'city');
    if (!isAdmin(profile)) throw new HttpError('forbidden');
    const nameJa = text(bodyOf(request), 'name_ja')?.trim();
    if (!nameJa) check({ name_ja: [{ key: 'validation.generic.required', params: { field: 'name_ja' } }] });
    if (nameJa!.length > NAME_MAX) check({ name_ja: [{ key: 'validation.generic.maxLength', params: { field: 'name_ja', max: NAME_MAX } }] });
    return cityOr404(await users.renameCity(db, city.name, nameJa!));
  });

  unlessServed('GET', '/get_operation_city', async (request) => {
    const caller = await signedIn(request);
    const q = request.query as Body;
    const [cityId, userId] = [intOf(q.city_id), intOf(q.user_id)];
    const errors: FieldErrors = {};
    if (cityId === null) add(errors, 'city_id', 'validation.generic.required');
    if (userId === null) add(errors, 'user_id', 'validation.generic.required');
    check(errors);
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
