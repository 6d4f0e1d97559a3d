/**
 * Field permissions in the console (docs/architecture.md 'Field permissions'): the resource as a role
 * may read it (`readableDef` over the shared CASL field rules, `permittedFields`) has no property,
 * required field, list column, search, sort or card of a field the role may not read, so no list, CSV
 * export, detail page or form shows it; a field it may not write is text on the edit form.
 */
import { describe, expect, it } from 'vitest';
import { defineAbilityFor, permittedFields, type AbilityProfile } from '@/shared/ability';
import { readableDef } from '@/console/resources/field-access';
import { buildFormSchema } from '@/console/resources/form-schema';
import { getResource, type ResourceDef } from '@/shared/registry';
import type { Role } from '@/shared/roles';

function abilityOf(permission: Role, extra: Partial<AbilityProfile> = {}) {
  return defineAbilityFor({ permission, is_captain_department: false, assign_city: [{ id: 1, name: 'kobe', name_ja: '神戸市' }], ...extra } as AbilityProfile, 'kobe');
}

const t = (k: string) => k;

describe('readableDef', () => {
  it("leaves a Teacher's unreadable personal fields out of every part of `teacher` a page reads", () => {
    const full = getResource('teacher');
    const readable = permittedFields(abilityOf('Teacher', { school: 1 }), 'read', full);
    expect(readable).not.toContain('email');
    expect(readable).not.toContain('phone_number');
    // A test def whose list shows and searches the personal fields, as a schema may declare.
    const def: ResourceDef = { ...full, list: { ...full.list, columns: [...full.list.columns, 'email'], search: [...full.list.search, 'phone_number'], sort: [...full.list.sort, 'email'] } };
    const view = readableDef(def, readable);
    expect(Object.keys(view.schema.properties)).toEqual(readable);
    expect(view.list.columns).toEqual(full.list.columns.filter((c) => readable.includes(c)));
    expect(view.list.columns).not.toContain('email');
    expect(view.list.search).not.toContain('phone_number');
    expect(view.list.sort).not.toContain('email');
    expect(view.schema.required ?? []).toEqual((full.schema.required ?? []).filter((f) => readable.includes(f)));
    // The same view each time (memos hold), and the resource itself for a role that reads everything.
    expect(readableDef(def, readable)).toBe(view);
    expect(readableDef(full, permittedFields(abilityOf('Operator'), 'read', full))).toBe(full);
  });

  it("shows an Advertiser the plan and top-page flag as text on the edit form, an Operator as inputs", () => {
    const ad = getResource('advertisement');
    const ability = abilityOf('Advertiser', { advertisements: [1] });
    const writable = permittedFields(ability, 'update', ad);
    const unwritable = permittedFields(ability, 'read', ad).filter((f) => !writable.includes(f));
    expect(unwritable).toEqual(['plan', 'is_top']);
    const { uiSchema } = buildFormSchema(ad, 'edit', t, {}, [], unwritable);
    expect(uiSchema.plan).toEqual({ 'ui:field': 'readOnlyValue', 'ui:options': { prop: ad.schema.properties.plan } });
    expect(uiSchema.is_top['ui:field']).toBe('readOnlyValue');
    expect(uiSchema.name['ui:field']).toBeUndefined();
    const operator = buildFormSchema(ad, 'edit', t, {}, [], []);
    expect(operator.uiSchema.plan['ui:field']).toBeUndefined();
  });
});
