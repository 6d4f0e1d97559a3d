/**
 * Demo data for the statistics and the dashboard (000 2.2 statistic routes; 000 3 statistic rows:
 * env, total_money, total_user, user_name): on a new database with demo content, 90 days up to now
 * of in-app purchases (`purchase_transaction`, `passport_transaction`), voucher uses
 * (`voucher_usage`, some of halloween passes), common time-sale coupon uses (`coupon_usage`), menu
 * purchases of the demo Advertiser's shops (`menu_purchase`), favourites (`favorite_ad`) and clicks
 * (`user_click`) in kobe and fukuoka. Days have a weekly rhythm (Saturdays and Sundays busier), a
 * slow growth over the quarter and a few campaigns (spikes of a few days); the buyers are a few
 * hundred demo users, some much more active than others; amounts are the products' and vouchers'
 * own yen prices.
 *
 * Every series (./demo-series.ts) is one `INSERT … SELECT` over `generate_series` in SQL (PostgreSQL's `random()` made
 * repeatable by `setseed`, so a new database always holds the same figures), relative to `now`:
 * the charts always show the last 90 days. The values come from the city's seeded rows (products,
 * vouchers, time sales, shops, menu items) turned into weighted "choices" here; each stored record
 * is what the API would store (every default filled in, the references real ids of the same city).
 * The demo accounts get the shops and school the figures are about (the Advertiser the first two
 * shops of kobe, the President and Teacher the first school). The server makes them by a job once
 * it listens, a resource per transaction (`demoStatisticsJob`). See docs/architecture.md 'Storage'
 * and 'Jobs'.
 */
import type { ResourceDef } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import type { JobKind } from '../jobs/job-runner';
import { countSeeded, DEMO_CITIES } from '../seed-examples';
import { CITY_SCALE, cityRefs, RANDOM_SEED, SERIES, seriesSql } from './demo-series';
import { DEFER_LEVELS, refreshStatisticLevels } from './rollups';

export { DEMO_BUYERS, DEMO_DAYS } from './demo-series';

/**
 * Gives the demo accounts the rows their figures are about (000 6 own rows): the Advertiser the
 * first two shops of kobe (those with the demo menu items), the President the first school of kobe,
 * the Teacher the same school, its first group and first class. Only the accounts still without.
 */
export async function linkDemoAccounts(tx: Queryable, resources: ReadonlyMap<string, ResourceDef>): Promise<void> {
  const first = async (name: string, n: number): Promise<number[]> => {
    const def = resources.get(name);
    if (!def) return [];
    return (await tx.query<{ id: number }>(`SELECT id FROM ${tableName(def)} WHERE city = 'kobe' ORDER BY id LIMIT ${n}`)).map((r) => Number(r.id));
  };
  const shops = await first('advertisement', 2);
  if (shops.length > 0) {
    await tx.query("UPDATE users SET advertisements = $1::int[] WHERE username = 'advertiser' AND permission = 'Advertiser' AND cardinality(advertisements) = 0", [shops]);
  }
  const [school] = await first('school', 1);
  if (school === undefined) return;
  const [group] = await first('school_group', 1);
  const [schoolClass] = await first('school_class', 1);
  await tx.query("UPDATE users SET school = $1 WHERE username = 'president' AND permission = 'President' AND school IS NULL", [school]);
  await tx.query("UPDATE users SET school = $1, grp = $2, classes = $3::int[] WHERE username = 'teacher' AND permission = 'Teacher' AND school IS NULL", [
    school,
    group ?? null,
    schoolClass === undefined ? [] : [schoolClass],
  ]);
}

/** What `seedDemoStatistics` stored: rows per resource (both cities) and the time it took in ms. */
export interface DemoStatisticsReport {
  rows: Record<string, number>;
  ms: number;
}

/** The resources of the demo series present in `resources`, in insertion order. */
export function demoStatisticResources(resources: ReadonlyMap<string, ResourceDef>): string[] {
  return [...new Set(SERIES.map((s) => s.resource))].filter((name) => resources.has(name));
}

/**
 * Stores the demo rows of one resource (its series, in kobe and fukuoka) in one transaction of `db`,
 * with its list counts, a `seed` audit row per batch and its rollups' coarser levels; `within(tx)`
 * runs last in the same transaction (the job's record of progress). `now` (ms since the epoch) is
 * the last instant of the 90 days. Answers the rows stored. Errors: the database's.
 */
