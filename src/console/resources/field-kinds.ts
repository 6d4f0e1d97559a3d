/**
 * What kind of field a schema property is, and how each kind is edited and shown (docs/architecture.md 'One schema per entity': widgets
 * picked from a registry map, never a switch on field type). `fieldKind` walks an ordered rule list;
 * `KIND_UI` gives each kind's RJSF uiSchema; `KIND_SCHEMA` adjusts the form's copy of the property
 * (e.g. an array of enum values becomes a multi-select through `uniqueItems`). Pure: no React.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { FieldSchema } from '@/shared/registry';
import { baseType } from '@/shared/field-types';

export type FieldKind =
  | 'ref'
  | 'ref-array'
  | 'members'
  | 'municipalities'
  | 'upload'
  | 'boolean'
  | 'integer'
  | 'number'
  | 'enum'
  | 'enum-array'
  | 'string-array'
  | 'array'
  | 'date'
  | 'time'
  | 'date-time'
  | 'color'
  | 'password'
  | 'textarea'
  | 'richtext'
  | 'image-url'
  | 'object'
  | 'geo-point'
  | 'map-area'
  | 'business-hours'
  | 'video-links'
  | 'period-list'
  | 'date-time-range'
  | 'text';

type Items = { type?: string | string[]; enum?: unknown[]; 'x-enum-labels'?: string[]; format?: string };

/** The property's type without `null` (src/shared/field-types.ts, the server's reading too). */
export { baseType };

/** Whether the property accepts `null` (`type` lists it). */
export function nullable(p: Pick<FieldSchema, 'type'>): boolean {
  return Array.isArray(p.type) && p.type.includes('null');
}

/** The item schema of an array property ({} when none). */
export function itemsOf(p: FieldSchema): Items {
  return (p.items ?? {}) as Items;
}

/** Enum values of a field or of its array items. */
export function enumValues(p: FieldSchema): unknown[] | undefined {
  return p.enum ?? (baseType(p) === 'array' ? itemsOf(p).enum : undefined);
}

/** i18n keys of the enum labels: the field's `x-enum-labels`, else its items'. */
export function enumLabelKeys(p: FieldSchema): string[] | undefined {
  return p['x-enum-labels'] ?? (baseType(p) === 'array' ? itemsOf(p)['x-enum-labels'] : undefined);
}

const isArray = (p: FieldSchema) => baseType(p) === 'array';
/** An object of two date-times `start` and `end` (a period: time-sale validInterval). */
const isDateTimeRange = (p: FieldSchema) => {
  const props = (p as { properties?: Record<string, FieldSchema> }).properties;
  return baseType(p) === 'object' && !!props && Object.keys(props).join() === 'start,end' && props.start.format === 'date-time' && props.end.format === 'date-time';
};
const widget = (name: NonNullable<FieldSchema['x-widget']>) => (p: FieldSchema) => p['x-widget'] === name;

/** Ordered rules: the first whose test passes names the field's kind. */
export const KIND_RULES: ReadonlyArray<readonly [FieldKind, (p: FieldSchema) => boolean]> = [
  ['upload', (p) => !!p['x-upload']],
  ['business-hours', widget('business-hours')],
  ['video-links', widget('video-links')],
  ['period-list', (p) => isArray(p) && !!p['x-continuous']],
  ['date-time-range', isDateTimeRange],
  ['members', widget('members')],
  ['municipalities', widget('municipalities')],
  ['ref-array', (p) => !!p['x-ref'] && isArray(p)],
  ['ref', (p) => !!p['x-ref']],
  ['enum-array', (p) => isArray(p) && Array.isArray(itemsOf(p).enum)],
  ['string-array', (p) => isArray(p) && ['string', 'integer', 'number', undefined].includes(baseType({ type: itemsOf(p).type ?? 'string' } as FieldSchema))],
  ['array', isArray],
  ['enum', (p) => Array.isArray(p.enum)],
  ['boolean', (p) => baseType(p) === 'boolean'],
  ['geo-point', (p) => !!p['x-geo-point']],
  ['map-area', (p) => !!p['x-map-area']],
  ['integer', (p) => baseType(p) === 'integer'],
  ['number', (p) => baseType(p) === 'number'],
  ['object', (p) => baseType(p) === 'object'],
  ['date', (p) => p['x-widget'] === 'date' || p.format === 'date'],
  ['time', (p) => p['x-widget'] === 'time' || p.format === 'time'],
  ['date-time', (p) => p.format === 'date-time'],
  ['color', (p) => p['x-widget'] === 'color' || p.format === 'color'],
  ['password', widget('password')],
  ['richtext', widget('richtext')],
  ['textarea', widget('textarea')],
  ['image-url', widget('image-url')],
  ['text', () => true],
];

/** The kind of a field (always one: `text` is the fallback). */
export function fieldKind(p: FieldSchema): FieldKind {
  return KIND_RULES.find(([, test]) => test(p))![0];
}

