import { describe, expect, it } from 'vitest';
import { subject } from '@casl/ability';
import { callSubject, defineAbilityFor, ownedRowsOf, type AbilityProfile } from '@/shared/ability';
import { buildRegistry, getResource } from '@/shared/registry';
import { effectiveRole, type City, type Role } from '@/shared/roles';

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
  it('lets an Administrator manage content in any city', () => {
    expect(defineAbilityFor(user('Administrator', []), 'akita').can('delete', 'event')).toBe(true);
    expect(defineAbilityFor(user('Administrator', []), 'akita').can('update', 'city')).toBe(true);
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

/** A profile of a role in kobe (the Captain is a Member with is_captain_department). */
const as = (role: Role, extra: Record<string, unknown> = {}) => ({
  ...user(role === 'Captain' ? 'Member' : role, ['kobe'], role === 'Captain'),
  ...extra,
});
const can = (role: Role, action: 'read' | 'create' | 'update' | 'delete', subj: string) => defineAbilityFor(as(role), 'kobe').can(action, subj);
const ALL: Role[] = ['Administrator', 'Operator', 'President', 'Captain', 'Teacher', 'Advertiser', 'Police', 'Member'];
const others = (allowed: Role[]) => ALL.filter((r) => !allowed.includes(r));

describe('000 6 Specifics: the allowed roles can, the others cannot', () => {
  const cases: Array<[string, 'read' | 'create' | 'update' | 'delete', string, Role[]]> = [
    ['the device page is Administrator and Operator', 'read', 'route:device', ['Administrator', 'Operator']],
    ['the review route is Operator only', 'read', 'route:review', ['Operator']],
    ['reviews are Operator only', 'update', 'review', ['Operator']],
    ['review replies are Operator only', 'create', 'review_reply', ['Operator']],
    ['tweet-request is Operator only', 'read', 'route:tweet-request', ['Operator']],
    ['tweet requests are Operator only', 'delete', 'tweet_request', ['Operator']],
    ['the chat list is Operator and Administrator, and the Advertiser\'s own conversations', 'read', 'route:chat', ['Administrator', 'Operator', 'Advertiser']],
    ['the menu pages are Advertiser only (Operator passes routes)', 'read', 'route:menu/list-menu', ['Advertiser', 'Operator']],
    ['menu items are written by Advertisers only', 'create', 'menu_item', ['Advertiser']],
    ['menu purchases are read by Advertisers (and the Operator who passes the route)', 'read', 'menu_purchase', ['Advertiser', 'Operator']],
    ['club pages are Administrator and Operator', 'read', 'route:club/list-club', ['Administrator', 'Operator']],
    ['club requests are Administrator and Operator', 'delete', 'club_request', ['Administrator', 'Operator']],
    ['genre page is Administrator and Operator', 'read', 'route:genre', ['Administrator', 'Operator']],
    ['genres are written by Administrator and Operator', 'update', 'genre', ['Administrator', 'Operator']],
    ['user pages are Administrator and Operator', 'read', 'route:user', ['Administrator', 'Operator']],
    ['users are managed by Administrator and Operator', 'update', 'user', ['Administrator', 'Operator']],
    ['user-toyonaka is Administrator and Operator', 'read', 'route:user-toyonaka', ['Administrator', 'Operator']],
    ['trash pages are Administrator and Operator', 'read', 'route:schedule/clean-trash', ['Administrator', 'Operator']],
    ['trash schedules are Administrator and Operator', 'create', 'garbage_schedule', ['Administrator', 'Operator']],
    ['the trash dictionary is Administrator and Operator', 'read', 'garbage_dictionary', ['Administrator', 'Operator']],
    ['support is for Advertiser and President', 'read', 'route:support', ['Advertiser', 'President', 'Operator']],
    ['lockers are for Advertiser', 'read', 'route:locker/list-locker', ['Advertiser', 'Operator']],
    ['lockers are written by Advertisers only', 'update', 'locker', ['Advertiser']],
    ['contact-us is hidden from Advertiser', 'read', 'feature:contact-us', others(['Advertiser'])],
    ['live admin-notice updates go to the Operator', 'read', 'feature:live-notices', ['Operator']],
    ['report counts go to Operator, Advertiser and Administrator', 'read', 'feature:report-counts', ['Operator', 'Advertiser', 'Administrator']],
    ['the menu report count is read by Operator, Advertiser and Administrator', 'read', 'dish_report', ['Operator', 'Advertiser', 'Administrator']],
    ['the matching report count is read by Operator, Advertiser and Administrator', 'read', 'matching_report#notification', ['Operator', 'Advertiser', 'Administrator']],
    ['matching reports themselves stay with Administrator and Operator', 'read', 'matching_report', ['Administrator', 'Operator']],
  ];
  for (const [name, action, subj, allowed] of cases) {
    it(name, () => {
      expect(ALL.filter((r) => can(r, action, subj))).toEqual(ALL.filter((r) => allowed.includes(r)));
    });
  }
});

/** The own-row limits the server reads from the ability's rules (the source of its SQL). */
const ownedRows = (def: ReturnType<typeof getResource>, profile: AbilityProfile, action: 'read' | 'update' = 'read') =>
  ownedRowsOf(defineAbilityFor(profile, 'kobe'), action, def.name, def);

describe('own rows as CASL conditions (000 6: shops, school, group and classes)', () => {
  it('lets an Advertiser change only the coupons of its shops', () => {
    const ability = defineAbilityFor(as('Advertiser', { advertisements: [7] }), 'kobe');
    expect(ability.can('update', subject('coupon', { advertisement: 7 }))).toBe(true);
    expect(ability.can('update', subject('coupon', { advertisement: 8 }))).toBe(false);
    expect(ownedRows(getResource('coupon'), as('Advertiser', { advertisements: [7] }))).toEqual([{ field: 'advertisement', values: [7] }]);
    expect(ownedRows(getResource('coupon'), as('Operator'))).toEqual([]);
  });
  it('limits a President to its school and a Teacher also to its classes', () => {
    const president = defineAbilityFor(as('President', { school: 3 }), 'kobe');
    expect(president.can('update', subject('school_class', { school: 3, id: 5 }))).toBe(true);
    expect(president.can('update', subject('school_class', { school: 4, id: 5 }))).toBe(false);
    const teacher = defineAbilityFor(as('Teacher', { school: 3, classes: [5] }), 'kobe');
    expect(teacher.can('update', subject('school_class', { school: 3, id: 5 }))).toBe(true);
    expect(teacher.can('update', subject('school_class', { school: 3, id: 6 }))).toBe(false);
  });
  it('gives nothing of a limited resource to a profile without values', () => {
    expect(ownedRows(getResource('school'), as('President'))).toEqual([{ field: 'id', values: [] }]);
  });
  it('answers no limits for a role without any rule on the subject', () => {
    expect(ownedRowsOf(defineAbilityFor(as('Advertiser', { advertisements: [7] }), 'kobe'), 'delete', 'school', getResource('school'))).toBeNull();
  });
});

describe('per-path roles of one resource (pathRoles; 000 6 club, 001 7.12)', () => {
  const club = getResource('club');
  const operatorList = callSubject(club, 'GET', '/{city}/api/group_chat/operator_departments/');
  const operatorUpdate = callSubject(club, 'PUT', '/{city}/api/group_chat/operator_departments/{id}/');
  it('keeps the Captain off the operator paths of the clubs, and lets the Operator use them', () => {
    const captain = defineAbilityFor(user('Member', ['kobe'], true), 'kobe');
    expect(captain.can('read', 'club')).toBe(true);
    expect(captain.can('read', operatorList)).toBe(false);
    expect(captain.can('update', operatorUpdate)).toBe(false);
    const op = defineAbilityFor(user('Operator', ['kobe']), 'kobe');
    expect(op.can('read', operatorList)).toBe(true);
    expect(op.can('update', operatorUpdate)).toBe(true);
  });
  it('limits the Captain to the clubs whose captain has his username', () => {
    expect(ownedRows(club, { ...user('Member', ['kobe'], true), username: 'captain' })).toEqual([
      { field: 'captain', values: ['captain'], through: { resource: 'club_user', field: 'username' } },
    ]);
    expect(ownedRows(club, user('Operator', ['kobe']))).toEqual([]);
  });
  it('refuses pathRoles naming a path the call does not have', () => {
    const schema = structuredClone(club.schema);
    schema['x-resource'].api.list.pathRoles = { '/{city}/api/nowhere/': ['Operator'] };
    expect(() => buildRegistry([schema, getResource('club_user').schema])).toThrow(/api\.list\.pathRoles names '\/\{city\}\/api\/nowhere\/'/);
  });
});