export async function seedDemoResource(
  db: Database,
  resources: ReadonlyMap<string, ResourceDef>,
  resource: string,
  now: number,
  within: (tx: Queryable) => Promise<void> = async () => {},
): Promise<number> {
  const def = resources.get(resource);
  if (!def) return 0;
  const table = tableName(def);
  return db.transaction(async (tx) => {
    // Each resource has a seed of its own, so its figures do not depend on which others were made.
    await tx.query('SELECT setseed($1)', [RANDOM_SEED / (1 + SERIES.findIndex((s) => s.resource === resource))]);
    // The rollup's coarser levels are made once at the end, not after each of the series' inserts.
    await tx.exec(`SET LOCAL ${DEFER_LEVELS} = 'on'`);
    // A GIN (trigram) index takes each row far slower than it is built over all rows at once: the
    // table's GIN indexes are dropped for the load and made again from their own definitions.
    const gin = await tx.query<{ name: string; def: string }>(
      `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexdef LIKE '% USING gin %'`,
      [table],
    );
    for (const { name } of gin) await tx.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
    const counts: Array<{ resource: string; city: string; n: number }> = [];
    for (const [c, city] of DEMO_CITIES.entries()) {
      const refs = await cityRefs(tx, resources, city);
      for (const [s, series] of SERIES.entries()) {
        const choices = series.resource === resource ? series.choices(refs) : [];
        if (choices.length === 0) continue;
        const [{ n }] = await tx.query<{ n: number }>(seriesSql(table, series.fields), [
          city,
          JSON.stringify(choices),
          new Date(now).toISOString(),
          `${c + 1}${s + 1}`,
          series.perDay * (CITY_SCALE[city] ?? 1),
          series.weekend,
          series.growth,
          JSON.stringify(series.campaigns),
        ]);
        counts.push({ resource, city, n });
      }
    }
    for (const { def: index } of gin) await tx.exec(index);
    await refreshStatisticLevels(tx, [def]);
    await tx.exec(`SET LOCAL ${DEFER_LEVELS} = 'off'`);
    await countSeeded(tx, counts);
    await within(tx);
    return counts.reduce((sum, c) => sum + c.n, 0);
  });
}

/**
 * Stores the demo rows of every series whose resource is in `resources` (a test registry without
 * them gets none), in kobe and fukuoka, one transaction per resource (`seedDemoResource`). Meant for
 * a new database right after the examples are seeded (seed.ts): the choices come from those rows.
 * The server runs it as a job after its start (`demoStatisticsJob`); tests and templates call it
 * directly. Errors: the database's.
 */
export async function seedDemoStatistics(db: Database, resources: ReadonlyMap<string, ResourceDef>, now = Date.now()): Promise<DemoStatisticsReport> {
  const started = performance.now();
  const rows: Record<string, number> = {};
  for (const resource of demoStatisticResources(resources)) rows[resource] = await seedDemoResource(db, resources, resource, now);
  return { rows, ms: Math.round(performance.now() - started) };
}

/** The kind of the job that makes the demo statistics after a first start; payload `DemoStatisticsPayload`. */
export const DEMO_STATISTICS_JOB = 'demo-statistics';

/**
 * How long after the seed the demo statistics' job is due by itself (ms): the server makes it due
 * once it listens (`JobRunner.runNow`), so it never holds up the start; this is for a start that
 * stopped between the seed and the listen.
 */
export const DEMO_STATISTICS_DELAY_MS = 30_000;

/** The demo job's payload: the last instant of the 90 days (ms since the epoch) and the resources done. */
export interface DemoStatisticsPayload {
  now: number;
  done: string[];
}

/**
 * The job kind that makes the demo statistics (`seedDemoStatistics`) in the background after a first
 * start, so the start does not wait for them: a resource at a time, each in a transaction that also
 * records it as done in the job's payload, with a checkpoint between; a retry goes on with the
 * resources left.
 */
export function demoStatisticsJob(resources: ReadonlyMap<string, ResourceDef>): JobKind<DemoStatisticsPayload> {
  return {
    kind: DEMO_STATISTICS_JOB,
    async run({ job, db, checkpoint }) {
      const done = new Set(job.payload.done ?? []);
      for (const resource of demoStatisticResources(resources).filter((r) => !done.has(r))) {
        await checkpoint();
        await seedDemoResource(db, resources, resource, job.payload.now, async (tx) => {
          await tx.query("UPDATE jobs SET payload = jsonb_set(payload, '{done}', coalesce(payload->'done', '[]') || to_jsonb($2::text)) WHERE id = $1", [job.id, resource]);
        });
      }
    },
  };
}
