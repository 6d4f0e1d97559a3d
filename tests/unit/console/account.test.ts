/**
 * Sign-in rules of the auth provider (000 4, 000 6, 001 8): accepted permissions, the Member rule,
 * the chosen city among the active cities, the advertiser city, and the Operator's automatic city.
 */
import { describe, expect, it } from 'vitest';
import { autoCity, cityAllowed, landingPath, signInDenial } from '@/console/providers/account';
import type { Profile } from '@/shared/roles';

const kobe = { id: 1, name: 'kobe', name_ja: '神戸市' };
const fukuoka = { id: 2, name: 'fukuoka', name_ja: '福岡市' };
const cippoweb = { id: 3, name: 'cippoweb', name_ja: 'シッポウェブ' };

function profile(over: Partial<Profile>): Profile {
  return {
    id: 1, username: 'u', name: 'U', email: 'u@example.com', avatar: null, introduction: null, permission: 'Operator',
    is_captain_department: false, assign_city: [kobe], active_city: [kobe], school: null, group: null, classes: [], advertisements: [], email_verified: true,
    ...over,
  };
}

describe('sign-in rules', () => {
  it('refuses permissions outside the accepted list, and a Member outside the member city', () => {
    expect(signInDenial(profile({ permission: 'Guest' }))).toBe('user.denyPermission');
    expect(signInDenial(profile({ permission: 'Member' }))).toBe('user.denyPermission');
    expect(signInDenial(profile({ permission: 'Member', assign_city: [cippoweb] }))).toBeNull();
    expect(signInDenial(profile({ permission: 'Member', is_captain_department: true }))).toBeNull();
    expect(signInDenial(profile({ permission: 'Operator' }))).toBeNull();
  });

  it('a chosen city must be an active city; advertiser is for Administrators; Administrators go anywhere', () => {
    const op = profile({ assign_city: [kobe, fukuoka], active_city: [kobe] });
    expect(cityAllowed(op, 'kobe')).toBe(true);
    expect(cityAllowed(op, 'fukuoka')).toBe(false);
    expect(cityAllowed(op, 'osaka')).toBe(false);
    expect(cityAllowed(op, 'advertiser')).toBe(false);
    const admin = profile({ permission: 'Administrator', assign_city: [], active_city: [] });
    expect(cityAllowed(admin, 'osaka')).toBe(true);
    expect(cityAllowed(admin, 'advertiser')).toBe(true);
  });

  it('an Operator with exactly one assigned city gets it; others choose', () => {
    expect(autoCity(profile({}))).toBe('kobe');
    expect(autoCity(profile({ assign_city: [kobe, fukuoka] }))).toBeNull();
    expect(autoCity(profile({ permission: 'Advertiser' }))).toBeNull();
    expect(landingPath('kobe')).toBe('/kobe/dashboard');
    expect(landingPath(null)).toBe('/city');
  });
});
