/**
 * Users and the Profile answered by the API (000 3 Profile/user; 001 7.1, 7.2). A password hash
 * never leaves this file except through `findCredentials` (sign-in, password change).
 */
import { randomBytes } from 'node:crypto';
import { ROLES, USER_FILTERS, type City, type Profile, type Role, type UserFilter } from '../../shared/roles';
import type { Database, Queryable } from '../db/database';
import { hashRefreshToken as hashToken } from '../auth/tokens';
import { escapeLike } from './resource-repository';
import { recordAudit } from '../audit/audit-log';
import type { UserFacts } from './user-facts';

/** A users row as PROFILE_COLUMNS selects it: the Profile's own columns plus the raw ones. */
type ProfileRow = Pick<Profile, 'id' | 'username' | 'name' | 'email' | 'avatar' | 'introduction' | 'permission' | 'is_captain_department' | 'school' | 'email_verified'> & {
  grp: number | null;
  classes: number[] | null;
  advertisements: number[] | null;
  cities: Array<City & { assigned: boolean }> | null;
};

/** The columns of a Profile, for `FROM users u`: `cities` = every city for an Administrator, else the assigned ones. */
const PROFILE_COLUMNS = `u.id, u.username, u.name, u.email, u.avatar, u.introduction, u.permission, u.is_captain_department,
  u.school, u.grp, u.classes, u.advertisements, u.email_verified,
  (SELECT json_agg(json_build_object('id', c.id, 'name', c.name, 'name_ja', c.name_ja, 'assigned', c.id = ANY(u.assign_city)) ORDER BY c.id)
     FROM cities c WHERE u.permission = 'Administrator' OR c.id = ANY(u.assign_city)) AS cities`;

function toProfile(r: ProfileRow): Profile {
  const cities = (r.cities ?? []).map(({ id, name, name_ja, assigned }) => ({ city: { id, name, name_ja }, assigned }));
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
    advertisements: r.advertisements ?? [],
    email_verified: r.email_verified,
  };
}

/**
 * The profile of user `id` in one query: `assign_city` as City objects; `active_city` = every city for
 * an Administrator, else `assign_city`. With `family`, the user is only found while that refresh-token
 * family is still live (not revoked by logout or reuse, not expired), so a logout ends its access
 * tokens at once. Resolves to null when there is no such (live) user.
 */
export async function loadProfile(db: Queryable, id: number, family: string | null = null): Promise<Profile | null> {
  const rows = await db.query<ProfileRow & { live: boolean }>(
    `SELECT ${PROFILE_COLUMNS},
            ($2::uuid IS NULL OR EXISTS (
              SELECT 1 FROM refresh_tokens t WHERE t.family = $2::uuid AND t.revoked_at IS NULL AND t.expires_at > now()
            )) AS live
       FROM users u WHERE u.id = $1`,
    [id, family],
  );
  const r = rows[0];
  return r && r.live ? toProfile(r) : null;
}

/** The id and password hash of `username` (exact match), or null. */
export async function findCredentials(db: Queryable, username: string): Promise<{ id: number; password_hash: string } | null> {
  const rows = await db.query<{ id: number; password_hash: string }>('SELECT id, password_hash FROM users WHERE username = $1', [username]);
  return rows[0] ?? null;
}

/** The password hash of user `id`, or null (password change). */
export async function findPasswordHash(db: Queryable, id: number): Promise<string | null> {
  const rows = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [id]);
  return rows[0]?.password_hash ?? null;
}

