/**
 * One table per registry resource, made from the registry at start (docs/architecture.md 'Storage'):
 * `r_<name>(id bigserial, city, data jsonb, version, created_at, updated_at)` with an index on
 * (city, created_at desc, id desc), expression indexes on declared sort and filter fields and on the
 * fixed `where` fields of list calls, and a trigram index over the declared search fields where
 * pg_trgm is available. Global resources keep their rows under the city key `*`.
 * Also the SQL expressions of fields, shared with the repository so queries match the indexes.
 */
import { isNumericField } from '../../shared/field-types';
import type { ResourceDef } from '../../shared/registry';
import { keepsRevisions } from '../../shared/revisions';
import type { Database } from './database';
import { LOCK_RESOURCE_TABLES } from './migrations';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkIdent(what: string, name: string): string {
  if (!IDENT.test(name)) throw new Error(`${what} '${name}' cannot be used in SQL (letters, digits and _ only)`);
  return name;
}

/** The table of a resource: `r_<name>`. Throws for a name that is not a plain identifier. */
export function tableName(def: ResourceDef): string {
  return `r_${checkIdent('resource name', def.name)}`;
}

/**
 * The SQL expression of a field of a resource row: `id` for the id field, `created_at` for the
 * created field, `((data->>'f')::numeric)` for number fields (`isNumericField`: integer or number,
 * nullable or not), `(data->>'f')` otherwise.
 * Throws for a field name that is not a plain identifier.
 */
export function fieldExpr(def: ResourceDef, field: string): string {
  if (field === def.idField) return 'id';
  if (field === def.createdField) return 'created_at';
  checkIdent('field name', field);
  return isNumericField(def.schema.properties[field]) ? `((data->>'${field}')::numeric)` : `(data->>'${field}')`;
}

/**
 * The text of a field of a resource row, as fixed values (`where`, `exclude`, parents) compare it:
 * `id::text` for the id field, `(data->>'f')` otherwise. Throws for a field name that is not a plain identifier.
 */
export function textExpr(def: ResourceDef, field: string): string {
  if (field === def.idField) return 'id::text';
  return `(data->>'${checkIdent('field name', field)}')`;
}

/**
 * The SQL expressions a list's `search` matches with ILIKE, one per declared search field, in order:
 * `(data->>'f')` for a text field (the very expressions of the trigram index, so the planner can use
 * it), else the field's `fieldExpr` cast to text (not indexed). Throws for a field name that is not a
 * plain identifier.
 */
export function searchExprs(def: ResourceDef): string[] {
  return def.list.search.map((f) => {
    const expr = fieldExpr(def, f);
    return isTextExpr(expr) ? expr : `(${expr})::text`;
  });
}

function isTextExpr(expr: string): boolean {
  return expr.startsWith("(data->>'");
}

/** The fields of the fixed `where` values of a resource's list calls (they get an index each). */
function whereFields(def: ResourceDef): string[] {
  const calls = [def.api.list, ...def.actions.filter((a) => a.kind === 'count' || a.kind === 'sum' || a.kind === 'export')];
  return [...new Set(calls.flatMap((c) => Object.keys(c.where ?? {})))].filter((f) => f !== def.idField && f !== def.createdField);
}

/**
 * The statements that create a resource's table and indexes; each is idempotent. With
 * `trigramSchema` (the schema holding pg_trgm), the text search fields (`searchExprs`) also get one
 * GIN trigram index, so `search` (ILIKE '%term%' on each) is a bitmap index scan instead of a scan of
 * the city's rows, for a term with at least one trigram (3 characters; see `listWhere`).
 */
export function resourceTableSql(def: ResourceDef, trigramSchema: string | null = null): string[] {
  const t = tableName(def);
  const out = [
    `CREATE TABLE IF NOT EXISTS ${t} (
       id bigserial PRIMARY KEY,
       city text NOT NULL,
       data jsonb NOT NULL,
       version integer NOT NULL DEFAULT 1,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX IF NOT EXISTS ${t}_city_created ON ${t} (city, created_at DESC, id DESC)`,
    // Revisions (src/server/revisions/revision-migrations.ts): one trigger per kind of statement
    // (PostgreSQL allows transition tables on a trigger of one event only).
    ...(keepsRevisions(def) ? revisionTriggerSql(t) : []),
  ];
  const indexed = new Set<string>();
  for (const field of def.list.sort) {
    const expr = fieldExpr(def, field);
    if (expr === 'id' || expr === 'created_at' || indexed.has(field)) continue;
    indexed.add(field);
    out.push(`CREATE INDEX IF NOT EXISTS ${t}_s_${field} ON ${t} (city, ${expr}, id)`);
  }
  for (const filter of def.list.filters) {
    const fields = filter.kind === 'equals' ? [filter.field] : [filter.start, filter.end];
    for (const field of fields) {
      const expr = fieldExpr(def, field);
      if (expr === 'id' || expr === 'created_at' || indexed.has(field)) continue;
      indexed.add(field);
      out.push(`CREATE INDEX IF NOT EXISTS ${t}_s_${field} ON ${t} (city, ${expr}, id)`);
    }
  }
  // Fixed values of the list (malls are genres of type 24): city, value, then the default order.
  for (const field of whereFields(def)) {
    out.push(`CREATE INDEX IF NOT EXISTS ${t}_w_${field} ON ${t} (city, ${textExpr(def, field)}, created_at DESC, id DESC)`);
  }
  const searched = searchExprs(def).filter(isTextExpr);
  if (trigramSchema && searched.length > 0) {
    const ops = `${checkIdent('schema', trigramSchema)}.gin_trgm_ops`;
    out.push(`CREATE INDEX IF NOT EXISTS ${t}_search ON ${t} USING gin (${searched.map((e) => `${e} ${ops}`).join(', ')}) WITH (fastupdate = off)`);
  }
  return out;
}

