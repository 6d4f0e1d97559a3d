/**
 * Which `x-resource.actions` become buttons (001 7): set and toggle on rows, export on the list,
 * count never; each only when the ability allows its permission; labels translated or readable.
 */
import { describe, expect, it } from 'vitest';
import { actionLabel, listActions, readableName, rowActions } from '@/console/resources/record-action-defs';
import { exportFileName } from '@/console/resources/download';
import { createI18n } from '@/shared/i18n';
import { LANGUAGES } from '@/shared/constants';
import { registry, type ActionDef, type ResourceDef } from '@/shared/registry';
import { defineAbilityFor } from '@/shared/ability';
import type { Role } from '@/shared/roles';

const action = (over: Partial<ActionDef>): ActionDef => ({ name: 'a', method: 'POST', path: '/{city}/api/x/{id}/a/', permission: 'update', kind: 'set', ...over });
const def = {
  name: 'thing',
  actions: [
    action({ name: 'approve_report', kind: 'set', set: { approved: true } }),
    action({ name: 'pin', kind: 'toggle', field: 'is_pinned' }),
    action({ name: 'unread_count', kind: 'count', method: 'GET', path: '/{city}/api/x/count/', permission: 'read' }),
    action({ name: 'export', kind: 'export', method: 'GET', path: '/{city}/api/x/export/', permission: 'read' }),
    action({ name: 'delete_all', kind: 'set-all', path: '/{city}/api/x/all/' }),
  ],
} as unknown as ResourceDef;

describe('action buttons', () => {
  it('set and toggle on rows, export on the list, count and others never', () => {
    const all = () => true;
    expect(rowActions(def, all).map((a) => a.name)).toEqual(['approve_report', 'pin']);
    expect(listActions(def, all).map((a) => a.name)).toEqual(['export']);
  });

  it('only what the ability allows', () => {
    const readOnly = (p: string) => p === 'read';
    expect(rowActions(def, readOnly)).toEqual([]);
    expect(listActions(def, readOnly).map((a) => a.name)).toEqual(['export']);
    expect(listActions(def, () => false)).toEqual([]);
  });

  it("not a button writing a field the role may not write: the Advertiser's トップに掲載 and トップから外す", () => {
    const ads = registry.get('advertisement')!;
    const as = (permission: Role) => {
      const ability = defineAbilityFor({ permission, is_captain_department: false, assign_city: [{ id: 1, name: 'kobe', name_ja: '神戸' }] }, 'kobe');
      return rowActions(ads, (a, s, f) => ability.can(a, s, f)).map((a) => a.name);
    };
    expect(as('Operator')).toEqual(expect.arrayContaining(['toppan', 'untoppan']));
    expect(as('Advertiser')).toEqual([]);
  });

  it('labels: actions.<name> when translated, else a readable name', () => {
    const ja = createI18n('ja');
    const t = (k: string, o?: Record<string, unknown>) => ja.t(k, o);
    expect(actionLabel('pin', t)).toBe('ピン留め');
    expect(actionLabel('approve_report', t)).toBe('承認する');
    expect(actionLabel('some_new_action', t)).toBe('Some new action');
    expect(readableName('mail-qr')).toBe('Mail qr');
  });

  it('every set/toggle/export action of the registry reads as a label in every language, never as a key', () => {
    for (const lng of LANGUAGES) {
      const i18n = createI18n(lng);
      for (const d of registry.values()) {
        for (const a of [...rowActions(d, () => true), ...listActions(d, () => true)]) {
          const label = actionLabel(a.name, (k, o) => i18n.t(k, o));
          expect(label, `${d.name}.${a.name} in ${lng}`).not.toMatch(/^actions\./);
          expect(label.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('export file names from Content-Disposition', () => {
    expect(exportFileName('attachment; filename="invoice.csv"', 'invoice')).toBe('invoice.csv');
    expect(exportFileName("attachment; filename*=UTF-8''%E8%AB%8B%E6%B1%82.csv", 'invoice')).toBe('請求.csv');
    expect(exportFileName(null, 'invoice')).toBe('invoice.csv');
  });
});
