// Users and account calls (001 7.1, 7.2, 8; 000 3, 5, 6) through Fastify inject on a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueUserToken, removeUser } from '../../../src/server/repositories/user-repository';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let admin: Session;
let operator: Session;
let member: Session;
let teacher: Session;
let kobeId: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin, operator, member, teacher] = await Promise.all(['administrator', 'operator', 'member', 'teacher'].map((u) => login(t.app, u)));
  kobeId = (await t.db.query<{ id: number }>("SELECT id FROM cities WHERE name = 'kobe'"))[0].id;
});
afterAll(async () => {
  await t?.close();
});

const USERNAME_TAKEN = 'ユーザー名が既に使用されています。 もう一度お試しください。';
type Json = Record<string, unknown>;

function call(s: Session | null, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: Json, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url, headers: { ...(s ? bearer(s) : {}), ...headers }, ...(payload !== undefined ? { payload } : {}) });
}

const idOf = (s: Session) => (s.body.user as { id: number }).id;
const names = (content: Json[]) => content.map((u) => u.username);

let serial = 0;
/** Creates a user as the Administrator in `city` (default kobe); answers its Profile. */
async function makeUser(fields: Json = {}, city = 'kobe'): Promise<Json & { id: number; username: string }> {
  serial += 1;
  const username = `user${serial}_${Date.now() % 100_000}`;
  const r = await call(admin, 'POST', `/${city}/api/users/`, { username, email: `${username}@example.jp`, password: 'password1', permission: 'Member', ...fields });
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
}

async function row(id: number): Promise<Json | undefined> {
  return (await t.db.query<Json>('SELECT * FROM users WHERE id = $1', [id]))[0];
}

