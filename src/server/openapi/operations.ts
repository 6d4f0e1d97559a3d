/**
 * OpenAPI 3.1 operations of the registry calls (001 7), made from the same definitions the routes
 * are made from, so the document cannot drift from what is served. Components (one schema per
 * resource, the list envelope, the error) are named here and built in document.ts.
 */
import { CSV_ENCODINGS } from '../../shared/list-export';
import type { ActionDef, ApiCall, ApiOperation, ResourceDef } from '../../shared/registry';
import { placeholdersOf } from '../paths';

/** An OpenAPI operation object. */
export type OpenApiOperation = Record<string, unknown>;

/** The component name of a resource: `news` → `News`, `admin_news` → `AdminNews`. */
export function componentName(def: Pick<ResourceDef, 'name'>): string {
  return def.name.replace(/(^|_)([a-z0-9])/g, (_m, _s: string, c: string) => c.toUpperCase());
}

/** A `$ref` to a component schema. */
export function schemaRef(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

const json = (schema: unknown) => ({ 'application/json': { schema } });
const response = (ref: string) => ({ $ref: `#/components/responses/${ref}` });

/** Error answers every registry call may give. */
function errors(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { '400': response('Validation'), '401': response('Unauthorized'), '403': response('Forbidden'), '404': response('NotFound'), ...extra };
}

/** The path parameters of a contract path: `{id}`-like ones are integers, the rest strings. */
export function pathParameters(path: string): Array<Record<string, unknown>> {
  return placeholdersOf(path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'city' || !/(^id$|Id$|_id$|^id[A-Z])/.test(name) ? { type: 'string' } : { type: 'integer', minimum: 1 },
    ...(name === 'city' ? { description: 'City name (000 3 City), e.g. kobe' } : {}),
  }));
}

function query(name: string, schema: Record<string, unknown>, description?: string): Record<string, unknown> {
  return { name, in: 'query', required: false, schema, ...(description ? { description } : {}) };
}

/** The query parameters of a list of `def`: paging, search, order, declared filters and the call's named `query` parameters. */
export function listParameters(def: ResourceDef, extra: readonly string[] = []): Array<Record<string, unknown>> {
  const out = [
    query('limit', { type: 'integer', minimum: 1, maximum: 1000, default: def.list.pageSize }, 'Page size (001 9 Paging)'),
    query('offset', { type: 'integer', minimum: 0, default: 0 }),
  ];
  if (def.list.search.length > 0) out.push(query('search', { type: 'string', maxLength: 200 }, `Substring of ${def.list.search.join(', ')}`));
  if (def.list.sort.length > 0) out.push(query('order_by', { type: 'string', enum: def.list.sort.flatMap((f) => [f, `-${f}`]) }, 'Sort field; a leading - sorts descending'));
  for (const f of def.list.filters) {
    if (out.some((p) => p.name === f.param)) continue;
    out.push(f.kind === 'equals' ? query(f.param, { type: 'string' }, `Rows whose ${f.field} equals this`) : query(f.param, { type: 'string', enum: f.values }, `Period of ${f.start}–${f.end}`));
  }
  for (const name of extra) if (!out.some((p) => p.name === name)) out.push(query(name, { type: 'string' }));
  return out;
}

function fixed(call: { where?: Record<string, unknown>; exclude?: Record<string, unknown[]> }): string {
  const parts = [
    ...Object.entries(call.where ?? {}).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
    ...Object.entries(call.exclude ?? {}).map(([k, v]) => `${k} not in ${JSON.stringify(v)}`),
  ];
  return parts.length > 0 ? ` Fixed values: ${parts.join(', ')}.` : '';
}

function base(def: ResourceDef, id: string, path: string, alias: number, summary: string, description: string, ours?: boolean): OpenApiOperation {
  return {
    operationId: alias > 0 ? `${id}_alias${alias}` : id,
    tags: [def.name],
    summary,
    description: `${description}${ours ? ' (path ours: not shown by the spec)' : ''}`,
    parameters: pathParameters(path),
  };
}

/** The operation of a CRUD call (`singleton` for the one-record calls of a singleton resource). */
export function crudOperation(def: ResourceDef, op: ApiOperation, call: ApiCall, path: string, alias: number): OpenApiOperation {
  const name = componentName(def);
  const row = json(schemaRef(name));
  const body = { required: true, content: json(schemaRef(name)) };
  const o = base(def, `${def.name}_${op}`, path, alias, `${op} ${def.name}`, `${def.singleton && op !== 'list' ? 'The one record of the city (singleton).' : ''}${fixed(call)}`.trim(), call.ours);
  const status = (fallback: number) => String(call.status ?? fallback);
  switch (op) {
    case 'list':
      o.parameters = [...(o.parameters as unknown[]), ...listParameters(def, call.query)];
      o.responses = { [status(200)]: { description: 'One page of rows', content: json(schemaRef(`${name}List`)) }, ...errors() };
      break;
    case 'create':
      o.requestBody = body;
      o.responses = { [status(def.singleton ? 200 : 201)]: { description: 'The stored row', content: row }, ...errors() };
      break;
    case 'show':
      o.responses = { [status(200)]: { description: def.singleton ? 'The record, or the defaults while there is none' : 'The row', content: row }, ...errors() };
      break;
    case 'update':
      o.requestBody = body;
      o.responses = { [status(200)]: { description: 'The stored row', content: row }, ...errors({ '409': response('Conflict') }) };
      break;
    case 'delete':
      o.responses = { [status(204)]: { description: 'Deleted' }, ...errors() };
      break;
  }
  if (call.query && op !== 'list') o.parameters = [...(o.parameters as unknown[]), ...call.query.map((q) => query(q, { type: 'string' }))];
  return o;
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
  show: 'The row',
};

