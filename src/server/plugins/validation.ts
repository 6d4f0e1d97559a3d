/**
 * Route validation and answer serialization from the routes' Fastify schemas (001 8, 001 9; the
 * schemas are built in src/server/openapi/ and next to the hand-written routes), with the one ajv
 * set-up of src/shared/validation.ts (`createAjv`: this project's keywords x-future, x-gt…, its
 * formats), so that one schema object gives the validation, the serialization and /openapi.json.
 *
 * - A request part that fails its schema becomes the contract's 400 `validation` answer with field
 *   messages (`toFieldErrors`, a field's `x-messages`), or 404 `not_found` for a path parameter (the
 *   path names nothing). Strings PostgreSQL cannot store (a NUL character, a lone surrogate) fail
 *   too (`validation.generic.pattern`).
 * - The failure waits for the route: it is attached to the request and answered when the handler
 *   asks (`throwIfInvalid`, `inputErrors`), after its sign-in and permission checks, so whoever may
 *   not make a call learns 401/403, never the input rules (the role matrix of 000 6). A handler that
 *   answers without asking is a programming error: 500, logged.
 * - Bodies are checked as sent (no defaults filled in, nothing coerced); path and query strings are
 *   checked as read as numbers or booleans where the schema says so, and handed over unchanged.
 * - An integer of a path or a query (its schema's type `integer`) is read from decimal digits only
 *   ("1.5", "0x10", "1e20" are refused, not read as numbers) and must lie in the range its schema
 *   declares; every such integer declares `minimum` and `maximum` (src/server/openapi/integer-params.ts),
 *   a route without them is refused at start. Out of range is a 400 naming the field, also in a path
 *   (a path with a number where a word is wanted, "abc", still names nothing: 404), and also in a
 *   query its handler reads itself (`checkedByHandler`).
 * - Schemas are compiled at their first use, not at start.
 * - Answers go through fast-json-stringify with the response schema of their status; routes that
 *   answer stored records (whose fields the schemas may not all name) pass `serializeAsIs`.
 */
import type { ValidateFunction } from 'ajv';
import fastJson, { type Schema as AnswerSchema } from 'fast-json-stringify';
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import type { ResourceSchema } from '../../shared/registry';
import { createAjv, toFieldErrors, type FieldErrors } from '../../shared/validation';
import { HttpError } from '../http-error';

type Json = Record<string, unknown>;
type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

interface State {
  app: FastifyInstance;
  /** Checks bodies as sent. */
  asSent: ReturnType<typeof createAjv> | null;
  /** Checks path and query strings read as the schema's types. */
  coercing: ReturnType<typeof createAjv> | null;
  shared: Record<string, unknown> | null;
}

const states = new WeakMap<FastifyInstance, State>();
const asked = new WeakSet<FastifyRequest>();
/** Validation errors of a path's integers out of range (400 naming the field; `throwIfPathOutOfRange`). */
const pathRange = new WeakSet<Error>();

/** A NUL character or a UTF-16 surrogate without its pair: text PostgreSQL refuses to store. */
// eslint-disable-next-line no-control-regex -- the NUL character is what is looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function holdsUnstorable(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => holdsUnstorable(v, depth + 1));
  return Object.entries(value).some(([k, v]) => UNSTORABLE.test(k) || holdsUnstorable(v, depth + 1));
}

/** The fields of `data` whose value (or a key or value inside it) holds unstorable text; `_` for the whole. */
export function unstorableFields(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return holdsUnstorable(data) ? ['_'] : [];
  return Object.entries(data).filter(([k, v]) => UNSTORABLE.test(k) || holdsUnstorable(v)).map(([k]) => (UNSTORABLE.test(k) ? '_' : k));
}

