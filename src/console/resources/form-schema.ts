/**
 * The RJSF schema and uiSchema of a resource's create or edit form, from its JSON Schema
 * (docs/architecture.md 'One schema per entity'): titles are i18n keys and get translated, enum values get their
 * translated `x-enum-labels`, `x-widget` picks a widget from a map, read-only fields are left out of
 * the create form and shown read-only when editing; each field's widget comes from its kind
 * (./field-kinds: switch, number input, multi-select, tags, date/time pickers, reference select,
 * upload). Fields a call fixes (`where`) are not in the form: the server stores them. A schema's
 * `x-resource.form.sections` group the fields under titles (`ui:options.sections` of the root).
 * Fields that do not apply to the values being edited (`x-visible-when`, src/shared/visibility.ts)
 * are not in the form either, and not in what it sends (`formValues`).
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { ResourceDef } from '@/shared/registry';
import { coerceIn } from '@/shared/coerce';
import { isVisible } from '@/shared/visibility';
import { fieldFormSchema, fieldUiSchema } from './field-kinds';

/** `clone`: the create form started from a copy of a row (./clone-values; 000 4 douplicate). */
export type FormMode = 'create' | 'edit' | 'clone';

/** Fields whose value the call fixes (`api.create.where`, `api.update.where`): the server stores them. */
export function fixedFields(def: ResourceDef): string[] {
  return [...new Set([...Object.keys(def.api.create?.where ?? {}), ...Object.keys(def.api.update?.where ?? {})])];
}

/** The fields a form of `mode` shows, in schema order: read-only ones only when editing (not on create or clone), never fixed ones. */
export function formFields(def: ResourceDef, mode: FormMode): string[] {
  const fixed = fixedFields(def);
  return Object.entries(def.schema.properties)
    .filter(([name, p]) => (mode === 'edit' || !p.readOnly) && !fixed.includes(name))
    .map(([name]) => name);
}

/** The fields of a form of `mode` that apply to `values` (`x-visible-when`), in schema order. */
export function shownFields(def: ResourceDef, mode: FormMode, values: Readonly<Record<string, unknown>>): string[] {
  return formFields(def, mode).filter((f) => isVisible(def.schema.properties, f, values));
}

/**
 * What the form holds and sends of `values`: the fields that apply to them (`x-visible-when`), and no
 * empty list of an optional field that is not a coerced list (an optional polygon's `minItems: 3`
 * applies once it has vertices; docs/architecture.md 'Console'). Example, a notification:
 * `{type: 'all', users: [3], polygon: []}` → `{type: 'all'}`.
 */
export function formValues(def: ResourceDef, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const props = def.schema.properties;
  const required = def.schema.required ?? [];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (!isVisible(props, k, values)) continue;
    if (Array.isArray(v) && v.length === 0 && props[k] && !required.includes(k) && props[k]['x-coerce'] !== 'array') continue;
    out[k] = v;
  }
  return out;
}

/** The fields an `if`/`then` rule names (its `required` lists and `properties`, at any depth of if/then). */
function namedFields(rule: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const part of [rule, rule.if, rule.then, rule.else]) {
    if (typeof part !== 'object' || part === null) continue;
    const p = part as { required?: string[]; properties?: Record<string, unknown> };
    out.push(...(p.required ?? []), ...Object.keys(p.properties ?? {}));
  }
  return out;
}

/** A titled group of the form's fields, as ./form-sections-template shows it (title translated). */
export interface ShownSection {
  title: string;
  fields: string[];
}

/**
 * The sections of a form showing `fields` (`x-resource.form.sections`, translated titles), each
 * with the fields of the form it names; empty ones left out; the fields no section names in a last
 * one, その他. None when the schema declares none.
 */
export function formSections(def: ResourceDef, fields: string[], t: (key: string) => string): ShownSection[] {
  if (def.form.sections.length === 0) return [];
  const named = new Set(def.form.sections.flatMap((s) => s.fields));
  const rest = fields.filter((f) => !named.has(f));
  return [...def.form.sections, { title: 'forms.sections.other', fields: rest }]
    .map((s) => ({ title: t(s.title), fields: s.fields.filter((f) => fields.includes(f)) }))
    .filter((s) => s.fields.length > 0);
}

/**
 * Schema and uiSchema of the form. The schema keeps the validation keywords (including `x-future`,
 * `x-after` and `x-messages`) and drops `$id`/`$schema`/`x-resource`, so ajv never caches it by id.
 * `owned`: the fields the session's own-row limits name (src/shared/ability.ts `ownedRowsOf`, 000 6:
 * an Advertiser's row names one of its shops); they are required in the form, since the server
 * refuses a row of that role without them.
 * Fields of `unwritable` (field permissions, ./field-access.ts) are shown as text
 * (./fields/read-only-field.tsx) and keep their values.
 */
export function buildFormSchema(
  def: ResourceDef,
  mode: FormMode,
  t: (key: string) => string,
  values: Readonly<Record<string, unknown>> = {},
  owned: readonly string[] = [],
  unwritable: readonly string[] = [],
): { schema: RJSFSchema; uiSchema: UiSchema } {
  const fields = shownFields(def, mode, values);
  const properties: Record<string, RJSFSchema> = {};
  const uiSchema: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  for (const name of fields) {
    const prop = def.schema.properties[name];
    properties[name] = fieldFormSchema(prop, t);
    uiSchema[name] = unwritable.includes(name) ? { 'ui:field': 'readOnlyValue', 'ui:options': { prop } } : fieldUiSchema(prop, t);
  }
  const sections = formSections(def, fields, t);
  if (sections.length > 0) uiSchema['ui:options'] = { sections };
  const schema: RJSFSchema = {
    type: 'object',
    required: [...new Set([...(def.schema.required ?? []), ...owned])].filter((f) => fields.includes(f)),
    properties,
    additionalProperties: false,
  };
  // Cross-field rules (draft-07 if/then, 000 5: a salary range needs its upper bound) checked in the
  // form as on the server, when every field they name is in the form.
  const rules = (def.schema.allOf ?? []).filter((rule) => namedFields(rule).every((f) => fields.includes(f)));
  if (rules.length > 0) schema.allOf = rules as RJSFSchema[];
  return { schema, uiSchema };
}

/**
 * The part of a record a form edits: only the form's fields (no `id` alias, no `version`), nulls left
 * out, `x-coerce: array` fields as arrays (a missing value `[]`, a single value a one-item list).
 */
export function formDataOf(def: ResourceDef, record: Record<string, unknown> | undefined, mode: FormMode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!record) return out;
  for (const name of formFields(def, mode)) {
    const value = coerceIn(def.schema.properties[name], record[name]);
    if (value !== undefined && value !== null) out[name] = value;
  }
  return out;
}
