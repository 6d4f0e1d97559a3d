/**
 * The Fastify schemas of the registry calls (001 7; routes/resources.ts, routes/actions.ts), made
 * from the same definitions the routes are made from: path parameters, query, body, answers,
 * operation id, tag and text. One object validates the request (plugins/validation.ts), serializes
 * the answer and is the operation of /openapi.json (./document.ts). Shared schemas: ./components.ts.
 */
import type { FastifySchema } from 'fastify';
import type { CallSchema } from './call-schema';
import { CSV_ENCODINGS } from '../../shared/list-export';
import type { ActionDef, ApiCall, ApiOperation, ResourceDef } from '../../shared/registry';
import { placeholdersOf } from '../paths';
import { answer, componentName, errorAnswers, payloadBody, ref } from './components';
import { IDS_PARAM, isDateField, isRefField, MAX_IDS, RANGE_SUFFIX, REF_IN_SUFFIX } from '../../shared/list-query';
import { pageLimit, pageOffset, rowId } from './integer-params';
import { STATISTIC_CALL_ERRORS, STATISTIC_CALL_QUERY, statisticCallAnswer, statisticOfAction } from '../statistics/spec-calls';

type Json = Record<string, unknown>;

export type { CallSchema } from './call-schema';

/** Whether a placeholder names a row id (`{id}`, `{schoolId}`, `{school_id}`, `{idCommon}`): an integer. */
function isIdName(name: string): boolean {
  return name !== 'city' && /(^id$|Id$|_id$|^id[A-Z])/.test(name);
}

/** The schema of a contract path's placeholders (all required; ids row ids, ./integer-params.ts), or undefined without any. */
export function pathParams(path: string): Json | undefined {
  const names = placeholdersOf(path);
  if (names.length === 0) return undefined;
  const properties = Object.fromEntries(
    names.map((name) => [
      name,
      name === 'city' ? { type: 'string', description: 'City name (000 3 City), e.g. kobe' } : isIdName(name) ? rowId() : { type: 'string' },
    ]),
  );
  return { type: 'object', required: names, properties };
}

/** A query schema of named parameters (none required), or undefined without any. */
export function queryOf(properties: Record<string, Json>): Json | undefined {
  return Object.keys(properties).length > 0 ? { type: 'object', properties } : undefined;
}

function strings(names: readonly string[] = []): Record<string, Json> {
  return Object.fromEntries(names.map((n) => [n, { type: 'string' }]));
}

/** The query parameters of a list of `def` (001 9 Paging): paging, search, order, declared filters, date ranges and the call's named ones. */
export function listQuery(def: ResourceDef, extra: readonly string[] = [], paging = true): Record<string, Json> {
  const out: Record<string, Json> = {};
  if (paging) {
    out.limit = pageLimit(def.list.pageSize);
    out.offset = pageOffset();
  }
  if (def.list.search.length > 0) out.search = { type: 'string', maxLength: 200, description: `Substring of ${def.list.search.join(', ')}` };
  if (def.list.sort.length > 0) out.order_by = { type: 'string', enum: def.list.sort.flatMap((f) => [f, `-${f}`]), description: 'Sort field; a leading - sorts descending' };
  for (const f of def.list.filters) {
    if (f.param in out) continue;
    out[f.param] = f.kind === 'equals' ? { type: 'string', description: `Rows whose ${f.field} equals this` } : { type: 'string', enum: f.values, description: `Period of ${f.start}–${f.end}` };
  }
  // Date ranges on the date fields (src/shared/list-query.ts: both ends inclusive).
  for (const field of Object.keys(def.schema.properties).filter((f) => isDateField(def, f))) {
    for (const end of ['from', 'to'] as const) {
      out[`${field}${RANGE_SUFFIX[end]}`] ??= { type: 'string', description: `${end === 'from' ? 'Earliest' : 'Latest'} ${field}, inclusive: a date-time (or a day for a date field) (001 9)` };
    }
  }
  // Rows by id and reference filters (src/shared/list-query.ts IDS_PARAM, REF_IN_SUFFIX).
  out[IDS_PARAM] ??= { type: 'string', pattern: '^[0-9,]*$', description: `Only these row ids, comma-separated (at most ${MAX_IDS}; ours)` };
  for (const field of Object.keys(def.schema.properties).filter((f) => isRefField(def, f))) {
    out[`${field}${REF_IN_SUFFIX}`] ??= { type: 'string', pattern: '^[0-9,]*$', description: `Rows whose ${field} names one of these ${def.schema.properties[field]['x-ref']} ids, comma-separated (ours)` };
  }
  for (const name of extra) out[name] ??= { type: 'string' };
  return out;
}