/** The fields of a coerced query or path that became a number past any bound (Infinity, NaN). */
function nonFiniteFields(data: unknown): string[] {
  if (typeof data !== 'object' || data === null) return [];
  const bad = (v: unknown): boolean => (typeof v === 'number' && !Number.isFinite(v)) || (Array.isArray(v) && v.some(bad));
  return Object.entries(data).filter(([, v]) => bad(v)).map(([k]) => k);
}

/** Whether a schema node is an integer (`type: 'integer'`, or a list of types naming it). */
function isInteger(prop: Json): boolean {
  return prop.type === 'integer' || (Array.isArray(prop.type) && prop.type.includes('integer'));
}

/** A decimal integer as an address carries it: an optional minus and digits, nothing else. */
const DECIMAL = /^-?[0-9]+$/;

/**
 * The field errors of the integers of a path or a query as sent (strings, or lists of them for a
 * repeated query parameter), against their schemas (`properties`): not decimal digits →
 * `validation.generic.type`; below `minimum` or above `maximum` → `validation.generic.minimum` /
 * `maximum` with `min`/`max`. Fields not sent, or sent as something else than text, are left to the schema.
 */
function integerFieldErrors(properties: Record<string, Json>, data: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (typeof data !== 'object' || data === null) return out;
  for (const [field, raw] of Object.entries(data as Json)) {
    const prop = properties[field];
    if (!prop || !isInteger(prop)) continue;
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (typeof value !== 'string') continue;
      const min = typeof prop.minimum === 'number' ? prop.minimum : undefined;
      const max = typeof prop.maximum === 'number' ? prop.maximum : undefined;
      const n = Number(value);
      if (!DECIMAL.test(value)) out[field] = [{ key: 'validation.generic.type', params: { field, type: 'integer' } }];
      else if (min !== undefined && n < min) out[field] = [{ key: 'validation.generic.minimum', params: { field, min, max } }];
      else if (max !== undefined && n > max) out[field] = [{ key: 'validation.generic.maximum', params: { field, min, max } }];
      if (out[field]) break;
    }
  }
  return out;
}

/** Whether a path's text (as sent, before coercion) reads as a number at all ("1e20", "-1", "0x10" do; "abc" does not). */
function looksNumeric(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value));
}

/** The properties a path or query schema declares inline (its own and those of `allOf`; shared schemas are not read at start). */
function inlineProperties(schema: unknown, depth = 0): Record<string, Json> {
  if (typeof schema !== 'object' || schema === null || depth > 8) return {};
  const s = schema as Json;
  const out: Record<string, Json> = {};
  for (const branch of (s.allOf as unknown[] | undefined) ?? []) Object.assign(out, inlineProperties(branch, depth + 1));
  return Object.assign(out, (s.properties as Record<string, Json> | undefined) ?? {});
}

/**
 * The path and query integers of a route's schema that lack `minimum` or `maximum`, as
 * `part.field` (see the module comment: a route must declare both).
 */
function unboundedIntegers(schema: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const part of ['params', 'querystring'] as const) {
    for (const [field, prop] of Object.entries(inlineProperties(schema[part]))) {
      if (isInteger(prop) && (typeof prop.minimum !== 'number' || typeof prop.maximum !== 'number')) out.push(`${part}.${field}`);
    }
  }
  return out;
}

function stateOf(app: FastifyInstance): State {
  const state = states.get(app);
  if (!state) throw new Error('plugins/validation: registerValidation(app) was not called');
  return state;
}

function sharedSchemas(state: State): Record<string, unknown> {
  state.shared ??= state.app.getSchemas() as Record<string, unknown>;
  return state.shared;
}

function ajvOf(state: State, coerce: boolean) {
  const make = () => {
    const ajv = createAjv({ useDefaults: false, coerceTypes: coerce ? 'array' : false });
    for (const [id, schema] of Object.entries(sharedSchemas(state))) if (!ajv.getSchema(id)) ajv.addSchema(schema as object, id);
    return ajv;
  };
  if (coerce) return (state.coercing ??= make());
  return (state.asSent ??= make());
}

