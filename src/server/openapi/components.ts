/**
 * The shared schemas of the routes (001 7, 001 8), added to the app with `addSchema` and named by
 * their `$id`: the route schemas point at them with `$ref: '<Name>#'`, the validation and the
 * serialization resolve them (plugins/validation.ts), and /openapi.json holds them as
 * `#/components/schemas/<Name>` (./document.ts). Per resource (one schema of schemas/):
 * - `<Name>`: a record as answered: its JSON Schema without `x-` keys, `$id` and `$schema`, plus `version`;
 * - `<Name>List`: one page of them (`ListEnvelope`);
 * - `<Name>Payload`: what a write may send (001 7 "payload"): the fields with their rules (the `x-`
 *   rule keywords kept, stripped from the document only), no `required` (each call adds its own);
 *   read-only fields are accepted and ignored, `x-drop-null` fields take null, `x-coerce` fields a
 *   single value (their rules are checked after coercion, in the repository); `x-visible-when`
 *   fields are checked by an `if`/`then` rule only while they apply.
 * Fixed: Error, ListEnvelope, Count, Totals, GroupedTotals, UploadedFile, City, Profile, ProfileList,
 * CityList, Detail.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '../../shared/errors';
import type { FieldSchema, ResourceDef } from '../../shared/registry';

type Json = Record<string, unknown>;

/** The component name of a resource: `news` → `News`, `admin_news` → `AdminNews`. */
export function componentName(def: Pick<ResourceDef, 'name'>): string {
  return def.name.replace(/(^|_)([a-z0-9])/g, (_m, _s: string, c: string) => c.toUpperCase());
}

/** A `$ref` to a shared schema (`ref('TAd')`, `ref('TAdPayload', 'properties/status')`). */
export function ref(name: string, pointer = ''): { $ref: string } {
  return { $ref: `${name}#${pointer ? `/${pointer}` : ''}` };
}

/** A response of a route schema: `description` and a JSON `schema` (none: no body). */
export function answer(description: string, schema?: unknown, mediaType = 'application/json'): Json {
  return schema === undefined ? { description, type: 'null' } : { description, content: { [mediaType]: { schema } } };
}

/** The error answers by status (001 8): their name in the document's `components.responses`, their text. */
export const ERROR_ANSWERS: Record<number, { name: string; description: string }> = {
  400: { name: 'Validation', description: 'Invalid input (field messages in `fields`)' },
  401: { name: 'Unauthorized', description: 'Not signed in' },
  403: { name: 'Forbidden', description: 'Not allowed for this role or city' },
  404: { name: 'NotFound', description: 'No such row, city or route' },
  409: { name: 'Conflict', description: 'Stale version' },
  413: { name: 'TooLarge', description: 'The upload is over its size limit' },
  429: { name: 'RateLimited', description: 'Too many attempts; see Retry-After' },
  501: {
    name: 'NotConfigured',
    description: 'Not available on this server as configured (totp_unavailable: production without MFA_SECRET_KEY; totp_key_mismatch: a stored TOTP secret no configured key opens)',
  },
};

/** The error answers of a route (001 8): `{detail, code, fields?}` for each status. */
export function errorAnswers(...statuses: number[]): Record<string, Json> {
  return Object.fromEntries(statuses.map((s) => [String(s), answer(ERROR_ANSWERS[s]?.description ?? 'An error', ref('Error'))]));
}

/** Removes `x-` keys, `$id` and `$schema` everywhere in a JSON Schema (property names are kept). */
export function stripExtensions(schema: unknown, inProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => stripExtensions(s));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!inProperties && (k.startsWith('x-') || k === '$id' || k === '$schema')) continue;
    // `examples` and `default` are data, `enum` and `const` values: copied as they are.
    if (!inProperties && (k === 'examples' || k === 'default' || k === 'enum' || k === 'const')) out[k] = v;
    else out[k] = stripExtensions(v, !inProperties && (k === 'properties' || k === 'definitions' || k === '$defs'));
  }
  return out;
}

