/**
 * City reference data (001 7.3).
 * - GET /default/api/city/info/ → {content: City[], total_length, count, limit, offset, page_length}
 *   (signed in; query `limit` default and maximum MAX_LIMIT, `offset` default 0).
 */
import type { FastifyInstance } from 'fastify';
import { MAX_LIMIT } from '../../shared/constants';
import { clampPage, listAnswer } from '../../shared/list-query';
import { requireProfile } from '../auth/authorize';
import { answer, errorAnswers, ref } from '../openapi/components';
import { pageLimit, pageOffset } from '../openapi/integer-params';
import { checkedByHandler, throwIfInvalid } from '../plugins/validation';
import { listCities } from '../repositories/city-repository';

/** Registers the city routes. */
export function registerCityRoutes(app: FastifyInstance): void {
  app.get(
    '/default/api/city/info/',
    {
      schema: {
        operationId: 'cities_list',
        tags: ['cities'],
        summary: 'Every city, paged (001 7.3)',
        querystring: {
          type: 'object',
          properties: { limit: pageLimit(MAX_LIMIT), offset: pageOffset() },
        },
        response: { '200': answer('One page of cities', ref('CityList')), ...errorAnswers(401) },
      },
      // The list codec reads the query (src/shared/list-query.ts).
      validatorCompiler: checkedByHandler(app, ['querystring']),
    },
    async (request) => {
      requireProfile(request);
      throwIfInvalid(request);
      const query = request.query as Record<string, unknown>;
      const page = clampPage(query.limit, query.offset, MAX_LIMIT);
      const all = await listCities(app.db);
      return listAnswer(all.slice(page.offset, page.offset + page.limit), all.length, page);
    },
  );
}