/** uiSchema of each kind; widget names are the keys of the form's `widgets` map or RJSF's own. */
export const KIND_UI: Record<FieldKind, (p: FieldSchema) => UiSchema> = {
  ref: (p) => ({ 'ui:widget': 'ref', 'ui:options': { resource: p['x-ref'] } }),
  'ref-array': (p) => ({ 'ui:widget': 'ref', 'ui:options': { resource: p['x-ref'], multiple: true } }),
  members: () => ({ 'ui:widget': 'lookup', 'ui:options': { lookup: 'members' } }),
  municipalities: () => ({ 'ui:widget': 'lookup', 'ui:options': { lookup: 'municipalities' } }),
  upload: (p) => ({ 'ui:widget': 'upload', 'ui:options': { upload: p['x-upload'] } }),
  boolean: () => ({ 'ui:widget': 'switch' }),
  integer: () => ({ 'ui:widget': 'updown' }),
  number: () => ({ 'ui:widget': 'updown' }),
  enum: () => ({ 'ui:widget': 'select' }),
  'enum-array': () => ({ 'ui:widget': 'select' }),
  'string-array': () => ({ 'ui:widget': 'tags' }),
  array: () => ({}),
  date: () => ({ 'ui:widget': 'date' }),
  time: () => ({ 'ui:widget': 'clock' }),
  'date-time': () => ({ 'ui:widget': 'date-time' }),
  color: () => ({ 'ui:widget': 'color' }),
  password: () => ({ 'ui:widget': 'password' }),
  textarea: () => ({ 'ui:widget': 'textarea', 'ui:options': { rows: 6 } }),
  richtext: () => ({ 'ui:widget': 'textarea', 'ui:options': { rows: 12 } }),
  'image-url': () => ({ 'ui:placeholder': 'https://' }),
  object: () => ({}),
  // A longitude with its sibling latitude, and a map area: the map widgets (docs/architecture.md 'Maps').
  'geo-point': (p) => ({ 'ui:widget': 'geo-point', 'ui:options': { lat: p['x-geo-point']!.lat } }),
  'map-area': (p) => ({ 'ui:widget': 'map-area', 'ui:options': { ...p['x-map-area']! } }),
  // Whole fields of their own (./fields): business hours, video links, a list of continuous periods, one period.
  'business-hours': () => ({ 'ui:field': 'businessHours' }),
  'video-links': () => ({ 'ui:field': 'videoLinks' }),
  'period-list': () => ({ 'ui:field': 'periodList' }),
  'date-time-range': () => ({ 'ui:field': 'dateTimeRange' }),
  text: () => ({}),
};

/** Changes a kind makes to the form's copy of the property (the server still checks the original). */
export const KIND_SCHEMA: Partial<Record<FieldKind, (s: RJSFSchema) => RJSFSchema>> = {
  // RJSF renders an array of enum values as a multi-select only with uniqueItems.
  'enum-array': (s) => ({ ...s, uniqueItems: true }),
  'ref-array': (s) => ({ ...s, uniqueItems: true }),
};

/**
 * The uiSchema of one field for a form: its kind's widget, translated enum labels, read-only (a
 * server-owned scalar shown as text, widget `read-only`); the
 * same for the properties of an object and the items of an array of objects, at every depth.
 */
export function fieldUiSchema(p: FieldSchema, t: (key: string) => string): UiSchema {
  const kind = fieldKind(p);
  const ui: UiSchema = { ...KIND_UI[kind](p) };
  const labels = enumLabelKeys(p);
  if (labels && enumValues(p)) ui['ui:enumNames'] = labels.map((k) => t(k));
  if (p.readOnly) ui['ui:readonly'] = true;
  // A server-owned value of one piece shows as text on an edit form (./widgets/read-only-widget), not as a disabled input.
  if (p.readOnly && !['object', 'array'].includes(baseType(p))) ui['ui:widget'] = 'read-only';
  const props = (p as { properties?: Record<string, FieldSchema> }).properties;
  if (props) for (const [name, child] of Object.entries(props)) ui[name] = fieldUiSchema(child, t);
  const items = p.items as FieldSchema | undefined;
  if (items && typeof items === 'object' && (items as { properties?: unknown }).properties) ui.items = fieldUiSchema(items, t);
  return ui;
}

/**
 * The property as the form's schema holds it: translated title, the kind's adjustments, and no
 * `description` (schema descriptions are notes for developers, in English, not interface text).
 */
export function fieldFormSchema(p: FieldSchema, t: (key: string) => string): RJSFSchema {
  const { description: _notes, ...rest } = p;
  const base = { ...(rest as unknown as RJSFSchema), ...(p.title ? { title: t(p.title) } : {}) };
  // Inside objects and arrays, every depth: a nested property's title is an i18n key too.
  const props = (p as { properties?: Record<string, FieldSchema> }).properties;
  if (props) base.properties = Object.fromEntries(Object.entries(props).map(([name, child]) => [name, fieldFormSchema(child, t)]));
  const items = p.items as FieldSchema | undefined;
  if (items && typeof items === 'object' && (items.title || (items as { properties?: unknown }).properties)) base.items = fieldFormSchema(items, t);
  const adjust = KIND_SCHEMA[fieldKind(p)];
  return adjust ? adjust(base) : base;
}