describe('GET /:city/api/users/', () => {
  it('lists the profiles of the users assigned to the city, paged, never a password hash', async () => {
    const r = await call(admin, 'GET', '/kobe/api/users/');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(Object.keys(body).sort()).toEqual(['content', 'count', 'limit', 'offset', 'page_length', 'total_length']);
    expect(body).toMatchObject({ limit: 20, offset: 0, count: body.content.length });
    expect(names(body.content)).toEqual(expect.arrayContaining(['operator', 'president', 'captain', 'teacher', 'advertiser', 'police']));
    expect(names(body.content)).not.toContain('member'); // cippoweb only
    for (const u of body.content) expect((u.assign_city as Array<{ name: string }>).map((c) => c.name)).toContain('kobe');
    // The same Profile as the sign-in's, but for the chat unread count: only in the user's own info.
    expect(Object.keys(body.content[0]).sort()).toEqual(Object.keys(admin.body.user as Json).filter((k) => k !== 'chat_admin_unread').sort());
    expect(r.body).not.toMatch(/password|scrypt\$/);
    const page = (await call(admin, 'GET', '/kobe/api/users/?limit=2&offset=1')).json();
    expect(page).toMatchObject({ count: 2, limit: 2, offset: 1, total_length: body.total_length, page_length: Math.ceil(body.total_length / 2) });
  });

  it('searches username, name and e-mail', async () => {
    const byName = (await call(admin, 'GET', `/kobe/api/users/?search=${encodeURIComponent('先生')}`)).json();
    expect(names(byName.content)).toEqual(['teacher']);
    expect(names((await call(admin, 'GET', '/kobe/api/users/?search=POLICE@example')).json().content)).toEqual(['police']);
    expect((await call(admin, 'GET', '/kobe/api/users/?search=%25')).json().total_length).toBe(0);
  });

  it('filters by filter_by: all, member, ad_user, ad_user_with_shop, ad_user_without_shop, operator, president', async () => {
    const shop = await makeUser({ permission: 'Advertiser' });
    const noShop = await makeUser({ permission: 'Advertiser' });
    await t.db.query('UPDATE users SET advertisements = $2::int[] WHERE id = $1', [shop.id, [7]]);
    const list = async (f: string) => (await call(admin, 'GET', `/kobe/api/users/?filter_by=${f}&limit=1000`)).json();
    const all = await list('all');
    expect(all.total_length).toBe((await call(admin, 'GET', '/kobe/api/users/?limit=1000')).json().total_length);
    expect((await list('member')).content.every((u: Json) => u.permission === 'Member')).toBe(true);
    expect(names((await list('member')).content)).toContain('captain');
    expect(names((await list('ad_user')).content)).toEqual(expect.arrayContaining(['advertiser', shop.username, noShop.username]));
    // The demo Advertiser has the first two shops of kobe (statistics/demo-data.ts).
    const withShop = (await list('ad_user_with_shop')).content;
    expect(names(withShop).sort()).toEqual(['advertiser', shop.username].sort());
    expect(withShop.find((u: Json) => u.username === shop.username).advertisements).toEqual([7]);
    expect(names((await list('ad_user_without_shop')).content)).toEqual([noShop.username]);
    expect(names((await list('operator')).content)).toEqual(['operator']);
    expect(names((await list('president')).content)).toEqual(['president']);
    const bad = await call(admin, 'GET', '/kobe/api/users/?filter_by=ad%20user');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation', fields: { filter_by: [expect.any(String)] } });
  });

  it('answers only the users named by ids (a form\'s member picker names the chosen ones); refuses ids that are not ids', async () => {
    const a = await makeUser({ permission: 'Member' });
    const b = await makeUser({ permission: 'Member' });
    const staff = (await call(admin, 'GET', '/kobe/api/users/?filter_by=operator')).json().content[0] as { id: number };
    const both = (await call(admin, 'GET', `/kobe/api/users/?filter_by=member&ids=${a.id},${b.id},${staff.id}`)).json();
    expect(names(both.content).sort()).toEqual([a.username, b.username].sort());
    expect(both.total_length).toBe(2);
    expect((await call(admin, 'GET', `/kobe/api/users/?ids=${staff.id}&ids=2147483648`)).json().content.map((u: Json) => u.id)).toEqual([staff.id]);
    for (const bad of ['1,x', '1;2', Array.from({ length: 101 }, (_, i) => i + 1).join(',')]) {
      const answer = await call(admin, 'GET', `/kobe/api/users/?ids=${encodeURIComponent(bad)}`);
      expect(answer.statusCode, bad).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'validation', fields: { ids: [expect.any(String)] } });
    }
  });

  it('lets an Operator list its cities only; a Member cannot list users; signed out is 401', async () => {
    expect((await call(operator, 'GET', '/kobe/api/users/')).statusCode).toBe(200);
    expect((await call(operator, 'GET', '/akita/api/users/')).statusCode).toBe(403);
    expect((await call(member, 'GET', '/cippoweb/api/users/')).statusCode).toBe(403);
    expect((await call(teacher, 'GET', '/kobe/api/users/')).statusCode).toBe(403);
    expect((await call(null, 'GET', '/kobe/api/users/')).statusCode).toBe(401);
  });
});