/** A user to create (seeds, and the users calls of 001 7.2). */
export interface NewUser {
  username: string;
  /** A scrypt hash, or `UNUSABLE_PASSWORD` (no sign-in until a password reset). */
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

/** A stored password no password matches (`verifyPassword` answers false for it). */
export const UNUSABLE_PASSWORD = '!';

/** Inserts a user; resolves to its id. Errors: unique violation for a taken username or e-mail. */
export async function createUser(db: Queryable, u: NewUser): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO users (username, password_hash, email, name, permission, is_captain_department, assign_city, school, grp, classes, email_verified)
     VALUES ($1, $2, $3, $4, $5, $6, ARRAY(SELECT id FROM cities WHERE name = ANY($7::text[]) ORDER BY id), $8, $9, $10::int[], $11)
     RETURNING id`,
    [u.username, u.passwordHash, u.email, u.name, u.permission, u.isCaptainDepartment ?? false, u.assignCity, u.school ?? null, u.group ?? null, u.classes ?? [], u.emailVerified ?? true],
  );
  return rows[0].id;
}

export type { UserFacts } from './user-facts';

const FACTS = 'id, username, email, permission, assign_city, school, email_verified';

/** User `id` when it is assigned to city `cityId` (users of a city = users assigned to it), or null. */
export async function findUserInCity(db: Queryable, id: number, cityId: number): Promise<UserFacts | null> {
  const rows = await db.query<UserFacts>(`SELECT ${FACTS} FROM users WHERE id = $1 AND assign_city @> ARRAY[$2::int]`, [id, cityId]);
  return rows[0] ?? null;
}

/** The user with id `id`, or `username` (exact), or e-mail `email` (any case), preferring a username match; null when none. */
export async function findUserBy(db: Queryable, by: { username?: string; email?: string; id?: number }): Promise<UserFacts | null> {
  const rows = await db.query<UserFacts>(
    `SELECT ${FACTS} FROM users WHERE id = $1 OR username = $2 OR (lower(email) = lower($3) AND email <> '') ORDER BY (username = $2) DESC LIMIT 1`,
    [by.id ?? null, by.username ?? null, by.email ?? null],
  );
  return rows[0] ?? null;
}

/** Which of `username` and `email` another user than `exceptId` already has. */
export async function takenFields(db: Queryable, fields: { username?: string; email?: string }, exceptId: number | null): Promise<{ username: boolean; email: boolean }> {
  const [r] = await db.query<{ username: boolean; email: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE username = $1 AND id IS DISTINCT FROM $3) AS username,
            EXISTS (SELECT 1 FROM users WHERE $2 <> '' AND lower(email) = lower($2) AND id IS DISTINCT FROM $3) AS email`,
    [fields.username ?? null, fields.email ?? '', exceptId],
  );
  return r;
}

/** Fields a write may change; absent keys stay as they are. */
export interface UserPatch {
  username?: string;
  email?: string;
  name?: string;
  permission?: string;
  isCaptainDepartment?: boolean;
  assignCityIds?: number[];
  passwordHash?: string;
  introduction?: string | null;
  avatar?: string | null;
  school?: number | null;
  group?: number | null;
  classes?: number[];
  emailVerified?: boolean;
  mynumberLinked?: boolean;
}

const PATCH_SQL: Record<keyof UserPatch, string> = {
  username: 'username = $',
  email: 'email = $',
  name: 'name = $',
  permission: 'permission = $',
  isCaptainDepartment: 'is_captain_department = $',
  assignCityIds: 'assign_city = $::int[]',
  passwordHash: 'password_hash = $',
  introduction: 'introduction = $',
  avatar: 'avatar = $',
  school: 'school = $',
  group: 'grp = $',
  classes: 'classes = $::int[]',
  emailVerified: 'email_verified = $',
  mynumberLinked: 'mynumber_linked_at = CASE WHEN $::boolean THEN now() END',
};

/** Applies `patch` to user `id`. Errors: unique violation for a taken username or e-mail. */
export async function updateUser(db: Queryable, id: number, patch: UserPatch): Promise<void> {
  const params: unknown[] = [id];
  const sets: string[] = [];
  for (const [key, value] of Object.entries(patch) as Array<[keyof UserPatch, unknown]>) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(PATCH_SQL[key].replace('$', `$${params.length}`));
  }
  if (sets.length > 0) await db.query(`UPDATE users SET ${sets.join(', ')} WHERE id = $1`, params);
}

