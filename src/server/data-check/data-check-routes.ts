/**
 * The データ点検 page's call (ours; docs/architecture.md 'Changing an entity'):
 * `GET /{city}/api/data-check/` → 200 `DataCheckAnswer` (src/shared/data-check.ts): every resource
 * of the served registry whose stored rows fail their current schema, each with its failing count
 * (estimated from a sample of DATA_CHECK_SAMPLE rows of a larger table), its first failing rows and,
 * for each, the path of its form in the Administrator's menu of the row's city (global rows: the
 * path's city). Query `resource`: that resource alone, every row read (no sample).
 * Only Administrators (subject `data_check` of src/shared/pages.ts; the page `data-check`). Rows of every city: the
 * Administrator's is the whole database. Values of the rows are not answered, only where they fail.
 * Errors: 400 `validation` (an unknown resource), 401, 403, 404 (an unknown city).
 */
import type { FastifyInstance } from 'fastify';
import { DATA_CHECK_ANSWER_SCHEMA, DATA_CHECK_FIRST, DATA_CHECK_PATH, DATA_CHECK_SAMPLE, type DataCheckAnswer } from '../../shared/data-check';
import { routeEntriesFor, type Manifest } from '../../shared/manifest';
import type { ResourceDef } from '../../shared/registry';
import { authorize } from '../auth/authorize';
import { GLOBAL_CITY } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { loadManifests } from '../manifests';
import { answer, errorAnswers } from '../openapi/components';
import { toRoutePath } from '../paths';
import { throwIfInvalid } from '../plugins/validation';
import { checkData } from './check-rows';

const QUERY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { resource: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z][a-z0-9_]*$', description: 'One resource, every row read' } },
} as const;

/** Registers the data check call. `manifests` (default menus/*.json) give the rows' form paths. */
export function registerDataCheckRoutes(app: FastifyInstance, manifests: Readonly<Record<string, Manifest>> = loadManifests()): void {
  const routes = new Map<string, Map<string, string>>();
  /** The route of `resource` in the Administrator's menu of `city` (kept per city). */
  const routeOf = (city: string, resource: string): string | undefined => {
    let byResource = routes.get(city);
    if (!byResource) {
      byResource = new Map();
      for (const e of routeEntriesFor('Administrator', city, manifests)) if (e.resource && e.route && !byResource.has(e.resource)) byResource.set(e.resource, e.route);
      routes.set(city, byResource);
    }
    return byResource.get(resource);
  };
  app.get(
    toRoutePath(DATA_CHECK_PATH),
    {
      schema: {
        operationId: 'data_check',
        tags: ['data-check'],
        summary: 'Stored rows that fail their schema, per resource (path ours; Administrators)',
        params: { type: 'object', required: ['city'], properties: { city: { type: 'string', description: 'City name (000 3 City), e.g. kobe' } } },
        querystring: QUERY_SCHEMA,
        response: { '200': answer('The resources with failing rows', DATA_CHECK_ANSWER_SCHEMA), ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request): Promise<DataCheckAnswer> => {
      const { city } = await authorize(request, 'read', 'data_check');
      throwIfInvalid(request);
      const only = (request.query as { resource?: string }).resource;
      let resources: ResourceDef[] = [...app.resources.values()];
      if (only !== undefined) {
        const def = app.resources.get(only);
        if (!def) throw new HttpError('validation', { fieldErrors: { resource: [{ key: 'validation.generic.enum', params: { field: 'resource' } }] } });
        resources = [def];
      }
      const checks = await checkData(app.db, { resources, sample: only ? undefined : DATA_CHECK_SAMPLE, first: DATA_CHECK_FIRST });
      return {
        checked_at: new Date().toISOString(),
        resources_checked: checks.length,
        rows_checked: checks.reduce((n, c) => n + c.checked, 0),
        resources: checks
          .filter((c) => c.failing > 0)
          .map((c) => ({
            resource: c.resource,
            label: app.resources.get(c.resource)!.label,
            total: c.total,
            checked: c.checked,
            failing: c.failing,
            sampled: c.sampled,
            failures: c.failures.map((f) => {
              const rowCity = f.city === GLOBAL_CITY ? city.name : f.city;
              const route = routeOf(rowCity, c.resource);
              return { id: f.id, city: f.city, field: f.field, rule: f.rule, key: f.key, params: f.params, path: route ? `/${rowCity}/${route}/edit/${f.id}` : null };
            }),
          })),
      };
    },
  );
}
