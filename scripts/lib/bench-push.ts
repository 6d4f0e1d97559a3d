/**
 * The push figures of `npm run bench` (`-- push`; src/server/push/, docs/architecture.md 'Jobs'):
 * on a fresh in-memory PGlite (and, when DATABASE_URL is set, on PostgreSQL in a schema of its own,
 * dropped at the end):
 * 1. BENCH_PUSH_MEMBERS (100,000) members of kobe with home points over the city and a device each,
 *    one INSERT … SELECT generate_series;
 * 2. a push to all of them made through the create call: recipients resolved, inbox rows written
 *    and the delivery queued in its one transaction (seconds);
 * 3. its delivery through the outbox provider by the job runner: deliveries per second;
 * 4. BENCH_PUSH_COUNTS (200) recipient counts by map over polygons of 50 vertices (about 3 km
 *    across, at random places of the city) through POST /kobe/api/notification/recipient-count/:
 *    p50/p95 (budget p95 ≤ 100 ms).
 * Prints figures; resolves to one budget row per database (the count's p95).
 */
import { buildApp } from '../../src/server/app';
import { hashPassword } from '../../src/server/auth/passwords';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open-database';
import { prepareDatabase } from '../../src/server/db/prepare';
import { createUser } from '../../src/server/repositories/user-repository';
import { dropSchema } from './local-postgres';
import { limitRow, ms, type BudgetRow } from './budget';

/** Budget of the by-map count's p95 over 100,000 members with a polygon of 50 vertices, ms. */
export const PUSH_COUNT_P95_MS = 100;

/** A polygon of `n` vertices around (lat, lng), `r` degrees of latitude in radius, a little irregular. */
function polygon(lat: number, lng: number, r: number, n: number): Array<{ lat: number; lng: number }> {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    const k = r * (0.8 + 0.4 * ((i * 7) % 5) / 4);
    return { lat: lat + k * Math.sin(a), lng: lng + (k * Math.cos(a)) / Math.cos((lat * Math.PI) / 180) };
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function benchOn(root: string, kind: 'pglite' | 'postgres', members: number, counts: number): Promise<BudgetRow> {
  const schema = `bench_push_${process.pid}`;
  const env = kind === 'pglite' ? { ...process.env, DATABASE_URL: '', DATA_DIR: 'memory://' } : { ...process.env, DATABASE_SCHEMA: schema };
  const config = loadConfig({ ...env, PORT: '0', LOGIN_RATE_LIMIT: '0', NODE_ENV: 'development' }, root);
  const db = await openDatabase(config, { handleSignals: false });
  const label = kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const figure = `push count by map p95, 50 vertices, ${members.toLocaleString('en')} members, ${label}`;
  try {
    await prepareDatabase(db, { demo: false });
    const [{ id: kobe }] = await db.query<{ id: number }>(`SELECT id FROM cities WHERE name = 'kobe'`);
    await createUser(db, { username: 'bench-admin', passwordHash: await hashPassword('bench-password'), email: '', name: '', permission: 'Administrator', assignCity: [] });
    let t = performance.now();
    await db.query(
      `INSERT INTO users (username, password_hash, permission, assign_city, birth_year, gender, home_point)
       SELECT 'm' || g, '', 'Member', ARRAY[$1::int], 1940 + g % 66, CASE WHEN g % 2 = 0 THEN 'male' ELSE 'female' END,
              point(135.0 + random() * 0.3, 34.62 + random() * 0.16)
       FROM generate_series(1, $2::int) g`,
      [kobe, members],
    );
    await db.query(`INSERT INTO member_devices (user_id, installation_id, token) SELECT id, 'i', 't' || id FROM users WHERE permission = 'Member'`);
    await db.exec('ANALYZE users; ANALYZE member_devices');
    console.log(`${kind}: ${members.toLocaleString('en')} members with devices: ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const app = await buildApp({ db, config, jobs: { pollMs: 100 } });
    await app.ready();
    await app.jobs.stop();
    try {
      const login = await app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'bench-admin', password: 'bench-password' } });
      const headers = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
      t = performance.now();
      const made = await app.inject({ method: 'POST', url: '/kobe/api/notification/create_and_push_all', headers, payload: { title: 'ベンチ', body: '配信テスト', type: 'all' } });
      const queuedS = (performance.now() - t) / 1000;
      if (made.statusCode !== 201) throw new Error(`create: ${made.statusCode} ${made.body.slice(0, 300)}`);
      const push = made.json() as { id: number; recipients: number };
      console.log(`${kind}: recipients resolved, inbox rows written and delivery queued for ${push.recipients.toLocaleString('en')} members: ${queuedS.toFixed(2)} s`);

      t = performance.now();
      app.jobs.start();
      for (;;) {
        const [row] = await db.query<{ s: string }>(`SELECT data->>'push_status' AS s FROM r_notification WHERE id = $1`, [push.id]);
        if (['sent', 'partial', 'failed'].includes(row.s)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const sendS = (performance.now() - t) / 1000;
      const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM push_outbox WHERE notification_id = $1', [push.id]);
      console.log(`${kind}: ${Number(n).toLocaleString('en')} deliveries through the outbox in ${sendS.toFixed(1)} s: ${Math.round(Number(n) / sendS).toLocaleString('en')} deliveries/s`);

      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < counts; i++) {
        const body = { title: 't', body: 'b', type: 'map', polygon: polygon(34.64 + ((i * 37) % 100) / 800, 135.03 + ((i * 61) % 100) / 400, 0.014, 50) };
        const t0 = performance.now();
        const res = await app.inject({ method: 'POST', url: '/kobe/api/notification/recipient-count/', headers, payload: body });
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`count: ${res.statusCode} ${res.body.slice(0, 300)}`);
        total += (res.json() as { count: number }).count;
      }
      times.sort((a, b) => a - b);
      console.log(
        `${kind}: count by map (polygon of 50 vertices), ${counts} calls: p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, max ${ms(times[times.length - 1])}; ${Math.round(total / counts).toLocaleString('en')} members per area on average`,
      );
      return limitRow(figure, quantile(times, 0.95), 'max', PUSH_COUNT_P95_MS, ms);
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    if (kind === 'postgres') {
      await dropSchema(process.env.DATABASE_URL!, schema);
    }
  }
}

/** Runs the push part in `root`: PGlite, then PostgreSQL when DATABASE_URL is set. Resolves to the budget rows. */
export async function runPushBench(root: string): Promise<BudgetRow[]> {
  const members = Number(process.env.BENCH_PUSH_MEMBERS ?? 100_000);
  const counts = Number(process.env.BENCH_PUSH_COUNTS ?? 200);
  const out = [await benchOn(root, 'pglite', members, counts)];
  if (process.env.DATABASE_URL) out.push(await benchOn(root, 'postgres', members, counts));
  return out;
}
