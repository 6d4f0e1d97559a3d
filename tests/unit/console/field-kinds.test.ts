/**
 * Field → widget mapping of the generated forms: every resource of the registry produces a form
 * schema and uiSchema for create and edit without throwing, every title is translated in the four
 * languages, every widget named exists, and ajv compiles the form schema; a synthetic schema with
 * every field kind a schema may declare gets the expected widgets.
 */
import { describe, expect, it } from 'vitest';
import { getDefaultRegistry } from '@rjsf/core';
import type { UiSchema } from '@rjsf/utils';
import { buildFormSchema, fixedFields, formDataOf, formFields, shownFields } from '@/console/resources/form-schema';
import { baseType, fieldKind, fieldUiSchema, KIND_UI, nullable, type FieldKind } from '@/console/resources/field-kinds';
import { labelField, refOptions } from '@/console/resources/ref-options';
import { validator } from '@/console/resources/rjsf-validator';
import { createI18n } from '@/shared/i18n';
import { LANGUAGES } from '@/shared/constants';
import { buildRegistry, getResource, registry, type ResourceSchema } from '@/shared/registry';

const translators = Object.fromEntries(LANGUAGES.map((l) => [l, createI18n(l)]));
const ja = (k: string) => translators.ja.t(k);

/** Widget names the form registers (resource-form.tsx) plus RJSF's own (antd theme and core). */
const CUSTOM_WIDGETS = ['switch', 'tags', 'clock', 'ref', 'upload', 'geo-point', 'map-area', 'read-only'];
const RJSF_WIDGETS = ['select', 'updown', 'textarea', 'date', 'date-time', 'color', 'password', 'text', 'hidden', 'checkbox', 'radio', 'range', 'email', 'uri'];

function widgetsOf(uiSchema: UiSchema): string[] {
  return Object.values(uiSchema)
    .filter((u): u is UiSchema => typeof u === 'object' && u !== null && 'ui:widget' in u)
    .map((u) => String(u['ui:widget']));
}

describe.each([...registry.keys()])('resource %s', (name) => {
  const def = getResource(name);

  it.each(['create', 'edit'] as const)('builds a %s form whose titles are translated in every language', (mode) => {
    const { schema, uiSchema } = buildFormSchema(def, mode, ja);
    const props = schema.properties as Record<string, { title: string }>;
    // The fields that apply to an empty record (`x-visible-when`); every field's title is checked.
    expect(Object.keys(props)).toEqual(shownFields(def, mode, {}));
    for (const field of formFields(def, mode)) {
      const key = def.schema.properties[field].title;
      for (const lng of LANGUAGES) {
        expect(translators[lng].exists(key), `${name}.${field}: ${key} in ${lng}`).toBe(true);
        expect(translators[lng].t(key)).not.toBe(key);
      }
      if (props[field]) expect(props[field].title).toBe(ja(key));
    }
    for (const w of widgetsOf(uiSchema)) expect([...CUSTOM_WIDGETS, ...RJSF_WIDGETS]).toContain(w);
    for (const f of fixedFields(def)) expect(props).not.toHaveProperty(f);
    // ajv (with the project's keywords) compiles it, and an empty record gives errors, not a crash.
    expect(() => validator.validateFormData({}, schema)).not.toThrow();
    expect(validator.isValid(schema, {}, schema) || (schema.required ?? []).length > 0).toBe(true);
  });

  it.each(LANGUAGES)('labels every property and every enum value at every depth in %s, never with a raw key or name', (lng) => {
    const t = (k: string) => translators[lng].t(k);
    const { schema, uiSchema } = buildFormSchema(def, 'edit', t);
    const walk = (s: Record<string, unknown>, ui: UiSchema | undefined, path: string, name: string | null) => {
      if (name !== null) {
        expect(typeof s.title, `${path}: no title`).toBe('string');
        expect(s.title, `${path}: a raw key or name`).not.toMatch(/^(fields|enums|validation)\.|^[a-z_]+$/);
        expect(s.title).not.toBe(name);
      }
      const names = ui?.['ui:enumNames'] as string[] | undefined;
      const items = s.items as Record<string, unknown> | undefined;
      const values = (s.enum ?? items?.enum) as unknown[] | undefined;
      if (values && (s.type === 'string' || items?.type === 'string')) {
        expect(names, `${path}: enum without labels`).toHaveLength(values.length);
        for (const label of names!) expect(label, path).not.toMatch(/^enums\./);
      }
      for (const [n, child] of Object.entries((s.properties as Record<string, Record<string, unknown>>) ?? {})) walk(child, ui?.[n] as UiSchema | undefined, `${path}.${n}`, n);
      if (items?.properties) walk({ ...items, title: 'items' }, ui?.items as UiSchema | undefined, `${path}[]`, null);
    };
    for (const [field, prop] of Object.entries(schema.properties as Record<string, Record<string, unknown>>)) walk(prop, uiSchema[field] as UiSchema, `${name}.${field}`, field);
  });

  it('renders an upload for every image or file field, unless the schema says why not', () => {
    for (const [field, prop] of Object.entries(def.schema.properties)) {
      if (!/image|photo|avatar|thumbnail|file/i.test(field) || prop['x-no-upload'] || !['string', 'array'].some((t) => [prop.type].flat().includes(t))) continue;
      expect(fieldUiSchema(prop, ja)['ui:widget'], `${name}.${field}`).toBe('upload');
    }
  });

  it('enum labels, the resource label and x-ref label fields resolve', () => {
    for (const lng of LANGUAGES) expect(translators[lng].exists(def.label), `${def.label} in ${lng}`).toBe(true);
    for (const [field, prop] of Object.entries(def.schema.properties)) {
      const ui = fieldUiSchema(prop, ja);
      if (ui['ui:enumNames']) for (const label of ui['ui:enumNames'] as string[]) expect(label, `${name}.${field}`).not.toMatch(/^enums\./);
      if (prop['x-ref']) expect(getResource(prop['x-ref']).schema.properties).toHaveProperty(labelField(getResource(prop['x-ref'])));
      expect(() => fieldKind(prop)).not.toThrow();
    }
  });

  it('form data of a record keeps only form fields and no nulls', () => {
    const record: Record<string, unknown> = { id: 1, version: 2 };
    for (const f of Object.keys(def.schema.properties)) record[f] = null;
    const data = formDataOf(def, record, 'edit');
    for (const [k, v] of Object.entries(data)) {
      expect(formFields(def, 'edit')).toContain(k);
      expect(v).not.toBeNull();
    }
  });
});

