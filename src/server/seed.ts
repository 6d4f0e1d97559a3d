/**
 * First-start data: the cities of 000 6, and unless NODE_ENV=production one demo user per role
 * (password `demo1234`) plus the demo rows of every schema with `examples` in kobe and fukuoka
 * (seed-examples.ts: at least two pages of each) and 90 days of statistic rows made from them
 * (statistics/demo-data.ts).
 * Runs only on a database without cities, under an advisory lock (several processes may start at once).
 */
import { registry, type ResourceDef } from '../shared/registry';
import type { Database } from './db/database';
import { LOCK_SEED } from './db/migrations';
import { hashPassword } from './auth/passwords';
import { recordDemoFiles } from './files/demo-files';
import { seedExamples } from './seed-examples';
import { seedDemoChat } from './chat/chat-demo';
import { DEMO_STATISTICS_DELAY_MS, DEMO_STATISTICS_JOB, linkDemoAccounts, seedDemoStatistics, type DemoStatisticsPayload } from './statistics/demo-data';
import { enqueueJob } from './jobs/job-runner';
import { seedDemoMembers } from './push/demo-members';
import { createUser, type NewUser } from './repositories/user-repository';
import { manifestCities, type Manifest } from '../shared/manifest';
import { loadManifests } from './manifests';

/** The first cities' order (their ids); every other city of a manifest follows by name. */
const SEED_ORDER = [
  'default', 'kobe', 'fukuoka', 'akita', 'toyonaka2', 'kurashiki', 'cippoweb', 'shonan', 'sanda', 'osakakyobashi',
  'tottoriseibu', 'shirahama', 'booking', 'kakogawa', 'awaji', 'kawanishi', 'kawasaki', 'kashu', 'advertiser',
];

/**
 * Cities seeded on a new database: name → Japanese name, the cities of the manifests (menus/*.json
 * with `name_ja`; 000 6 lists the names, 000 3 City), in SEED_ORDER first.
 */
export const SEED_CITIES: ReadonlyArray<readonly [string, string]> = (() => {
  const cities = manifestCities(loadManifests());
  const rank = (name: string) => (SEED_ORDER.includes(name) ? SEED_ORDER.indexOf(name) : SEED_ORDER.length);
  return [...cities].sort((a, b) => rank(a.name) - rank(b.name)).map((c) => [c.name, c.name_ja] as const);
})();

/** The password of every demo account. */
export const DEMO_PASSWORD = 'demo1234';

/** One demo account, as printed at start. */
export interface DemoAccount {
  username: string;
  role: string;
  cities: string[];
}

interface DemoUser extends DemoAccount {
  name: string;
  permission: string;
  captain?: boolean;
}

const DEMO_USERS: DemoUser[] = [
  { username: 'administrator', name: '管理 太郎', role: 'Administrator', permission: 'Administrator', cities: SEED_CITIES.map(([n]) => n) },
  { username: 'operator', name: '運用 花子', role: 'Operator', permission: 'Operator', cities: ['kobe', 'fukuoka', 'cippoweb'] },
  // An Operator with a single assigned city: it is chosen at sign-in (000 4).
  { username: 'operator-akita', name: '運用 秋子', role: 'Operator', permission: 'Operator', cities: ['akita'] },
  { username: 'president', name: '校長 一郎', role: 'President', permission: 'President', cities: ['kobe'] },
  { username: 'captain', name: '部長 次郎', role: 'Captain', permission: 'Member', captain: true, cities: ['kobe'] },
  { username: 'teacher', name: '先生 三郎', role: 'Teacher', permission: 'Teacher', cities: ['kobe'] },
  { username: 'advertiser', name: '商店 四郎', role: 'Advertiser', permission: 'Advertiser', cities: ['kobe'] },
  { username: 'police', name: '警察 五郎', role: 'Police', permission: 'Police', cities: ['kobe'] },
  { username: 'member', name: '会員 六子', role: 'Member', permission: 'Member', cities: ['cippoweb'] },
];

/** The demo accounts (all with password `demo1234`), for the start banner and the README. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = DEMO_USERS.map(({ username, role, cities }) => ({
  username,
  role,
  cities: role === 'Administrator' ? ['(all)'] : cities,
}));

/**
 * When the 90 days of demo statistics are made on a new database: `now`, in the seed; `job`, by a
 * job the server's runner runs after its start (statistics/demo-data.ts `demoStatisticsJob`), so the
 * start does not wait for them.
 */
