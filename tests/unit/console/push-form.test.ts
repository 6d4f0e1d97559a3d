/**
 * The generated form of a push (schemas/notification.schema.json; ../../../src/console/resources/
 * form-schema.ts): per type only the targeting fields that apply (`x-visible-when`), no server field
 * on create, no invented polygon rows (RJSF's `arrayMinItems: requiredOnly`), and what the form sends
 * (`formValues`) without hidden fields or an emptied optional list.
 */
import { describe, expect, it } from 'vitest';
import { getDefaultFormState } from '@rjsf/utils';
import { buildFormSchema, formValues } from '@/console/resources/form-schema';
import { validator } from '@/console/resources/rjsf-validator';
import { createI18n } from '@/shared/i18n';
import { getResource } from '@/shared/registry';

const ja = createI18n('ja');
const t = (k: string) => ja.t(k);
const def = getResource('notification');
const COMMON = ['title', 'body', 'photo_url', 'type', 'type_display', 'url', 'scheduled_at'];
const CONDITIONS = ['age_min', 'age_max', 'gender', 'municipalities', 'pass_types', 'genres'];
const fieldsFor = (type?: string) => Object.keys(buildFormSchema(def, 'create', t, type ? { type } : {}).schema.properties!);

describe('push form', () => {
  it('shows per type only the targeting fields that apply, and no server field', () => {
    expect(fieldsFor()).toEqual(COMMON);
    expect(fieldsFor('all')).toEqual(COMMON);
    expect(fieldsFor('passport')).toEqual(COMMON);
    expect(fieldsFor('users')).toEqual([...COMMON.slice(0, 5), 'users', ...COMMON.slice(5)]);
    expect(fieldsFor('favorite')).toEqual([...COMMON.slice(0, 5), 'advertisements', ...COMMON.slice(5)]);
    expect(fieldsFor('condition')).toEqual([...COMMON.slice(0, 5), ...CONDITIONS, ...COMMON.slice(5)]);
    expect(fieldsFor('map')).toEqual([...COMMON.slice(0, 5), 'lat', 'lng', 'radius_m', 'polygon', 'location_source', 'location_days', ...CONDITIONS, ...COMMON.slice(5)]);
    const edit = Object.keys(buildFormSchema(def, 'edit', t, { type: 'all' }).schema.properties!);
    expect(edit).toEqual(expect.arrayContaining(['push_status', 'read', 'recipients']));
    expect(buildFormSchema(def, 'edit', t, { type: 'all' }).uiSchema.push_status['ui:readonly']).toBe(true);
    // shown as text on edit (./widgets/read-only-widget), not as a disabled select
    expect(buildFormSchema(def, 'edit', t, { type: 'all' }).uiSchema.push_status['ui:widget']).toBe('read-only');
  });

  it('references are pickers of their rows', () => {
    const { uiSchema } = buildFormSchema(def, 'create', t, { type: 'map' });
    expect(uiSchema.pass_types['ui:options']).toMatchObject({ resource: 'membership_pass_type', multiple: true });
    expect(uiSchema.genres['ui:options']).toMatchObject({ resource: 'genre', multiple: true });
    expect(buildFormSchema(def, 'create', t, { type: 'favorite' }).uiSchema.advertisements['ui:options']).toMatchObject({ resource: 'advertisement', multiple: true });
  });

  it('a new map push starts with no polygon row and validates with only title and body', () => {
    const { schema } = buildFormSchema(def, 'create', t, { type: 'map' });
    const start = getDefaultFormState(validator, schema, { type: 'map' }, schema, false, { arrayMinItems: { populate: 'requiredOnly' } });
    expect(start).not.toHaveProperty('polygon');
    const legacy = getDefaultFormState(validator, schema, { type: 'map' }, schema);
    expect((legacy as { polygon?: unknown[] }).polygon).toHaveLength(3);
    const all = buildFormSchema(def, 'create', t, { type: 'all' }).schema;
    expect(validator.validateFormData(formValues(def, { title: 'a', body: 'b', type: 'all', polygon: [] }), all).errors).toEqual([]);
  });

  it('sends neither hidden fields nor an emptied optional list', () => {
    expect(formValues(def, { title: 'a', type: 'all', users: [3], lat: 1, polygon: [] })).toEqual({ title: 'a', type: 'all' });
    expect(formValues(def, { type: 'map', polygon: [], users: [3], age_min: 20 })).toEqual({ type: 'map', age_min: 20 });
    expect(formValues(def, { type: 'users', users: [] })).toEqual({ type: 'users', users: [] });
  });
});