describe('POST /:city/api/users/', () => {
  it('creates a user assigned to the city, who can sign in', async () => {
    const r = await call(admin, 'POST', '/kobe/api/users/', { username: 'newbie', email: 'newbie@example.jp', password: 'password1', name: '新人', permission: 'Police' });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ username: 'newbie', name: '新人', permission: 'Police', assign_city: [{ name: 'kobe' }] });
    expect(r.body).not.toMatch(/password|scrypt/);
    expect((await login(t.app, 'newbie', 'password1')).body.user).toMatchObject({ username: 'newbie' });
  });

  it('answers the exact non-unique username message on fields.username, and duplicate or invalid e-mails on fields.email', async () => {
    const dup = await call(admin, 'POST', '/kobe/api/users/', { username: 'operator', email: 'x1@example.jp', password: 'password1', permission: 'Member' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ code: 'validation', fields: { username: [USERNAME_TAKEN] } });
    const mail = await call(admin, 'POST', '/kobe/api/users/', { username: 'fresh1', email: 'OPERATOR@example.jp', password: 'password1', permission: 'Member' });
    expect(Object.keys(mail.json().fields)).toEqual(['email']);
    const bad = await call(admin, 'POST', '/kobe/api/users/', { username: 'fresh1', email: 'not-an-address', password: 'password1', permission: 'Member' });
    expect(Object.keys(bad.json().fields)).toEqual(['email']);
  });

  it('applies the password rules of 000 5', async () => {
    const base = { username: 'fresh2', email: 'fresh2@example.jp', permission: 'Member' };
    const missing = await call(admin, 'POST', '/kobe/api/users/', base);
    expect(missing.json().fields.password).toEqual(['Password is required']);
    // An empty password is a missing one; a blank username a missing username.
    const empty = await call(admin, 'POST', '/kobe/api/users/', { ...base, username: '   ', password: '' });
    expect(empty.json().fields.password).toEqual(['Password is required']);
    expect(empty.json().fields.username).toEqual(['ユーザー名を入力してください。']);
    for (const password of ['short1', 'has a space 123']) {
      const r = await call(admin, 'POST', '/kobe/api/users/', { ...base, password }, { 'accept-language': 'en' });
      expect(r.json().fields.password).toEqual(['Please enter at least 8 characters without a space.']);
    }
  });

  it('checks the permission, and keeps Operators to their cities and away from Administrators', async () => {
    const base = { username: 'fresh3', email: 'fresh3@example.jp', password: 'password1' };
    expect((await call(admin, 'POST', '/kobe/api/users/', { ...base, permission: 'King' })).json().fields).toHaveProperty('permission');
    expect((await call(operator, 'POST', '/kobe/api/users/', { ...base, permission: 'Administrator' })).statusCode).toBe(403);
    expect((await call(operator, 'POST', '/akita/api/users/', { ...base, permission: 'Member' })).statusCode).toBe(403);
    expect((await call(operator, 'POST', '/kobe/api/users/', { ...base, permission: 'Member', assign_city: ['akita'] })).statusCode).toBe(403);
    const ok = await call(operator, 'POST', '/kobe/api/users/', { ...base, permission: 'Member', assign_city: ['fukuoka'] });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().assign_city.map((c: Json) => c.name)).toEqual(['kobe', 'fukuoka']);
  });
});

describe('PUT /:city/api/users/:id/', () => {
  it('updates the fields given, checks duplicates, and sets a new password', async () => {
    const u = await makeUser();
    const r = await call(operator, 'PUT', `/kobe/api/users/${u.id}/`, { name: '変更後', permission: 'Advertiser', password: 'newpassword9' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id: u.id, username: u.username, name: '変更後', permission: 'Advertiser' });
    await login(t.app, u.username, 'newpassword9');
    const dup = await call(admin, 'PUT', `/kobe/api/users/${u.id}/`, { username: 'teacher' });
    expect(dup.json().fields).toEqual({ username: [USERNAME_TAKEN] });
    const mail = await call(admin, 'PUT', `/kobe/api/users/${u.id}/`, { email: 'new-address@example.jp' });
    expect(mail.json()).toMatchObject({ email: 'new-address@example.jp', email_verified: false });
  });

  it('answers 404 for a user of another city and 403 for an Operator on an Administrator or another city', async () => {
    expect((await call(admin, 'PUT', `/kobe/api/users/${idOf(member)}/`, { name: 'x' })).statusCode).toBe(404);
    expect((await call(operator, 'PUT', `/kobe/api/users/${idOf(admin)}/`, { name: 'x' })).statusCode).toBe(403);
    const akita = await makeUser({}, 'akita');
    expect((await call(operator, 'PUT', `/akita/api/users/${akita.id}/`, { name: 'x' })).statusCode).toBe(403);
  });

  it('keeps the cities an Operator does not manage when it changes assign_city', async () => {
    const u = await makeUser({ assign_city: ['akita'] });
    const r = await call(operator, 'PUT', `/kobe/api/users/${u.id}/`, { assign_city: ['kobe', 'fukuoka'] });
    expect(r.json().assign_city.map((c: Json) => c.name).sort()).toEqual(['akita', 'fukuoka', 'kobe']);
  });

  it('refuses to demote the last Administrator', async () => {
    const r = await call(admin, 'PUT', `/kobe/api/users/${idOf(admin)}/`, { permission: 'Operator' });
    expect(r.statusCode).toBe(400);
    expect(r.json().fields).toHaveProperty('permission');
    expect((await row(idOf(admin)))?.permission).toBe('Administrator');
  });
});

