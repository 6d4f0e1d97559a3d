/**
 * One rule set for both sides (000 6 Roles; docs/architecture.md 'Roles'). The console asks it for
 * routes, menus and buttons; the server asks it on every call before touching a row, and reads the
 * caller's own-row limits out of its rules (`ownedRowsOf`), from which it builds the SQL that narrows
 * every query (src/server/repositories/record-query.ts `matchSql`) and checks every write.
 */
import { AbilityBuilder, createMongoAbility, type MongoAbility, type Subject } from '@casl/ability';
import { permittedFieldsOf, rulesToAST } from '@casl/ability/extra';
import { ACTIONS, OPERATION_ACTION, registry, type Action, type ActionDef, type ApiCall, type OwnerRule, type ResourceDef } from './registry';
import { canEnterCity, effectiveRole, type Profile, type Role } from './roles';
import { HAND_WRITTEN_SUBJECTS } from './pages';
import { FEATURES, SPECIFIC_ROUTES } from './specifics';

/**
 * Subjects are resource names of the registry, `<resource>#<action>` for an action with its own
 * roles, `all`, `page:<name>` for hand-written pages, `route:<route>` and `feature:<name>` for the
 * Specifics of 000 6 (src/shared/specifics.ts).
 */
export type AppAbility = MongoAbility<[Action | 'manage', Subject]>;

/** The profile fields the rules read. */
export type AbilityProfile = Pick<Profile, 'permission' | 'is_captain_department' | 'assign_city'> &
  Partial<Pick<Profile, 'id' | 'username' | 'school' | 'group' | 'classes' | 'advertisements'>>;

/** Whether `role` is listed (or `*` is) among the roles allowed an action. */
export function roleAllowed(allowed: ReadonlyArray<Role | '*'> | undefined, role: Role): boolean {
  return !!allowed && (allowed.includes('*') || allowed.includes(role));
}

/** The subject an action of a resource is checked on: its own when it lists `roles`, else the resource. */
export function actionSubject(def: Pick<ResourceDef, 'name'>, action: Pick<ActionDef, 'name' | 'roles'>): string {
  return action.roles ? `${def.name}#${action.name}` : def.name;
}

/**
 * The subject a path of a CRUD call with `pathRoles` (the path or an alias) is checked on:
 * `<resource> <METHOD> <path>`, e.g. `club GET /{city}/api/group_chat/operator_departments/`.
 */
export function callSubject(def: Pick<ResourceDef, 'name'>, method: string, path: string): string {
  return `${def.name} ${method} ${path}`;
}

/** One own-row limit of a profile: rows whose `field` holds one of `values`. */
export interface OwnedRows {
  field: string;
  values: Array<string | number>;
  /** The owner is the `field` of the row of `resource` that `field` refers to. */
  through?: { resource: string; field: string };
}

