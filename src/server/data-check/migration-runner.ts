/**
 * Applies the declared data migrations (./declared.ts; docs/architecture.md 'Changing an entity'):
 * at start after the versioned migrations of the fixed tables and the resource tables
 * (../db/prepare.ts), and from `npm run migrate` (with `--dry-run`: nothing written).
 * - In name order, each once: `data_migrations` records its name with its time and row counts.
 * - Each in its own transaction under an advisory lock (several processes on one PostgreSQL apply it
 *   once): its rows are read in id order, a batch at a time, locked (FOR UPDATE), and the changed
 *   ones written by `writeMigratedRows`, the one place where a migration writes a row. A failure
 *   rolls the migration back whole and stops there, naming it (`DataMigrationError`); those before
 *   it stay applied.
 * - A dry run reads the rows once per resource, applies its pending migrations in order in memory,
 *   and answers what each would change; it writes nothing.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { recordAudit } from '../audit/audit-log';
import { keepRevisions } from '../revisions/revision-writes';
import { rowFailures } from './check-rows';
import type { DataMigration } from './declared';

/** Advisory lock of data migrations (distinct from those of ../db/migrations.ts). */
export const LOCK_DATA_MIGRATE = 7_412_010;
/** Rows read, and written, per statement. */
export const MIGRATE_BATCH = 500;
/** Changed rows shown per migration in a dry run's answer. */
const EXAMPLES = 3;

/** What one migration changed, or would change (a dry run). */
export interface DataMigrationReport {
  name: string;
  resource: string;
  description?: string;
  /** Rows read. */
  rows: number;
  /** Rows whose data it changed. */
  changed: number;
  /** Changed rows that still fail their schema afterwards (`npm run check:data` names them). */
  failingAfter: number;
  /** Milliseconds it took. */
  ms: number;
  /** A few changed rows, before and after (top-level fields that differ). */
  examples: Array<{ id: number; city: string; before: Record<string, unknown>; after: Record<string, unknown> }>;
}

