// The ability of authorize (000 6): built once per resources map, profile content and city, never
// reused after a change of the fields it depends on.
import { describe, expect, it } from 'vitest';
import { registry } from '../../../src/shared/registry';
import type { Profile } from '../../../src/shared/roles';
import { ABILITY_CACHE_MAX, abilityFor } from '../../../src/server/auth/authorize';

function profile(changes: Partial<Profile> = {}): Profile {
  return {
    id: 7,
    username: 'cache-operator',
    name: '',
    email: '',
    avatar: null,
    introduction: null,
    permission: 'Operator',
    is_captain_department: false,
    assign_city: [{ id: 1, name: 'kobe', name_ja: '神戸市' }],
    active_city: [{ id: 1, name: 'kobe', name_ja: '神戸市' }],
    school: null,
    group: null,
    classes: [],
    advertisements: [],
    email_verified: true,
    ...changes,
  };
}

describe('abilityFor', () => {
  it('answers the same ability for the same content, even from a profile read again', () => {
    const first = abilityFor(profile(), 'kobe', registry);
    // A new object with the same fields (the auth plugin reads profiles again about once a second).
    expect(abilityFor(profile({ name: 'renamed', chat_admin_unread: 3 }), 'kobe', registry)).toBe(first);
    expect(first.can('create', 'news')).toBe(true);
  });

  it('builds a new ability after a change of role, and never reuses the old one', () => {
    const operator = abilityFor(profile(), 'kobe', registry);
    const member = abilityFor(profile({ permission: 'Member' }), 'kobe', registry);
    expect(member).not.toBe(operator);
    expect(member.can('create', 'news')).toBe(false);
    expect(operator.can('create', 'news')).toBe(true);
    const captain = abilityFor(profile({ permission: 'Member', is_captain_department: true }), 'kobe', registry);
    expect(captain).not.toBe(member);
    // Back to the first role: the ability of that content again.
    expect(abilityFor(profile(), 'kobe', registry)).toBe(operator);
  });

  it('keys by city, assigned cities, own rows and resources map', () => {
    const kobe = abilityFor(profile(), 'kobe', registry);
    const fukuoka = abilityFor(profile(), 'fukuoka', registry);
    expect(fukuoka).not.toBe(kobe);
    expect(fukuoka.can('read', 'news')).toBe(false); // not assigned
    const assigned = abilityFor(profile({ assign_city: [{ id: 2, name: 'fukuoka', name_ja: '福岡市' }] }), 'fukuoka', registry);
    expect(assigned).not.toBe(fukuoka);
    expect(assigned.can('read', 'news')).toBe(true);

    const shop = (ids: number[]) => abilityFor(profile({ permission: 'Advertiser', advertisements: ids }), 'kobe', registry);
    expect(shop([1, 2])).toBe(shop([1, 2]));
    expect(shop([1, 2])).not.toBe(shop([1, 3]));

    const other = new Map(registry);
    expect(abilityFor(profile(), 'kobe', other)).not.toBe(kobe);
    expect(abilityFor(profile(), 'kobe', other)).toBe(abilityFor(profile(), 'kobe', other));
  });

  it('stays bounded: past ABILITY_CACHE_MAX keys the cache starts again, answers stay right', () => {
    const resources = new Map(registry);
    const first = abilityFor(profile(), 'kobe', resources);
    for (let id = 1; id <= ABILITY_CACHE_MAX; id++) abilityFor(profile({ id: 10_000 + id }), 'kobe', resources);
    const again = abilityFor(profile(), 'kobe', resources);
    expect(again).not.toBe(first);
    expect(again.can('create', 'news')).toBe(true);
    expect(abilityFor(profile(), 'kobe', resources)).toBe(again);
  });
});
