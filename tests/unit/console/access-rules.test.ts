/**
 * The pure rules of the routes and sign-in flows (000 2.1 Root entry, 000 4, 000 6, 001 8): the root
 * entry, user-info checks and their messages, deny rules with a city, the autologin city, local
 * addresses, the logout check, and where an unmatched path under /:city leads (route roles).
 */
import { describe, expect, it } from 'vitest';
import {
  checkUserInfo,
  EMPTY_ROLES_ERROR,
  firstAssignedCity,
  NO_DATA_ERROR,
  rootPath,
  safeLocalPath,
  signInDenial,
  UserInfoError,
  userInfoFailure,
} from '@/console/providers/account';
import { isLogoutMismatch } from '@/console/providers/logout-mismatch';
import { fallbackFor, isCityRoute } from '@/console/layout/route-match';
import type { Manifest } from '@/shared/manifest';
import type { Profile } from '@/shared/roles';

const kobe = { id: 1, name: 'kobe', name_ja: '神戸市' };
const cippoweb = { id: 3, name: 'cippoweb', name_ja: 'チッポウェブ' };
const advertiser = { id: 4, name: 'advertiser', name_ja: '広告主' };

function profile(over: Partial<Profile>): Profile {
  return {
    id: 1, username: 'u', name: 'U', email: 'u@example.com', avatar: null, introduction: null, permission: 'Operator',
    is_captain_department: false, assign_city: [kobe], active_city: [kobe], school: null, group: null, classes: [], advertisements: [], email_verified: true,
    ...over,
  };
}

describe('root entry (000 2.1)', () => {
  it('a Member in cippoweb goes to /cippoweb/top-page/, a chosen city to its dashboard, else /city', () => {
    const member = profile({ permission: 'Member', assign_city: [cippoweb], active_city: [cippoweb] });
    expect(rootPath(member, 'cippoweb')).toBe('/cippoweb/top-page/');
    expect(rootPath(member, null)).toBe('/cippoweb/top-page/');
    expect(rootPath(profile({ assign_city: [kobe, cippoweb] }), 'cippoweb')).toBe('/cippoweb/dashboard');
    expect(rootPath(profile({ permission: 'Member', is_captain_department: true }), 'cippoweb')).toBe('/cippoweb/dashboard');
    expect(rootPath(profile({}), 'kobe')).toBe('/kobe/dashboard');
    expect(rootPath(profile({}), null)).toBe('/city');
    expect(rootPath(null, null)).toBe('/city');
  });
});

describe('user info (001 8)', () => {
  it("rejects no data with 'error' and empty roles with the spec's text, each with the message the user sees", () => {
    for (const data of [null, undefined, '', [], 'x']) {
      expect(() => checkUserInfo(data)).toThrow(new UserInfoError(NO_DATA_ERROR, 'errors.verification_failed'));
    }
    for (const permission of ['', '  ', undefined, null]) {
      const e = (() => {
        try {
          checkUserInfo({ ...profile({}), permission });
        } catch (err) {
          return err as UserInfoError;
        }
        return null;
      })();
      expect(e?.message).toBe('getInfo: roles must be a non-null array !');
      expect(e?.message).toBe(EMPTY_ROLES_ERROR);
      expect(e?.reason).toBe('errors.no_system_permission');
    }
    expect(checkUserInfo(profile({})).username).toBe('u');
  });

  it("a failed fetch shows the error's message, else 'Verification failed, please login again'", () => {
    expect(userInfoFailure(new UserInfoError(NO_DATA_ERROR, 'errors.verification_failed'))).toBe('errors.verification_failed');
    expect(userInfoFailure(new Error('Server Error Occured. Please Try Again !'))).toBe('Server Error Occured. Please Try Again !');
    expect(userInfoFailure(new Error(''))).toBe('errors.verification_failed');
    expect(userInfoFailure('boom')).toBe('errors.verification_failed');
  });
});