export type DemoStatisticsWhen = 'now' | 'job';

async function seedDemoContent(db: Database, resources: ReadonlyMap<string, ResourceDef>, statistics: DemoStatisticsWhen): Promise<void> {
  // The sample pictures and PDF the examples name (`/files/<name>`), as uploads of kobe (files/demo-files.ts).
  await recordDemoFiles(db, 'kobe');
  // Every resource's demo rows come from its schema's examples (seed-examples.ts).
  const { problems } = await seedExamples(db, resources);
  for (const p of problems) console.warn(`seed: skipped an example that breaks a rule: ${p}`);
  // 90 days of purchases, uses and clicks for the statistics and the dashboard, made from those rows.
  if (statistics === 'now') await seedDemoStatistics(db, resources);
  // Due at once when the server listens (main.ts); the delay covers a start that stopped before.
  else await enqueueJob(db, DEMO_STATISTICS_JOB, { now: Date.now(), done: [] } satisfies DemoStatisticsPayload, { delayMs: DEMO_STATISTICS_DELAY_MS });
  // The demo accounts get the shops and school those figures are about.
  await linkDemoAccounts(db, resources);
  // Demo chat of kobe between the demo advertiser's shop and the city, and the teacher's class (chat/chat-demo.ts).
  if (resources.has('advertisement') && resources.has('school_class')) await seedDemoChat(db);
}

/**
 * Seeds a new database: cities always, demo users and content when `demo` (its statistics when
 * `demoStatistics` says, default now). Does nothing when the cities table is not empty. Resolves to
 * whether it seeded.
 */
export async function seed(db: Database, options: { demo: boolean; resources?: ReadonlyMap<string, ResourceDef>; demoStatistics?: DemoStatisticsWhen }): Promise<boolean> {
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM cities');
  if (n > 0) return false;
  // Every demo account has the same (published) password: one hash serves them all.
  const demoHash = options.demo ? await hashPassword(DEMO_PASSWORD) : '';
  const users: NewUser[] = options.demo
    ? DEMO_USERS.map((u) => ({
        username: u.username,
        passwordHash: demoHash,
        email: `${u.username}@example.jp`,
        name: u.name,
        permission: u.permission,
        isCaptainDepartment: u.captain ?? false,
        assignCity: u.cities,
      }))
    : [];
  const seeded = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_SEED]);
    const [again] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM cities');
    if (again.n > 0) return false;
    for (const [name, nameJa] of SEED_CITIES) await tx.query('INSERT INTO cities (name, name_ja) VALUES ($1, $2)', [name, nameJa]);
    // A few thousand app users of kobe and fukuoka to push to (push/demo-members.ts), before the
    // demo accounts: lists are newest first, so the accounts stay on their first page.
    if (options.demo) await seedDemoMembers(tx, demoHash);
    for (const u of users) await createUser(tx, u);
    return true;
  });
  if (seeded && options.demo) await seedDemoContent(db, options.resources ?? registry, options.demoStatistics ?? 'now');
  return seeded;
}

/**
 * Inserts every city that has a manifest (`name_ja`, not a `base`; default: menus/*.json as read at
 * start, src/server/manifests.ts) but no row yet, keeping existing rows (000 6: a configurer adds a city with one manifest,
 * `npm run new-city`). Safe from several processes at once (ON CONFLICT). Resolves to the names
 * inserted.
 */
export async function ensureManifestCities(db: Database, all: Readonly<Record<string, Manifest>> = loadManifests()): Promise<string[]> {
  const added: string[] = [];
  const existing = new Set((await db.query<{ name: string }>('SELECT name FROM cities')).map((r) => r.name));
  // Only the missing ones are inserted: a conflicting INSERT would still use up a sequence number.
  for (const { name, name_ja } of manifestCities(all).filter((c) => !existing.has(c.name))) {
    const rows = await db.query<{ name: string }>('INSERT INTO cities (name, name_ja) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING name', [name, name_ja]);
    added.push(...rows.map((r) => r.name));
  }
  return added;
}
