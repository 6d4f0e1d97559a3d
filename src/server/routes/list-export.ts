/**
 * CSV export of any list (issue 5 'CSV export'; ours): every page of a resource's list as its
 * current search, filters, date ranges and order select, in UTF-8 with BOM or Shift_JIS, cells
 * formula-escaped (../csv.ts). Column headers are the fields' titles and enum values their labels,
 * in the request's language (Accept-Language, Japanese by default).
 * - GET /{city}/api/exports/{resource}/?encoding=utf-8|shift_jis&columns=a,b&<list query> → 200 text/csv
 *   (attachment `<resource>.csv`; at most MAX_EXPORT_ROWS rows; `columns` defaults to the list's).
 * Authorized as reading the resource in the city (`authorize`), limited to the caller's own rows
 * (`x-resource.owner`, as the list call is). Errors: 400 `validation` (unknown
 * encoding, bad filter value), 401, 403, 404 (unknown resource or city).
 */
import type { FastifyInstance } from 'fastify';
import { ownedRows } from '../../shared/ability';
import { exportable } from '../../shared/list-export';
import type { ResourceDef } from '../../shared/registry';
import { authorize } from '../auth/authorize';
import { CSV_ENCODINGS, encodeCsv, toCsv, type CsvEncoding } from '../csv';
import { storageCity } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { allRecords } from '../repositories/resource-repository';
import { firstValue as first } from '../../shared/list-query';
import { translatorFor, type Translate } from '../translator';
import { MAX_EXPORT_ROWS } from './actions';


/** The columns of an export: the asked ones that are fields of the resource, else the list's. */
export function exportColumns(def: ResourceDef, asked: string | undefined): string[] {
  const wanted = (asked ?? '').split(',').map((s) => s.trim()).filter((f) => f in def.schema.properties);
  return wanted.length ? [...new Set(wanted)] : def.list.columns;
}

/** A cell of an export: an enum value as its translated label (also inside lists), else the value. */
export function exportCell(def: ResourceDef, field: string, value: unknown, t: Translate): unknown {
  const prop = def.schema.properties[field];
  const items = prop?.items as { enum?: unknown[]; 'x-enum-labels'?: string[] } | undefined;
  const values = prop?.enum ?? items?.enum;
  const labels = prop?.['x-enum-labels'] ?? items?.['x-enum-labels'];
  if (!values || !labels) return value;
  const label = (v: unknown) => {
    const i = values.findIndex((x) => String(x) === String(v));
    return i >= 0 && labels[i] ? t(labels[i]) : v;
  };
  return Array.isArray(value) ? value.map(label).join(', ') : label(value);
}

/** Registers GET /{city}/api/exports/{resource}/. */
export function registerListExportRoute(app: FastifyInstance): void {
  app.get(
    '/:city/api/exports/:resource/',
    {
      config: {
        api: true,
        openapi: {
          operationId: 'list_export',
          tags: ['exports'],
          summary: 'Any list as CSV, all pages, as its filters select (path ours)',
          parameters: [
            { name: 'city', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'resource', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'encoding', in: 'query', required: false, schema: { type: 'string', enum: [...CSV_ENCODINGS] } },
            { name: 'columns', in: 'query', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } },
            '400': { $ref: '#/components/responses/Validation' },
            '401': { $ref: '#/components/responses/Unauthorized' },
            '403': { $ref: '#/components/responses/Forbidden' },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
      },
    },
    async (request, reply) => {
      const { resource } = request.params as { resource: string };
      const def = app.resources.get(resource);
      if (!def || !exportable(def)) throw new HttpError('not_found');
      const { city, profile } = await authorize(request, 'read', def.name);
      const query = request.query as Record<string, unknown>;
      const encoding = (first(query.encoding) ?? 'utf-8').toLowerCase();
      if (!(CSV_ENCODINGS as readonly string[]).includes(encoding)) {
        throw new HttpError('validation', { fieldErrors: { encoding: [{ key: 'validation.generic.enum', params: { allowedValues: CSV_ENCODINGS } }] } });
      }
      const t = translatorFor(request.headers['accept-language']);
      const columns = exportColumns(def, first(query.columns));
      const list = def.api.list;
      const rows = await allRecords(app.db, def, storageCity(def, city.name), query, { where: list.where, exclude: list.exclude, owner: ownedRows(def, profile) }, MAX_EXPORT_ROWS);
      const csv = toCsv(
        columns.map((f) => t(def.schema.properties[f].title)),
        rows.map((r) => columns.map((f) => exportCell(def, f, r[f], t))),
      );
      const { bytes, contentType } = encodeCsv(csv, encoding as CsvEncoding);
      return reply
        .code(200)
        .header('content-type', contentType)
        .header('content-disposition', `attachment; filename="${def.name}.csv"`)
        .header('x-content-type-options', 'nosniff')
        .send(bytes);
    },
  );
}
