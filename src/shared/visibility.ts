/**
 * Fields that apply only while another field has certain values (`x-visible-when: {field, in}` on a
 * property; schemas/meta/resource.schema.json; docs/architecture.md 'One schema per entity'): a
 * notification's users apply to a push of type `users`, its map area to type `map`. One reading for
 * the generated form (a hidden field is not shown and not sent), the server's validation (a hidden
 * field is dropped before the schema is checked, so it is neither validated nor stored) and the
 * OpenAPI document (the payload's `if`/`then` rules, src/server/openapi/components.ts). Pure.
 */
import type { FieldSchema } from './registry';

/** What `x-visible-when` declares: the field applies while `field` holds one of `in`. */
export interface VisibleWhen {
  field: string;
  in: Array<string | number | boolean>;
}

type Props = Readonly<Record<string, FieldSchema>>;

/**
 * The value that decides: the record's `field`, or the schema default of that field when the record
 * has none (a new push without a type is an `all` push).
 */
function controlling(props: Props, record: Readonly<Record<string, unknown>>, field: string): unknown {
  const v = record[field];
  return v === undefined || v === null || v === '' ? props[field]?.default : v;
}

/** Whether the property `name` applies to `record` (true when it declares no `x-visible-when`). */
export function isVisible(props: Props, name: string, record: Readonly<Record<string, unknown>>): boolean {
  const when = props[name]?.['x-visible-when'];
  if (!when) return true;
  return when.in.includes(controlling(props, record, when.field) as string);
}

/** The names of the properties that do not apply to `record`, in schema order. */
export function hiddenFields(props: Props, record: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(props).filter((name) => !isVisible(props, name, record));
}

/**
 * `record` without the fields that do not apply to it. Example, a notification: `{type: 'all',
 * users: [3], title: 'A'}` → `{type: 'all', title: 'A'}`.
 */
export function withoutHidden<T extends Record<string, unknown>>(props: Props, record: T): T {
  const hidden = hiddenFields(props, record);
  if (hidden.length === 0) return record;
  const out = { ...record };
  for (const f of hidden) delete out[f];
  return out;
}
