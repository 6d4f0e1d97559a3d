/**
 * The value coercions the schemas ask for (schemas/meta/resource.schema.json; 000 3 Advertisement),
 * one implementation for the console (form values, request bodies) and the server (payloads before
 * validation, stored rows as answered):
 * - `x-coerce: "array"`: the field is always a list (pass_option): missing, null or '' becomes [],
 *   a single value a one-item list;
 * - `x-drop-null`: a null value is left out (sub_city_id), of payloads and of answers.
 * Pure; imports neither side.
 */
import type { FieldSchema } from './registry';

type Properties = Readonly<Record<string, FieldSchema>>;

/** The fields of a schema's properties that a coercion concerns. */
export interface Coercions {
  /** `x-coerce: "array"` fields. */
  coerce: string[];
  /** `x-coerce: "array"` fields a client writes (not readOnly). */
  writableCoerce: string[];
  /** `x-drop-null` fields. */
  dropNull: string[];
}

const cache = new WeakMap<object, Coercions>();

/** The coerced fields of `properties` (computed once per properties object). */
export function coercionsOf(properties: Properties): Coercions {
  let found = cache.get(properties);
  if (!found) {
    const entries = Object.entries(properties);
    const coerce = entries.filter(([, p]) => p['x-coerce'] === 'array');
    found = {
      coerce: coerce.map(([f]) => f),
      writableCoerce: coerce.filter(([, p]) => !p.readOnly).map(([f]) => f),
      dropNull: entries.filter(([, p]) => p['x-drop-null']).map(([f]) => f),
    };
    cache.set(properties, found);
  }
  return found;
}

/** `x-coerce: "array"`: undefined, null and '' → [], an array as is, anything else → [value]. */
export function coerceArray(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** A value as the field holds it: `x-coerce: array` turns missing into [] and a single value into [value]; other fields as is. */
export function coerceIn(prop: FieldSchema | undefined, value: unknown): unknown {
  return prop?.['x-coerce'] === 'array' ? coerceArray(value) : value;
}

/**
 * A request body as the contract wants it (000 3): writable `x-coerce: array` fields always a list
 * (all of them when the body is a full record, `complete`; else only those it holds), null
 * `x-drop-null` fields left out. Returns a new object; `body` is not changed.
 */
export function coerceOut(properties: Properties, body: Readonly<Record<string, unknown>>, complete = true): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  const { writableCoerce, dropNull } = coercionsOf(properties);
  for (const f of writableCoerce) if (complete || f in out) out[f] = coerceArray(out[f]);
  for (const f of dropNull) if (out[f] === null) delete out[f];
  return out;
}

/** A stored record as answered: every `x-coerce: array` field a list, null `x-drop-null` fields left out. Changes `row` and answers it. */
export function coerceAnswer<T extends Record<string, unknown>>(properties: Properties, row: T): T {
  const { coerce, dropNull } = coercionsOf(properties);
  const out = row as Record<string, unknown>;
  for (const f of coerce) out[f] = coerceArray(out[f]);
  for (const f of dropNull) if (out[f] === null) delete out[f];
  return row;
}
