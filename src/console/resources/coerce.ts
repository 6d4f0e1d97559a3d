/**
 * Value coercions the schemas ask for (000 3 Advertisement): `x-coerce: "array"` (pass_option is
 * always a list: missing becomes [], a single value a one-item list) and `x-drop-null` (sub_city_id is
 * left out of payloads when null). Used when a record enters a form and when a body is sent. Pure.
 */
import type { FieldSchema } from '@/shared/registry';

/** A value as the field holds it: `x-coerce: array` turns missing into [] and a single value into [value]. */
export function coerceIn(prop: FieldSchema | undefined, value: unknown): unknown {
  if (prop?.['x-coerce'] !== 'array') return value;
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * A request body as the contract wants it: `x-coerce: array` fields always a list (when the body is
 * a full record, i.e. `complete`), `x-drop-null` fields left out when null. Returns a new object.
 */
export function coerceOut(properties: Record<string, FieldSchema>, body: Record<string, unknown>, complete = true): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const [name, prop] of Object.entries(properties)) {
    if (prop['x-coerce'] === 'array' && (complete || name in out) && !prop.readOnly) out[name] = coerceIn(prop, out[name]);
    if (prop['x-drop-null'] && out[name] === null) delete out[name];
  }
  return out;
}