function profileValues(profile: AbilityProfile, rule: OwnerRule): Array<string | number> {
  const v = profile[rule.profile];
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/**
 * The CASL conditions of the own-row limits of `def` for a profile (000 6: an Advertiser works on
 * the rows of its shops, the profile's `advertisements`; a President and a Teacher on those of their
 * `school`, a Teacher also of its group and classes; a Captain on the clubs whose captain has his
 * `username`), from the schema's `x-resource.owner`: every rule naming the profile's role applies
 * (all of them). `{field: {$in: values}}`: the row's field holds one of the values (a list field: one
 * of its items; no values, no row). A rule with `through` limits by the row `field` refers to (its
 * `x-ref` resource): `{'field.through': {$in: values}}`. Undefined: no limit.
 */
function ownerConditions(def: Pick<ResourceDef, 'owner' | 'schema'>, profile: AbilityProfile, role: Role): Record<string, { $in: Array<string | number> }> | undefined {
  const rules = def.owner.filter((rule) => roleAllowed(rule.roles, role));
  if (rules.length === 0) return undefined;
  return Object.fromEntries(
    rules.map((rule) => {
      const through = rule.through && def.schema.properties[rule.field]?.['x-ref'] ? `.${rule.through}` : '';
      return [`${rule.field}${through}`, { $in: profileValues(profile, rule) }];
    }),
  );
}

type Ast = NonNullable<ReturnType<typeof rulesToAST>>;

/**
 * The own-row limits on the rows of `def` under which `ability` allows `action` on `subject` (the
 * resource, or the action or path subject a call is checked on), read from the ability's rules
 * (CASL `rulesToAST`): one `OwnedRows` per condition of the rule, a dotted field (`captain.username`)
 * as a limit `through` the row the field refers to. Empty: no limit (an unconditional rule). Null:
 * the ability allows no row at all (no rule).
 * Errors: throws on a condition other than `$in`/`$eq` or on two conditional rules for one subject
 * (the rules of `defineAbilityFor` make neither; a new kind must be taught here, not let through).
 */
export function ownedRowsOf(ability: AppAbility, action: Action, subject: string, def: Pick<ResourceDef, 'schema'>): OwnedRows[] | null {
  const ast = rulesToAST(ability, action, subject);
  if (!ast) return null;
  const out: OwnedRows[] = [];
  const walk = (node: Ast): void => {
    const { operator, value } = node as { operator: string; value: unknown; field?: string };
    if (operator === 'and' || (operator === 'or' && (value as Ast[]).length === 1)) return (value as Ast[]).forEach(walk);
    const field = (node as { field?: string }).field;
    if ((operator !== 'in' && operator !== 'eq') || !field) throw new Error(`ability: own-row condition '${operator}' on ${subject} has no SQL`);
    const values = (operator === 'in' ? value : [value]) as Array<string | number>;
    const [own, through] = field.split('.', 2);
    const resource = def.schema.properties[own]?.['x-ref'];
    out.push(through && resource ? { field: own, values, through: { resource, field: through } } : { field, values });
  };
  walk(ast);
  return out;
}

/** What a field's `x-permissions` governs for an action: reading, writing (create, update), or nothing (delete). */
function fieldAccessOf(action: Action): 'read' | 'write' | null {
  return action === 'read' ? 'read' : action === 'create' || action === 'update' ? 'write' : null;
}

/**
 * The fields of `def` a role may `action` by the schema's field permissions (`x-permissions` of a
 * property: `read` governs read, `write` governs create and update; an absent list: the resource's
 * own permission), or undefined when that is every field (no field rule needed).
 */
export function fieldRuleOf(def: Pick<ResourceDef, 'schema'>, action: Action, role: Role): string[] | undefined {
  const access = fieldAccessOf(action);
  if (!access) return undefined;
  const fields = Object.entries(def.schema.properties);
  const allowed = fields.filter(([, p]) => {
    const roles = p['x-permissions']?.[access];
    return !roles || roleAllowed(roles, role);
  });
  return allowed.length === fields.length ? undefined : allowed.map(([f]) => f);
}

/**
 * The fields of the rows of `def` the ability may `action` (CASL `permittedFieldsOf` over the rules
 * `defineAbilityFor` made from `x-permissions`), in schema order; every field when no rule names
 * fields; none when the action is not allowed at all. The one answer both sides use: the server
 * leaves the others out of answers and refuses writes changing them, the console hides them or
 * shows them read-only.
 */
export function permittedFields(ability: AppAbility, action: Action, def: Pick<ResourceDef, 'name' | 'schema'>): string[] {
  const all = Object.keys(def.schema.properties);
  const allowed = new Set(permittedFieldsOf(ability, action, def.name, { fieldsFrom: (rule) => rule.fields ?? all }));
  return all.filter((f) => allowed.has(f));
}

/**
 * The fields of `def` the ability may not `action` although it may `action` the resource (empty:
 * no field limit). Example: an Advertiser's `update` of `advertisement` → ['plan', 'is_top'].
 */
export function deniedFields(ability: AppAbility, action: Action, def: Pick<ResourceDef, 'name' | 'schema'>): string[] {
  if (!Object.values(def.schema.properties).some((p) => p['x-permissions']) || !ability.can(action, def.name)) return [];
  const allowed = new Set(permittedFields(ability, action, def));
  return Object.keys(def.schema.properties).filter((f) => !allowed.has(f));
}

/**
 * Builds the ability of a profile working in a city (000 6).
 * - A profile without an accepted role, or in a city it may not enter, can do nothing.
 * - Every role, the Administrator included, can do what each schema's `x-resource.permissions`
 *   lists for it (an action with `roles` is checked on `<resource>#<action>`), limited to its own rows
 *   where the schema's `x-resource.owner` says so (CASL conditions: the server's SQL is made from
 *   them, `ownedRowsOf`; `subject(...)` checks a row in memory), down to the fields where a property's
 *   `x-permissions` says so (`fieldRuleOf`: CASL field rules, read with `permittedFields`), and what `HAND_WRITTEN_SUBJECTS` (users, account, files, city, chat_unread) lists. A call path listed in
 *   its `pathRoles` is checked on its own subject (`callSubject`), allowed to those roles only.
 * - Routes of the Specifics (`route:<route>`) and pages (`page:<name>`; name → allowed roles, none =
 *   every signed-in role) can be read by their roles, and always by the Operator (000 6 "Operator
 *   always passes"); features (`feature:<name>`) by their roles.
 * Input shapes: `profile` as answered by GET /default/api/users/account; `city` a city name.
 */
export function defineAbilityFor(
  profile: AbilityProfile | null,
  city: string | null,
  resources: ReadonlyMap<string, ResourceDef> = registry,
  pages: Record<string, Array<Role>> = { dashboard: [] },
): AppAbility {
  const { can, build } = new AbilityBuilder<AppAbility>(createMongoAbility);
  const role = profile ? effectiveRole(profile) : null;
  if (!profile || !role || !city || !canEnterCity(profile, city)) return build();
  for (const def of resources.values()) {
    // The same own-row conditions on every subject of the resource's rows.
    const conditions = ownerConditions(def, profile, role);
    for (const action of ACTIONS) {
      if (!roleAllowed(def.permissions[action], role)) continue;
      // Field permissions (`x-permissions`): a field rule when the role may not read or write every field.
      const fields = fieldRuleOf(def, action, role);
      if (fields) can(action, def.name, fields, conditions);
      else can(action, def.name, conditions);
    }
    for (const a of def.actions) {
      if (a.roles && roleAllowed(a.roles, role)) can(a.permission, actionSubject(def, a), conditions);
    }
    for (const [op, call] of Object.entries(def.api) as Array<[keyof typeof OPERATION_ACTION, ApiCall | undefined]>) {
      for (const [path, roles] of Object.entries(call?.pathRoles ?? {})) {
        if (call && roleAllowed(roles, role)) can(OPERATION_ACTION[op], callSubject(def, call.method, path), conditions);
      }
    }
  }
  for (const [subject, byAction] of Object.entries(HAND_WRITTEN_SUBJECTS)) {
    for (const [action, roles] of Object.entries(byAction) as Array<[Action, Array<Role | '*'>]>) {
      if (roleAllowed(roles, role)) can(action, subject);
    }
  }
  for (const [route, roles] of Object.entries(SPECIFIC_ROUTES)) {
    if (roles.includes(role) || role === 'Operator') can('read', `route:${route}`);
  }
  for (const [feature, roles] of Object.entries(FEATURES)) {
    if (roles.includes(role)) can('read', `feature:${feature}`);
  }
  for (const [page, roles] of Object.entries(pages)) {
    if (roles.length === 0 || roles.includes(role) || role === 'Operator') can('read', `page:${page}`);
  }
  return build();
}