describe('DELETE /:city/api/users/:id/', () => {
  it('deletes a user: 204 and the row is gone', async () => {
    const u = await makeUser();
    const r = await call(admin, 'DELETE', `/kobe/api/users/${u.id}/`);
    expect(r.statusCode).toBe(204);
    expect(await row(u.id)).toBeUndefined();
  });

  it('answers 209 {detail} for the caller itself, and the row stays', async () => {
    const r = await call(admin, 'DELETE', `/kobe/api/users/${idOf(admin)}/`);
    expect(r.statusCode).toBe(209);
    expect(Object.keys(r.json())).toEqual(['detail']);
    expect(await row(idOf(admin))).toBeDefined();
    const own = await call(operator, 'DELETE', `/kobe/api/users/${idOf(operator)}/`);
    expect(own.statusCode).toBe(209);
    expect(own.json()).toEqual({ detail: '自分自身のアカウントは削除できません。' });
    expect(await row(idOf(operator))).toBeDefined();
  });

  it('never deletes the last Administrator', async () => {
    expect(await removeUser(t.db, idOf(admin), kobeId, null)).toBe('last_administrator');
    expect(await row(idOf(admin))).toBeDefined();
  });

  it('lets an Operator only take a user of other cities out of its city; never an Administrator', async () => {
    const u = await makeUser({ assign_city: ['akita'] });
    expect((await call(operator, 'DELETE', `/kobe/api/users/${u.id}/`)).statusCode).toBe(204);
    expect((await row(u.id))?.assign_city).toHaveLength(1);
    expect((await call(operator, 'GET', `/kobe/api/users/?search=${u.username}`)).json().total_length).toBe(0);
    expect((await call(operator, 'DELETE', `/kobe/api/users/${idOf(admin)}/`)).statusCode).toBe(403);
    expect((await call(operator, 'DELETE', `/akita/api/users/${u.id}/`)).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', '/kobe/api/users/999999/')).statusCode).toBe(404);
  });
});

describe('teachers and classes', () => {
  it('adds a new Teacher of a school (201), marks an existing user of the city (200), removes it', async () => {
    const created = await call(admin, 'POST', '/kobe/api/users/add_teacher/', { username: 'teacher2', email: 'teacher2@example.jp', name: '先生 二', school: 3 });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ permission: 'Teacher', school: 3, assign_city: [{ name: 'kobe' }] });
    const noPassword = await t.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'teacher2', password: '!' } });
    expect(noPassword.statusCode).toBe(400);
    const u = await makeUser();
    const marked = await call(operator, 'POST', '/kobe/api/users/add_teacher/', { username: u.username, school: 4 });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ id: u.id, permission: 'Teacher', school: 4 });
    expect((await call(admin, 'POST', '/kobe/api/users/add_teacher/', { username: 'x9' })).json().fields).toHaveProperty('school');
    expect((await call(admin, 'PUT', `/kobe/api/users/${u.id}/remove_teacher/?school=3`)).statusCode).toBe(400);
    const removed = await call(admin, 'PUT', `/kobe/api/users/${u.id}/remove_teacher/?school=4`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ school: null, group: null, classes: [] });
  });

  it('answers the classes of the caller, or of a user for a manager', async () => {
    await t.db.query('UPDATE users SET classes = $2::int[] WHERE id = $1', [idOf(teacher), [11, 12]]);
    const own = await call(teacher, 'GET', '/kobe/api/users/classes/');
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ content: [11, 12], total_length: 2 });
    expect((await call(admin, 'GET', `/kobe/api/users/classes/?user_id=${idOf(teacher)}`)).json().content).toEqual([11, 12]);
    expect((await call(teacher, 'GET', `/kobe/api/users/classes/?user_id=${idOf(operator)}`)).statusCode).toBe(403);
  });
});

