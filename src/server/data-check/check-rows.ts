/**
 * Stored rows checked against their resource's current schema (docs/architecture.md 'Changing an
 * entity'): `npm run check:data` (every row), the count of the start and the データ点検 page (a
 * sample of a large table). A row is checked as a write of it would be (`storedRecordFailures` of
 * src/shared/validation.ts after the write's coercions, record-shape.ts `prepareInput`), so a row
 * that passes here can be saved as it is.
 * Rows are read in id order, CHECK_BATCH at a time (keyset: `id > last`), so memory stays bounded
 * whatever the table's size.
 */
import { registry, type ResourceDef } from '../../shared/registry';
import { storedRecordFailures, type RecordFailure } from '../../shared/validation';
import type { Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { prepareInput } from '../repositories/record-shape';

/** Rows read per statement. */
export const CHECK_BATCH = 1000;

/** One broken rule of one stored row. */
export interface RowFailure extends RecordFailure {
  resource: string;
  id: number;
  /** The row's city key (`*`: a global resource's row). */
  city: string;
}

/** What the check found in one resource's table. */
export interface ResourceCheck {
  resource: string;
  /** Rows in the table (all cities; from `resource_counts`, exact after a full check). */
  total: number;
  /** Rows read and checked. */
  checked: number;
  /** Rows that fail: counted among the checked rows; when `sampled`, estimated for the whole table. */
  failing: number;
  /** Whether only a sample was read (`total` above the `sample` asked for). */
  sampled: boolean;
  /** The first failures found (at most `first` rows, every rule each breaks), in id order. */
  failures: RowFailure[];
}

export interface CheckOptions {
  /** Read at most this many rows of a larger table, chosen at random (TABLESAMPLE), and estimate. Default: read every row. */
  sample?: number;
  /** How many failing rows to name per resource (default 10). */
  first?: number;
  /** Called after each batch with the rows read so far and the table's total. */
  onProgress?(progress: { resource: string; checked: number; total: number }): void;
}

interface StoredRow {
  id: number | string;
  city: string;
  data: Record<string, unknown>;
}

/** The rules `data`, a stored row of `def`, breaks (empty: it could be saved as it is). */
export function rowFailures(def: ResourceDef, data: Record<string, unknown>): RecordFailure[] {
  const prepared = prepareInput(def, data);
  return storedRecordFailures(def, (typeof prepared === 'object' && prepared !== null ? prepared : data) as Record<string, unknown>);
}

async function totalOf(db: Queryable, def: ResourceDef): Promise<number> {
  const [row] = await db.query<{ n: number | null }>('SELECT sum(n)::bigint AS n FROM resource_counts WHERE resource = $1', [def.name]);
  return Number(row?.n ?? 0);
}

/**
 * Checks the stored rows of one resource (every row, or a sample: `options.sample`).
 * Errors: database errors.
 */
export async function checkResource(db: Queryable, def: ResourceDef, options: CheckOptions = {}): Promise<ResourceCheck> {
  const first = options.first ?? 10;
  const t = tableName(def);
  let total = await totalOf(db, def);
  const result: ResourceCheck = { resource: def.name, total, checked: 0, failing: 0, sampled: false, failures: [] };
  const take = (rows: StoredRow[]) => {
    for (const r of rows) {
      result.checked += 1;
      const failures = rowFailures(def, r.data);
      if (failures.length === 0) continue;
      result.failing += 1;
      if (result.failing <= first) for (const f of failures) result.failures.push({ resource: def.name, id: Number(r.id), city: r.city, ...f });
    }
  };
  if (options.sample !== undefined && total > options.sample) {
    // A random sample of about `sample` rows: whole pages (SYSTEM), at twice the share, cut to size.
    const percent = Math.min(100, (200 * options.sample) / total);
    let rows = await db.query<StoredRow>(`SELECT id, city, data FROM ${t} TABLESAMPLE SYSTEM (${percent.toFixed(4)}) LIMIT ${options.sample}`);
    if (rows.length === 0) rows = await db.query<StoredRow>(`SELECT id, city, data FROM ${t} ORDER BY id DESC LIMIT ${options.sample}`);
    take(rows.sort((a, b) => Number(a.id) - Number(b.id)));
    result.sampled = true;
    if (result.checked > 0) result.failing = Math.round((result.failing * total) / result.checked);
    options.onProgress?.({ resource: def.name, checked: result.checked, total });
    return result;
  }
  let last = 0;
  for (;;) {
    const rows = await db.query<StoredRow>(`SELECT id, city, data FROM ${t} WHERE id > $1 ORDER BY id LIMIT ${CHECK_BATCH}`, [last]);
    if (rows.length === 0) break;
    take(rows);
    last = Number(rows[rows.length - 1].id);
    options.onProgress?.({ resource: def.name, checked: result.checked, total: Math.max(total, result.checked) });
    if (rows.length < CHECK_BATCH) break;
  }
  total = result.checked;
  result.total = total;
  return result;
}

/** `checkResource` of every resource of `resources` (default: the registry), one after the other. */
export async function checkData(db: Queryable, options: CheckOptions & { resources?: Iterable<ResourceDef> } = {}): Promise<ResourceCheck[]> {
  const out: ResourceCheck[] = [];
  for (const def of options.resources ?? registry.values()) out.push(await checkResource(db, def, options));
  return out;
}

/**
 * The lines of a report in the style of `npm run check` (scripts/validate.ts): per resource with
 * failing rows `check:data: <resource>: N of M rows fail`, then one line per failure
 * `check:data:   <resource> <id> <city> <field> <rule>`; a last line of totals.
 */
export function reportLines(checks: readonly ResourceCheck[]): string[] {
  const lines: string[] = [];
  let rows = 0;
  let failing = 0;
  for (const c of checks) {
    rows += c.checked;
    failing += c.failing;
    if (c.failing === 0) continue;
    lines.push(`check:data: ${c.resource}: ${c.failing} of ${c.total} rows fail${c.sampled ? ` (estimated from ${c.checked} sampled)` : ''}`);
    for (const f of c.failures) lines.push(`check:data:   ${f.resource} ${f.id} ${f.city} ${f.field} ${f.rule}`);
  }
  const bad = checks.filter((c) => c.failing > 0).length;
  lines.push(
    failing === 0
      ? `check:data: ${rows} rows of ${checks.length} resources: all good`
      : `check:data: ${failing} of ${rows} rows fail their schema in ${bad} of ${checks.length} resources`,
  );
  return lines;
}