/** A schema declaring every field kind. */
const kitchenSink: ResourceSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'kitchen_sink',
  title: 'Kitchen sink',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    id: { type: 'integer', readOnly: true, title: 'fields.id' },
    name: { type: 'string', maxLength: 64, title: 'fields.title' },
    active: { type: 'boolean', title: 'fields.title' },
    count: { type: 'integer', minimum: 0, maximum: 400, title: 'fields.title' },
    price: { type: 'number', minimum: 0, title: 'fields.title' },
    kinds: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, title: 'fields.title' },
    tags: { type: 'array', items: { type: 'string' }, title: 'fields.title' },
    note: { type: ['string', 'null'], title: 'fields.title' },
    day: { type: 'string', format: 'date', title: 'fields.title' },
    opens: { type: 'string', 'x-widget': 'time', title: 'fields.title' },
    starts: { type: 'string', format: 'date-time', title: 'fields.title' },
    news_id: { type: 'integer', 'x-ref': 'news', title: 'fields.title' },
    photo: { type: 'string', 'x-upload': { kind: 'image' }, title: 'fields.title' },
    files: { type: 'array', items: { type: 'string' }, 'x-upload': { kind: 'image-or-pdf', maxItems: 2 }, title: 'fields.title' },
    pass_option: { type: 'array', items: { type: 'string' }, 'x-coerce': 'array', title: 'fields.title' },
    sub_city_id: { type: ['integer', 'null'], 'x-drop-null': true, title: 'fields.title' },
    colour: { type: 'string', 'x-widget': 'color', title: 'fields.title' },
    secret: { type: 'string', 'x-widget': 'password', title: 'fields.title' },
    body: { type: 'string', 'x-widget': 'richtext', title: 'fields.title' },
    level: { type: 'string', enum: ['x', 'y'], 'x-enum-labels': ['enums.attr.news', 'enums.attr.event'], title: 'fields.title' },
    shape: { type: 'object', title: 'fields.title' },
    kind: { type: 'integer', title: 'fields.title' },
  },
  'x-resource': {
    name: 'kitchen_sink',
    label: 'resources.news',
    idField: 'id',
    api: {
      list: { method: 'GET', path: '/{city}/api/sink/', where: { kind: 24 } },
      create: { method: 'POST', path: '/{city}/api/sink/', where: { kind: 24 } },
    },
    permissions: { read: ['*'] },
  },
};
const sinkRegistry = buildRegistry([kitchenSink, getResource('news').schema]);
const sink = sinkRegistry.get('kitchen_sink')!;

