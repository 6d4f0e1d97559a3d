/**
 * CSV export of any list (docs/architecture.md 'Beyond the spec': CSV export; ours): every page of a resource's list as its
 * current search, filters, date ranges and order select; the one export of ./csv-export.ts (streamed,
 * translated titles and enum labels, UTF-8 with BOM or Shift_JIS, cells formula-escaped), which the
 * declared `export` actions answer with too.
 * - GET /{city}/api/exports/{resource}/?encoding=utf-8|shift_jis&columns=a,b&<list query> → 200 text/csv
 *   (attachment `<resource>.csv`; at most MAX_EXPORT_ROWS rows; `columns`, any fields of the
 *   resource, defaults to the list's).
 * Authorized as reading the resource in the city (`authorize`), limited to the caller's own rows
 * (`x-resource.owner`, as the list call is); a reference column is followed by the names of the rows
 * it names that the caller reads (./csv-export.ts). Errors: 400 `validation` (unknown
 * encoding, bad filter value), 401, 403, 404 (unknown resource or city).
 */
import { deniedFields } from '../../shared/ability';
import type { FastifyInstance } from 'fastify';
import { exportable } from '../../shared/list-export';
import { authorize, ownedRowsFor, referenceAccess } from '../auth/authorize';
import { storageCity } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { EXPORT_QUERY, pathParams } from '../openapi/call-schemas';
import { answer, errorAnswers } from '../openapi/components';
import { checkedByHandler, throwIfInvalid } from '../plugins/validation';
import { sendCsvExport } from './csv-export';

/** Registers GET /{city}/api/exports/{resource}/. */
export function registerListExportRoute(app: FastifyInstance): void {
  app.get(
    '/:city/api/exports/:resource/',
    {
      config: { api: true },
      schema: {
        operationId: 'list_export',
        tags: ['exports'],
        summary: 'Any list as CSV, all pages, as its filters select (path ours)',
        description: "The list's query (search, filters, date ranges, order) selects the rows; paging is ignored.",
        params: { ...pathParams('/{city}/{resource}/'), properties: { city: { type: 'string' }, resource: { type: 'string', description: 'A resource of the registry' } } },
        querystring: { type: 'object', properties: EXPORT_QUERY },
        response: { '200': answer('CSV', { type: 'string' }, 'text/csv'), ...errorAnswers(400, 401, 403, 404) },
      },
      // The export reads the list query and its encoding itself (./csv-export.ts).
      validatorCompiler: checkedByHandler(app, ['querystring']),
    },
    async (request, reply) => {
      const { resource } = request.params as { resource: string };
      const def = app.resources.get(resource);
      if (!def || !exportable(def)) throw new HttpError('not_found');
      const authorized = await authorize(request, 'read', def.name);
      throwIfInvalid(request);
      const { city } = authorized;
      const list = def.api.list;
      const references = referenceAccess(authorized, app.resources, city.name);
      return sendCsvExport(reply, {
        db: app.db,
        def,
        city: storageCity(def, city.name),
        query: request.query as Record<string, unknown>,
        match: { where: list.where, exclude: list.exclude, owner: ownedRowsFor(authorized, 'read', def), unreadable: deniedFields(authorized.ability, 'read', def), references },
        columns: def.list.columns,
        allowed: Object.keys(def.schema.properties),
        language: request.headers['accept-language'],
        // The names of referenced rows, as the caller reads that resource's list.
        references,
      });
    },
  );
}
