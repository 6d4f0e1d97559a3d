/**
 * The statistics calls (ours; docs/architecture.md 'Adding a statistic'), one pair per declaration of
 * src/shared/statistics.ts:
 * - GET /{city}/api/statistics/<name>/ → 200 StatisticAnswer (./aggregate.ts `aggregate`): query
 *   `start_date`, `end_date` (YYYY-MM-DD, required, Tokyo days, both inclusive), `interval` (day |
 *   week | month, default day), `by` (a dimension key; default the first dimension), and each
 *   declared filter field as an equality parameter.
 * - GET /{city}/api/statistics/<name>/export/ → 200 text/csv of the same answer's table: one row per
 *   period, then a total row; titles in the request's language (Japanese by default); `encoding`
 *   utf-8 (with a BOM) or shift_jis as the list export (routes/csv-export.ts); file name
 *   `<name>_<start>_<end>.csv`.
 * Both: `authorize('read', <resource>)` first (401, 403; a city not the caller's: 403/404), then the
 * query's schema (400 with field errors: a date that is not a day, an end before the start, a range
 * over 366 days, an unknown `by`, filter or value); the caller's own rows only (an Advertiser's
 * shops, 000 6). An unknown name has no route (404).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldSchema, ResourceDef } from '../../shared/registry';
import { STATISTIC_INTERVALS, STATISTIC_MAX_DAYS, STATISTICS, type StatisticAnswer, type StatisticDef } from '../../shared/statistics';
import type { FieldErrors } from '../../shared/validation';
import { authorize, ownedRowsFor } from '../auth/authorize';
import { CSV_ENCODINGS, csvContentType, csvStream } from '../csv';
import { storageCity } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { answer, errorAnswers } from '../openapi/components';
import { demoStatisticsJob } from './demo-data';
import { inputErrors } from '../plugins/validation';
import { exportEncoding } from '../routes/csv-export';
import { translatorFor } from '../translator';
import { aggregate, type StatisticQuery } from './aggregate';
import { dayNumber } from './aggregate-sql';

type Json = Record<string, unknown>;
const DAY = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A Tokyo day, YYYY-MM-DD (inclusive)' };

/** The path of a statistic's call (`{city}` left in). */
export function statisticPath(name: string): string {
  return `/{city}/api/statistics/${name}/`;
}

/** The query schema of one filter field: its enum, an integer, a boolean or a text. */
function filterSchema(prop: FieldSchema | undefined): Json {
  const type = [prop?.type ?? 'string'].flat().find((t) => t !== 'null');
  if (prop?.enum) return { type: 'string', enum: prop.enum };
  if (type === 'integer') return { type: 'string', pattern: '^-?\\d{1,15}$' };
  if (type === 'number') return { type: 'string', pattern: '^-?\\d{1,15}(\\.\\d+)?$' };
  if (type === 'boolean') return { type: 'string', enum: ['true', 'false'] };
  return { type: 'string', maxLength: 200 };
}

/** The query schema of a statistic's call (and, with `exporting`, of its export). */
export function statisticQuerySchema(stat: StatisticDef, def: ResourceDef, exporting = false): Json {
  const filters = Object.fromEntries(stat.filters.map((f) => [f, { ...filterSchema(def.schema.properties[f]), description: `Rows whose ${f} equals this` }]));
  return {
    type: 'object',
    additionalProperties: false,
    required: ['start_date', 'end_date'],
    properties: {
      start_date: DAY,
      end_date: DAY,
      interval: { type: 'string', enum: [...STATISTIC_INTERVALS], default: 'day', description: 'Periods of the series (weeks from Monday)' },
      by: { type: 'string', enum: stat.dimensions.map((d) => d.key), description: 'The dimension of the groups (default the first)' },
      ...filters,
      ...(exporting ? { encoding: { type: 'string', enum: [...CSV_ENCODINGS], default: 'utf-8' } } : {}),
    },
  };
}

/** The answer schema of a statistic: StatisticAnswer with its measures as the values' keys. */
export function statisticAnswerSchema(stat: StatisticDef): Json {
  const values = { type: 'object', required: stat.measures.map((m) => m.key), properties: Object.fromEntries(stat.measures.map((m) => [m.key, { type: 'number', description: `${m.kind}${m.field ? ` of ${m.field}` : ''} (${m.format})` }])) };
  const day = { type: 'string', format: 'date' };
  return {
    type: 'object',
    required: ['name', 'start_date', 'end_date', 'previous_start_date', 'previous_end_date', 'interval', 'by', 'totals', 'previous', 'series', 'groups'],
    properties: {
      name: { type: 'string' },
      start_date: day,
      end_date: day,
      previous_start_date: day,
      previous_end_date: day,
      interval: { type: 'string', enum: [...STATISTIC_INTERVALS] },
      by: { type: ['string', 'null'] },
      totals: values,
      previous: values,
      series: { type: 'array', items: { type: 'object', required: ['period', 'values'], properties: { period: day, values } } },
      groups: {
        type: 'array',
        maxItems: 100,
        items: { type: 'object', required: ['key', 'label', 'values'], properties: { key: { type: ['string', 'number', 'null'] }, label: { type: ['string', 'null'] }, values } },
      },
    },
  };
}

/** A filter value as `data->>'field'` shows it (`024` → `24`). */
function filterText(prop: FieldSchema | undefined, value: string): string {
  const type = [prop?.type ?? 'string'].flat().find((t) => t !== 'null');
  return type === 'integer' || type === 'number' ? String(Number(value)) : value;
}

