/**
 * Demo rows from the schemas' `examples` (schemas/meta/resource.schema.json): on a new database every
 * resource with examples gets them in kobe and fukuoka (global resources once), `x-seed-count` rows
 * per city (default: one per example, and at least DEMO_MIN_ROWS so a list has two pages to page
 * through) made by cycling the examples; a repeated example gets a distinguishing suffix ` (2)`,
 * ` (3)`… on its first free-text field. The rows' creation times go back from now DEMO_SPACING_MS
 * apart, the first example newest. So a developer adds demo data by editing a schema, and no code.
 *
 * Generic adjustments, so examples written once stay valid:
 * - `x-future` dates: an example whose future dates are no longer a week ahead has all its dates
 *   moved by whole days (intervals and times of day kept);
 * - `x-ref` values are positions, 1-based, among the seeded rows of the referenced resource in the
 *   same city (ids differ per city and database): `advertisement: 2` is the city's second demo ad;
 * - readOnly server fields of an example (a `read` flag, a status) are kept; a list call's or create
 *   call's `where` values are stored (a mall is stored with type 24);
 * - a singleton gets its first example only.
 * An example that still breaks a rule is skipped and reported (the start goes on).
 */
import { fieldTypes } from '../shared/field-types';
import type { ResourceDef } from '../shared/registry';
import type { Database, Queryable } from './db/database';
import { GLOBAL_CITY, tableName } from './db/resource-tables';
import { HttpError } from './http-error';
import { shapeOf } from './repositories/record-shape';
import { composeRecord } from './repositories/resource-repository';
import { recordAudit } from './audit/audit-log';

/** The cities demo rows go to (000 6 names them among the first cities). */
export const DEMO_CITIES = ['kobe', 'fukuoka'] as const;
/** Further cities, for the resources their demo account's menu lists there: the Member of cippoweb (000 2.2 premium-pass, mall). */
const DEMO_ACCOUNT_CITIES: Readonly<Record<string, readonly string[]>> = { scene: ['cippoweb'], genre: ['cippoweb'] };

const DAY_MS = 86_400_000;
const LEAD_MS = 7 * DAY_MS;
/** Demo rows of a resource with examples, per city, at least: two pages of 20 (001 9). */
export const DEMO_MIN_ROWS = 25;
/** How far apart the demo rows' creation times are, ms. */
const DEMO_SPACING_MS = 7 * 3_600_000;

/** The first free-text string field of a resource, where a suffix can tell copies apart; null if none. */
export function labelField(def: ResourceDef): string | null {
  for (const [field, p] of Object.entries(def.schema.properties)) {
    if (!fieldTypes(p).includes('string') || p.readOnly || p.enum || p.format || p['x-ref'] || p['x-upload']) continue;
    if ((p as { pattern?: string }).pattern || (p['x-widget'] && p['x-widget'] !== 'textarea' && p['x-widget'] !== 'richtext')) continue;
    return field;
  }
  return null;
}

/** `count` records made by cycling `examples`; copies get ` (n)` on `label` (kept within its maxLength). */
export function cycleExamples(def: ResourceDef, examples: ReadonlyArray<Record<string, unknown>>, count: number): Array<Record<string, unknown>> {
  const label = labelField(def);
  const max = label ? def.schema.properties[label].maxLength : undefined;
  return Array.from({ length: count }, (_, i) => {
    const record = structuredClone(examples[i % examples.length]);
    const round = Math.floor(i / examples.length);
    if (round > 0 && label && typeof record[label] === 'string') {
      const suffix = ` (${round + 1})`;
      const text = record[label] as string;
      record[label] =
        max !== undefined && text.length + suffix.length > max ? `${text.slice(0, Math.max(0, max - suffix.length))}${suffix}` : `${text}${suffix}`;
    }
    return record;
  });
}