const VERSION = { type: 'integer', minimum: 0, description: 'Row version: send it back on update; a stale one answers 409 (optimistic concurrency)' };

/** The record component of a resource: its JSON Schema without extensions, plus `version`. */
export function recordComponent(def: ResourceDef): Json {
  const schema = stripExtensions(def.schema) as Json & { properties: Json };
  return { ...schema, $id: componentName(def), properties: { ...schema.properties, version: VERSION } };
}

function typesOf(prop: FieldSchema): string[] {
  return Array.isArray(prop.type) ? prop.type : [prop.type];
}

/** The payload component of a resource (what a create or update may send), see the module comment. */
export function payloadComponent(def: ResourceDef): Json {
  const properties: Json = {};
  // `x-visible-when` fields (src/shared/visibility.ts): checked only while they apply, by one
  // `if`/`then` rule per condition; the property itself accepts anything (ignored otherwise).
  const conditional = new Map<string, { field: string; in: unknown[]; properties: Json }>();
  for (const [field, prop] of Object.entries(def.schema.properties)) {
    const about = { title: prop.title, ...(prop.description ? { description: prop.description } : {}) };
    let entry: Json;
    if (prop.readOnly) entry = { ...about, readOnly: true };
    else if (prop['x-coerce'] === 'array') entry = { ...about, description: `${prop.description ?? prop.title}: a list; one value is read as a one-item list, null or "" as none` };
    else if (prop['x-drop-null'] && !typesOf(prop).includes('null')) {
      entry = { ...prop, type: [...typesOf(prop), 'null'], ...(prop.enum ? { enum: [...prop.enum, null] } : {}) };
    } else entry = prop as unknown as Json;
    const when = prop.readOnly ? undefined : prop['x-visible-when'];
    if (!when) {
      properties[field] = entry;
      continue;
    }
    properties[field] = { ...about, description: `${prop.description ?? prop.title}: applies when ${when.field} is ${when.in.join(', ')}; ignored otherwise` };
    const key = JSON.stringify([when.field, when.in]);
    const rule = conditional.get(key) ?? { field: when.field, in: when.in, properties: {} };
    rule.properties[field] = entry;
    conditional.set(key, rule);
  }
  properties.version = { ...VERSION, type: ['integer', 'null'] };
  const rules = [...conditional.values()].map((r) => {
    // Without the field its default decides: the rule applies then only when the default is listed.
    const byDefault = r.in.includes(def.schema.properties[r.field]?.default);
    return { if: { properties: { [r.field]: { enum: r.in } }, ...(byDefault ? {} : { required: [r.field] }) }, then: { properties: r.properties } };
  });
  return {
    $id: `${componentName(def)}Payload`,
    type: 'object',
    description: `What a write of ${def.name} may send (read-only fields are ignored)`,
    properties,
    additionalProperties: def.schema.additionalProperties ?? true,
    ...(rules.length > 0 ? { allOf: rules } : {}),
  };
}

/**
 * The body of a write of `def`: its payload with the fields the call must be sent, those the
 * resource requires minus the ones the server fills (`filled`: fixed values, path values, a parent),
 * the read-only ones, those with a default and the coerced lists.
 */
export function payloadBody(def: ResourceDef, filled: Iterable<string> = [], partial = false): Json {
  const skip = new Set(filled);
  const required = partial
    ? []
    : (def.schema.required ?? []).filter((f) => {
        const p = def.schema.properties[f];
        return p && !skip.has(f) && !p.readOnly && p.default === undefined && p['x-coerce'] !== 'array';
      });
  const payload = ref(`${componentName(def)}Payload`);
  return required.length > 0 ? { allOf: [payload, { type: 'object', required }] } : payload;
}

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
const COUNT = { type: 'integer', minimum: 0 };
const SUMS = { type: 'object', additionalProperties: { type: 'number' } };
const CITY_REF = ref('City');