// The `filter_by` values of the user list: USER_FILTERS of src/shared/roles.ts (the console's select too).
export { USER_FILTERS, type UserFilter };

const FILTER_SQL: Record<UserFilter, string> = {
  all: 'true',
  member: "u.permission = 'Member'",
  ad_user: "u.permission = 'Advertiser'",
  ad_user_with_shop: "u.permission = 'Advertiser' AND cardinality(u.advertisements) > 0",
  ad_user_without_shop: "u.permission = 'Advertiser' AND cardinality(u.advertisements) = 0",
  operator: "u.permission = 'Operator'",
  president: "u.permission = 'President'",
};

/** A user list query: users assigned to any of `cityIds` (null = every user), newest first. */
export interface UserQuery {
  cityIds: number[] | null;
  search?: string;
  filter?: UserFilter;
  /** Only these user ids. */
  ids?: number[];
  limit: number;
  offset: number;
}

/** One page of profiles and the number of matching users. */
export async function listUsers(db: Queryable, q: UserQuery): Promise<{ content: Profile[]; total: number }> {
  const params: unknown[] = [];
  const parts = [FILTER_SQL[q.filter ?? 'all']];
  if (q.cityIds) {
    params.push(q.cityIds);
    parts.push(`u.assign_city && $${params.length}::int[]`);
  }
  if (q.ids) {
    params.push(q.ids);
    parts.push(`u.id = ANY($${params.length}::int[])`);
  }
  const search = q.search?.trim().slice(0, 200);
  if (search) {
    params.push(`%${escapeLike(search)}%`);
    const p = `$${params.length}`;
    parts.push(`(u.username ILIKE ${p} OR u.name ILIKE ${p} OR u.email ILIKE ${p})`);
  }
  const where = parts.join(' AND ');
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u WHERE ${where}`, params);
  const rows = await db.query<ProfileRow>(
    `SELECT ${PROFILE_COLUMNS} FROM users u WHERE ${where} ORDER BY u.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit, q.offset],
  );
  return { content: rows.map(toProfile), total: n };
}

/** Users of city `cityId` by effective role (a captain department Member counts as Captain). */
export async function countByRole(db: Queryable, cityId: number): Promise<{ total: number; by_role: Record<Role, number> }> {
  const rows = await db.query<{ role: string; n: number }>(
    `SELECT CASE WHEN is_captain_department THEN 'Captain' ELSE permission END AS role, count(*)::int AS n
       FROM users WHERE assign_city @> ARRAY[$1::int] GROUP BY 1`,
    [cityId],
  );
  const by_role = Object.fromEntries(ROLES.map((r) => [r, 0])) as Record<Role, number>;
  for (const r of rows) if (r.role in by_role) by_role[r.role as Role] = r.n;
  return { total: rows.reduce((sum, r) => sum + r.n, 0), by_role };
}

/** Users of city `cityId` per `filter_by` value of the list. */
export async function countByFilter(db: Queryable, cityId: number): Promise<Record<UserFilter, number>> {
  const columns = USER_FILTERS.map((f) => `count(*) FILTER (WHERE ${FILTER_SQL[f]})::int AS "${f}"`).join(', ');
  const [row] = await db.query<Record<UserFilter, number>>(`SELECT ${columns} FROM users u WHERE u.assign_city @> ARRAY[$1::int]`, [cityId]);
  return row;
}

/** The number of Administrators (every city). */
export async function countAdministrators(db: Queryable): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE permission = 'Administrator'");
  return n;
}

/** What `removeUser` did: deleted the user, only took it out of the city, or refused (last Administrator). */
export type RemoveOutcome = 'deleted' | 'unassigned' | 'last_administrator';

