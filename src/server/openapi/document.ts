/**
 * The OpenAPI 3.1 document of the API (001 7), generated from the routes actually registered: the
 * registry calls and actions carry their operation (operations.ts), hand-written routes theirs or a
 * generic one made from the path. Components: one schema per resource made from its JSON Schema
 * (`x-` keys, `$id` and `$schema` stripped, `version` added), its list envelope, the error answer.
 */
import type { ResourceDef } from '../../shared/registry';
import type { ErrorCode } from '../../shared/errors';
import { ERROR_STATUS } from '../../shared/errors';
import { COOKIE_ACCESS } from '../../shared/constants';
import { toContractPath } from '../paths';
import { componentName, pathParameters, schemaRef, type OpenApiOperation } from './operations';

/** A registered route as the document sees it. */
export interface DocumentedRoute {
  method: string;
  url: string;
  operation?: OpenApiOperation;
}

/** Removes `x-` keys, `$id` and `$schema` everywhere in a JSON Schema (property names are kept). */
export function stripExtensions(schema: unknown, inProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => stripExtensions(s));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!inProperties && (k.startsWith('x-') || k === '$id' || k === '$schema')) continue;
    // `examples` and `default` are data, `enum` and `const` values: copied as they are.
    if (!inProperties && (k === 'examples' || k === 'default' || k === 'enum' || k === 'const')) out[k] = v;
    else out[k] = stripExtensions(v, !inProperties && (k === 'properties' || k === 'definitions' || k === '$defs'));
  }
  return out;
}

/** The component schema of a resource: its JSON Schema without extensions, plus `version`. */
export function resourceComponent(def: ResourceDef): Record<string, unknown> {
  const schema = stripExtensions(def.schema) as Record<string, unknown> & { properties: Record<string, unknown> };
  schema.properties = {
    ...schema.properties,
    version: { type: 'integer', minimum: 0, description: 'Row version: send it back on update; a stale one answers 409 (optimistic concurrency)' },
  };
  return schema;
}

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

function fixedComponents(): Record<string, unknown> {
  return {
    ListEnvelope: {
      type: 'object',
      description: 'A list answer (001 7 Conventions, 000 3 Lists); page_length is the number of pages',
      required: ['content', 'total_length', 'count', 'limit', 'offset', 'page_length'],
      properties: {
        content: { type: 'array', items: {} },
        total_length: { type: 'integer', minimum: 0 },
        count: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1 },
        offset: { type: 'integer', minimum: 0 },
        page_length: { type: 'integer', minimum: 0 },
      },
    },
    Error: {
      type: 'object',
      description: 'Every error answer (001 8): a message in the language of Accept-Language, a code, field messages',
      required: ['detail', 'code'],
      properties: {
        detail: { type: 'string' },
        code: { type: 'string', enum: CODES },
        fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
    Count: { type: 'object', required: ['count'], properties: { count: { type: 'integer', minimum: 0 } } },
    Totals: {
      type: 'object',
      required: ['count', 'sums'],
      properties: { count: { type: 'integer', minimum: 0 }, sums: { type: 'object', additionalProperties: { type: 'number' } } },
    },
    GroupedTotals: {
      type: 'object',
      required: ['content'],
      properties: {
        content: {
          type: 'array',
          items: {
            type: 'object',
            required: ['group', 'count', 'sums'],
            properties: { group: {}, count: { type: 'integer', minimum: 0 }, sums: { type: 'object', additionalProperties: { type: 'number' } } },
          },
        },
      },
    },
    UploadedFile: {
      type: 'object',
      required: ['url', 'name', 'kind', 'content_type', 'bytes'],
      properties: {
        url: { type: 'string', description: 'Path of the file: /files/<name>; what x-upload fields accept' },
        name: { type: 'string' },
        kind: { type: 'string', enum: ['image', 'pdf'] },
        content_type: { type: 'string' },
        bytes: { type: 'integer' },
        width: { type: 'integer' },
        height: { type: 'integer' },
      },
    },
  };
}

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: schemaRef('Error') } } };
}

function genericOperation(method: string, path: string): OpenApiOperation {
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+/g, '_').replace(/_+$/, '')}`,
    summary: `${method} ${path}`,
    parameters: pathParameters(path),
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: {} } } }, default: { $ref: '#/components/responses/Error' } },
  };
}

/** Builds the document from the registered routes and the resources of the app. */
export function buildDocument(routes: readonly DocumentedRoute[], resources: ReadonlyMap<string, ResourceDef>, version = '0.1.0'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const r of routes) {
    const path = toContractPath(r.url);
    const method = r.method.toLowerCase();
    const operation = { ...(r.operation ?? genericOperation(r.method, path)) };
    let id = String(operation.operationId);
    for (let i = 2; ids.has(id); i += 1) id = `${operation.operationId}_${i}`;
    ids.add(id);
    operation.operationId = id;
    (paths[path] ??= {})[method] = operation;
  }
  const schemas: Record<string, unknown> = fixedComponents();
  for (const def of resources.values()) {
    const name = componentName(def);
    schemas[name] = resourceComponent(def);
    schemas[`${name}List`] = {
      allOf: [schemaRef('ListEnvelope'), { type: 'object', properties: { content: { type: 'array', items: schemaRef(name) } } }],
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'City console API',
      version,
      description: 'Every call of the multi-city administration console (001 7), generated from the schema registry and the hand-written routes.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }, { cookieAuth: [] }],
    tags: [...resources.values()].map((d) => ({ name: d.name, description: d.schema.description ?? d.schema.title })),
    paths,
    components: {
      schemas,
      responses: {
        Validation: errorResponse('Invalid input (field messages in `fields`)'),
        Unauthorized: errorResponse('Not signed in'),
        Forbidden: errorResponse('Not allowed for this role or city'),
        NotFound: errorResponse('No such row, city or route'),
        Conflict: errorResponse('Stale version'),
        Error: errorResponse('An error'),
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token of POST /default/api/login' },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: COOKIE_ACCESS, description: 'Set by the login (HttpOnly)' },
      },
    },
  };
}