/** Moves every date of `record` by whole days when its `x-future` dates are not a week ahead of `now`. */
export function shiftDates(def: ResourceDef, record: Record<string, unknown>, now: number): Record<string, unknown> {
  const dated = Object.entries(def.schema.properties).filter(([, p]) => p.format === 'date-time' || p.format === 'date');
  const future = dated.filter(([f, p]) => p['x-future'] && typeof record[f] === 'string' && !Number.isNaN(Date.parse(record[f] as string)));
  if (future.length === 0) return record;
  const earliest = Math.min(...future.map(([f]) => Date.parse(record[f] as string)));
  if (earliest > now + DAY_MS) return record;
  const days = Math.ceil((now + LEAD_MS - earliest) / DAY_MS);
  const out = { ...record };
  for (const [f, p] of dated) {
    const v = out[f];
    if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) continue;
    const moved = new Date(Date.parse(v) + days * DAY_MS).toISOString();
    out[f] = p.format === 'date' ? moved.slice(0, 10) : moved;
  }
  return out;
}

type Seeded = Map<string, Map<string, number[]>>;

function refFields(def: ResourceDef): Array<[string, string]> {
  return Object.entries(def.schema.properties)
    .filter(([, p]) => p['x-ref'])
    .map(([f, p]) => [f, p['x-ref'] as string]);
}

/** Resources with examples, referenced ones first (cycles keep the registry order). */
function seedOrder(resources: ReadonlyMap<string, ResourceDef>): ResourceDef[] {
  const out: ResourceDef[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (def: ResourceDef) => {
    if (state.has(def.name)) return;
    state.set(def.name, 'visiting');
    for (const [, ref] of refFields(def)) {
      const target = resources.get(ref);
      if (target && target !== def) visit(target);
    }
    state.set(def.name, 'done');
    if (def.examples.length > 0) out.push(def);
  };
  for (const def of resources.values()) visit(def);
  return out;
}

function mapRef(value: unknown, ids: readonly number[] | undefined): unknown {
  if (!ids || ids.length === 0) return value;
  const one = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? ids[(v - 1) % ids.length] : v);
  return Array.isArray(value) ? value.map(one) : one(value);
}

function remapRefs(
  def: ResourceDef,
  record: Record<string, unknown>,
  city: string,
  seeded: Seeded,
  resources: ReadonlyMap<string, ResourceDef>,
): Record<string, unknown> {
  const out = { ...record };
  for (const [field, ref] of refFields(def)) {
    if (!(field in out) || ref === def.name) continue;
    const target = resources.get(ref);
    const key = target?.scope === 'global' ? GLOBAL_CITY : city;
    out[field] = mapRef(out[field], seeded.get(ref)?.get(key));
  }
  return out;
}

function describe(err: unknown): string {
  if (err instanceof HttpError && err.fieldErrors) {
    return Object.entries(err.fieldErrors)
      .map(([f, list]) => `${f}: ${list.map((e) => e.key).join(', ')}`)
      .join('; ');
  }
  return (err as Error).message;
}

