/**
 * City reference data (001 7.3).
 * - GET /default/api/city/info/ → {content: City[], total_length, count, limit, offset, page_length}
 *   (signed in; query `limit` default and maximum MAX_LIMIT, `offset` default 0).
 */
import type { FastifyInstance } from 'fastify';
import { MAX_LIMIT } from '../../shared/constants';
import { requireProfile } from '../auth/authorize';
import { listCities } from '../repositories/city-repository';

function intParam(value: unknown, fallback: number): number {
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : fallback;
}

/** Registers the city routes. */
export function registerCityRoutes(app: FastifyInstance): void {
  app.get('/default/api/city/info/', async (request) => {
    requireProfile(request);
    const query = request.query as Record<string, unknown>;
    const limit = Math.min(Math.max(intParam(query.limit, MAX_LIMIT), 1), MAX_LIMIT);
    const offset = intParam(query.offset, 0);
    const all = await listCities(app.db);
    const content = all.slice(offset, offset + limit);
    return { content, total_length: all.length, count: content.length, limit, offset, page_length: Math.ceil(all.length / limit) };
  });
}