function fixed(call: { where?: Record<string, unknown>; exclude?: Record<string, unknown[]> }): string {
  const parts = [
    ...Object.entries(call.where ?? {}).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
    ...Object.entries(call.exclude ?? {}).map(([k, v]) => `${k} not in ${JSON.stringify(v)}`),
  ];
  return parts.length > 0 ? ` Fixed values: ${parts.join(', ')}.` : '';
}

function base(def: ResourceDef, id: string, path: string, alias: number, summary: string, description: string, ours?: boolean): Json {
  const text = `${description}${ours ? ' (path ours: not shown by the spec)' : ''}`.trim();
  const params = pathParams(path);
  return {
    operationId: alias > 0 ? `${id}_alias${alias}` : id,
    tags: [def.name],
    summary,
    ...(text ? { description: text } : {}),
    ...(params ? { params } : {}),
  };
}

/** Fields a path fills in a list or a create (`/{city}/api/school/{school_id}/notifications/`). */
function pathFields(def: ResourceDef, path: string): string[] {
  return placeholdersOf(path).filter((p) => p !== 'city' && p !== def.idField && p in def.schema.properties);
}

/** The schema of a CRUD call on one of its paths (`alias` 0: the path, n: its n-th alias). */
export function crudSchema(def: ResourceDef, op: ApiOperation, call: ApiCall, path: string, alias: number): CallSchema {
  const name = componentName(def);
  const o = base(def, `${def.name}_${op}`, path, alias, `${op} ${def.name}`, `${def.singleton && op !== 'list' ? 'The one record of the city (singleton).' : ''}${fixed(call)}`, call.ours);
  const status = (fallback: number) => String(call.status ?? fallback);
  const extra = queryOf(strings(call.query));
  const filled = [...Object.keys(call.where ?? {}), ...pathFields(def, path)];
  let listQueryRead = false;
  switch (op) {
    case 'list':
      o.querystring = queryOf(listQuery(def, call.query));
      listQueryRead = true;
      o.response = { [status(200)]: answer('One page of rows', ref(`${name}List`)), ...errorAnswers(400, 401, 403, 404) };
      break;
    case 'create':
      o.body = payloadBody(def, filled);
      o.response = { [status(def.singleton ? 200 : 201)]: answer('The stored row', ref(name)), ...errorAnswers(400, 401, 403, 404) };
      break;
    case 'show':
      o.response = { [status(200)]: answer(def.singleton ? 'The record, or the defaults while there is none' : 'The row', ref(name)), ...errorAnswers(400, 401, 403, 404) };
      break;
    case 'update':
      o.body = payloadBody(def, Object.keys(call.where ?? {}), call.method === 'PATCH');
      o.response = { [status(200)]: answer('The stored row', ref(name)), ...errorAnswers(400, 401, 403, 404, 409) };
      break;
    case 'delete':
      o.response = { [status(204)]: answer('Deleted'), ...errorAnswers(400, 401, 403, 404) };
      break;
  }
  if (op !== 'list' && extra) o.querystring = extra;
  if (o.querystring === undefined) delete o.querystring;
  return { schema: o as FastifySchema, listQuery: listQueryRead, records: true };
}

