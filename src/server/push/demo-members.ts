/**
 * Demo members for pushes (000 2.2 notification, device): app users of kobe and fukuoka with what
 * targeting reads (db/migrations.ts 0007), spread over the wards of each city (home points within
 * about 2 km of a ward's centre, the ward's local government code as home municipality), most with
 * a device token and a last location. Their user names are those of the demo purchases, favourites
 * and passes (statistics/demo-data.ts: `yamada_001` …), so pushes to favourites and pass holders
 * reach them. One INSERT … SELECT over generate_series per table.
 */
import type { Queryable } from '../db/database';

/** Demo members of kobe (the first DEMO_SHARED of them are also members of fukuoka). */
export const DEMO_MEMBERS_KOBE = 3000;
/** Demo members of fukuoka only. */
export const DEMO_MEMBERS_FUKUOKA = 2000;
/** Demo members of both cities: the buyers of the demo statistics (statistics/demo-data.ts DEMO_BUYERS). */
const DEMO_SHARED = 300;

/** The wards: city, local government code, centre latitude and longitude. */
const WARDS: ReadonlyArray<readonly [string, string, number, number]> = [
  ['kobe', '28101', 34.7266, 135.262],
  ['kobe', '28102', 34.7136, 135.229],
  ['kobe', '28105', 34.677, 135.166],
  ['kobe', '28106', 34.662, 135.146],
  ['kobe', '28107', 34.655, 135.117],
  ['kobe', '28108', 34.629, 135.051],
  ['kobe', '28109', 34.756, 135.17],
  ['kobe', '28110', 34.695, 135.197],
  ['kobe', '28111', 34.735, 135.035],
  ['fukuoka', '40131', 33.618, 130.417],
  ['fukuoka', '40132', 33.591, 130.415],
  ['fukuoka', '40133', 33.589, 130.392],
  ['fukuoka', '40134', 33.561, 130.426],
  ['fukuoka', '40135', 33.583, 130.323],
  ['fukuoka', '40136', 33.576, 130.37],
  ['fukuoka', '40137', 33.582, 130.349],
];

const SURNAMES = ['yamada', 'suzuki', 'tanaka', 'sato', 'takahashi', 'ito', 'watanabe', 'nakamura', 'kobayashi', 'kato', 'yoshida', 'matsumoto'];

/**
 * Inserts the demo members (password hash `passwordHash`) and their devices, in `tx`. Does nothing
 * without a kobe row. Resolves to the number of members made.
 */
export async function seedDemoMembers(tx: Queryable, passwordHash: string): Promise<number> {
  const cities = await tx.query<{ id: number; name: string }>(`SELECT id, name FROM cities WHERE name IN ('kobe', 'fukuoka')`);
  const kobe = cities.find((c) => c.name === 'kobe')?.id;
  const fukuoka = cities.find((c) => c.name === 'fukuoka')?.id;
  if (kobe === undefined || fukuoka === undefined) return 0;
  await tx.query('SELECT setseed(0.1414)');
  const wards = JSON.stringify(WARDS.map(([city, code, lat, lng]) => ({ city, code, lat, lng })));
  const [{ n }] = await tx.query<{ n: number }>(
    `WITH w AS (
       SELECT city, code, lat, lng, (row_number() OVER (PARTITION BY city ORDER BY code))::int - 1 AS i, count(*) OVER (PARTITION BY city)::int AS n
       FROM jsonb_to_recordset($1::jsonb) AS x(city text, code text, lat float8, lng float8)
     ), m AS (
       SELECT k, CASE WHEN k <= $3::int THEN 'kobe' ELSE 'fukuoka' END AS city, random() AS r1, random() AS r2, random() AS r3, random() AS r4
       FROM generate_series(1, $3::int + $4::int) AS k
     ), made AS (
     INSERT INTO users (username, password_hash, email, name, permission, assign_city, email_verified,
                        birth_year, gender, home_municipality, home_point, last_point, last_located_at)
     SELECT ($7::text[])[1 + m.k % ${SURNAMES.length}] || '_' || CASE WHEN m.k < 1000 THEN lpad(m.k::text, 3, '0') ELSE m.k::text END, $2, '', '会員' || m.k, 'Member',
            CASE WHEN m.city = 'kobe' AND m.k <= $8::int THEN ARRAY[$5::int, $6::int] WHEN m.city = 'kobe' THEN ARRAY[$5::int] ELSE ARRAY[$6::int] END, true,
            1940 + floor(m.r1 * 66)::int,
            CASE WHEN m.r2 < 0.48 THEN 'male' WHEN m.r2 < 0.97 THEN 'female' ELSE 'other' END,
            w.code,
            point(w.lng + (m.r3 - 0.5) * 0.05, w.lat + (m.r4 - 0.5) * 0.04),
            CASE WHEN m.r1 < 0.7 THEN point(w.lng + (m.r4 - 0.5) * 0.06, w.lat + (m.r3 - 0.5) * 0.05) END,
            CASE WHEN m.r1 < 0.7 THEN now() - make_interval(secs => m.r2 * 60 * 86400) END
     FROM m JOIN w ON w.city = m.city AND w.i = m.k % w.n
     ON CONFLICT (username) DO NOTHING
     RETURNING id
     ), devices AS (
       INSERT INTO member_devices (user_id, installation_id, token, platform)
       SELECT id, 'demo-' || id, 'demo-token-' || id, CASE WHEN id % 2 = 0 THEN 'ios' ELSE 'android' END FROM made WHERE random() < 0.9
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM made`,
    [wards, passwordHash, DEMO_MEMBERS_KOBE, DEMO_MEMBERS_FUKUOKA, kobe, fukuoka, SURNAMES, DEMO_SHARED],
  );
  return Number(n);
}