describe('every field kind', () => {
  const expected: Record<string, [FieldKind, string | undefined]> = {
    name: ['text', undefined],
    active: ['boolean', 'switch'],
    count: ['integer', 'updown'],
    price: ['number', 'updown'],
    kinds: ['enum-array', 'select'],
    tags: ['string-array', 'tags'],
    note: ['text', undefined],
    day: ['date', 'date'],
    opens: ['time', 'clock'],
    starts: ['date-time', 'date-time'],
    news_id: ['ref', 'ref'],
    photo: ['upload', 'upload'],
    files: ['upload', 'upload'],
    pass_option: ['string-array', 'tags'],
    sub_city_id: ['integer', 'updown'],
    colour: ['color', 'color'],
    secret: ['password', 'password'],
    body: ['richtext', 'textarea'],
    level: ['enum', 'select'],
    shape: ['object', undefined],
  };

  it.each(Object.entries(expected))('%s is a %j field', (field, [kind, widget]) => {
    const prop = sink.schema.properties[field];
    expect(fieldKind(prop)).toBe(kind);
    expect(KIND_UI[kind](prop)['ui:widget']).toBe(widget);
  });

  it('builds the form: multi-select via uniqueItems, min/max kept, labels translated, fixed fields left out', () => {
    const { schema, uiSchema } = buildFormSchema(sink, 'create', ja);
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.kinds.uniqueItems).toBe(true);
    expect(props.count).toMatchObject({ minimum: 0, maximum: 400 });
    expect(props).not.toHaveProperty('id');
    expect(props).not.toHaveProperty('kind');
    expect(uiSchema.level).toMatchObject({ 'ui:widget': 'select', 'ui:enumNames': ['ニュース', 'イベント'] });
    expect(uiSchema.news_id).toMatchObject({ 'ui:widget': 'ref', 'ui:options': { resource: 'news' } });
    expect(uiSchema.files).toMatchObject({ 'ui:widget': 'upload', 'ui:options': { upload: { kind: 'image-or-pdf', maxItems: 2 } } });
    expect(validator.validateFormData({ name: 'n', kinds: ['a', 'a'] }, schema).errors.map((e) => e.name)).toContain('uniqueItems');
    expect(validator.validateFormData({ name: 'n', note: null, sub_city_id: null, count: 3, kinds: ['a'], active: true }, schema).errors).toEqual([]);
  });

  it('nullable types read as their non-null type', () => {
    expect(baseType(sink.schema.properties.note)).toBe('string');
    expect(nullable(sink.schema.properties.note)).toBe(true);
    expect(nullable(sink.schema.properties.name)).toBe(false);
  });

  it('x-coerce: array fields enter the form as lists', () => {
    expect(formDataOf(sink, { name: 'n', pass_option: 'gold' }, 'create')).toMatchObject({ pass_option: ['gold'] });
    expect(formDataOf(sink, { name: 'n' }, 'create')).toMatchObject({ pass_option: [] });
  });

  it('the RJSF registry knows the theme widgets this mapping names', () => {
    const known = Object.keys(getDefaultRegistry().widgets);
    expect(known).toEqual(expect.arrayContaining(['SelectWidget', 'UpDownWidget', 'DateWidget', 'DateTimeWidget', 'ColorWidget', 'PasswordWidget']));
  });
});

describe('x-ref options', () => {
  it('label from the first string column, #id when empty', () => {
    const news = getResource('news');
    expect(labelField(news)).toBe('title');
    expect(refOptions(news, [{ id: 3, title: '祭り' }, { id: 4, title: '' }])).toEqual([
      { value: 3, label: '祭り' },
      { value: 4, label: '#4' },
    ]);
  });
});

describe('interface text only', () => {
  it("schema descriptions (developers' notes) are not shown in forms", () => {
    for (const def of registry.values()) {
      const { schema } = buildFormSchema(def, 'edit', ja);
      for (const p of Object.values(schema.properties as Record<string, { description?: string }>)) expect(p.description).toBeUndefined();
    }
  });
});

describe('map field kinds (docs/architecture.md Maps)', () => {
  it('a longitude declared x-geo-point is a geo-point field naming its latitude; a radius declared x-map-area a map-area one', () => {
    const lng = getResource('advertisement').schema.properties.longitude;
    expect(fieldKind(lng)).toBe('geo-point');
    expect(KIND_UI['geo-point'](lng)).toEqual({ 'ui:widget': 'geo-point', 'ui:options': { lat: 'latitude' } });
    expect(fieldKind(getResource('advertisement').schema.properties.latitude)).toBe('number');
    const radius = getResource('notification').schema.properties.radius_m;
    expect(fieldKind(radius)).toBe('map-area');
    expect(KIND_UI['map-area'](radius)).toMatchObject({ 'ui:widget': 'map-area', 'ui:options': { lat: 'lat', lng: 'lng', when: { field: 'type', value: 'map' } } });
  });
});