describe('deny rules with a city (000 6, 001 8)', () => {
  it('the city advertiser is for Administrators only; others get the deny message', () => {
    expect(signInDenial(profile({ assign_city: [advertiser], active_city: [advertiser] }), 'advertiser')).toBe('user.denyPermission');
    expect(signInDenial(profile({ permission: 'Advertiser' }), 'advertiser')).toBe('user.denyPermission');
    expect(signInDenial(profile({ permission: 'Administrator' }), 'advertiser')).toBeNull();
    expect(signInDenial(profile({}), 'kobe')).toBeNull();
    expect(signInDenial(profile({}), null)).toBeNull();
  });

  it('a role outside the accepted list and a Member outside the member city are denied in every city', () => {
    expect(signInDenial(profile({ permission: 'Guest' }), 'kobe')).toBe('user.denyPermission');
    expect(signInDenial(profile({ permission: 'Member' }), 'kobe')).toBe('user.denyPermission');
    expect(signInDenial(profile({ permission: 'Member', assign_city: [cippoweb] }), 'cippoweb')).toBeNull();
  });
});

describe('autologin city and local addresses', () => {
  it('autologin chooses the first assigned city the user may work in', () => {
    expect(firstAssignedCity(profile({ permission: 'Member', assign_city: [cippoweb, kobe], active_city: [cippoweb, kobe] }))).toBe('cippoweb');
    expect(firstAssignedCity(profile({ assign_city: [advertiser], active_city: [advertiser] }))).toBeNull();
    expect(firstAssignedCity(profile({ assign_city: [] }))).toBeNull();
  });

  it('follows only paths of this origin', () => {
    expect(safeLocalPath('/cippoweb/top-page/?a=1')).toBe('/cippoweb/top-page/?a=1');
    for (const bad of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '', null, undefined]) {
      expect(safeLocalPath(bad)).toBeNull();
    }
  });
});

describe('logout check (000 4 Logout)', () => {
  it('stops only when a profile is loaded and the cookie belongs to another user', () => {
    expect(isLogoutMismatch(1, 2)).toBe(true);
    expect(isLogoutMismatch(1, 1)).toBe(false);
    expect(isLogoutMismatch(1, null)).toBe(false);
    expect(isLogoutMismatch(null, 2)).toBe(false);
  });
});

describe('route roles: an unmatched path under /:city (000 4, 000 2.1)', () => {
  const menus: Record<string, Manifest> = {
    default: {
      sets: {
        admin: [
          { key: 'dashboard', page: 'dashboard', icon: 'DashboardOutlined', title: 'menu.dashboard' },
          { key: 'news', resource: 'news', route: 'news', icon: 'ReadOutlined', title: 'menu.news' },
          { key: 'grp', icon: 'AppstoreOutlined', title: 'menu.grp', children: [{ key: 'club', resource: 'club', route: 'club/list-club', icon: 'TeamOutlined', title: 'menu.club', hidden: true }] },
        ],
        ads: [{ key: 'dashboard', page: 'dashboard', icon: 'DashboardOutlined', title: 'menu.dashboard' }],
      },
    },
    kobe: { extends: 'default', sets: { admin: { add: [{ key: 'bread', resource: 'shop_pass', route: 'kobeBread/shop', icon: 'ShopOutlined', title: 'menu.bread' }] } } },
  };

  it("a route of any set of the city's manifest (hidden and children too) is forbidden for a role that lacks it", () => {
    for (const path of ['news', 'news/', 'news/create', 'news/edit/12', 'news/show/3', 'club/list-club', 'club/list-club/create']) {
      expect(isCityRoute('fukuoka', path, menus), path).toBe(true);
      expect(fallbackFor('fukuoka', path, menus), path).toBe('forbidden');
    }
    expect(fallbackFor('kobe', 'kobeBread/shop/edit/1', menus)).toBe('forbidden');
    expect(fallbackFor('fukuoka', 'kobeBread/shop', menus)).toBe('unknown');
  });

  it('unknown paths are unknown (/404); top-page is the landing', () => {
    for (const path of ['nothing-here', 'news/edit', 'news/other/1', 'newsx']) expect(fallbackFor('kobe', path, menus), path).toBe('unknown');
    // 複製 is a route only where the schema offers it: news does, shop_pass does not.
    expect(fallbackFor('fukuoka', 'news/clone/3', menus)).toBe('forbidden');
    expect(fallbackFor('kobe', 'kobeBread/shop/clone/1', menus)).toBe('unknown');
    expect(fallbackFor('cippoweb', 'top-page', menus)).toBe('landing');
    expect(fallbackFor('cippoweb', 'top-page/', menus)).toBe('landing');
  });
});
