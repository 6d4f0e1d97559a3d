/**
 * Validation of records against their resource schema (000 5; 001 9), the same on the server (every
 * write) and in the console (RJSF's ajv8 validator is given the same keywords through `extendAjv`).
 */
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { ResourceDef, ResourceSchema } from './registry';

/** One field's error: an i18n key of locales/<language>/*.json and its interpolation values. */
export interface FieldError {
  key: string;
  params: Record<string, unknown>;
}
/** Errors by field name; `_` holds errors of the record as a whole. */
export type FieldErrors = Record<string, FieldError[]>;

const ANNOTATIONS = ['x-messages', 'x-widget', 'x-enum-labels', 'x-resource', 'x-seed-count', 'x-ref', 'x-upload', 'x-coerce', 'x-drop-null', 'x-hidden-in-list'];

/**
 * Adds this project's keywords and formats to an ajv instance (RJSF's or ours):
 * - `x-future: true` — a date-time later than now (000 5 Event and article);
 * - `x-after: "<field>"` — a date-time later than the sibling field (end after start);
 * - `x-gte` / `x-lte: "<field>"` — a number not below / not above the sibling field (time sale
 *   maximum per ad at least the initial number; voucher number not below the shared count);
 * - `color` format — `#` and six hexadecimal digits, any case (000 5 Colour);
 * - the `x-` annotation keywords, which validate nothing.
 * Returns the same instance.
 */
export function extendAjv<T extends Ajv>(ajv: T, now: () => number = Date.now): T {
  for (const keyword of ANNOTATIONS) if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  if (!ajv.getKeyword('x-future')) {
    ajv.addKeyword({
      keyword: 'x-future',
      type: 'string',
      schemaType: 'boolean',
      errors: false,
      validate: (on: boolean, value: string) => !on || Number.isNaN(Date.parse(value)) || Date.parse(value) > now(),
    });
  }
  if (!ajv.getKeyword('x-after')) {
    ajv.addKeyword({
      keyword: 'x-after',
      type: 'string',
      schemaType: 'string',
      errors: false,
      validate: (other: string, value: string, _schema?: unknown, ctx?: { parentData?: Record<string, unknown> }) => {
        const before = ctx?.parentData?.[other];
        if (typeof before !== 'string') return true;
        const a = Date.parse(before);
        const b = Date.parse(value);
        return Number.isNaN(a) || Number.isNaN(b) || b > a;
      },
    });
  }
  for (const [keyword, ok] of [
    ['x-gte', (a: number, b: number) => a >= b],
    ['x-lte', (a: number, b: number) => a <= b],
  ] as const) {
    if (ajv.getKeyword(keyword)) continue;
    ajv.addKeyword({
      keyword,
      type: 'number',
      schemaType: 'string',
      errors: false,
      validate: (other: string, value: number, _schema?: unknown, ctx?: { parentData?: Record<string, unknown> }) => {
        const bound = ctx?.parentData?.[other];
        return typeof bound !== 'number' || ok(value, bound);
      },
    });
  }
  if (!ajv.formats.color) ajv.addFormat('color', /^#[0-9a-fA-F]{6}$/);
  return ajv;
}

function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, useDefaults: true });
  addFormats(ajv);
  return extendAjv(ajv);
}

let shared: Ajv | null = null;
const compiled = new Map<string, ReturnType<Ajv['compile']>>();

/**
 * The i18n key of an ajv error for a field: the field's `x-messages[keyword]`, else the generic
 * `validation.generic.<keyword>`.
 */
export function messageKey(schema: ResourceSchema, field: string, keyword: string): string {
  return schema.properties[field]?.['x-messages']?.[keyword] ?? `validation.generic.${keyword}`;
}

/**
 * Turns ajv errors of a record into field errors with i18n keys. Works for errors of any ajv
 * instance, so the console's RJSF validator and the server share one mapping.
 */
export function toFieldErrors(schema: ResourceSchema, errors: readonly ErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    // `if`/`then` failures repeat the errors of the branch that failed, which are reported already.
    if (e.keyword === 'if') continue;
    let field = e.instancePath.replace(/^\//, '').split('/')[0] ?? '';
    if (e.keyword === 'required') field = String((e.params as { missingProperty: string }).missingProperty);
    if (e.keyword === 'additionalProperties') field = String((e.params as { additionalProperty: string }).additionalProperty);
    const key = messageKey(schema, field, e.keyword);
    const prop = schema.properties[field];
    const params: Record<string, unknown> = {
      ...e.params,
      field,
      max: prop?.maxLength ?? prop?.maximum,
      min: prop?.minLength ?? prop?.minimum,
      other: prop?.['x-after'] ?? prop?.['x-gte'] ?? prop?.['x-lte'],
    };
    (out[field || '_'] ??= []).push({ key, params });
  }
  return out;
}

/**
 * Validates a record for a create or a full update of `def` (000 5): read-only fields are dropped
 * first, defaults filled in. Returns the cleaned record, or the field errors.
 * Errors: none thrown; bad input comes back as `{ ok: false, errors }`.
 */
export function validateRecord(
  def: ResourceDef,
  input: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, errors: { _: [{ key: 'validation.generic.type', params: { type: 'object' } }] } };
  }
  const value: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    const prop = def.schema.properties[k];
    if (prop?.readOnly) continue;
    value[k] = v;
  }
  shared ??= createAjv();
  let validate = compiled.get(def.name);
  if (!validate) {
    validate = shared.compile(def.schema);
    compiled.set(def.name, validate);
  }
  if (validate(value)) return { ok: true, value };
  return { ok: false, errors: toFieldErrors(def.schema, validate.errors ?? []) };
}
