/**
 * Per-city menu manifests (000 6 Menu sets; DESIGN.md 'One manifest per city'): `menus/<city>.json`
 * extends another manifest (usually `default`) and adds, removes or reorders entries of its sets.
 */
import { manifests as generated } from './generated/manifests';
import { MEMBER_CITY } from './constants';
import { menuSetOf, type MenuSet, type Role } from './roles';

/** One sidebar entry: a generated resource page, a hand-written page, or a group of children. */
export interface MenuEntry {
  key: string;
  resource?: string;
  page?: string;
  route?: string;
  icon: string;
  title: string;
  roles?: Role[];
  hidden?: boolean;
  children?: MenuEntry[];
}
export interface SetChange {
  add?: MenuEntry[];
  remove?: string[];
  order?: string[];
}
export interface Manifest {
  $schema?: string;
  extends?: string;
  sets?: Partial<Record<MenuSet, MenuEntry[] | SetChange>>;
}
export type ResolvedMenu = Partial<Record<MenuSet, MenuEntry[]>>;

/** The manifests of this build (menus/*.json), checked by `npm run check`. */
export const manifests = generated as unknown as Record<string, Manifest>;
const builtIn = manifests;

function applyChange(base: MenuEntry[], change: SetChange): MenuEntry[] {
  const removed = new Set(change.remove ?? []);
  let out = base.filter((e) => !removed.has(e.key));
  for (const e of change.add ?? []) out = [...out.filter((o) => o.key !== e.key), e];
  if (change.order) {
    const rank = new Map(change.order.map((k, i) => [k, i]));
    out = [...out].sort((a, b) => (rank.get(a.key) ?? rank.size) - (rank.get(b.key) ?? rank.size));
  }
  return out;
}

/**
 * The sets of a city's manifest with every `extends` applied. A city without a manifest gets the
 * default one. Throws on an unknown base or an `extends` cycle.
 */
export function resolveManifest(city: string, all: Record<string, Manifest> = builtIn): ResolvedMenu {
  const seen: string[] = [];
  const resolve = (name: string): ResolvedMenu => {
    if (seen.includes(name)) throw new Error(`menus: extends cycle ${[...seen, name].join(' -> ')}`);
    seen.push(name);
    const m = all[name];
    if (!m) throw new Error(`menus: unknown manifest '${name}'`);
    const base: ResolvedMenu = m.extends ? resolve(m.extends) : {};
    const out: ResolvedMenu = { ...base };
    for (const [set, value] of Object.entries(m.sets ?? {}) as Array<[MenuSet, MenuEntry[] | SetChange]>) {
      out[set] = Array.isArray(value) ? value : applyChange(base[set] ?? [], value);
    }
    return out;
  };
  return resolve(all[city] ? city : 'default');
}

/** The menu set a role uses in a city: the member set for a Member in the member city (000 6). */
export function menuSetFor(role: Role, city: string): MenuSet {
  if (role === 'Member' && city === MEMBER_CITY) return 'member';
  return menuSetOf(role);
}

/**
 * The sidebar entries a role sees in a city: the city's set for the role, without hidden entries and
 * entries whose `roles` exclude the role (Operator always passes, 000 6), children filtered alike.
 */
export function menuFor(role: Role, city: string, all: Record<string, Manifest> = builtIn): MenuEntry[] {
  return entriesFor(role, city, all, false);
}

/**
 * Every entry a role may open in a city, hidden ones included (000 2: hidden routes such as detail
 * pages exist without a sidebar entry), flattened: the console makes a route of each.
 */
export function routeEntriesFor(role: Role, city: string, all: Record<string, Manifest> = builtIn): MenuEntry[] {
  const out: MenuEntry[] = [];
  const walk = (entries: MenuEntry[]) => {
    for (const e of entries) {
      if (e.children) walk(e.children);
      else out.push(e);
    }
  };
  walk(entriesFor(role, city, all, true));
  return out;
}

function entriesFor(role: Role, city: string, all: Record<string, Manifest>, withHidden: boolean): MenuEntry[] {
  const set = resolveManifest(city, all)[menuSetFor(role, city)] ?? [];
  const allowed = (e: MenuEntry): boolean =>
    (withHidden || !e.hidden) && (!e.roles || e.roles.length === 0 || e.roles.includes(role) || role === 'Operator');
  const walk = (entries: MenuEntry[]): MenuEntry[] =>
    entries.filter(allowed).map((e) => (e.children ? { ...e, children: walk(e.children) } : e));
  return walk(set);
}

/** Every entry of every set of every manifest, for checks (`npm run check`) and route generation. */
export function allEntries(all: Record<string, Manifest> = builtIn): Array<{ manifest: string; set: string; entry: MenuEntry }> {
  const out: Array<{ manifest: string; set: string; entry: MenuEntry }> = [];
  const walk = (manifest: string, set: string, entries: MenuEntry[]) => {
    for (const entry of entries) {
      out.push({ manifest, set, entry });
      if (entry.children) walk(manifest, set, entry.children);
    }
  };
  for (const [name, m] of Object.entries(all)) {
    for (const [set, value] of Object.entries(m.sets ?? {})) walk(name, set, Array.isArray(value) ? value : (value.add ?? []));
  }
  return out;
}
