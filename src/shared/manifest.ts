/**
 * Per-city menu manifests (000 6 Menu sets; docs/architecture.md 'Adding a city'): `menus/<city>.json`
 * extends another manifest (usually `default`) and adds, removes or reorders entries of its sets.
 * A manifest with `name_ja` is a city (its row is made at server start when missing); one with
 * `base: true` is only extended by others (shared variants, e.g. `membership_new`).
 *
 * The manifests are data, not code: the server reads menus/ at start (src/server/manifests.ts) and
 * serves them; the console fetches them before its first city page (src/console/providers/manifests.ts).
 * Each side hands them to `setManifests`; every function here works on those unless given others.
 */
import { MEMBER_CITY } from './constants';
import { menuSetOf, type MenuSet, type Role } from './roles';

/** One sidebar entry: a generated resource page, a hand-written page, or a group of children. */
export interface MenuEntry {
  key: string;
  resource?: string;
  page?: string;
  route?: string;
  /** With `page: 'statistics'`: the statistic the page shows (a name of src/shared/statistics.ts STATISTICS). */
  statistic?: string;
  /** With `statistic`: equality filters this entry always applies (declared filter fields, e.g. `{"is_halloween": true}`). */
  statistic_filters?: Record<string, string | number | boolean>;
  icon: string;
  title: string;
  roles?: Role[];
  hidden?: boolean;
  /** An entry of ours the Operator does not pass (the Operator passes every other entry's roles, 000 2). */
  operatorExcluded?: boolean;
  children?: MenuEntry[];
}
/** An entry added by a city: `after` names the entry it follows (default: at the end). */
export interface AddedEntry extends MenuEntry {
  after?: string;
}
export interface SetChange {
  add?: AddedEntry[];
  remove?: string[];
  order?: string[];
}
export interface Manifest {
  $schema?: string;
  /** The city's Japanese name (000 3 City name_ja): makes the manifest a city. */
  name_ja?: string;
  /** A document city: its Advertisers and Members use the `document` set (000 6). */
  document?: boolean;
  /** Not a city: a shared base other manifests extend. */
  base?: boolean;
  extends?: string;
  /** Local government codes (JIS X 0402) of the municipalities the city covers: push targeting offers them by name. */
  municipalities?: string[];
  sets?: Partial<Record<MenuSet, MenuEntry[] | SetChange>>;
}
export type ResolvedMenu = Partial<Record<MenuSet, MenuEntry[]>>;

let current: Readonly<Record<string, Manifest>> = {};

/** Sets the manifests this process works with (by name: `kobe` for menus/kobe.json). */
export function setManifests(all: Readonly<Record<string, Manifest>>): void {
  current = all;
}

/** The manifests this process works with (empty until `setManifests`). */
export function getManifests(): Readonly<Record<string, Manifest>> {
  return current;
}

function applyChange(base: MenuEntry[], change: SetChange): MenuEntry[] {
  const removed = new Set(change.remove ?? []);
  let out = base.filter((e) => !removed.has(e.key));
  for (const { after, ...e } of change.add ?? []) {
    out = out.filter((o) => o.key !== e.key);
    const at = after === undefined ? -1 : out.findIndex((o) => o.key === after);
    out = at < 0 ? [...out, e] : [...out.slice(0, at + 1), e, ...out.slice(at + 1)];
  }
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
export function resolveManifest(city: string, all: Readonly<Record<string, Manifest>> = current): ResolvedMenu {
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

/**
 * The menu set a role uses in a city (000 6): the member set for a Member in the member city, the
 * document set for an Advertiser or Member in a document city (`document: true`), else the role's.
 */
export function menuSetFor(role: Role, city: string, all: Readonly<Record<string, Manifest>> = current): MenuSet {
  if (role === 'Member' && city === MEMBER_CITY) return 'member';
  const set = menuSetOf(role);
  if (set === 'ads' && all[city]?.document) return 'document';
  return set;
}

/**
 * The cities the manifests name (every manifest with `name_ja` that is not a `base`), in file-name
 * order: `{name, name_ja}`. The server inserts the missing ones at start (000 6: every city has a row).
 */
export function manifestCities(all: Readonly<Record<string, Manifest>> = current): Array<{ name: string; name_ja: string }> {
  return Object.entries(all)
    .filter(([, m]) => m.name_ja && !m.base)
    .map(([name, m]) => ({ name, name_ja: m.name_ja! }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The sidebar entries a role sees in a city: the city's set for the role, without hidden entries and
 * entries whose `roles` exclude the role (Operator always passes, 000 6, except an entry marked
 * `operatorExcluded`), children filtered alike
 * (a group left with no child is left out).
 */
export function menuFor(role: Role, city: string, all: Readonly<Record<string, Manifest>> = current): MenuEntry[] {
  return entriesFor(role, city, all, false);
}

/**
 * The role's menu of a city as menuFor gives it, hidden entries included in their groups: what names
 * a page (its tab's title and its breadcrumb) whether or not the sidebar shows it (000 2.3).
 */
export function placedMenuFor(role: Role, city: string, all: Readonly<Record<string, Manifest>> = current): MenuEntry[] {
  return entriesFor(role, city, all, true);
}

/**
 * Every entry a role may open in a city, hidden ones included (000 2: hidden routes such as detail
 * pages exist without a sidebar entry), flattened: the console makes a route of each.
 */
export function routeEntriesFor(role: Role, city: string, all: Readonly<Record<string, Manifest>> = current): MenuEntry[] {
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
  const set = resolveManifest(city, all)[menuSetFor(role, city, all)] ?? [];
  const allowed = (e: MenuEntry): boolean =>
    (withHidden || !e.hidden) && (!e.roles || e.roles.length === 0 || e.roles.includes(role) || (role === 'Operator' && !e.operatorExcluded));
  // A group whose children are all filtered out is left out too.
  const walk = (entries: MenuEntry[]): MenuEntry[] =>
    entries
      .filter(allowed)
      .map((e) => (e.children ? { ...e, children: walk(e.children) } : e))
      .filter((e) => !e.children || e.children.length > 0);
  return walk(set);
}

/** Every entry of every set of every manifest, for checks (`npm run check`) and route generation. */
export function allEntries(all: Readonly<Record<string, Manifest>> = current): Array<{ manifest: string; set: string; entry: MenuEntry }> {
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
