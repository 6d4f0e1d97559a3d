/**
 * The OpenAPI 3.1 document of the API (001 7; README 'The API'), made by @fastify/swagger from the
 * Fastify schemas of the routes themselves (the registry calls: ./call-schemas.ts; the hand-written
 * routes: next to them) and the shared schemas (./components.ts), so it cannot drift from what is
 * validated and answered. Here: the document's frame (info, security, tags) and its finish: `x-`
 * keys (this project's rule keywords) left out, operation ids made unique, path parameters listed
 * first, the error answers named once (`components.responses`), the JSON Schema dialect.
 */
import type { SwaggerOptions } from '@fastify/swagger';
import { COOKIE_ACCESS } from '../../shared/constants';
import type { ResourceDef } from '../../shared/registry';
import { ERROR_ANSWERS } from './components';

type Json = Record<string, unknown>;

/** The document's version (info.version). */
export const API_VERSION = '0.1.0';

/** Tags of the hand-written routes (the registry calls are tagged with their resource). */
const ROUTE_TAGS: Array<[string, string]> = [
  ['session', 'Sign-in, tokens and the own account (001 7.1)'],
  ['users', 'Users of a city and the own account (001 7.1, 7.2)'],
  ['security', 'Staff sign-in: second factor (TOTP, recovery codes), passkeys, sessions (ours)'],
  ['cities', 'Cities (001 7.3)'],
  ['files', 'Uploads (000 5 Files)'],
  ['saved-views', 'Saved views of lists (ours)'],
  ['revisions', 'Revisions, restore and the recycle bin (ours)'],
  ['exports', 'CSV exports of lists (ours)'],
  ['import', 'CSV import of shops and malls (001 7.16)'],
  ['live', 'Server-sent events (ours)'],
  ['meta', 'This document'],
  ['health', 'Liveness and readiness for a load balancer (ours)'],
  ['console', 'What the console reads at start (ours)'],
];

/** Removes `x-` keys everywhere in the document but in the names of properties (`properties`, `$defs`…). */
function withoutExtensions(node: unknown, names = false): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutExtensions(n));
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (!names && k.startsWith('x-')) continue;
    // Data is copied as it is; the keys of these maps are names, not keywords.
    if (!names && (k === 'examples' || k === 'example' || k === 'default' || k === 'enum' || k === 'const')) out[k] = v;
    else out[k] = withoutExtensions(v, !names && ['properties', 'patternProperties', 'definitions', '$defs', 'paths', 'schemas', 'responses', 'content', 'securitySchemes'].includes(k));
  }
  return out;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);
const ERROR_SCHEMA = '#/components/schemas/Error';

/** The error answers of `components.responses`, by status. */
function errorResponses(): Record<string, Json> {
  return Object.fromEntries(
    Object.values(ERROR_ANSWERS).map(({ name, description }) => [name, { description, content: { 'application/json': { schema: { $ref: ERROR_SCHEMA } } } }]),
  );
}

/** `responses` with each standard error answer (./components.ts `errorAnswers`) replaced by its `$ref`. */
function namedErrors(responses: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [status, response] of Object.entries(responses)) {
    const known = ERROR_ANSWERS[Number(status)];
    const schema = (response.content as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema;
    out[status] = known && response.description === known.description && schema?.$ref === ERROR_SCHEMA ? { $ref: `#/components/responses/${known.name}` } : response;
  }
  return out;
}

/** The finished document (see the module comment); `doc` is @fastify/swagger's. */
export function finishDocument(doc: Json): Json {
  const out = withoutExtensions(doc) as Json & { paths: Record<string, Record<string, Json>> };
  const ids = new Set<string>();
  for (const item of Object.values(out.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      // Two names may meet (action `reply_create` of review, create of review_reply): the later gets `_2`.
      const id = String(op.operationId ?? `${method}_operation`);
      let unique = id;
      for (let i = 2; ids.has(unique); i += 1) unique = `${id}_${i}`;
      ids.add(unique);
      op.operationId = unique;
      if (op.responses) op.responses = namedErrors(op.responses as Record<string, Json>);
      if (!Array.isArray(op.parameters)) continue;
      const params = op.parameters as Json[];
      op.parameters = [...params.filter((p) => p.in === 'path'), ...params.filter((p) => p.in !== 'path')];
    }
  }
  const components = (out.components ?? {}) as Json;
  out.components = { ...components, responses: { ...errorResponses(), ...(components.responses as Json | undefined) } };
  return { openapi: out.openapi, info: out.info, jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base', ...out };
}

/** The options of @fastify/swagger for the app serving `resources`. */
export function swaggerOptions(resources: ReadonlyMap<string, ResourceDef>): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'City console API',
        version: API_VERSION,
        description: 'Every call of the multi-city administration console (001 7), generated from the schemas the routes validate and answer with.',
      },
      servers: [{ url: '/' }],
      security: [{ bearerAuth: [] }, { cookieAuth: [] }],
      tags: [...[...resources.values()].map((d) => ({ name: d.name, description: d.schema.description ?? d.schema.title })), ...ROUTE_TAGS.map(([name, description]) => ({ name, description }))],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token of POST /default/api/login' },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: COOKIE_ACCESS, description: 'Set by the login (HttpOnly)' },
        },
      },
    },
    // Shared schemas keep their names: `$ref: 'TAd#'` becomes `#/components/schemas/TAd`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String((json as { $id?: unknown }).$id ?? `def-${i}`) },
    transformObject: (documentObject) => finishDocument((documentObject as { openapiObject: Json }).openapiObject) as never,
  };
}
