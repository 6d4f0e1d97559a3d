/**
 * The failing fields of a stored row, marked when its form opens (docs/architecture.md 'Changing an
 * entity'): a row written under an older schema may break a rule of the current one (a field now
 * required, a tighter maximum length, a narrower type). The loaded row is validated once with the
 * form's validator; the fields that fail are marked with their messages from the start, each until
 * its value passes (the current values are validated again on each change, only for those fields).
 * `x-future` is left out, as in `npm run check:data`: a date that has passed broke no rule when it
 * was written, and the form's own check on saving still applies.
 */
import { useMemo } from 'react';
import { toErrorSchema, type ErrorSchema, type ErrorTransformer, type RJSFSchema, type RJSFValidationError } from '@rjsf/utils';
import { validator } from './rjsf-validator';

/** The top-level field an RJSF error is about (`.location.lat` → location). */
function fieldOf(error: RJSFValidationError): string {
  return (error.property ?? '').replace(/^\./, '').split(/[.[]/)[0] ?? '';
}

function storedErrors(schema: RJSFSchema, data: Record<string, unknown>, transformErrors: ErrorTransformer): RJSFValidationError[] {
  return validator.validateFormData(data, schema, undefined, transformErrors).errors.filter((e) => e.name !== 'x-future' && fieldOf(e) !== '');
}

/**
 * The errors to show on a form opened on a stored row: those of the fields of `loaded` (the row as
 * the form shows it) that fail `schema` (the form's), as they stand in `current` (the values being
 * edited); undefined when the row passed, or once every such field does.
 */
export function useStoredRowErrors(
  schema: RJSFSchema,
  loaded: Record<string, unknown> | undefined,
  current: Record<string, unknown> | undefined,
  transformErrors: ErrorTransformer,
): { failing: readonly string[]; errorSchema: ErrorSchema | undefined } {
  const failing = useMemo(() => (loaded ? [...new Set(storedErrors(schema, loaded, transformErrors).map(fieldOf))] : []), [schema, loaded, transformErrors]);
  const errorSchema = useMemo(() => {
    if (failing.length === 0 || !current) return undefined;
    const left = storedErrors(schema, current, transformErrors).filter((e) => failing.includes(fieldOf(e)));
    return left.length > 0 ? (toErrorSchema(left) as ErrorSchema) : undefined;
  }, [schema, failing, current, transformErrors]);
  return { failing, errorSchema };
}
