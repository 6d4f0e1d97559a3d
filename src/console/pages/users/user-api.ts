/**
 * The users calls of the users page (001 7.2; server: src/server/routes/users.ts): paths of the
 * chosen city, the `filter_by` options, and the shape of a user in the list (a Profile).
 */
import type { Profile } from '@/shared/roles';
import { ACCEPTED_PERMISSIONS, type Permission } from '@/shared/roles';

// The `filter_by` options of GET {city}/api/users/: USER_FILTERS of src/shared/roles.ts.
export { USER_FILTERS, type UserFilter } from '@/shared/roles';

/** Rows per page of the users list (001 9 page size). */
export const USERS_PAGE_SIZE = 20;

/** A user as the list answers it. */
export type UserRow = Profile;

// The list call's path and one user's (providers/account.ts: a form's member picker asks it too).
export { usersPath, userPath } from '../../providers/account';

/** Permissions the form offers: an Operator may not make Administrators (the server answers 403). */
export function permissionChoices(callerIsAdministrator: boolean): Permission[] {
  return ACCEPTED_PERMISSIONS.filter((p) => callerIsAdministrator || p !== 'Administrator');
}

/** What the form edits. `password` is required on create, optional on edit (unchanged when empty). */
export interface UserFormValues {
  username: string;
  email: string;
  name?: string;
  password?: string;
  permission: Permission;
  is_captain_department?: boolean;
}

/** The body of a create or update: empty optional values left out (an empty password keeps the old one). */
export function userBody(values: UserFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || (typeof v === 'string' && v === '' && k !== 'name')) continue;
    out[k] = typeof v === 'string' && k !== 'password' ? v.trim() : v;
  }
  return out;
}