const KIND_TEXT: Record<ActionDef['kind'], string> = {
  set: 'Stores fixed values on the row',
  toggle: 'Flips a boolean field of the row',
  'set-all': 'Stores fixed values on every matching row',
  count: 'Counts the matching rows',
  children: 'Lists the rows of another resource that belong to the row',
  'create-child': 'Creates a row of another resource that belongs to the row',
  'bulk-update': 'Updates the same fields of several rows',
  export: 'The list as CSV (UTF-8 with BOM, formula-escaped)',
  sum: 'Totals of number fields over the list',
  statistic: 'Totals of a declared statistic (src/shared/statistics.ts) in the words of 000 3, a row per group, over start_date/end_date',
  show: 'The row',
  qrcode: "The QR code of the row's app link: PNG, or SVG by Accept: image/svg+xml or ?format=svg",
  'mail-qr': 'Stores fixed values on the row and mails its QR code to each parent',
  preview: "The row as the app's card shows it: title, image, shop, discount, validity (YYYY年MM月DD日〜YYYY年MM月DD日), conditions",
};

/** A body of some fields of `def` (each with its payload rule) and `extra` ones; any other field is refused. */
function fieldsBody(def: ResourceDef, fields: readonly string[], extra: Record<string, Json> = {}, required: string[] = []): Json {
  const payload = `${componentName(def)}Payload`;
  return {
    type: 'object',
    ...(required.length > 0 ? { required } : {}),
    properties: { ...extra, ...Object.fromEntries([...fields, 'version'].map((f) => [f, ref(payload, `properties/${f}`)])) },
    additionalProperties: false,
  };
}

/** The query parameters of a CSV export beyond the list's (routes/csv-export.ts). */
export const EXPORT_QUERY: Record<string, Json> = {
  encoding: { type: 'string', enum: [...CSV_ENCODINGS], default: 'utf-8', description: 'UTF-8 with a BOM, or Shift_JIS (CP932); another one is a 400' },
  columns: { type: 'string', description: "Comma-separated fields among the export's, in order (default all of them)" },
};

const IDS = {
  type: 'array',
  items: rowId(),
  minItems: 1,
  maxItems: 1000,
  description: 'The rows to change (of one city)',
  'x-messages': { minItems: 'validation.generic.required' },
};