/**
 * The query of a statistic's call, checked: the schema's errors, then the days (calendar days, end
 * not before start, at most 366 days). Errors: 400 `validation` with field errors.
 */
export function readStatisticQuery(request: FastifyRequest, stat: StatisticDef, def: ResourceDef): StatisticQuery {
  const errors: FieldErrors = { ...inputErrors(request) };
  const q = request.query as Record<string, string | undefined>;
  const add = (field: string, key: string, params: Record<string, unknown> = {}) => {
    errors[field] ??= [];
    errors[field].push({ key, params: { field, ...params } });
  };
  const lo = q.start_date ? dayNumber(q.start_date) : NaN;
  const hi = q.end_date ? dayNumber(q.end_date) : NaN;
  if (q.start_date && !errors.start_date && Number.isNaN(lo)) add('start_date', 'validation.generic.format');
  if (q.end_date && !errors.end_date && Number.isNaN(hi)) add('end_date', 'validation.generic.format');
  if (!Number.isNaN(lo) && !Number.isNaN(hi)) {
    if (hi < lo) add('end_date', 'validation.statistics.end_before_start');
    else if (hi - lo + 1 > STATISTIC_MAX_DAYS) add('end_date', 'validation.statistics.range_too_long', { limit: STATISTIC_MAX_DAYS });
  }
  if (Object.keys(errors).length > 0) throw new HttpError('validation', { fieldErrors: errors });
  const filters = Object.fromEntries(stat.filters.filter((f) => q[f] !== undefined && q[f] !== '').map((f) => [f, filterText(def.schema.properties[f], String(q[f]))]));
  return {
    start_date: q.start_date,
    end_date: q.end_date,
    interval: (q.interval as StatisticQuery['interval']) ?? 'day',
    by: q.by ?? stat.dimensions[0]?.key ?? null,
    filters,
  };
}

async function answerOf(app: FastifyInstance, request: FastifyRequest, stat: StatisticDef, def: ResourceDef): Promise<StatisticAnswer> {
  const authorized = await authorize(request, 'read', def.name);
  const owner = ownedRowsFor(authorized, 'read', def);
  const query = readStatisticQuery(request, stat, def);
  const named = (request.params as { city: string }).city;
  return aggregate(app.db, stat, storageCity(def, named), query, { where: def.api.list.where, exclude: def.api.list.exclude, owner }, app.resources);
}

/** The CSV rows of an answer: header (period, each measure), one row per period, the total row. */
export function statisticTable(stat: StatisticDef, a: StatisticAnswer, t: (key: string) => string): { header: string[]; rows: unknown[][] } {
  const header = [t('statistics.export.period'), ...stat.measures.map((m) => t(m.label))];
  const rows = a.series.map((s) => [s.period.replaceAll('-', '/'), ...stat.measures.map((m) => s.values[m.key] ?? 0)]);
  rows.push([t('statistics.export.total'), ...stat.measures.map((m) => a.totals[m.key] ?? 0)]);
  return { header, rows };
}

/** Registers the call and the export of every statistic whose resource the app's registry holds, and the demo statistics' job kind. */
export function registerStatisticRoutes(app: FastifyInstance): void {
  // The demo statistics of a first start, made after the server listens (./demo-data.ts).
  app.jobs.define(demoStatisticsJob(app.resources));
  for (const stat of Object.values(STATISTICS)) {
    const def = app.resources.get(stat.resource);
    if (!def) continue;
    const id = stat.name.replaceAll('-', '_');
    const url = `/:city/api/statistics/${stat.name}/`;
    const params = { type: 'object', required: ['city'], properties: { city: { type: 'string', description: 'City name (000 3 City), e.g. kobe' } } };
    app.get(
      url,
      {
        schema: {
          operationId: `statistics_${id}`,
          tags: ['statistics'],
          summary: `Statistic ${stat.name} of ${stat.resource} (path ours)`,
          description: `Totals, previous period, series and groups of ${stat.resource} in Tokyo days. Permission: read ${stat.resource}; own rows only.`,
          params,
          querystring: statisticQuerySchema(stat, def),
          response: { '200': answer('The statistic', statisticAnswerSchema(stat)), ...errorAnswers(400, 401, 403, 404) },
        },
      },
      (request) => answerOf(app, request, stat, def),
    );
    app.get(
      `${url}export/`,
      {
        schema: {
          operationId: `statistics_${id}_export`,
          tags: ['statistics'],
          summary: `Statistic ${stat.name} as CSV (path ours)`,
          description: 'One row per period and a total row; titles in the request language; UTF-8 with a BOM or Shift_JIS.',
          params,
          querystring: statisticQuerySchema(stat, def, true),
          response: { '200': answer('CSV of the statistic table', { type: 'string' }, 'text/csv'), ...errorAnswers(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const a = await answerOf(app, request, stat, def);
        const encoding = exportEncoding(request.query as Record<string, unknown>);
        const { header, rows } = statisticTable(stat, a, translatorFor(request.headers['accept-language']));
        async function* records(): AsyncGenerator<unknown[]> {
          yield* rows;
        }
        return reply
          .code(200)
          .header('content-type', csvContentType(encoding))
          .header('content-disposition', `attachment; filename="${stat.name}_${a.start_date}_${a.end_date}.csv"`)
          .header('x-content-type-options', 'nosniff')
          .send(csvStream(header, records(), encoding));
      },
    );
  }
}