/** The node a `$ref` to a shared schema names (`TAdPayload#/properties/status`), or undefined. */
function resolveRef(state: State, ref: string): Json | undefined {
  const [id, pointer = ''] = ref.split('#');
  let node: unknown = id ? sharedSchemas(state)[id] : undefined;
  for (const raw of pointer.split('/').filter(Boolean)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Json)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return typeof node === 'object' && node !== null ? (node as Json) : undefined;
}

/** The properties a schema declares (through `$ref` and `allOf`), for the messages of its fields. */
function propertiesOf(state: State, schema: unknown, depth = 0): Record<string, Json> {
  if (typeof schema !== 'object' || schema === null || depth > 8) return {};
  const s = schema as Json;
  if (typeof s.$ref === 'string') return propertiesOf(state, resolveRef(state, s.$ref), depth + 1);
  const out: Record<string, Json> = {};
  for (const branch of (s.allOf as unknown[] | undefined) ?? []) Object.assign(out, propertiesOf(state, branch, depth + 1));
  for (const [name, prop] of Object.entries((s.properties as Record<string, Json> | undefined) ?? {})) {
    out[name] = typeof prop.$ref === 'string' ? (resolveRef(state, prop.$ref) ?? prop) : prop;
  }
  return out;
}

/** Field errors without a message given twice to one field (two rules of one field with one message). */
function once(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, list] of Object.entries(errors)) out[field] = list.filter((e, i) => list.findIndex((x) => x.key === e.key) === i);
  return out;
}

function compilerOf(state: State, checked: 'all' | 'unstorable-only', parts: readonly HttpPart[] = []): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    const part = httpPart as HttpPart;
    const coerce = part !== 'body';
    const schemaOnly = checked === 'all' || !parts.includes(part);
    let validate: ValidateFunction | undefined;
    let messages: ResourceSchema | undefined;
    let properties: Record<string, Json> | undefined;
    return (data: unknown) => {
      // Bytes (an upload) are the handler's; a missing body is read as an empty object (the JSON
      // parser reads an empty body as none).
      if (Buffer.isBuffer(data)) return true;
      const input = data === null || data === undefined ? {} : coerce ? structuredClone(data) : data;
      const unstorable = unstorableFields(input);
      properties ??= propertiesOf(state, schema);
      // Read before ajv coerces the text ("0x10" would pass as 16, "1e20" as a number).
      const integers = coerce ? integerFieldErrors(properties, input) : {};
      let valid = true;
      if (schemaOnly) {
        validate ??= ajvOf(state, coerce).compile(schema as object);
        valid = validate(input);
      }
      // ajv coerces a query's "1e999" to Infinity and lets it pass `integer` and `maximum`: refused here.
      const unbounded = coerce ? nonFiniteFields(input) : [];
      const badIntegers = Object.keys(integers);
      if (valid && unstorable.length === 0 && unbounded.length === 0 && badIntegers.length === 0) return true;
      // A path names nothing (404), unless a number in it is out of its range (400 naming the field).
      const numeric = badIntegers.filter((f) => looksNumeric((data as Json)[f]));
      if (part === 'params' && numeric.length === 0) return { error: new HttpError('not_found') };
      messages ??= { type: 'object', properties } as unknown as ResourceSchema;
      const fieldErrors = part === 'params' ? {} : valid ? {} : once(toFieldErrors(messages, validate?.errors ?? []));
      for (const field of part === 'params' ? numeric : badIntegers) fieldErrors[field] = integers[field];
      for (const field of unstorable) (fieldErrors[field] ??= []).push({ key: 'validation.generic.pattern', params: { field } });
      for (const field of unbounded) (fieldErrors[field] ??= []).push({ key: 'validation.generic.type', params: { field } });
      const error = new HttpError('validation', { fieldErrors });
      if (part === 'params') pathRange.add(error);
      return { error };
    };
  };
}

/** Answers records as they are (JSON.stringify): their schemas may not name every stored field. */
export const serializeAsIs: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);