/** Whether the rows of `def` keep revisions (src/shared/revisions.ts, shared with the console). */
export { keepsRevisions };

/**
 * The statements of the revision triggers of table `t` (`keep_revisions()`, made by
 * src/server/revisions/revision-migrations.ts): after each INSERT, UPDATE and DELETE statement, with
 * its transition tables. Named `<t>_rev_i`, `_u`, `_d`; `CREATE OR REPLACE`, run only when missing.
 */
function revisionTriggerSql(t: string): string[] {
  return [
    `CREATE OR REPLACE TRIGGER ${t}_rev_i AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION keep_revisions()`,
    `CREATE OR REPLACE TRIGGER ${t}_rev_u AFTER UPDATE ON ${t} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION keep_revisions()`,
    `CREATE OR REPLACE TRIGGER ${t}_rev_d AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION keep_revisions()`,
  ];
}

/**
 * Makes the pg_trgm extension available when it can (PGlite ships it; PostgreSQL needs the contrib
 * package and the right to create it), in `public` when it may, and answers the schema it lives in,
 * or null without it.
 */
export async function enableTrigrams(db: Database): Promise<string | null> {
  const find = async () =>
    (await db.query<{ schema: string }>(
      `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
    ))[0]?.schema ?? null;
  const found = await find();
  if (found) return found;
  // In `public` when it may: an extension belongs to one schema, and in the tenant's own schema a
  // DROP SCHEMA … CASCADE of that schema would take every other schema's trigram indexes with it.
  for (const sql of ['CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public', 'CREATE EXTENSION IF NOT EXISTS pg_trgm']) {
    try {
      await db.exec(sql);
      break;
    } catch {
      // no `public`, not installed or not allowed, or another process made it just now
    }
  }
  return find(); // null: search works, unindexed
}

/**
 * Creates the table and indexes of every resource of `resources` when missing, in one transaction
 * under an advisory lock (several processes may start at once on PostgreSQL).
 */
export async function ensureResourceTables(db: Database, resources: Iterable<ResourceDef>): Promise<void> {
  const trigrams = await enableTrigrams(db);
  const statements = [...resources].flatMap((def) => resourceTableSql(def, trigrams));
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_RESOURCE_TABLES]);
    // Only what is missing, in one round trip (a start with every table and index runs no DDL).
    const existing = new Set(
      (
        await tx.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')
           UNION ALL SELECT g.tgname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND NOT g.tgisinternal`,
        )
      ).map((r) => r.name),
    );
    const missing = statements.filter((sql) => {
      const name = /^CREATE (?:(?:TABLE|INDEX) IF NOT EXISTS|OR REPLACE TRIGGER) (\w+)/.exec(sql)?.[1];
      // PostgreSQL keeps the first 63 bytes of a name (ours are ASCII).
      return !name || !existing.has(name.slice(0, 63));
    });
    if (missing.length > 0) await tx.exec(missing.join(';\n'));
  });
}

/**
 * Recomputes `resource_counts` of one resource from its table (all cities). Use after rows were
 * written by other means than the repository. Not safe against concurrent writes of other processes.
 */
export async function recountResource(db: Database, def: ResourceDef): Promise<void> {
  const t = tableName(def);
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM resource_counts WHERE resource = $1', [def.name]);
    await tx.query(`INSERT INTO resource_counts (resource, city, n) SELECT $1, city, count(*) FROM ${t} GROUP BY city`, [def.name]);
  });
}

/** `recountResource` of several resources in one transaction and one round trip. */
export async function recountResources(db: Database, defs: Iterable<ResourceDef>): Promise<void> {
  const sql = [...defs].flatMap((def) => {
    checkIdent('resource name', def.name);
    return [`DELETE FROM resource_counts WHERE resource = '${def.name}'`, `INSERT INTO resource_counts (resource, city, n) SELECT '${def.name}', city, count(*) FROM ${tableName(def)} GROUP BY city`];
  });
  if (sql.length > 0) await db.transaction((tx) => tx.exec(sql.join(';\n')));
}

/** The city key of rows of global resources (reference data shared by every city). */
export const GLOBAL_CITY = '*';

/** The city key a resource's rows are stored under when reached through `city` (null: a path with no city). */
export function storageCity(def: ResourceDef, city: string | null): string {
  return def.scope === 'global' || city === null ? GLOBAL_CITY : city;
}
