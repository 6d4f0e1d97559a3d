/**
 * Validation of records against their resource schema (000 5; 001 9), the same on the server (every
 * write) and in the console (RJSF's ajv8 validator is given the same keywords through `extendAjv`).
 */
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FieldSchema, ResourceDef, ResourceSchema } from './registry';
import { isVisible } from './visibility';

/** One field's error: an i18n key of locales/<language>/*.json and its interpolation values. */
export interface FieldError {
  key: string;
  params: Record<string, unknown>;
}
/** Errors by field name; `_` holds errors of the record as a whole. */
export type FieldErrors = Record<string, FieldError[]>;

const ANNOTATIONS = ['x-messages', 'x-widget', 'x-enum-labels', 'x-resource', 'x-seed-count', 'x-import', 'x-ref', 'x-ref-user', 'x-upload', 'x-coerce', 'x-drop-null', 'x-hidden-in-list', 'x-no-upload', 'x-geo-point', 'x-map-area', 'x-permissions', 'x-visible-when'];

/** The number comparisons with a sibling field: value `ok(value, sibling)` (000 5 Time sale, vouchers). */
export const NUMBER_COMPARISONS = {
  'x-gt': (a: number, b: number) => a > b,
  'x-gte': (a: number, b: number) => a >= b,
  'x-lte': (a: number, b: number) => a <= b,
} as const;
export type NumberComparison = keyof typeof NUMBER_COMPARISONS;

/** The date comparisons with a sibling field (date-time strings): end after start, not after a day. */
export const DATE_COMPARISONS = {
  'x-after': (a: number, b: number) => a > b,
  'x-not-after': (a: number, b: number) => a <= b,
} as const;
export type DateComparison = keyof typeof DATE_COMPARISONS;

/** The sibling field a comparison keyword of `prop` names, first declared first (for messages). */
function comparedField(prop: FieldSchema | undefined): string | undefined {
  if (!prop) return undefined;
  for (const k of [...Object.keys(DATE_COMPARISONS), ...Object.keys(NUMBER_COMPARISONS)] as Array<DateComparison | NumberComparison>) {
    if (prop[k]) return prop[k];
  }
  return undefined;
}

/**
 * Whether a list of periods `[{<start>, <end>}, …]` is continuous (000 5 Time sale: periods must be
 * continuous): each period after the first starts exactly when the one before it ends (no gap, no
 * overlap). Items whose dates do not parse are left to their own keywords. An empty list is continuous.
 */
export function periodsContinuous(periods: unknown, keys: { start: string; end: string }): boolean {
  if (!Array.isArray(periods)) return true;
  for (let i = 1; i < periods.length; i += 1) {
    const before = Date.parse(String((periods[i - 1] as Record<string, unknown> | null)?.[keys.end] ?? ''));
    const next = Date.parse(String((periods[i] as Record<string, unknown> | null)?.[keys.start] ?? ''));
    if (Number.isNaN(before) || Number.isNaN(next)) continue;
    if (before !== next) return false;
  }
  return true;
}