async function insertAll(tx: Queryable, def: ResourceDef, city: string, records: Array<Record<string, unknown>>, now: number): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO ${tableName(def)} (city, data, created_at, updated_at)
     SELECT $1, d, t, t FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(d, i), LATERAL (SELECT to_timestamp(($3::float8 - (i - 1) * $4::float8) / 1000)) AS c(t)
     ORDER BY i RETURNING id`,
    [city, JSON.stringify(records), now, DEMO_SPACING_MS],
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/**
 * Stores the demo rows of every resource of `resources` that has examples. Resolves to the number of
 * rows stored and one line per example that was skipped (which schema, which example, which rule).
 */
export async function seedExamples(db: Database, resources: ReadonlyMap<string, ResourceDef>, now = Date.now()): Promise<{ rows: number; problems: string[] }> {
  const seeded: Seeded = new Map();
  const problems: string[] = [];
  let total = 0;
  const counts: Array<{ resource: string; city: string; n: number }> = [];
  // One transaction for every demo row: one commit instead of one per resource.
  await db.transaction(async (tx) => {
    for (const def of seedOrder(resources)) {
      const cities = def.scope === 'global' ? [GLOBAL_CITY] : [...DEMO_CITIES, ...(DEMO_ACCOUNT_CITIES[def.name] ?? [])];
      // A singleton takes its first valid example.
      const count = def.singleton ? def.examples.length : (def.schema['x-seed-count'] ?? Math.max(def.examples.length, DEMO_MIN_ROWS));
      const fixed = { ...def.api.list.where, ...def.api.create?.where };
      const { serverFields } = shapeOf(def);
      const selfRefs = refFields(def).filter(([, ref]) => ref === def.name);
      const byCity = new Map<string, number[]>();
      seeded.set(def.name, byCity);
      for (const city of cities) {
        const records: Array<Record<string, unknown>> = [];
        const sources: Array<Record<string, unknown>> = [];
        cycleExamples(def, def.examples, count).forEach((example, i) => {
          if (def.singleton && records.length > 0) return;
          const prepared = remapRefs(def, shiftDates(def, example, now), city, seeded, resources);
          const server = Object.fromEntries(serverFields.filter((f) => f in prepared).map((f) => [f, prepared[f]]));
          try {
            records.push(composeRecord(def, prepared, { ...server, ...fixed }));
            sources.push(prepared);
          } catch (err) {
            if (city === cities[0]) problems.push(`schemas/${def.schema.$id}.schema.json: examples[${i % def.examples.length}]: ${describe(err)}`);
          }
        });
        if (records.length === 0) continue;
        const ids = await insertAll(tx, def, city, records, now);
        counts.push({ resource: def.name, city, n: ids.length });
        byCity.set(city, ids);
        total += ids.length;
        // References to rows of the same resource point at positions of this batch.
        for (const [field] of selfRefs) {
          for (let i = 0; i < records.length; i += 1) {
            if (!(field in records[i])) continue;
            const mapped = mapRef(sources[i][field], ids);
            if (JSON.stringify(mapped) === JSON.stringify(records[i][field])) continue;
            await tx.query(`UPDATE ${tableName(def)} SET data = jsonb_set(data, $2::text[], $3::jsonb) WHERE id = $1`, [
              ids[i],
              [field],
              JSON.stringify(mapped),
            ]);
          }
        }
      }
    }
    await countSeeded(tx, counts);
  });
  return { rows: total, problems };
}

/**
 * Adds seeded batches (`n` rows of `resource` in `city` each) to the list counts and writes a `seed`
 * audit row per batch, in two statements; nothing for no batch.
 */
export async function countSeeded(tx: Queryable, counts: ReadonlyArray<{ resource: string; city: string; n: number }>): Promise<void> {
  if (counts.length === 0) return;
  const rows = JSON.stringify(counts);
  await tx.query(
    `INSERT INTO resource_counts (resource, city, n) SELECT resource, city, n FROM jsonb_to_recordset($1::jsonb) AS r(resource text, city text, n bigint)
     ON CONFLICT (resource, city) DO UPDATE SET n = resource_counts.n + EXCLUDED.n`,
    [rows],
  );
  await recordAudit(
    tx,
    counts.map((c) => ({ category: 'record' as const, action: 'seed', userId: null, city: c.city, resource: c.resource, detail: { rows: c.n } })),
  );
}

/**
 * The examples of `resources` that would be skipped by the seed (dates moved as the seed moves them;
 * references not resolved): one line per example, empty when all are valid. For tests and checks.
 */
export function checkExamples(resources: ReadonlyMap<string, ResourceDef>, now = Date.now()): string[] {
  const problems: string[] = [];
  for (const def of resources.values()) {
    const fixed = { ...def.api.list.where, ...def.api.create?.where };
    const { serverFields } = shapeOf(def);
    def.examples.forEach((example, i) => {
      const prepared = shiftDates(def, example, now);
      const server = Object.fromEntries(serverFields.filter((f) => f in prepared).map((f) => [f, prepared[f]]));
      try {
        composeRecord(def, prepared, { ...server, ...fixed });
      } catch (err) {
        problems.push(`schemas/${def.schema.$id}.schema.json: examples[${i}]: ${describe(err)}`);
      }
    });
  }
  return problems;
}