/** A migration that failed: the start stops with it; nothing of it was written. */
export class DataMigrationError extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`data migration ${migration} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'DataMigrationError';
  }
}

interface StoredRow {
  id: number | string;
  city: string;
  data: Record<string, unknown>;
}

/** A row a migration changed: its key, its data before and after. */
export interface MigratedRowWrite {
  id: number;
  city: string;
  before: Record<string, unknown>;
  data: Record<string, unknown>;
}

/**
 * The one place where a data migration writes rows: the new data of `rows` of `def`, each row's
 * `version` raised by one and `updated_at` set, in the migration's transaction `tx`, in one
 * statement. What every write of a row must also do (a revision of it, when revisions exist) is done
 * here, with `migration` as its cause.
 */
export async function writeMigratedRows(tx: Queryable, def: ResourceDef, rows: readonly MigratedRowWrite[], migration: string): Promise<void> {
  void migration;
  if (rows.length === 0) return;
  // A migration's writes keep revisions like any other write (src/server/revisions/), by the server.
  await keepRevisions(tx, null, 'migration');
  await tx.query(
    `UPDATE ${tableName(def)} AS t SET data = v.data, version = t.version + 1, updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS v(id bigint, data jsonb) WHERE t.id = v.id`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, data: r.data })))],
  );
}

/** The names of the data migrations applied to `db`, with when and what they changed. */
export async function appliedDataMigrations(db: Queryable): Promise<Array<{ name: string; resource: string; applied_at: Date; rows_read: number; rows_changed: number; failing_after: number; ms: number }>> {
  return db.query('SELECT name, resource, applied_at, rows_read, rows_changed, failing_after, ms FROM data_migrations ORDER BY name');
}

/** The migrations of `migrations` not applied yet to `db` whose resource `resources` serves, in name order. */
export async function pendingDataMigrations(db: Queryable, migrations: readonly DataMigration[], resources: ReadonlyMap<string, ResourceDef>): Promise<DataMigration[]> {
  const applied = new Set((await appliedDataMigrations(db)).map((m) => m.name));
  return [...migrations].sort((a, b) => a.name.localeCompare(b.name)).filter((m) => !applied.has(m.name) && resources.has(m.resource));
}

/** One row through a migration: the new data, or null when it leaves the row as it is. Errors: the migration's, naming the row. */
function migrateData(m: DataMigration, row: { id: number; city: string; data: Record<string, unknown> }): Record<string, unknown> | null {
  let next: Record<string, unknown> | undefined | void;
  try {
    next = m.up(structuredClone(row.data), { id: row.id, city: row.city });
  } catch (err) {
    throw new Error(`row ${row.id} (${row.city}): ${(err as Error)?.message ?? String(err)}`, { cause: err });
  }
  if (next === undefined) return null;
  if (typeof next !== 'object' || next === null || Array.isArray(next)) throw new Error(`row ${row.id} (${row.city}): up() must answer an object or nothing`);
  return isDeepStrictEqual(next, row.data) ? null : next;
}

function diff(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (isDeepStrictEqual(before[k], after[k])) continue;
    if (k in before) out.before[k] = before[k];
    if (k in after) out.after[k] = after[k];
  }
  return out;
}

function emptyReport(m: DataMigration): DataMigrationReport {
  return { name: m.name, resource: m.resource, description: m.description, rows: 0, changed: 0, failingAfter: 0, ms: 0, examples: [] };
}

function count(report: DataMigrationReport, def: ResourceDef, id: number, city: string, before: Record<string, unknown>, after: Record<string, unknown>): void {
  report.changed += 1;
  if (rowFailures(def, after).length > 0) report.failingAfter += 1;
  if (report.examples.length < EXAMPLES) report.examples.push({ id, city, ...diff(before, after) });
}

/** Applies one migration in `tx`; answers its report. */
async function applyOne(tx: Queryable, def: ResourceDef, m: DataMigration): Promise<DataMigrationReport> {
  const started = performance.now();
  const report = emptyReport(m);
  const t = tableName(def);
  let last = 0;
  for (;;) {
    const rows = await tx.query<StoredRow>(`SELECT id, city, data FROM ${t} WHERE id > $1 ORDER BY id LIMIT ${MIGRATE_BATCH} FOR UPDATE`, [last]);
    if (rows.length === 0) break;
    const writes: MigratedRowWrite[] = [];
    for (const r of rows) {
      const id = Number(r.id);
      report.rows += 1;
      const next = migrateData(m, { id, city: r.city, data: r.data });
      if (!next) continue;
      count(report, def, id, r.city, r.data, next);
      writes.push({ id, city: r.city, before: r.data, data: next });
    }
    await writeMigratedRows(tx, def, writes, m.name);
    last = Number(rows[rows.length - 1].id);
    if (rows.length < MIGRATE_BATCH) break;
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

export interface RunOptions {
  /** The resources served (a migration of another resource waits). */
  resources: ReadonlyMap<string, ResourceDef>;
  /** Print nothing, write nothing: answer what each pending migration would change. */
  dryRun?: boolean;
  /** Called after each migration applied (or counted, in a dry run). */
  onApplied?(report: DataMigrationReport): void;
}

/**
 * Applies the pending migrations of `migrations` to `db` in name order (or, with `dryRun`, counts
 * what they would change). Answers a report per migration applied now.
 * Errors: `DataMigrationError` for the first migration that throws or whose writes fail (it is rolled
 * back; later ones are not tried).
 */
export async function runDataMigrations(db: Database, migrations: readonly DataMigration[], options: RunOptions): Promise<DataMigrationReport[]> {
  const pending = await pendingDataMigrations(db, migrations, options.resources);
  if (options.dryRun) return dryRun(db, pending, options);
  const out: DataMigrationReport[] = [];
  for (const m of pending) {
    const def = options.resources.get(m.resource)!;
    let report: DataMigrationReport | null;
    try {
      report = await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_DATA_MIGRATE]);
        // Another process may have applied it while this one waited for the lock.
        if ((await tx.query('SELECT 1 FROM data_migrations WHERE name = $1', [m.name])).length > 0) return null;
        const r = await applyOne(tx, def, m);
        await tx.query('INSERT INTO data_migrations (name, resource, rows_read, rows_changed, failing_after, ms) VALUES ($1, $2, $3, $4, $5, $6)', [
          m.name,
          m.resource,
          r.rows,
          r.changed,
          r.failingAfter,
          r.ms,
        ]);
        await recordAudit(tx, { category: 'record', action: 'data_migration', userId: null, resource: m.resource, detail: { migration: m.name, rows: r.rows, changed: r.changed } });
        return r;
      });
    } catch (err) {
      throw new DataMigrationError(m.name, err);
    }
    if (report) {
      out.push(report);
      options.onApplied?.(report);
    }
  }
  return out;
}

/** The dry run: per resource, its rows read once and passed through its pending migrations in order. */
async function dryRun(db: Database, pending: readonly DataMigration[], options: RunOptions): Promise<DataMigrationReport[]> {
  const reports = new Map(pending.map((m) => [m.name, emptyReport(m)]));
  for (const resource of new Set(pending.map((m) => m.resource))) {
    const def = options.resources.get(resource)!;
    const mine = pending.filter((m) => m.resource === resource);
    const started = performance.now();
    let last = 0;
    for (;;) {
      const rows = await db.query<StoredRow>(`SELECT id, city, data FROM ${tableName(def)} WHERE id > $1 ORDER BY id LIMIT ${MIGRATE_BATCH}`, [last]);
      if (rows.length === 0) break;
      for (const r of rows) {
        const id = Number(r.id);
        let data = r.data;
        for (const m of mine) {
          const report = reports.get(m.name)!;
          report.rows += 1;
          let next: Record<string, unknown> | null;
          try {
            next = migrateData(m, { id, city: r.city, data });
          } catch (err) {
            throw new DataMigrationError(m.name, err);
          }
          if (!next) continue;
          count(report, def, id, r.city, data, next);
          data = next;
        }
      }
      last = Number(rows[rows.length - 1].id);
      if (rows.length < MIGRATE_BATCH) break;
    }
    const ms = Math.round(performance.now() - started);
    for (const m of mine) reports.get(m.name)!.ms = ms;
  }
  const out = pending.map((m) => reports.get(m.name)!);
  out.forEach((r) => options.onApplied?.(r));
  return out;
}

/** The lines `npm run migrate` prints for a report (dry run or not). */
export function migrationReportLines(reports: readonly DataMigrationReport[], dryRun: boolean): string[] {
  if (reports.length === 0) return [`migrate: no pending data migration`];
  const lines: string[] = [];
  for (const r of reports) {
    const verb = dryRun ? 'would change' : 'changed';
    lines.push(`migrate: ${r.name} (${r.resource}): ${verb} ${r.changed} of ${r.rows} rows${r.failingAfter ? `, ${r.failingAfter} of them still failing their schema` : ''}${dryRun ? '' : ` in ${r.ms} ms`}`);
    if (r.description) lines.push(`migrate:   ${r.description}`);
    for (const e of r.examples) lines.push(`migrate:   ${r.resource} ${e.id} ${e.city}: ${JSON.stringify(e.before)} → ${JSON.stringify(e.after)}`);
  }
  if (dryRun) lines.push(`migrate: dry run: nothing was written`);
  return lines;
}
