/**
 * RJSF error localization (000 5 messages; RJSF shows both message and stack: localize
 * both'): each RJSF error goes through the shared `toFieldErrors` mapping (the field's `x-messages`,
 * else `validation.generic.<keyword>`), so forms show the spec's exact texts, e.g.
 * シーン名を入力してください。 Also turns the server's `fields` into RJSF `extraErrors`.
 */
import type { ErrorObject } from 'ajv';
import type { ErrorSchema, ErrorTransformer, RJSFValidationError } from '@rjsf/utils';
import type { ResourceSchema } from '@/shared/registry';
import { toFieldErrors } from '@/shared/validation';

type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * The schema object holding the keyword at `schemaPath` (`#/properties/video/properties/link/items/…/pattern`),
 * read in the resource schema, whose properties the form's schema mirrors; undefined when the path
 * leaves it.
 */
function keywordParent(schema: ResourceSchema, schemaPath: string | undefined): Record<string, unknown> | undefined {
  const parts = (schemaPath ?? '').replace(/^#\/?/, '').split('/').slice(0, -1);
  let at: unknown = schema;
  for (const part of parts) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return typeof at === 'object' && at !== null ? (at as Record<string, unknown>) : undefined;
}

/** The localized text of one RJSF error (its message when the mapping has nothing). */
export function localizeError(schema: ResourceSchema, error: RJSFValidationError, t: Translate): string {
  const field = (error.property ?? '').replace(/^\./, '').split('.')[0] ?? '';
  const ajvError = {
    instancePath: field ? `/${field}` : '',
    keyword: error.name ?? '',
    params: error.params ?? {},
    schemaPath: error.schemaPath ?? '',
    // The schema of the failing keyword: a nested property may name its own message (its `x-messages`).
    parentSchema: keywordParent(schema, error.schemaPath),
  } as ErrorObject;
  const first = Object.values(toFieldErrors(schema, [ajvError]))[0]?.[0];
  return first ? t(first.key, first.params) : (error.message ?? '');
}

/**
 * An RJSF `transformErrors` that localizes both `message` and `stack`. An `if` error ('must match
 * "then" schema') is dropped: it repeats the errors of the `then` branch (a salary range without its
 * upper bound), which are shown on their fields.
 */
export function localizeErrors(schema: ResourceSchema, t: Translate): ErrorTransformer {
  return (errors) =>
    errors.filter((e) => e.name !== 'if').map((e) => {
      const text = localizeError(schema, e, t);
      return { ...e, message: text, stack: text };
    });
}

/** RJSF `extraErrors` from the server's per-field messages (already in the request's language). */
export function serverErrorSchema(fields: Record<string, string[] | string> | undefined): ErrorSchema | undefined {
  if (!fields) return undefined;
  const out: Record<string, { __errors: string[] }> = {};
  for (const [field, messages] of Object.entries(fields)) {
    out[field] = { __errors: Array.isArray(messages) ? messages.map(String) : [String(messages)] };
  }
  return out as ErrorSchema;
}
