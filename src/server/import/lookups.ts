/**
 * What the cells of an import name, read once per import (000 5 CSV import; 001 7.16): for each
 * column with a `lookup` (`ImportColumn`, the schema's `x-import`), the rows of the city it can name.
 * - `path`: the rows of the field's `x-ref` resource (with the column's `where`: genres of type 20)
 *   by the path of their names from a root of their tree (`グルメ>ラーメン`; the tree through the
 *   resource's own reference field, genre `parent_id`);
 * - `name`: the same rows by name (a category of the city; a mall of type 24 as a parent);
 * - `advertiser`: the usernames of the city's Advertisers.
 * Two rows with one name or path: the oldest (lowest id) is the one named.
 */
import type { ImportDeclaration } from '../../shared/csv-import';
import type { ResourceDef } from '../../shared/registry';
import type { Queryable } from '../db/database';
import { tableName, textExpr } from '../db/resource-tables';

/** Ids by name or path (`path` and `name` columns), or the known usernames (`advertiser`), by column key. */
export type Lookups = Map<string, Map<string, number> | Set<string>>;

/** The separator of a path; a full-width ＞ is read as it too. */
export const PATH_SEPARATOR = '>';

/** A path as written in a cell, made comparable: `グルメ ＞ ラーメン` → `グルメ>ラーメン`. */
export function normalPath(text: string): string {
  return text
    .split(/[>＞]/)
    .map((s) => s.trim())
    .join(PATH_SEPARATOR);
}

/** The resource a lookup column of `def` names rows of (its field's `x-ref`). Throws when it has none (a schema error). */
export function lookupTarget(def: ResourceDef, field: string, resources: ReadonlyMap<string, ResourceDef>): ResourceDef {
  const target = resources.get(def.schema.properties[field]?.['x-ref'] ?? '');
  if (!target) throw new Error(`schemas/${def.name}.schema.json: x-import column '${field}' needs an x-ref field`);
  return target;
}

/** The field of `def` that refers to a row of `def` itself (genre `parent_id`), or null. */
function treeField(def: ResourceDef): string | null {
  return Object.entries(def.schema.properties).find(([, p]) => p['x-ref'] === def.name)?.[0] ?? null;
}

async function namedRows(
  q: Queryable,
  target: ResourceDef,
  city: string,
  where: Record<string, unknown>,
): Promise<Array<{ id: number; name: string; parent: string | null }>> {
  const params: unknown[] = [city];
  const conditions = Object.entries(where).map(([field, value]) => {
    params.push(String(value));
    return `${textExpr(target, field)} = $${params.length}`;
  });
  const parent = treeField(target);
  const rows = await q.query<{ id: number; name: string; parent: string | null }>(
    `SELECT id, data->>'name' AS name, ${parent ? textExpr(target, parent) : 'NULL'} AS parent FROM ${tableName(target)}
     WHERE city = $1${conditions.map((c) => ` AND ${c}`).join('')} ORDER BY id`,
    params,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), name: (r.name ?? '').trim() }));
}

function byPath(rows: Array<{ id: number; name: string; parent: string | null }>): Map<string, number> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = new Map<number, string | null>();
  const pathOf = (id: number, depth = 0): string | null => {
    if (paths.has(id)) return paths.get(id) ?? null;
    const row = byId.get(id);
    if (!row || depth > 50) return null; // a parent outside the set (another type) or a loop
    const parentId = row.parent === null || row.parent === '' ? null : Number(row.parent);
    const above = parentId === null ? '' : pathOf(parentId, depth + 1);
    const path = above === null ? null : above ? `${above}${PATH_SEPARATOR}${row.name}` : row.name;
    paths.set(id, path);
    return path;
  };
  const out = new Map<string, number>();
  for (const r of rows) {
    const path = pathOf(r.id);
    if (path !== null && !out.has(path)) out.set(path, r.id);
  }
  return out;
}

/** Reads the lookups of every lookup column of `declaration` for `city` (see the top of this file). */
export async function loadLookups(
  q: Queryable,
  def: ResourceDef,
  declaration: ImportDeclaration,
  city: string,
  resources: ReadonlyMap<string, ResourceDef>,
): Promise<Lookups> {
  const out: Lookups = new Map();
  for (const column of declaration.columns) {
    if (!column.lookup) continue;
    if (column.lookup === 'advertiser') {
      const rows = await q.query<{ username: string }>(
        `SELECT u.username FROM users u JOIN cities c ON c.id = ANY(u.assign_city) WHERE c.name = $1 AND u.permission = 'Advertiser'`,
        [city],
      );
      out.set(column.key, new Set(rows.map((r) => r.username)));
      continue;
    }
    const rows = await namedRows(q, lookupTarget(def, column.field, resources), city, column.where ?? {});
    if (column.lookup === 'path') out.set(column.key, byPath(rows));
    else {
      const names = new Map<string, number>();
      for (const r of rows) if (r.name && !names.has(r.name)) names.set(r.name, r.id);
      out.set(column.key, names);
    }
  }
  return out;
}