/** The schema of an action on one of its paths; `child` is the resource of children and create-child actions. */
export function actionSchema(def: ResourceDef, action: ActionDef, path: string, alias: number, child?: ResourceDef): CallSchema {
  const name = componentName(def);
  const details = [
    action.set ? `set ${JSON.stringify(action.set)}` : '',
    action.field ? `field ${action.field}` : '',
    action.fields ? `fields ${action.fields.join(', ')}` : '',
    action.groupBy ? `grouped by ${action.groupBy}` : '',
    action.statistic ? `statistic ${action.statistic}` : '',
    action.counts ? `counts ${Object.entries(action.counts).map(([k, w]) => `${k} of ${JSON.stringify(w)}`).join(', ')}` : '',
  ].filter(Boolean);
  const description = `${KIND_TEXT[action.kind]}${details.length ? ` (${details.join('; ')})` : ''}.${fixed({ where: action.where })} Permission: ${action.permission} ${def.name}.`;
  const o = base(def, `${def.name}_${action.name}`, path, alias, `${action.name} (${action.kind})`, description, action.ours);
  const extra = strings(action.query);
  let listQueryRead = false;
  let records = true;
  switch (action.kind) {
    case 'qrcode': {
      records = false;
      const image = { type: 'string', format: 'binary' };
      o.querystring = queryOf({ ...extra, format: { type: 'string', enum: ['png', 'svg'], description: 'The image format (default: by Accept, else PNG)' } });
      o.response = {
        '200': { description: 'The QR code image', content: { 'image/png': { schema: image }, 'image/svg+xml': { schema: image } } },
        ...errorAnswers(400, 401, 403, 404),
      };
      break;
    }
    case 'preview': {
      records = false;
      const str = { type: ['string', 'null'] };
      o.querystring = queryOf(extra);
      o.response = {
        '200': answer('The card', {
          type: 'object',
          required: ['id', 'title', 'image', 'shop', 'discount', 'start', 'end', 'validity', 'conditions'],
          properties: { id: { type: 'integer' }, title: { type: 'string' }, image: str, shop: str, discount: str, start: str, end: str, validity: { type: 'string' }, conditions: { type: 'array', items: { type: 'string' } } },
        }),
        ...errorAnswers(400, 401, 403, 404),
      };
      break;
    }
    case 'set':
    case 'toggle':
    case 'show':
    case 'mail-qr':
      o.response = { '200': answer('The row', ref(name)), ...errorAnswers(...(action.kind === 'show' ? [400, 401, 403, 404] : [400, 401, 403, 404, 409])) };
      if (action.kind === 'set' && action.fields) o.body = fieldsBody(def, action.fields);
      o.querystring = queryOf(extra);
      break;
    case 'set-all':
    case 'count': {
      records = false;
      listQueryRead = action.kind === 'count';
      o.querystring = queryOf(action.kind === 'count' ? listQuery(def, action.query) : extra);
      const counts = Object.keys(action.counts ?? {});
      const schema = counts.length > 0 ? { type: 'object', required: counts, properties: Object.fromEntries(counts.map((k) => [k, { type: 'integer', minimum: 0 }])) } : ref('Count');
      o.response = { '200': answer('How many rows', schema), ...errorAnswers(400, 401, 403, 404) };
      break;
    }
    case 'children': {
      const c = child ?? def;
      listQueryRead = true;
      o.querystring = queryOf(listQuery(c, action.query));
      o.response = { '200': answer(`One page of ${c.name} rows`, ref(`${componentName(c)}List`)), ...errorAnswers(400, 401, 403, 404) };
      break;
    }
    case 'create-child': {
      const c = child ?? def;
      const filled = [...Object.keys(c.api.create?.where ?? {}), ...Object.keys(action.set ?? {}), ...(action.parentField ? [action.parentField] : [])];
      o.body = payloadBody(c, filled);
      o.querystring = queryOf(extra);
      o.response = { '201': answer(`The stored ${c.name} row`, ref(componentName(c))), ...errorAnswers(400, 401, 403, 404) };
      break;
    }
    case 'bulk-update':
      o.body = fieldsBody(def, action.fields ?? def.writableFields, { ids: IDS }, ['ids']);
      o.querystring = queryOf(extra);
      o.response = {
        '200': answer('The updated rows', { type: 'object', required: ['count', 'content'], properties: { count: { type: 'integer' }, content: { type: 'array', items: ref(name) } } }),
        ...errorAnswers(400, 401, 403, 404),
      };
      break;
    case 'export':
      listQueryRead = true;
      records = false;
      o.querystring = queryOf({ ...listQuery(def, action.query, false), ...EXPORT_QUERY });
      o.response = { '200': answer('CSV of every matching row, titles translated (src/server/routes/csv-export.ts)', { type: 'string' }, 'text/csv'), ...errorAnswers(400, 401, 403, 404) };
      break;
    case 'sum':
      listQueryRead = true;
      records = false;
      o.querystring = queryOf(listQuery(def, action.query, false));
      o.response = { '200': answer('Totals', ref(action.groupBy ? 'GroupedTotals' : 'Totals')), ...errorAnswers(400, 401, 403, 404) };
      break;
    case 'statistic':
      records = false;
      o.querystring = queryOf({ ...listQuery(child ?? def, action.query, false), ...STATISTIC_CALL_QUERY });
      o.response = { '200': statisticCallAnswer(statisticOfAction(def, action), action), ...STATISTIC_CALL_ERRORS };
      break;
  }
  if (o.querystring === undefined) delete o.querystring;
  return { schema: o as FastifySchema, listQuery: listQueryRead, records };
}
