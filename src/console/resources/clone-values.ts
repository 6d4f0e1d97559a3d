/**
 * What the 複製 form starts from (000 4 modal mode douplicate; `x-resource.clone`, described in
 * schemas/meta/resource.schema.json): the create form's part of the row, so no id, no read-only
 * server fields (created time, version) and no fields a call fixes; the `reset` fields (status
 * fields a new record starts fresh with) back to their schema default, or empty without one; and
 * every `x-future` date left empty, nested ones too (000 5: a time sale's end, a coupon's expiry, an
 * event's dates, a top ad's date must be in the future). Pure.
 */
import type { ResourceDef } from '@/shared/registry';
import { formDataOf } from './form-schema';

type Json = Record<string, unknown>;
type Sub = { properties?: Record<string, Sub>; items?: Sub; 'x-future'?: boolean };

/** `value` without the `x-future` parts `schema` declares below it (object properties, array items). */
function withoutFuture(schema: Sub, value: unknown): unknown {
  if (Array.isArray(value)) return schema.items ? value.map((v) => withoutFuture(schema.items!, v)) : value;
  if (typeof value !== 'object' || value === null || !schema.properties) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) {
    const sub = schema.properties[k];
    if (sub?.['x-future']) continue;
    out[k] = sub ? withoutFuture(sub, v) : v;
  }
  return out;
}

/** Whether a nested value lost something (an `x-future` part) on the way. */
function shrank(before: unknown, after: unknown): boolean {
  return JSON.stringify(before) !== JSON.stringify(after);
}

/**
 * The form data of a copy of `record` and the fields the copy leaves empty that had a value (the
 * form names them, so the user enters them again). Example, a coupon: `{id: 3, title: 'A', status:
 * 'approved', end_date: '2030-…', created_at: '…'}` → `{values: {title: 'A', status: 'request'},
 * cleared: ['end_date']}`.
 */
export function cloneValues(def: ResourceDef, record: Json | undefined): { values: Json; cleared: string[] } {
  const values = formDataOf(def, record, 'clone');
  const cleared: string[] = [];
  for (const name of def.clone?.reset ?? []) {
    const prop = def.schema.properties[name];
    // A read-only reset field is the server's: the copy does not carry it at all.
    if (prop?.readOnly) continue;
    const fallback = prop?.default;
    if (fallback !== undefined) values[name] = structuredClone(fallback);
    else if (name in values) {
      delete values[name];
      cleared.push(name);
    }
  }
  for (const [name, prop] of Object.entries(def.schema.properties)) {
    if (!(name in values)) continue;
    if (prop['x-future']) {
      delete values[name];
      cleared.push(name);
      continue;
    }
    const kept = withoutFuture(prop as Sub, values[name]);
    if (shrank(values[name], kept)) cleared.push(name);
    values[name] = kept;
  }
  return { values, cleared };
}