/**
 * Removes user `id` from city `cityId`: deletes it (sessions and tokens go with it) unless
 * `managedCityIds` is given and the user is also assigned to a city outside it, in which case the
 * user only loses `cityId`. The last Administrator is never deleted. Null when the user is not in the city.
 */
export async function removeUser(db: Database, id: number, cityId: number, managedCityIds: number[] | null): Promise<RemoveOutcome | null> {
  return db.transaction(async (tx) => {
    const admins = await tx.query<{ id: number }>("SELECT id FROM users WHERE permission = 'Administrator' FOR UPDATE");
    const [user] = await tx.query<UserFacts>(`SELECT ${FACTS} FROM users WHERE id = $1 AND assign_city @> ARRAY[$2::int] FOR UPDATE`, [id, cityId]);
    if (!user) return null;
    if (managedCityIds && user.assign_city.some((c) => !managedCityIds.includes(c))) {
      await tx.query('UPDATE users SET assign_city = array_remove(assign_city, $2::int) WHERE id = $1', [id, cityId]);
      return 'unassigned';
    }
    if (user.permission === 'Administrator' && admins.length <= 1) return 'last_administrator';
    await tx.query('DELETE FROM users WHERE id = $1', [id]);
    return 'deleted';
  });
}

/** Writes the audit entry of a user write (resource `user`; ../audit/audit-log.ts). */
export async function auditUser(db: Queryable, actorId: number | null, city: string | null, action: string, userId: number): Promise<void> {
  await recordAudit(db, { category: 'user', action, userId: actorId, city, resource: 'user', recordId: userId });
}

/** The refresh-token families of user `id` that are still live (to revoke after a password change). */
export async function liveFamilies(db: Queryable, id: number): Promise<string[]> {
  const rows = await db.query<{ family: string }>(
    'SELECT DISTINCT family::text AS family FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()',
    [id],
  );
  return rows.map((r) => r.family);
}

/** Kinds of one-time tokens: password reset, e-mail verification, my-number link state. */
export type UserTokenKind = 'reset_password' | 'email_verification' | 'mynumber';

/**
 * Issues a one-time token of `kind` for user `userId`, valid `ttlS` seconds, with `data`; earlier
 * unused tokens of that kind for the user are dropped. Only its sha256 is stored. Resolves to the token.
 */
export async function issueUserToken(db: Queryable, userId: number, kind: UserTokenKind, ttlS: number, data: Record<string, unknown> = {}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query('DELETE FROM user_tokens WHERE user_id = $1 AND kind = $2 AND used_at IS NULL', [userId, kind]);
  await db.query(
    `INSERT INTO user_tokens (user_id, kind, token_hash, data, expires_at) VALUES ($1, $2, $3, $4::jsonb, now() + make_interval(secs => $5))`,
    [userId, kind, hashToken(token), JSON.stringify(data), ttlS],
  );
  return token;
}

/** Spends a token of `kind` (of user `userId` when given): its user and data, or null when unknown, spent or expired. */
export async function consumeUserToken(
  db: Queryable,
  kind: UserTokenKind,
  token: string,
  userId: number | null = null,
): Promise<{ userId: number; data: Record<string, unknown> } | null> {
  const rows = await db.query<{ user_id: number; data: Record<string, unknown> }>(
    `UPDATE user_tokens SET used_at = now()
      WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now() AND ($3::int IS NULL OR user_id = $3::int)
      RETURNING user_id, data`,
    [hashToken(token), kind, userId],
  );
  return rows[0] ? { userId: rows[0].user_id, data: rows[0].data } : null;
}

/** Sets the Japanese name of city `name` (001 7.3 PATCH api/city/{city}/); the City, or null. */
export async function renameCity(db: Queryable, name: string, nameJa: string): Promise<City | null> {
  const rows = await db.query<City>('UPDATE cities SET name_ja = $2 WHERE name = $1 RETURNING id, name, name_ja', [name, nameJa]);
  return rows[0] ?? null;
}