/** The operation of an action; `child` is the resource of children and create-child actions. */
export function actionOperation(def: ResourceDef, action: ActionDef, path: string, alias: number, child?: ResourceDef): OpenApiOperation {
  const name = componentName(def);
  const details = [
    action.set ? `set ${JSON.stringify(action.set)}` : '',
    action.field ? `field ${action.field}` : '',
    action.fields ? `fields ${action.fields.join(', ')}` : '',
    action.groupBy ? `grouped by ${action.groupBy}` : '',
    action.counts ? `counts ${Object.entries(action.counts).map(([k, w]) => `${k} of ${JSON.stringify(w)}`).join(', ')}` : '',
  ].filter(Boolean);
  const o = base(
    def,
    `${def.name}_${action.name}`,
    path,
    alias,
    `${action.name} (${action.kind})`,
    `${KIND_TEXT[action.kind]}${details.length ? ` (${details.join('; ')})` : ''}.${fixed({ where: action.where })} Permission: ${action.permission} ${def.name}.`,
    action.ours,
  );
  const ok = (fallback: number, description: string, content?: unknown) => ({
    [String(fallback)]: { description, ...(content ? { content } : {}) },
  });
  const params = o.parameters as unknown[];
  const extra = (action.query ?? []).map((q) => query(q, { type: 'string' }));
  switch (action.kind) {
    case 'set':
    case 'toggle':
    case 'show':
      o.responses = { ...ok(200, 'The row', json(schemaRef(name))), ...errors(action.kind === 'show' ? {} : { '409': response('Conflict') }) };
      params.push(...extra);
      if (action.kind === 'set' && action.fields) {
        o.requestBody = {
          required: true,
          content: json({
            type: 'object',
            properties: Object.fromEntries(action.fields.map((f) => [f, { $ref: `#/components/schemas/${name}/properties/${f}` }])),
            additionalProperties: false,
          }),
        };
      }
      break;
    case 'set-all':
    case 'count':
      if (action.kind === 'count') params.push(...listParameters(def, action.query));
      else params.push(...extra);
      o.responses = {
        ...ok(
          200,
          'How many rows',
          json(
            action.counts
              ? { type: 'object', required: Object.keys(action.counts), properties: Object.fromEntries(Object.keys(action.counts).map((k) => [k, { type: 'integer', minimum: 0 }])) }
              : schemaRef('Count'),
          ),
        ),
        ...errors(),
      };
      break;
    case 'children': {
      const c = child ?? def;
      params.push(...listParameters(c, action.query));
      o.responses = { ...ok(200, `One page of ${c.name} rows`, json(schemaRef(`${componentName(c)}List`))), ...errors() };
      break;
    }
    case 'create-child': {
      const c = child ?? def;
      o.requestBody = { required: true, content: json(schemaRef(componentName(c))) };
      o.responses = { ...ok(201, `The stored ${c.name} row`, json(schemaRef(componentName(c)))), ...errors() };
      params.push(...extra);
      break;
    }
    case 'bulk-update': {
      const fields = action.fields ?? def.writableFields;
      o.requestBody = {
        required: true,
        content: json({
          type: 'object',
          required: ['ids'],
          properties: {
            ids: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 1000 },
            ...Object.fromEntries(fields.map((f) => [f, { $ref: `#/components/schemas/${name}/properties/${f}` }])),
          },
          additionalProperties: false,
        }),
      };
      o.responses = {
        ...ok(200, 'The updated rows', json({ type: 'object', required: ['count', 'content'], properties: { count: { type: 'integer' }, content: { type: 'array', items: schemaRef(name) } } })),
        ...errors(),
      };
      params.push(...extra);
      break;
    }
    case 'export':
      params.push(
        ...listParameters(def, action.query).filter((p) => p.name !== 'limit' && p.name !== 'offset'),
        query('encoding', { type: 'string', enum: [...CSV_ENCODINGS], default: 'utf-8' }, 'UTF-8 with a BOM, or Shift_JIS (CP932); another one is a 400'),
        query('columns', { type: 'string' }, 'Comma-separated fields among the export\'s, in order (default all of them)'),
      );
      o.responses = { ...ok(200, 'CSV of every matching row, titles translated (src/server/routes/csv-export.ts)', { 'text/csv': { schema: { type: 'string' } } }), ...errors() };
      break;
    case 'sum':
      params.push(...listParameters(def, action.query).filter((p) => p.name !== 'limit' && p.name !== 'offset'));
      o.responses = { ...ok(200, 'Totals', json(schemaRef(action.groupBy ? 'GroupedTotals' : 'Totals'))), ...errors() };
      break;
  }
  return o;
}