describe('user lists and counts', () => {
  it('lists Advertisers of the city, of the managed cities, and Members for vouchers', async () => {
    const akitaAd = await makeUser({ permission: 'Advertiser' }, 'akita');
    const byCity = (await call(operator, 'GET', '/kobe/api/users/get_ads_user_info_by_city')).json();
    expect(byCity.content.every((u: Json) => u.permission === 'Advertiser')).toBe(true);
    expect(names(byCity.content)).toContain('advertiser');
    expect(names((await call(operator, 'GET', '/kobe/api/users/get_ads_user_info?limit=1000')).json().content)).not.toContain(akitaAd.username);
    expect(names((await call(admin, 'GET', '/kobe/api/users/get_ads_user_info?limit=1000')).json().content)).toContain(akitaAd.username);
    const searched = (await call(admin, 'GET', '/kobe/api/users/get_ads_user_info?search=advertiser&offset=0')).json();
    expect(names(searched.content)).toEqual(['advertiser']);
    const members = await call(admin, 'GET', '/kobe/api/special-voucher/get_member_user/?search=captain');
    expect(members.json()).toMatchObject({ total_length: 1, content: [{ username: 'captain', permission: 'Member' }] });
    expect((await call(member, 'GET', '/cippoweb/api/special-voucher/get_member_user/')).statusCode).toBe(403);
  });

  it('answers the counts of users by role and by filter in the city', async () => {
    const adminInfo = await call(operator, 'GET', '/kobe/api/users/get_admin_info');
    expect(adminInfo.statusCode).toBe(200);
    const a = adminInfo.json();
    expect(a.city).toMatchObject({ name: 'kobe' });
    expect(a.by_role).toMatchObject({ Operator: 1, President: 1, Captain: 1, Police: expect.any(Number) });
    expect(Object.values(a.by_role as Record<string, number>).reduce((x, y) => x + y, 0)).toBe(a.total);
    const op = (await call(operator, 'GET', '/kobe/api/users/get_operation_info')).json();
    expect(Object.keys(op.by_filter).sort()).toEqual(['ad_user', 'ad_user_with_shop', 'ad_user_without_shop', 'all', 'member', 'operator', 'president']);
    expect(op.total).toBe((await call(admin, 'GET', '/kobe/api/users/')).json().total_length);
    expect((await call(member, 'GET', '/cippoweb/api/users/get_operation_info')).statusCode).toBe(403);
  });
});

