/**
 * `npm run validate` (part of `npm run check`): checks the declarative inputs and names the file and
 * entry of every problem (docs/architecture.md 'One schema per entity').
 * - every schemas/*.schema.json against schemas/meta/resource.schema.json, then the registry build;
 * - every menus/*.json against schemas/meta/manifest.schema.json; every entry names a known
 *   resource, page, statistic (and its fixed filters), role and icon; every `extends` resolves; `remove`, `order` and `after` name
 *   entries of the base set; within a city's set no two entries share a key or a route;
 * - every resource an `x-ref` names declares its `x-resource.titleField`;
 * - every field the server sets (src/shared/server-fields.ts) is `readOnly` in its schema;
 * - every language folder of locales/ has the namespace files and keys of locales/ja, no key is in
 *   two files, and every i18n key a schema or manifest names exists.
 * Exits 1 with one line per problem. `VALIDATE_ROOT=dir` checks another tree of the same layout (tests).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { buildRegistry, type ResourceDef, type ResourceSchema } from '../src/shared/registry';
import { allEntries, resolveManifest, type Manifest, type MenuEntry, type SetChange } from '../src/shared/manifest';
import { isReservedCityCode } from '../src/shared/open-routes';
import { ROLES, type MenuSet } from '../src/shared/roles';
import { MENU_ICONS, PAGES } from '../src/shared/pages';
import { statisticLabelKeys, statisticOf, statisticProblems } from '../src/shared/statistics';
import { LANGUAGES } from '../src/shared/constants';
import { serverFieldProblems } from '../src/shared/server-fields';

const root = process.env.VALIDATE_ROOT ?? resolve(import.meta.dirname, '..');
const problems: string[] = [];

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(join(root, path), 'utf8'));
}

function flatKeys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => flatKeys(v, prefix ? `${prefix}.${k}` : k));
}

const ajv = new Ajv({ allErrors: true, strict: false });
const resourceMeta = ajv.compile((await readJson('schemas/meta/resource.schema.json')) as object);
const manifestMeta = ajv.compile((await readJson('schemas/meta/manifest.schema.json')) as object);
const say = (file: string, errors: typeof resourceMeta.errors) =>
  (errors ?? []).forEach((e) => problems.push(`${file}: ${e.instancePath || '/'} ${e.message}`));

const schemas: ResourceSchema[] = [];
for (const f of (await readdir(join(root, 'schemas'))).filter((f) => f.endsWith('.schema.json')).sort()) {
  const s = (await readJson(`schemas/${f}`)) as ResourceSchema;
  if (!resourceMeta(s)) say(`schemas/${f}`, resourceMeta.errors);
  else if (`${s.$id}.schema.json` !== f) problems.push(`schemas/${f}: $id '${s.$id}' does not match the file name`);
  else schemas.push(s);
}
let resources: ReadonlyMap<string, ResourceDef> = new Map();
try {
  resources = buildRegistry(schemas);
} catch (e) {
  problems.push((e as Error).message);
}
// A reference names its row by the referenced schema's title field (lists, selects, exports).
for (const def of resources.values()) {
  for (const [k, p] of Object.entries(def.schema.properties)) {
    if (p['x-ref'] && !resources.get(p['x-ref'])?.titleField) problems.push(`schemas/${def.schema.$id}.schema.json: field '${k}' refers to '${p['x-ref']}', which declares no x-resource.titleField (the name its references show)`);
  }
}

// Fields the server sets (src/shared/server-fields.ts) are readOnly in their schemas.
problems.push(...serverFieldProblems(resources));

const manifests: Record<string, Manifest> = {};
for (const f of (await readdir(join(root, 'menus'))).filter((f) => f.endsWith('.json')).sort()) {
  const m = (await readJson(`menus/${f}`)) as Manifest;
  if (!manifestMeta(m)) say(`menus/${f}`, manifestMeta.errors);
  // A city's code is the first segment of its paths: never one of the open routes or the server's own.
  if (m.name_ja && isReservedCityCode(f.slice(0, -5))) problems.push(`menus/${f}: '${f.slice(0, -5)}' is an open route of the console or a path of the server (src/shared/open-routes.ts) and cannot be a city code`);
  manifests[f.slice(0, -5)] = m;
}
// A city's municipalities are rows of the municipality resource (its examples are the demo rows).
const municipalityCodes = new Set((resources.get('municipality')?.examples ?? []).map((e) => String(e.code)));
for (const [name, m] of Object.entries(manifests)) {
  for (const code of m.municipalities ?? []) if (!municipalityCodes.has(code)) problems.push(`menus/${name}.json: municipality '${code}' is not a row of schemas/municipality.schema.json's examples`);
}
for (const { manifest, set, entry } of allEntries(manifests)) {
  const where = `menus/${manifest}.json: set '${set}', entry '${entry.key}'`;
  if (entry.resource && !resources.has(entry.resource)) problems.push(`${where} names unknown resource '${entry.resource}'`);
  if (entry.page && !(entry.page in PAGES)) problems.push(`${where} names unknown page '${entry.page}'`);
  // The statistics page shows the declaration its entry names (src/shared/statistics.ts).
  const statistic = entry.statistic === undefined ? undefined : statisticOf(entry.statistic);
  if (entry.statistic !== undefined && !statistic) problems.push(`${where} names unknown statistic '${entry.statistic}'`);
  if (entry.statistic !== undefined && entry.page !== 'statistics') problems.push(`${where}: a statistic is shown by the page 'statistics', not '${entry.page ?? ''}'`);
  if (entry.page === 'statistics' && entry.statistic === undefined) problems.push(`${where}: the page 'statistics' needs a statistic`);
  for (const f of Object.keys(entry.statistic_filters ?? {})) {
    if (statistic && !statistic.filters.includes(f)) problems.push(`${where}: statistic_filters names '${f}', not a filter of statistic '${statistic.name}'`);
  }
  if (!(MENU_ICONS as readonly string[]).includes(entry.icon)) problems.push(`${where} names unknown icon '${entry.icon}'`);
  // A resource's edit and show routes add `:id` after its route (src/console/resources/resource-routes.ts).
  if (entry.resource && /:id(\/|$)/.test(entry.route ?? '')) problems.push(`${where}: route '${entry.route}' of a resource may not use the parameter :id`);
  for (const role of entry.roles ?? []) if (!(ROLES as readonly string[]).includes(role)) problems.push(`${where} names unknown role '${role}'`);
}
for (const [name, m] of Object.entries(manifests)) {
  try {
    const resolved = resolveManifest(name, manifests);
    // remove, order and after name entries of the base set (or entries this change adds).
    const base = m.extends ? resolveManifest(m.extends, manifests) : {};
    for (const [set, change] of Object.entries(m.sets ?? {}) as Array<[MenuSet, MenuEntry[] | SetChange]>) {
      if (Array.isArray(change)) continue;
      const known = new Set([...(base[set] ?? []).map((e) => e.key), ...(change.add ?? []).map((e) => e.key)]);
      const where = `menus/${name}.json: set '${set}'`;
      for (const k of change.remove ?? []) if (!known.has(k)) problems.push(`${where}: remove names unknown entry '${k}'`);
      for (const k of change.order ?? []) if (!known.has(k)) problems.push(`${where}: order names unknown entry '${k}'`);
      for (const e of change.add ?? []) if (e.after !== undefined && !known.has(e.after)) problems.push(`${where}, entry '${e.key}': after names unknown entry '${e.after}'`);
    }
    // Within one set of a city, a key or a route names one entry only.
    for (const [set, entries] of Object.entries(resolved)) {
      const keys = new Map<string, number>();
      const routes = new Map<string, number>();
      const walk = (list: MenuEntry[]) => {
        for (const e of list) {
          keys.set(e.key, (keys.get(e.key) ?? 0) + 1);
          if (e.route) routes.set(e.route, (routes.get(e.route) ?? 0) + 1);
          walk(e.children ?? []);
        }
      };
      walk(entries ?? []);
      for (const [k, n] of keys) if (n > 1) problems.push(`menus/${name}.json: set '${set}' has ${n} entries with key '${k}'`);
      for (const [r, n] of routes) if (n > 1) problems.push(`menus/${name}.json: set '${set}' has ${n} entries with route '${r}'`);
    }
  } catch (e) {
    problems.push(`menus/${name}.json: ${(e as Error).message}`);
  }
}

// Each language is a folder of namespace files with the same names; a key lives in one file only.
const namespaces = async (l: string) => (await readdir(join(root, 'locales', l))).filter((f) => f.endsWith('.json')).sort();
const jaFiles = await namespaces('ja');
const reference = new Set<string>();
for (const l of LANGUAGES) {
  const files = await namespaces(l).catch(() => [] as string[]);
  for (const f of jaFiles) if (!files.includes(f)) problems.push(`locales/${l}/${f}: missing (locales/ja/${f} exists)`);
  for (const f of files) if (!jaFiles.includes(f)) problems.push(`locales/${l}/${f}: not in locales/ja`);
}
for (const f of jaFiles) {
  const jaKeys = new Set(flatKeys(await readJson(`locales/ja/${f}`)));
  for (const k of jaKeys) {
    if (reference.has(k)) problems.push(`locales/ja/${f}: key '${k}' is defined in another namespace file too`);
    reference.add(k);
  }
  for (const l of LANGUAGES.filter((x) => x !== 'ja')) {
    const keys = new Set(flatKeys(await readJson(`locales/${l}/${f}`).catch(() => ({}))));
    for (const k of jaKeys) if (!keys.has(k)) problems.push(`locales/${l}/${f}: missing key '${k}'`);
    for (const k of keys) if (!jaKeys.has(k)) problems.push(`locales/${l}/${f}: key '${k}' is not in locales/ja/${f}`);
  }
}
const needKey = (file: string, key: string) => {
  if (!reference.has(key)) problems.push(`${file}: i18n key '${key}' is not in locales/ja`);
};
/**
 * The labels of a property and of what it holds, at every depth (a form shows each): a title key for
 * every property of an object, enum labels for every enum (its own or its items'), each in locales/ja
 * (and so, by the parity above, in every language).
 */
