/**
 * Roles and the user shape (000 3 Profile/user, 000 6 Roles and permissions).
 */
import { ADVERTISER_CITY } from './constants';

/** Permissions a user may sign in with (000 5 last rules, 001 8). */
export const ACCEPTED_PERMISSIONS = ['Teacher', 'President', 'Operator', 'Advertiser', 'Administrator', 'Police', 'Member'] as const;
export type Permission = (typeof ACCEPTED_PERMISSIONS)[number];

/**
 * The `filter_by` values of the user list GET {city}/api/users/ (001 7.2; 000 6 User filter options,
 * snake_case), in the order the console's select shows them: `all`, `member` (permission Member,
 * captains included), `ad_user` (Advertiser), `ad_user_with_shop` / `ad_user_without_shop`
 * (Advertiser with / without advertisements), `operator`, `president`.
 */
export const USER_FILTERS = ['all', 'member', 'ad_user', 'ad_user_with_shop', 'ad_user_without_shop', 'operator', 'president'] as const;
export type UserFilter = (typeof USER_FILTERS)[number];

/** Roles as the console and the rules see them: the permissions plus the derived Captain. */
export const ROLES = ['Administrator', 'Operator', 'President', 'Captain', 'Teacher', 'Advertiser', 'Police', 'Member'] as const;
export type Role = (typeof ROLES)[number];

/** A city as the contract returns it (000 3 City). */
export interface City {
  id: number;
  name: string;
  name_ja: string;
}

/** The profile answered by GET /default/api/users/account (000 3 Profile/user). */
export interface Profile {
  id: number;
  username: string;
  name: string;
  email: string;
  avatar: string | null;
  introduction: string | null;
  permission: string;
  is_captain_department: boolean;
  assign_city: City[];
  active_city: City[];
  school: number | null;
  group: number | null;
  classes: number[];
  advertisements: number[];
  email_verified: boolean;
  /**
   * The chat unread count (001 7.9 chatAdminUnread; the sidebar's chat badge, 000 2.3): only in the
   * answer of GET /default/api/users/account, an integer ≥ 0; missing = 0.
   */
  chat_admin_unread?: number;
}

/**
 * The effective role of a profile: a user with is_captain_department is a Captain (000 4), otherwise
 * the permission when it is an accepted one, otherwise null (deny and sign out, 001 8).
 */
export function effectiveRole(profile: Pick<Profile, 'permission' | 'is_captain_department'>): Role | null {
  if (profile.is_captain_department) return 'Captain';
  return (ACCEPTED_PERMISSIONS as readonly string[]).includes(profile.permission) ? (profile.permission as Role) : null;
}

/** Menu set a role uses (000 6 Menu sets). The document and member variants are chosen by the city. */
export type MenuSet = 'admin' | 'ads' | 'member' | 'school' | 'captain' | 'teacher' | 'police' | 'document';

/** The menu set of a role, before city variants (000 6). */
export function menuSetOf(role: Role): MenuSet {
  switch (role) {
    case 'Administrator':
    case 'Operator':
      return 'admin';
    case 'Advertiser':
    case 'Member':
      return 'ads';
    case 'President':
      return 'school';
    case 'Captain':
      return 'captain';
    case 'Teacher':
      return 'teacher';
    case 'Police':
      return 'police';
  }
}

/**
 * Whether the profile may work in the city: Administrators in every city, everybody else in the
 * cities assigned to them except the city `advertiser`, which is for Administrators only (000 6:
 * 'Your account cannot access this area' otherwise).
 */
export function canEnterCity(profile: Pick<Profile, 'permission' | 'assign_city'>, city: string): boolean {
  if (profile.permission === 'Administrator') return true;
  if (city === ADVERTISER_CITY) return false;
  return profile.assign_city.some((c) => c.name === city);
}

/**
 * The staff roles whose sign-in has a second factor, passkeys and session limits (docs/architecture.md
 * 'Staff sign-in'): every `permission` but Member (a Captain is a Member with a department and keeps
 * the Members' sign-in, 000 4).
 */
export const STAFF_PERMISSIONS: readonly string[] = ['Administrator', 'Operator', 'President', 'Teacher', 'Advertiser', 'Police'];

/** Whether a profile is staff (STAFF_PERMISSIONS). */
export function isStaff(profile: Pick<Profile, 'permission'>): boolean {
  return STAFF_PERMISSIONS.includes(profile.permission);
}
