// School pushes (src/server/push/school-push.ts; 001 7.9 school and president pushes): a President's
// school notification reaches exactly the parents and teachers of the chosen groups and classes, or
// those named, through a push of type users; no recipient is a 400 with nothing stored. On PGlite and
// PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helpers';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let admin: Record<string, string>;
let president: Record<string, string>;
let school: number;
const made: Record<string, number> = {};

async function post(headers: Record<string, string>, url: string, payload: Json): Promise<Json> {
  const r = await t.app.inject({ method: 'POST', url, headers, payload });
  if (r.statusCode !== 201) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
  return r.json();
}

async function user(name: string, permission: string, extra: Json = {}): Promise<number> {
  const u = await post(admin, '/kobe/api/users/', { username: name, email: `${name}@school-push.test`, password: 'password1', permission, assign_city: ['kobe'], ...extra });
  return Number(u.id);
}

const count = async (table: string) => Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n);

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await login(t.app, 'administrator'));
  president = bearer(await login(t.app, 'president'));
  school = Number((await t.app.inject({ url: '/default/api/users/account', headers: president })).json().school);
  // Two groups of the school with a class each; parents P1, P2 in class X (group 1), P3 in class Y (group 2).
  made.g1 = Number((await post(admin, '/kobe/api/group-class/', { name: '1年', school })).id);
  made.g2 = Number((await post(admin, '/kobe/api/group-class/', { name: '2年', school })).id);
  made.x = Number((await post(admin, '/kobe/api/class/', { name: '1組', school, school_group: made.g1 })).id);
  made.y = Number((await post(admin, '/kobe/api/class/', { name: '2組', school, school_group: made.g2 })).id);
  for (const [p, cls] of [['p1', made.x], ['p2', made.x], ['p3', made.y]] as const) {
    made[p] = await user(`sp-${p}`, 'Member');
    await post(admin, '/kobe/api/family/', { student: `生徒 ${p}`, school, school_class: cls, parent_email: `sp-${p}@school-push.test` });
  }
  // Teacher T1 has class X; T2 is of group 2; the advertiser is no teacher of the school.
  made.t1 = await user('sp-t1', 'Teacher', { school, classes: [made.x] });
  made.t2 = await user('sp-t2', 'Teacher', { school, group: made.g2 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function push(payload: Json) {
  return t.app.inject({ method: 'POST', url: '/kobe/api/school-notification/', headers: president, payload: { school_id: school, title: '学校からのお知らせ', body: '明日は休校です。', ...payload } });
}

async function recipientsOf(answer: Json): Promise<number[]> {
  const n = await t.app.inject({ url: `/kobe/api/notification/list-notify/${answer.notification_id}/`, headers: admin });
  expect(n.statusCode).toBe(200);
  expect(n.json()).toMatchObject({ type: 'users', title: '学校からのお知らせ', recipients: answer.recipients });
  return [...(n.json().users as number[])].sort((a, b) => a - b);
}

const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b);

describe('school pushes', () => {
  it('a class reaches its students\' parents and its teachers', async () => {
    const r = await push({ classes: [made.x] });
    expect(r.statusCode, r.body).toBe(201);
    expect(await recipientsOf(r.json())).toEqual(sorted(made.p1, made.p2, made.t1));
    expect(r.json().recipients).toBe(3);
  });

  it('a group reaches the parents of its classes and its teachers', async () => {
    const r = await push({ groups: [made.g2] });
    expect(await recipientsOf(r.json())).toEqual(sorted(made.p3, made.t2));
  });

  it('named parents and teachers alone reach only them', async () => {
    const r = await push({ parents: [made.p3], teachers: [made.t1] });
    expect(await recipientsOf(r.json())).toEqual(sorted(made.p3, made.t1));
  });

  it('the whole school when nothing is chosen', async () => {
    const ids = await recipientsOf((await push({})).json());
    for (const id of [made.p1, made.p2, made.p3, made.t1, made.t2]) expect(ids).toContain(id);
  });

  it('no recipient (a named teacher of no school) is a 400 and stores nothing', async () => {
    const advertiser = Number((await t.db.query<{ id: number }>("SELECT id FROM users WHERE username = 'advertiser'"))[0].id);
    const before = [await count('r_school_notification'), await count('r_notification'), await count('jobs')];
    const r = await push({ teachers: [advertiser] });
    expect(r.statusCode).toBe(400);
    expect([await count('r_school_notification'), await count('r_notification'), await count('jobs')]).toEqual(before);
  });
});