function checkLabels(file: string, path: string, p: Record<string, unknown>, nested: boolean): void {
  if (nested && typeof p.title !== 'string') problems.push(`${file}: ${path} has no title (an i18n key): a form would show its raw name`);
  else if (typeof p.title === 'string') needKey(file, p.title);
  Object.values((p['x-messages'] as Record<string, string>) ?? {}).forEach((k) => needKey(file, k));
  const labels = p['x-enum-labels'] as string[] | undefined;
  labels?.forEach((k) => needKey(file, k));
  if (labels && labels.length !== ((p.enum as unknown[]) ?? []).length) problems.push(`${file}: ${path}: x-enum-labels and enum differ in length`);
  if (nested && Array.isArray(p.enum) && !labels && p.type === 'string') problems.push(`${file}: ${path} has an enum without x-enum-labels`);
  for (const [name, child] of Object.entries((p.properties as Record<string, Record<string, unknown>>) ?? {})) checkLabels(file, `${path}.${name}`, child, true);
  const items = p.items as Record<string, unknown> | undefined;
  if (items && typeof items === 'object') {
    if (items.properties) for (const [name, child] of Object.entries(items.properties as Record<string, Record<string, unknown>>)) checkLabels(file, `${path}[].${name}`, child, true);
    else if (Array.isArray(items.enum) && items.type === 'string') checkLabels(file, `${path}[]`, { ...items, title: p.title }, true);
  }
}
/** Names of fields that hold an image or a file (000 5 Files): each declares its upload, or why it has none. */
const FILE_LIKE = /image|photo|avatar|thumbnail|file/i;
for (const s of schemas) {
  const file = `schemas/${s.$id}.schema.json`;
  needKey(file, s['x-resource'].label);
  for (const section of s['x-resource'].form?.sections ?? []) needKey(file, section.title);
  for (const [name, p] of Object.entries(s.properties)) {
    const text = p.type === 'string' || (Array.isArray(p.type) && p.type.includes('string')) || p.type === 'array';
    if (FILE_LIKE.test(name) && text && !p['x-upload'] && !p['x-no-upload']) problems.push(`${file}: ${name} looks like an image or a file: declare its x-upload, or x-no-upload with the reason`);
  }
  for (const [name, p] of Object.entries(s.properties)) checkLabels(file, name, p as unknown as Record<string, unknown>, true);
}
for (const { manifest, entry } of allEntries(manifests)) needKey(`menus/${manifest}.json`, entry.title);
// Every statistic declaration against the registry, and its labels (docs/architecture.md 'Adding a statistic').
problems.push(...statisticProblems(resources));
for (const key of statisticLabelKeys()) needKey('src/shared/statistics.ts', key);

if (problems.length) {
  for (const p of problems) console.error(`validate: ${p}`);
  process.exit(1);
}
console.log(`validate: ${schemas.length} schemas, ${Object.keys(manifests).length} manifests, ${LANGUAGES.length} locales of ${reference.size} keys in ${jaFiles.length} namespace files: all good`);