describe('own account', () => {
  it('updates name, e-mail, introduction and avatar of the caller', async () => {
    const s = await login(t.app, (await makeUser()).username, 'password1');
    const r = await call(s, 'PUT', '/kobe/api/users/account', { name: '自分', email: 'me-new@example.jp', introduction: 'よろしく', avatar: 'https://example.jp/a.png', username: 'ignored' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ name: '自分', email: 'me-new@example.jp', introduction: 'よろしく', avatar: 'https://example.jp/a.png', email_verified: false });
    expect(r.json().username).not.toBe('ignored');
    const dup = await call(s, 'PUT', '/kobe/api/users/account', { email: 'teacher@example.jp' });
    expect(Object.keys(dup.json().fields)).toEqual(['email']);
    expect((await call(s, 'PUT', '/kobe/api/users/account', { avatar: 'javascript:alert(1)' })).json().fields).toHaveProperty('avatar');
    expect((await call(member, 'PUT', '/cippoweb/api/users/account', { name: '会員 六子' })).statusCode).toBe(200);
    expect((await call(null, 'PUT', '/kobe/api/users/account', { name: 'x' })).statusCode).toBe(401);
  });

  it('changes the password with the old one; other sessions end', async () => {
    const u = await makeUser();
    const [s, other] = [await login(t.app, u.username, 'password1'), await login(t.app, u.username, 'password1')];
    const wrong = await call(s, 'PUT', '/kobe/api/users/change_password', { old: 'wrongpass1', new: 'password22', confirm: 'password22' });
    expect(wrong.json().fields).toHaveProperty('old');
    const rules = await call(s, 'PUT', '/kobe/api/users/change_password', { old: 'password1', new: 'short', confirm: 'other' });
    expect(Object.keys(rules.json().fields).sort()).toEqual(['confirm', 'new']);
    const ok = await call(s, 'PUT', '/kobe/api/users/change_password', { old: 'password1', new: 'password22', confirm: 'password22' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ detail: expect.any(String) });
    await login(t.app, u.username, 'password22');
    const refreshOther = await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: other.refreshToken } });
    expect(refreshOther.statusCode).toBe(401);
    const refreshOwn = await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: s.refreshToken } });
    expect(refreshOwn.statusCode).toBe(200);
  });

  it('answers a YouTube thumbnail from the URL, without network', async () => {
    for (const url of ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1', 'https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ', 'https://youtube.com/shorts/dQw4w9WgXcQ']) {
      const r = await call(teacher, 'GET', `/kobe/api/users/youtube_thumbnail?url=${encodeURIComponent(url)}`);
      expect(r.json(), url).toEqual({ url: 'https://img.youtube.com/vi/dQw4w9WgXcQ/hqdefault.jpg' });
    }
    const bad = await call(teacher, 'GET', `/kobe/api/users/youtube_thumbnail?url=${encodeURIComponent('https://example.jp/watch?v=dQw4w9WgXcQ')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('url');
  });

  it('answers a random firebase token', async () => {
    const a = await call(teacher, 'GET', '/kobe/api/users/refresh_firebase_token/');
    expect(a.statusCode).toBe(200);
    expect(a.json().token_firebase).toMatch(/^[\w-]{40,}$/);
    expect((await call(teacher, 'GET', '/kobe/api/users/refresh_firebase_token/')).json().token_firebase).not.toBe(a.json().token_firebase);
    expect((await call(null, 'GET', '/kobe/api/users/refresh_firebase_token/')).statusCode).toBe(401);
  });
});

describe('registration and e-mail verification', () => {
  const url = '/kobe/api/users/register';

  it('requires username, e-mail, password and confirm, and applies the registration password rules', async () => {
    const empty = await call(null, 'POST', url, {});
    expect(Object.keys(empty.json().fields).sort()).toEqual(['confirm', 'email', 'password', 'username']);
    const base = { username: 'shop1', email: 'shop1@example.jp' };
    const fields = async (password: string, confirm = password) => (await call(null, 'POST', url, { ...base, password, confirm }, { 'accept-language': 'en' })).json().fields;
    expect((await fields('abcdefgh')).password).toEqual(['Please enter at least 8 characters with letters and digits.']);
    expect((await fields('abc1234')).password).toEqual(['Please enter at least 8 characters with letters and digits.']);
    expect((await fields('abcd$1234')).password).toEqual(['Use half-width letters, digits and symbols other than $.']);
    expect((await fields('abcd 1234')).password).toHaveLength(1);
    expect((await fields('ａｂｃｄ1234')).password).toHaveLength(1);
    expect(await fields('abcd1234', 'abcd12345')).toEqual({ confirm: ['The passwords do not match.'] });
    const dup = await call(null, 'POST', url, { username: 'teacher', email: 'shop1@example.jp', password: 'abcd1234!', confirm: 'abcd1234!' });
    expect(dup.json().fields).toEqual({ username: [USERNAME_TAKEN] });
  });

  it('registers an Advertiser of the city with an unverified e-mail and a pending verification', async () => {
    const r = await call(null, 'POST', url, { username: 'shop2', email: 'shop2@example.jp', password: 'abcd1234!', confirm: 'abcd1234!' });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ username: 'shop2', permission: 'Advertiser', email_verified: false, assign_city: [{ name: 'kobe' }] });
    const tokens = await t.db.query('SELECT kind FROM user_tokens WHERE user_id = $1', [r.json().id]);
    expect(tokens).toEqual([{ kind: 'email_verification' }]);
    await login(t.app, 'shop2', 'abcd1234!');
    expect((await call(null, 'POST', '/nowhere/api/users/register', { username: 'shop3' })).statusCode).toBe(404);
  });

  it('marks a verification pending for the caller, or by e-mail without telling whether it exists', async () => {
    const u = await makeUser();
    await t.db.query('UPDATE users SET email_verified = false WHERE id = $1', [u.id]);
    const s = await login(t.app, u.username, 'password1');
    const r = await call(s, 'POST', '/kobe/api/users/email_verification');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ detail: expect.any(String) });
    expect(await t.db.query("SELECT 1 FROM user_tokens WHERE user_id = $1 AND kind = 'email_verification' AND expires_at > now()", [u.id])).toHaveLength(1);
    const known = await call(null, 'POST', '/kobe/api/users/email_verification', { email: u.email as string });
    const unknown = await call(null, 'POST', '/kobe/api/users/email_verification', { email: 'nobody@example.jp' });
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(unknown.json()).toEqual(known.json());
  });

  it('confirms an e-mail with its one-time token, or by a manager', async () => {
    const u = await makeUser();
    await t.db.query('UPDATE users SET email_verified = false WHERE id = $1', [u.id]);
    const token = await issueUserToken(t.db, u.id, 'email_verification', 60);
    expect((await call(null, 'POST', `/kobe/api/users/${u.id + 1000}/confirm/`, { token })).statusCode).toBe(400);
    const r = await call(null, 'POST', `/kobe/api/users/${u.id}/confirm/`, { token });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ detail: expect.any(String) });
    expect((await row(u.id))?.email_verified).toBe(true);
    const again = await call(null, 'POST', `/kobe/api/users/${u.id}/confirm/`, { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().fields).toHaveProperty('token');
    await t.db.query('UPDATE users SET email_verified = false WHERE id = $1', [u.id]);
    expect((await call(null, 'POST', `/kobe/api/users/${u.id}/confirm/`, {})).statusCode).toBe(400);
    expect((await call(teacher, 'POST', `/kobe/api/users/${u.id}/confirm/`, {})).statusCode).toBe(403);
    expect((await call(operator, 'POST', `/kobe/api/users/${u.id}/confirm/`, {})).statusCode).toBe(200);
    expect((await row(u.id))?.email_verified).toBe(true);
  });
});

describe('password reset', () => {
  it('always answers 200 {detail} and stores a token hash with an expiry for a known address', async () => {
    const u = await makeUser();
    const known = await call(null, 'GET', `/request_reset_password_operator?email=${encodeURIComponent(String(u.email).toUpperCase())}`);
    const unknown = await call(null, 'GET', '/request_reset_password_operator?email=nobody%40example.jp');
    const none = await call(null, 'GET', '/request_reset_password_operator');
    expect([known.statusCode, unknown.statusCode, none.statusCode]).toEqual([200, 200, 200]);
    expect(known.json()).toEqual(unknown.json());
    expect(Object.keys(known.json())).toEqual(['detail']);
    const rows = await t.db.query<{ token_hash: string; expires_at: Date }>("SELECT token_hash, expires_at FROM user_tokens WHERE user_id = $1 AND kind = 'reset_password'", [u.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(new Date(rows[0].expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it('sets a new password with a valid token once, and ends every session', async () => {
    const u = await makeUser();
    const s = await login(t.app, u.username, 'password1');
    const token = await issueUserToken(t.db, u.id, 'reset_password', 60);
    const rules = await call(null, 'POST', '/reset_password_operator/', { token, password: 'short', confirm: 'x' });
    expect(Object.keys(rules.json().fields).sort()).toEqual(['confirm', 'password']);
    expect((await call(null, 'POST', '/reset_password_operator/', { token: 'nope', password: 'password33', confirm: 'password33' })).json().fields).toHaveProperty('token');
    const ok = await call(null, 'POST', '/reset_password_operator/', { token, password: 'password33', confirm: 'password33' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ detail: expect.any(String) });
    await login(t.app, u.username, 'password33');
    expect((await t.app.inject({ method: 'POST', url: '/kobe/api/refresh-token', payload: { refresh_token: s.refreshToken } })).statusCode).toBe(401);
    expect((await call(null, 'POST', '/reset_password_operator/', { token, password: 'password44', confirm: 'password44' })).statusCode).toBe(400);
  });
});

describe('my-number', () => {
  it('starts a link with a state and answers the address to go to from the callback', async () => {
    expect((await call(null, 'PATCH', '/default/api/users/mynumber', {})).statusCode).toBe(401);
    expect((await call(member, 'PATCH', '/default/api/users/mynumber', { redirect: '//evil.example' })).statusCode).toBe(400);
    const start = await call(member, 'PATCH', '/default/api/users/mynumber', { redirect: '/cippoweb/profile' });
    expect(start.statusCode).toBe(200);
    const { state } = start.json();
    expect(start.json()).toEqual({ state: expect.any(String), expires_in: 600 });
    const done = await call(null, 'POST', '/default/api/users/mynumber/callback', { code: 'abc', state });
    expect(done.json()).toEqual({ data: '/cippoweb/profile' });
    expect((await row(idOf(member)))?.mynumber_linked_at).toBeTruthy();
    expect((await call(null, 'POST', '/default/api/users/mynumber/callback', { code: 'abc', state })).json()).toEqual({ data: '/login?mynumber_error=invalid_state' });
    const second = (await call(member, 'PATCH', '/default/api/users/mynumber', {})).json().state;
    const denied = await call(null, 'POST', '/default/api/users/mynumber/callback?error=access_denied', { state: second, error_description: 'cancelled' });
    expect(denied.json()).toEqual({ data: '/?mynumber_error=access_denied' });
  });
});

describe('city calls', () => {
  it('answers a city by name or id, and by path', async () => {
    const byName = await call(member, 'GET', '/default/api/city/specify/?name=kobe');
    expect(byName.json()).toEqual({ id: kobeId, name: 'kobe', name_ja: '神戸市' });
    expect((await call(member, 'GET', `/default/api/city/specify/?id=${kobeId}`)).json().name).toBe('kobe');
    expect((await call(member, 'GET', '/default/api/city/specify/')).statusCode).toBe(400);
    expect((await call(member, 'GET', '/default/api/city/specify/?name=nowhere')).statusCode).toBe(404);
    expect((await call(member, 'GET', '/city/kobe/')).json()).toEqual({ id: kobeId, name: 'kobe', name_ja: '神戸市' });
    expect((await call(null, 'GET', '/city/kobe/')).statusCode).toBe(401);
  });

  it('lets an Administrator change a city name_ja', async () => {
    expect((await call(operator, 'PATCH', '/api/city/kobe/', { name_ja: '神戸' })).statusCode).toBe(403);
    expect((await call(admin, 'PATCH', '/api/city/kobe/', {})).statusCode).toBe(400);
    const r = await call(admin, 'PATCH', '/api/city/kobe/', { name_ja: '神戸' });
    expect(r.json()).toEqual({ id: kobeId, name: 'kobe', name_ja: '神戸' });
    await call(admin, 'PATCH', '/api/city/kobe/', { name_ja: '神戸市' });
  });

  it('answers whether a user operates a city', async () => {
    const url = (userId: number) => `/get_operation_city?city_id=${kobeId}&user_id=${userId}`;
    expect((await call(admin, 'GET', url(idOf(operator)))).json()).toEqual({
      city: { id: kobeId, name: 'kobe', name_ja: expect.any(String) },
      user_id: idOf(operator),
      assigned: true,
      operation: true,
    });
    expect((await call(teacher, 'GET', url(idOf(teacher)))).json()).toMatchObject({ assigned: true, operation: false });
    expect((await call(teacher, 'GET', url(idOf(operator)))).statusCode).toBe(403);
    expect((await call(admin, 'GET', '/get_operation_city')).statusCode).toBe(400);
    expect((await call(null, 'GET', url(idOf(admin)))).statusCode).toBe(401);
  });
});
