/**
 * Users and the Profile answered by the API (000 3 Profile/user; 001 7.1).
 */
import type { City, Profile } from '../../shared/roles';
import type { Queryable } from '../db/database';

interface ProfileRow {
  id: number;
  username: string;
  name: string;
  email: string;
  avatar: string | null;
  introduction: string | null;
  permission: string;
  is_captain_department: boolean;
  school: number | null;
  grp: number | null;
  classes: number[] | null;
  email_verified: boolean;
  cities: Array<City & { assigned: boolean }> | null;
  live: boolean;
}


/**
 * The profile of user `id` in one query: `assign_city` as City objects; `active_city` = every city for
 * an Administrator, else `assign_city`. With `family`, the user is only found while that refresh-token
 * family is still live (not revoked by logout or reuse, not expired), so a logout ends its access
 * tokens at once. Resolves to null when there is no such (live) user.
 */
export async function loadProfile(db: Queryable, id: number, family: string | null = null): Promise<Profile | null> {
  const rows = await db.query<ProfileRow>(
    `SELECT u.id, u.username, u.name, u.email, u.avatar, u.introduction, u.permission, u.is_captain_department,
            u.school, u.grp, u.classes, u.email_verified,
            (SELECT json_agg(json_build_object('id', c.id, 'name', c.name, 'name_ja', c.name_ja, 'assigned', c.id = ANY(u.assign_city)) ORDER BY c.id)
               FROM cities c WHERE u.permission = 'Administrator' OR c.id = ANY(u.assign_city)) AS cities,
            ($2::uuid IS NULL OR EXISTS (
              SELECT 1 FROM refresh_tokens t WHERE t.family = $2::uuid AND t.revoked_at IS NULL AND t.expires_at > now()
            )) AS live
       FROM users u WHERE u.id = $1`,
    [id, family],
  );
  const r = rows[0];
  if (!r || !r.live) return null;
  const cities = (r.cities ?? []).map(({ id: cityId, name, name_ja, assigned }) => ({ city: { id: cityId, name, name_ja }, assigned }));
  const assign = cities.filter((c) => c.assigned).map((c) => c.city);
  return {
    id: r.id,
    username: r.username,
    name: r.name,
    email: r.email,
    avatar: r.avatar,
    introduction: r.introduction,
    permission: r.permission,
    is_captain_department: r.is_captain_department,
    assign_city: assign,
    active_city: r.permission === 'Administrator' ? cities.map((c) => c.city) : assign,
    school: r.school,
    group: r.grp,
    classes: r.classes ?? [],
    advertisements: [],
    email_verified: r.email_verified,
  };
}

/** The id and password hash of `username` (exact match), or null. */
export async function findCredentials(db: Queryable, username: string): Promise<{ id: number; password_hash: string } | null> {
  const rows = await db.query<{ id: number; password_hash: string }>('SELECT id, password_hash FROM users WHERE username = $1', [username]);
  return rows[0] ?? null;
}

/** A user to create (seeds, and later the users calls of 001 7.2). */
export interface NewUser {
  username: string;
  passwordHash: string;
  email: string;
  name: string;
  permission: string;
  isCaptainDepartment?: boolean;
  /** City names; unknown names are ignored. */
  assignCity: string[];
  school?: number | null;
  group?: number | null;
  classes?: number[];
  emailVerified?: boolean;
}

/** Inserts a user; resolves to its id. Errors: unique violation for a taken username. */
export async function createUser(db: Queryable, u: NewUser): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO users (username, password_hash, email, name, permission, is_captain_department, assign_city, school, grp, classes, email_verified)
     VALUES ($1, $2, $3, $4, $5, $6, ARRAY(SELECT id FROM cities WHERE name = ANY($7::text[]) ORDER BY id), $8, $9, $10::int[], $11)
     RETURNING id`,
    [u.username, u.passwordHash, u.email, u.name, u.permission, u.isCaptainDepartment ?? false, u.assignCity, u.school ?? null, u.group ?? null, u.classes ?? [], u.emailVerified ?? true],
  );
  return rows[0].id;
}
