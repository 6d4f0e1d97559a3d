/**
 * The RJSF schema and uiSchema of a resource's create or edit form, from its JSON Schema
 * (DESIGN.md 'One schema per entity'): titles are i18n keys and get translated, enum values get their
 * translated `x-enum-labels`, `x-widget` picks a widget from a map, read-only fields are left out of
 * the create form and shown read-only when editing.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { FieldSchema, ResourceDef } from '@/shared/registry';

export type FormMode = 'create' | 'edit';

/** uiSchema of each `x-widget` value (a registry map, not a switch). */
export const WIDGETS: Record<NonNullable<FieldSchema['x-widget']>, UiSchema> = {
  textarea: { 'ui:widget': 'textarea', 'ui:options': { rows: 6 } },
  color: { 'ui:widget': 'color' },
  'image-url': { 'ui:placeholder': 'https://' },
  date: { 'ui:widget': 'date' },
  time: { 'ui:widget': 'time' },
  password: { 'ui:widget': 'password' },
  richtext: { 'ui:widget': 'textarea', 'ui:options': { rows: 12 } },
};

/** The fields a form of `mode` shows, in schema order. */
export function formFields(def: ResourceDef, mode: FormMode): string[] {
  return Object.entries(def.schema.properties)
    .filter(([, p]) => mode === 'edit' || !p.readOnly)
    .map(([name]) => name);
}

/**
 * Schema and uiSchema of the form. The schema keeps the validation keywords (including `x-future`,
 * `x-after` and `x-messages`) and drops `$id`/`$schema`/`x-resource`, so ajv never caches it by id.
 */
export function buildFormSchema(def: ResourceDef, mode: FormMode, t: (key: string) => string): { schema: RJSFSchema; uiSchema: UiSchema } {
  const fields = formFields(def, mode);
  const properties: Record<string, RJSFSchema> = {};
  const uiSchema: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  for (const name of fields) {
    const prop = def.schema.properties[name];
    properties[name] = { ...(prop as unknown as RJSFSchema), title: t(prop.title) };
    const ui: UiSchema = { ...(prop['x-widget'] ? WIDGETS[prop['x-widget']] : {}) };
    if (prop.enum && prop['x-enum-labels']) ui['ui:enumNames'] = prop['x-enum-labels'].map((k) => t(k));
    if (prop.readOnly) ui['ui:readonly'] = true;
    uiSchema[name] = ui;
  }
  const schema: RJSFSchema = {
    type: 'object',
    required: (def.schema.required ?? []).filter((f) => fields.includes(f)),
    properties,
    additionalProperties: false,
  };
  return { schema, uiSchema };
}

/** The part of a record a form edits: only the schema's fields (no `id` alias, no `version`). */
export function formDataOf(def: ResourceDef, record: Record<string, unknown> | undefined, mode: FormMode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!record) return out;
  for (const name of formFields(def, mode)) if (record[name] !== undefined && record[name] !== null) out[name] = record[name];
  return out;
}
