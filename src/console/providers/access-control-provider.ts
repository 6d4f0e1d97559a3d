/**
 * Refine access control provider answered by the session's CASL ability (000 6): Refine actions map
 * to the ability's (list/show → read, edit → update, create/clone → create, delete → delete). No
 * network call: the ability is computed from the loaded profile and the chosen city (built once per
 * profile and city, ./ability). The console's code, with the registry, is not the login page's.
 */
import type { AccessControlProvider } from '@refinedev/core';
import type { Action } from '@/shared/registry';
import { abilityFor } from './ability';
import { getSession } from './session';

/** The ability action of a Refine action; unknown actions are asked as themselves. */
export const REFINE_ACTIONS: Record<string, Action> = {
  list: 'read',
  show: 'read',
  create: 'create',
  clone: 'create',
  edit: 'update',
  delete: 'delete',
};

export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action, params }) => {
    const { profile, city } = getSession();
    const subject = (params?.resource?.name as string | undefined) ?? resource;
    if (!subject) return { can: true };
    const ability = abilityFor(profile, city);
    return { can: ability.can(REFINE_ACTIONS[action] ?? (action as Action), subject) };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