/**
 * Adds this project's keywords and formats to an ajv instance (RJSF's or ours):
 * - `x-future: true` — a date-time later than now (000 5 Event and article);
 * - `x-after: "<field>"` — a date-time later than the sibling field (end after start);
 * - `x-not-after: "<field>"` — a date-time not later than the sibling field (000 5 Coupon: end not
 *   after the discount day);
 * - `x-gte` / `x-lte: "<field>"` — a number not below / not above the sibling field (time sale
 *   maximum per ad at least the initial number; voucher number not below the shared count);
 * - `x-gt: "<field>"` — a number above the sibling field (000 5 Time sale: the limit must exceed the
 *   count already taken);
 * - `x-continuous: {start, end}` — a list of periods, each starting when the one before it ends
 *   (000 5 Time sale: periods must be continuous);
 * A comparison whose sibling is missing (or a read-only server field, left out of a write) passes
 * here; the server compares with the stored value (`checkStoredComparisons`).
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
  for (const [keyword, ok] of Object.entries(DATE_COMPARISONS)) {
    if (ajv.getKeyword(keyword)) continue;
    ajv.addKeyword({
      keyword,
      type: 'string',
      schemaType: 'string',
      errors: false,
      validate: (other: string, value: string, _schema?: unknown, ctx?: { parentData?: Record<string, unknown> }) => {
        const bound = ctx?.parentData?.[other];
        if (typeof bound !== 'string') return true;
        const a = Date.parse(value);
        const b = Date.parse(bound);
        return Number.isNaN(a) || Number.isNaN(b) || ok(a, b);
      },
    });
  }
  for (const [keyword, ok] of Object.entries(NUMBER_COMPARISONS)) {
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
  if (!ajv.getKeyword('x-continuous')) {
    ajv.addKeyword({
      keyword: 'x-continuous',
      type: 'array',
      schemaType: 'object',
      errors: false,
      validate: (keys: { start: string; end: string }, value: unknown[]) => periodsContinuous(value, keys),
    });
  }
  if (!ajv.formats.color) ajv.addFormat('color', /^#[0-9a-fA-F]{6}$/);
  return ajv;
}

/** What a use of the one ajv set-up may change: filling defaults in, coercing strings to the schema's types. */
export interface AjvSetupOptions {
  /** Fill missing properties with their `default` (records: yes; request parts checked as sent: no). Default true. */
  useDefaults?: boolean;
  /** ajv's `coerceTypes` (path and query strings read as numbers, booleans, lists). Default false. */
  coerceTypes?: boolean | 'array';
  /** The clock of `x-future` (ms since the epoch; default `Date.now`). */
  now?: () => number;
}

/**
 * The one ajv set-up of the project (000 5; 001 9): all errors, strict schemas, the formats of
 * ajv-formats and this project's keywords and formats (`extendAjv`). The server's record validation
 * and its route validation (src/server/plugins/validation.ts) each make their instances with it.
 */