/**
 * A route's own validator compiler for request parts its handler reads itself (`parts`): those are
 * checked for unstorable text only, their schema is documentation (list queries read by the list
 * codec, src/shared/list-query.ts; an upload's bytes, judged by files/file-routes.ts). Other parts as usual.
 */
export function checkedByHandler(app: FastifyInstance, parts: readonly HttpPart[]): FastifySchemaCompiler<unknown> {
  return compilerOf(stateOf(app), 'unstorable-only', parts);
}

/**
 * Installs the validator and serializer compilers on `app` (call before any route) and the hook that
 * makes every route with a request schema wait for its handler to ask for the outcome.
 */
export function registerValidation(app: FastifyInstance): void {
  const state: State = { app, asSent: null, coercing: null, shared: null };
  states.set(app, state);
  app.setValidatorCompiler(compilerOf(state, 'all'));
  // Errors of a validator that answers ajv's errors (not ours: ours answer an HttpError) take the contract's 400 too.
  app.setSchemaErrorFormatter((errors) => new HttpError('validation', { fieldErrors: once(toFieldErrors({ type: 'object', properties: {} } as unknown as ResourceSchema, errors as never)) }));
  app.setSerializerCompiler(({ schema }) => {
    let stringify: ((data: unknown) => string) | undefined;
    return (data) => (stringify ??= fastJson(schema as AnswerSchema, { schema: sharedSchemas(state) as Record<string, AnswerSchema> }) as (data: unknown) => string)(data);
  });
  app.addHook('onRoute', (route) => {
    const schema = route.schema;
    if (!schema || (schema.body === undefined && schema.querystring === undefined && schema.params === undefined)) return;
    const unbounded = unboundedIntegers(schema as Record<string, unknown>);
    if (unbounded.length > 0) throw new Error(`${String(route.method)} ${route.url}: integers without minimum and maximum: ${unbounded.join(', ')} (src/server/openapi/integer-params.ts)`);
    route.attachValidation = true;
    const handler = route.handler;
    const where = `${String(route.method)} ${route.url}`;
    route.handler = async function checkedHandler(this: FastifyInstance, request, reply) {
      const answer = await handler.call(this, request, reply);
      if (request.validationError && !asked.has(request)) {
        request.log.error({ route: where }, 'the route answered without checking its input');
        throw new Error(`${where} answered without checking its input`);
      }
      return answer;
    };
  });
}

/** The outcome of the request's validation, marked as asked. */
function outcome(request: FastifyRequest): Error | null {
  asked.add(request);
  return request.validationError ?? null;
}

/**
 * Throws the request's validation failure, if any (001 8: 400 `validation` with field messages, 404
 * for a path naming nothing). Call it where the route's own earlier checks (sign-in, permission,
 * the city) are done.
 */
export function throwIfInvalid(request: FastifyRequest): void {
  const error = outcome(request);
  if (error) throw error instanceof HttpError ? error : new HttpError('validation');
}

/**
 * Throws the request's validation failure when it is a path integer out of its range (400 naming the
 * field, see the module comment), and nothing else: for a handler that looks up the path's row
 * before it checks the rest of its input (a parent row, the target user), called after its
 * permission checks, so that such a number is a 400 and not the lookup's 404.
 */
export function throwIfPathOutOfRange(request: FastifyRequest): void {
  const error = request.validationError;
  if (error && pathRange.has(error)) {
    asked.add(request);
    throw error;
  }
}

/**
 * The field errors of the request's validation (a fresh object, `{}` when it passed) for a handler
 * that adds its own before answering them all at once. Errors: 404 for a path naming nothing.
 */
export function inputErrors(request: FastifyRequest): FieldErrors {
  const error = outcome(request);
  if (!error) return {};
  if (!(error instanceof HttpError) || error.code !== 'validation') throw error;
  return structuredClone(error.fieldErrors ?? {});
}
