import { describe, expect, it } from 'vitest';
import { defineAbilityFor } from '@/shared/ability';
import { effectiveRole, type City } from '@/shared/roles';

const city = (name: string, id = 1): City => ({ id, name, name_ja: name });
const user = (permission: string, cities: string[], captain = false) => ({
  permission,
  is_captain_department: captain,
  assign_city: cities.map((c, i) => city(c, i + 1)),
});

describe('defineAbilityFor (000 6)', () => {
  it('lets an Operator manage news in an assigned city only', () => {
    const op = user('Operator', ['kobe', 'fukuoka']);
    expect(defineAbilityFor(op, 'kobe').can('create', 'news')).toBe(true);
    expect(defineAbilityFor(op, 'fukuoka').can('delete', 'scene')).toBe(true);
    expect(defineAbilityFor(op, 'akita').can('read', 'news')).toBe(false);
  });
  it('lets an Advertiser read but not write news', () => {
    const ad = user('Advertiser', ['kobe']);
    expect(defineAbilityFor(ad, 'kobe').can('read', 'news')).toBe(true);
    expect(defineAbilityFor(ad, 'kobe').can('create', 'news')).toBe(false);
    expect(defineAbilityFor(ad, 'kobe').can('update', 'event')).toBe(false);
  });
  it('lets an Administrator do everything in any city', () => {
    expect(defineAbilityFor(user('Administrator', []), 'akita').can('delete', 'event')).toBe(true);
  });
  it('gives nothing to an unknown permission or without a city', () => {
    expect(defineAbilityFor(user('Guest', ['kobe']), 'kobe').can('read', 'news')).toBe(false);
    expect(defineAbilityFor(user('Operator', ['kobe']), null).can('read', 'news')).toBe(false);
    expect(defineAbilityFor(null, 'kobe').can('read', 'news')).toBe(false);
  });
  it('treats is_captain_department as the Captain role (000 4)', () => {
    expect(effectiveRole({ permission: 'Member', is_captain_department: true })).toBe('Captain');
    expect(effectiveRole({ permission: 'Member', is_captain_department: false })).toBe('Member');
    expect(effectiveRole({ permission: 'Guest', is_captain_department: false })).toBeNull();
  });
});