function listOf(name: string, items: unknown, description: string): Json {
  return { $id: name, description, allOf: [ref('ListEnvelope'), { type: 'object', properties: { content: { type: 'array', items } } }] };
}

/** The fixed shared schemas (see the module comment). */
export function fixedComponents(): Json[] {
  return [
    {
      $id: 'ListEnvelope',
      type: 'object',
      description: 'A list answer (001 7 Conventions, 000 3 Lists); page_length is the number of pages',
      required: ['content', 'total_length', 'count', 'limit', 'offset', 'page_length'],
      properties: { content: { type: 'array', items: {} }, total_length: COUNT, count: COUNT, limit: { type: 'integer', minimum: 1 }, offset: COUNT, page_length: COUNT },
    },
    {
      $id: 'Error',
      type: 'object',
      description: 'Every error answer (001 8): a message in the language of Accept-Language, a code, field messages',
      required: ['detail', 'code'],
      properties: {
        detail: { type: 'string' },
        code: { type: 'string', enum: CODES },
        fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
    { $id: 'Detail', type: 'object', description: 'A message in the language of Accept-Language', required: ['detail'], properties: { detail: { type: 'string' } } },
    { $id: 'Count', type: 'object', required: ['count'], properties: { count: COUNT } },
    { $id: 'Totals', type: 'object', required: ['count', 'sums'], properties: { count: COUNT, sums: SUMS } },
    {
      $id: 'GroupedTotals',
      type: 'object',
      required: ['content'],
      properties: { content: { type: 'array', items: { type: 'object', required: ['group', 'count', 'sums'], properties: { group: {}, count: COUNT, sums: SUMS } } } },
    },
    {
      $id: 'UploadedFile',
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
    { $id: 'City', type: 'object', description: 'A city (000 3 City)', required: ['id', 'name', 'name_ja'], properties: { id: { type: 'integer' }, name: { type: 'string' }, name_ja: { type: 'string' } } },
    listOf('CityList', CITY_REF, 'One page of cities'),
    {
      $id: 'Profile',
      type: 'object',
      description: 'A user as answered (000 3 Profile); never a password hash',
      required: ['id', 'username', 'name', 'email', 'permission', 'assign_city'],
      properties: {
        id: { type: 'integer' },
        username: { type: 'string' },
        name: { type: 'string' },
        email: { type: 'string' },
        avatar: { type: ['string', 'null'] },
        introduction: { type: ['string', 'null'] },
        permission: { type: 'string' },
        is_captain_department: { type: 'boolean' },
        assign_city: { type: 'array', items: CITY_REF },
        active_city: { type: 'array', items: CITY_REF },
        school: { type: ['integer', 'null'] },
        group: { type: ['integer', 'null'] },
        classes: { type: 'array', items: { type: 'integer' } },
        advertisements: { type: 'array', items: { type: 'integer' } },
        email_verified: { type: 'boolean' },
        chat_admin_unread: { type: 'integer', minimum: 0, description: "The chat unread count (001 7.9 chatAdminUnread): only in the user's own info" },
      },
      additionalProperties: true,
    },
    listOf('ProfileList', ref('Profile'), 'One page of users'),
  ];
}

/**
 * Adds the fixed and the resource schemas to `app` (before its routes). Throws when a resource's
 * component name is taken (two resources, or a fixed schema, of one name).
 */
export function addComponentSchemas(app: FastifyInstance, resources: ReadonlyMap<string, ResourceDef>): void {
  const taken = new Set<string>();
  const add = (schema: Json) => {
    const id = String(schema.$id);
    if (taken.has(id)) throw new Error(`openapi: two schemas are named ${id}`);
    taken.add(id);
    app.addSchema(schema);
  };
  for (const schema of fixedComponents()) add(schema);
  for (const def of resources.values()) {
    const name = componentName(def);
    add(recordComponent(def));
    add(listOf(`${name}List`, ref(name), `One page of ${def.name} rows`));
    add(payloadComponent(def));
  }
}