export function createAjv(options: AjvSetupOptions = {}): Ajv {
  // `verbose`: errors carry the value, so a blank one gets its field's "required" message (toFieldErrors).
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false, useDefaults: options.useDefaults ?? true, coerceTypes: options.coerceTypes ?? false });
  addFormats(ajv);
  return extendAjv(ajv, options.now);
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
 * instance, so the console's RJSF validator and the server share one mapping. A blank value (empty
 * or only spaces) that fails `minLength` or `pattern` gets the field's `required` message when it has
 * one (000 5: an empty password is 'Password is required', not the length rule); this needs the
 * value in the error (ajv's `verbose`, as `createAjv` sets).
 */
export function toFieldErrors(schema: ResourceSchema, errors: readonly ErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    // `if`/`then` failures repeat the errors of the branch that failed, which are reported already.
    if (e.keyword === 'if') continue;
    let field = e.instancePath.replace(/^\//, '').split('/')[0] ?? '';
    if (e.keyword === 'required') field = String((e.params as { missingProperty: string }).missingProperty);
    if (e.keyword === 'additionalProperties') field = String((e.params as { additionalProperty: string }).additionalProperty);
    const prop = schema.properties[field];
    const blank = typeof e.data === 'string' && e.data.trim() === '' && (e.keyword === 'minLength' || e.keyword === 'pattern');
    // A property inside an object or an array's items may name its own message (ajv's `verbose` gives its schema).
    const own = (e.parentSchema as { 'x-messages'?: Record<string, string> } | undefined)?.['x-messages']?.[e.keyword];
    const key = blank && prop?.['x-messages']?.required ? prop['x-messages'].required : (own ?? messageKey(schema, field, e.keyword));
    const params: Record<string, unknown> = {
      ...e.params,
      field,
      max: prop?.maxLength ?? prop?.maximum ?? (/^max/.test(e.keyword) ? (e.params as { limit?: unknown }).limit : undefined),
      min: prop?.minLength ?? prop?.minimum ?? (/^min/.test(e.keyword) ? (e.params as { limit?: unknown }).limit : undefined),
      other: comparedField(prop),
    };
    (out[field || '_'] ??= []).push({ key, params });
  }
  return out;
}

/**
 * Validates a record for a create or a full update of `def` (000 5): read-only fields and fields that
 * do not apply to the record (`x-visible-when`, ./visibility.ts) are dropped first, defaults filled in. Returns the cleaned record, or the field errors.
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
    if (!isVisible(def.schema.properties, k, input as Record<string, unknown>)) continue;
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

/**
 * The comparisons of a full record (the written fields plus the stored server fields) whose sibling
 * is a read-only server field, which `validateRecord` cannot see because a client never sends it
 * (000 5: voucher number not below the shared count; time sale limit above the taken count, count
 * not above the per-ad maximum). Comparisons between two written fields are ajv's. Answers the
 * field errors (same keys and params as `toFieldErrors`), or null when all hold.
 */
export function checkStoredComparisons(def: ResourceDef, record: Readonly<Record<string, unknown>>): FieldErrors | null {
  const errors: ReturnType<typeof toFieldErrors> = {};
  for (const { field, keyword, other } of storedComparisonsOf(def)) {
    const value = record[field];
    const bound = record[other];
    if (typeof value !== 'number' || typeof bound !== 'number' || NUMBER_COMPARISONS[keyword](value, bound)) continue;
    (errors[field] ??= []).push({ key: messageKey(def.schema, field, keyword), params: { field, other, limit: bound } });
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

const storedComparisons = new WeakMap<ResourceDef, Array<{ field: string; keyword: NumberComparison; other: string }>>();

/** The comparisons of `def` with a read-only server field, in field order (read once per definition: a bulk write checks every row). */
function storedComparisonsOf(def: ResourceDef): Array<{ field: string; keyword: NumberComparison; other: string }> {
  let list = storedComparisons.get(def);
  if (!list) {
    list = [];
    for (const [field, prop] of Object.entries(def.schema.properties)) {
      for (const keyword of Object.keys(NUMBER_COMPARISONS) as NumberComparison[]) {
        const other = prop[keyword];
        if (other && def.schema.properties[other]?.readOnly) list.push({ field, keyword, other });
      }
    }
    storedComparisons.set(def, list);
  }
  return list;
}

/** One rule a stored record breaks: the top-level field (`_`: the record), the rule (ajv keyword or project keyword) and its message. */
export interface RecordFailure {
  field: string;
  rule: string;
  key: string;
  params: Record<string, unknown>;
}

let storedAjv: Ajv | null = null;
const storedCompiled = new WeakMap<ResourceDef, ReturnType<Ajv['compile']>>();

/**
 * The rules a stored record of `def` breaks under its current schema (docs/architecture.md 'Changing
 * an entity'): the checks of a write (`validateRecord`: read-only fields dropped, defaults filled in,
 * then the schema; then `checkStoredComparisons`), with one difference: `x-future` is not checked,
 * since a date that was in the future when it was written has not broken a rule by passing. `record`
 * is the stored data (not changed). Answers an empty list when it passes. Errors: none thrown.
 */
export function storedRecordFailures(def: ResourceDef, record: Readonly<Record<string, unknown>>): RecordFailure[] {
  const value: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(structuredClone(record))) {
    if (def.schema.properties[k]?.readOnly) continue;
    value[k] = v;
  }
  storedAjv ??= createAjv({ now: () => Number.NEGATIVE_INFINITY });
  let validate = storedCompiled.get(def);
  if (!validate) {
    // Without its `$id`: two versions of a schema (a test's before and after) may be compiled side by side.
    const { $id: _id, ...schema } = def.schema as ResourceSchema & { $id?: string };
    validate = storedAjv.compile(schema);
    storedCompiled.set(def, validate);
  }
  const out: RecordFailure[] = [];
  if (!validate(value)) {
    for (const e of validate.errors ?? []) {
      if (e.keyword === 'if') continue;
      const [field, [error]] = Object.entries(toFieldErrors(def.schema, [e]))[0] ?? ['_', [{ key: `validation.generic.${e.keyword}`, params: {} }]];
      out.push({ field, rule: e.keyword, key: error.key, params: error.params });
    }
  }
  for (const { field, keyword, other } of storedComparisonsOf(def)) {
    const v = record[field];
    const bound = record[other];
    if (typeof v !== 'number' || typeof bound !== 'number' || NUMBER_COMPARISONS[keyword](v, bound)) continue;
    out.push({ field, rule: keyword, key: messageKey(def.schema, field, keyword), params: { field, other, limit: bound } });
  }
  return out;
}
