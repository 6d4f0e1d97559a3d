/**
 * One rule set for both sides (DESIGN.md 'One set of permission rules'; 000 6). The console asks it
 * for routes, menus and buttons; the server asks it on every call before touching a row.
 */
import { AbilityBuilder, createMongoAbility, type MongoAbility } from '@casl/ability';
import { ACTIONS, registry, type Action, type ResourceDef } from './registry';
import { canEnterCity, effectiveRole, type Profile, type Role } from './roles';
import { HAND_WRITTEN_SUBJECTS } from './pages';

/** Subjects are resource names of the registry, `all`, or `page:<name>` for hand-written pages. */
export type AppAbility = MongoAbility<[Action | 'manage', string]>;

/** Whether `role` is listed (or `*` is) among the roles allowed an action. */
export function roleAllowed(allowed: ReadonlyArray<Role | '*'> | undefined, role: Role): boolean {
  return !!allowed && (allowed.includes('*') || allowed.includes(role));
}

/**
 * Builds the ability of a profile working in a city (000 6).
 * - A profile without an accepted role, or in a city it may not enter, can do nothing.
 * - An Administrator can do everything in every city.
 * - Everybody else can do what each schema's `x-resource.permissions` lists for their role, and what
 *   `HAND_WRITTEN_SUBJECTS` (users, account, files) lists; pages
 *   listed in `pages` (name → allowed roles, none = every signed-in role) can be read.
 * Input shapes: `profile` as answered by GET /default/api/users/account; `city` a city name.
 */
export function defineAbilityFor(
  profile: Pick<Profile, 'permission' | 'is_captain_department' | 'assign_city'> | null,
  city: string | null,
  resources: ReadonlyMap<string, ResourceDef> = registry,
  pages: Record<string, Array<Role>> = { dashboard: [] },
): AppAbility {
  const { can, build } = new AbilityBuilder<AppAbility>(createMongoAbility);
  const role = profile ? effectiveRole(profile) : null;
  if (!profile || !role || !city || !canEnterCity(profile, city)) return build();
  if (role === 'Administrator') {
    can('manage', 'all');
    return build();
  }
  for (const def of resources.values()) {
    for (const action of ACTIONS) {
      if (roleAllowed(def.permissions[action], role)) can(action, def.name);
    }
  }
  for (const [subject, byAction] of Object.entries(HAND_WRITTEN_SUBJECTS)) {
    for (const [action, roles] of Object.entries(byAction) as Array<[Action, Array<Role | '*'>]>) {
      if (roleAllowed(roles, role)) can(action, subject);
    }
  }
  for (const [page, roles] of Object.entries(pages)) {
    if (roles.length === 0 || roles.includes(role) || role === 'Operator') can('read', `page:${page}`);
  }
  return build();
}
