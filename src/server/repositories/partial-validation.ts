/**
 * Validation of some fields of a record against their field rules alone (bulk updates and
 * `set-all` values, 001 7): the one ajv set-up of the shared `validateRecord` (`createAjv`), no
 * required list, no defaults.
 */
import type { ValidateFunction } from 'ajv';
import type { ResourceDef } from '../../shared/registry';
import { createAjv, toFieldErrors, type FieldErrors } from '../../shared/validation';

let ajv: ReturnType<typeof createAjv> | null = null;
const compiled = new WeakMap<ResourceDef, Map<string, ValidateFunction>>();

/**
 * Checks `values` against the rules of their fields of `def`; a field not in `allowed` is refused
 * (`validation.generic.additionalProperties`). Answers the field errors, or null when all is well.
 */
export function validateFields(def: ResourceDef, values: Record<string, unknown>, allowed: readonly string[]): FieldErrors | null {
  ajv ??= createAjv({ useDefaults: false });
  const fields = [...allowed].sort();
  const key = fields.join(',');
  let byFields = compiled.get(def);
  if (!byFields) compiled.set(def, (byFields = new Map()));
  let validate = byFields.get(key);
  if (!validate) {
    const properties = Object.fromEntries(fields.filter((f) => f in def.schema.properties).map((f) => [f, def.schema.properties[f]]));
    validate = ajv.compile({ type: 'object', properties, additionalProperties: false });
    byFields.set(key, validate);
  }
  if (validate(values)) return null;
  return toFieldErrors(def.schema, validate.errors ?? []);
}
