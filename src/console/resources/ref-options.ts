/**
 * Options of an `x-ref` field (a row of another resource of the same city): the referenced
 * resource's label field is its declared `x-resource.titleField` (else its first plain string list
 * column, else its first plain string field, else its id), and each row becomes `{ value: id, label }`. Pure.
 */
import type { BaseRecord } from '@refinedev/core';
import type { FieldSchema, ResourceDef } from '@/shared/registry';
import { baseType } from './field-kinds';

const plainString = (p: FieldSchema | undefined) => !!p && baseType(p) === 'string' && !p.enum && !p.format && !p['x-upload'] && !p['x-ref'] && p['x-widget'] !== 'password';

/** The field whose value names a row of `def` in a select. */
export function labelField(def: ResourceDef): string {
  if (def.titleField) return def.titleField;
  const props = def.schema.properties;
  return def.list.columns.find((c) => plainString(props[c])) ?? Object.keys(props).find((k) => plainString(props[k])) ?? def.idField;
}

/** One select option per row: the row's id and its label (`#id` when the label is empty). */
export function refOptions(def: ResourceDef, rows: readonly BaseRecord[]): Array<{ value: string | number; label: string }> {
  const field = labelField(def);
  return rows.map((r) => {
    const id = (r[def.idField] ?? r.id) as string | number;
    const label = r[field];
    return { value: id, label: label === undefined || label === null || label === '' ? `#${id}` : String(label) };
  });
}
