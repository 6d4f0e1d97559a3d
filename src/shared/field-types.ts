/**
 * The JSON type of a schema field, read one way by the console and the server (schemas/meta/
 * resource.schema.json; 000 5). A field's `type` is one name or a list that may hold `"null"`:
 * `["integer", "null"]` (genre.parent_id, 001 7.4) is a number field as much as `"integer"` is, so
 * no code tests `type === 'integer'` itself; it asks these helpers.
 */
import type { FieldSchema } from './registry';

type Typed = Pick<FieldSchema, 'type'> | undefined;

/** The type names of a field: `"integer"` → ['integer'], `["integer","null"]` → both; none → []. */
export function fieldTypes(p: Typed): string[] {
  const type = p?.type;
  if (type === undefined) return [];
  return Array.isArray(type) ? type : [type];
}

/** The field's type without `null` (`["string","null"]` → `string`); `string` when none is given. */
export function baseType(p: Typed): string {
  const types = fieldTypes(p);
  return types.find((t) => t && t !== 'null') ?? (types.includes('null') ? 'null' : 'string');
}

/** Whether the field holds numbers: `integer` or `number`, nullable or not (SQL compares them as numbers). */
export function isNumericField(p: Typed): boolean {
  return fieldTypes(p).some((t) => t === 'integer' || t === 'number');
}

/** Whether the field holds a list (`array`, nullable or not). */
export function isListField(p: Typed): boolean {
  return fieldTypes(p).includes('array');
}
