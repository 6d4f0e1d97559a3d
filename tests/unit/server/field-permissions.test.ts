/**
 * Field permissions (docs/architecture.md 'Field permissions'): `x-permissions` of the schemas made CASL
 * field rules (src/shared/ability.ts), enforced by the server: a field a role may not read leaves
 * every read, list, search, export and revision; a write changing a field it may not write is a 403
 * naming the field, while a whole-record PUT sending the unchanged value passes. The matrix part is
 * generated from the schemas: every declared field rule for every role. On PGlite, and on PostgreSQL
 * when DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAbilityFor, permittedFields, roleAllowed } from '../../../src/shared/ability';
import { getResource, registry, type Action } from '../../../src/shared/registry';
import { ROLES, type Role } from '../../../src/shared/roles';
import { createRecord } from '../../../src/server/repositories/resource-repository';
import { bearer, createTestApp, login, type TestApp } from './helpers';

const CITY = { id: 1, name: 'kobe', name_ja: '神戸' };

describe('the field rules generated from the schemas', () => {
  const declared = [...registry.values()].flatMap((def) =>
    Object.entries(def.schema.properties)
      .filter(([, p]) => p['x-permissions'])
      .map(([field, p]) => ({ def, field, rules: p['x-permissions']! })),
  );
  it('declares the advertisement plan and top flag, and the personal fields of the spec', () => {
    const names = declared.map((d) => `${d.def.name}.${d.field}`);
    expect(names).toEqual(expect.arrayContaining(['advertisement.plan', 'advertisement.is_top', 'family.phone_number', 'family.address', 'teacher.email', 'teacher.phone_number']));
  });
  for (const { def, field, rules } of declared) {
    for (const role of ROLES as readonly Role[]) {
      it(`${def.name}.${field} for ${role}`, () => {
        const ability = defineAbilityFor({ permission: role, is_captain_department: role === 'Captain', assign_city: [CITY] }, 'kobe');
        for (const action of ['read', 'create', 'update'] as Action[]) {
          const list = action === 'read' ? rules.read : rules.write;
          const expected = roleAllowed(def.permissions[action], role) && (!list || roleAllowed(list, role));
          expect(permittedFields(ability, action, def).includes(field), `${action}`).toBe(expected);
        }
      });
    }
  }
});

let t: TestApp;
let admin: Record<string, string>;
let shop: Record<string, string>;
let teacher: Record<string, string>;
let president: Record<string, string>;
let adId = 0;
let teacherId = 0;

beforeAll(async () => {
  t = await createTestApp();
  const ad = await createRecord(t.db, getResource('advertisement'), 'kobe', { name: '項目権限の店', plan: 'B' }, { userId: null }, { trusted: true });
  adId = Number(ad.id);
  const school = await createRecord(t.db, getResource('school'), 'kobe', { name: '項目権限の学校' }, { userId: null }, { trusted: true });
  const row = await createRecord(t.db, getResource('teacher'), 'kobe', { name: '連絡 先生', username: 'renraku', email: 'renraku@school.example.jp', phone_number: '090-0000-1111', school: Number(school.id) }, { userId: null }, { trusted: true });
  teacherId = Number(row.id);
  await t.db.query('UPDATE users SET advertisements = $1::int[] WHERE username = $2', [[adId], 'advertiser']);
  await t.db.query('UPDATE users SET school = $1 WHERE username IN ($2, $3)', [Number(school.id), 'teacher', 'president']);
  admin = bearer(await login(t.app, 'administrator'));
  shop = bearer(await login(t.app, 'advertiser'));
  teacher = bearer(await login(t.app, 'teacher'));
  president = bearer(await login(t.app, 'president'));
});
afterAll(() => t?.close());

async function req(method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) {
  const r = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return { status: r.statusCode, body: (r.body ? r.json() : {}) as Record<string, unknown>, text: r.body };
}

describe('writing a field the role may not write', () => {
  it("an Advertiser reads its ad's plan, saves the whole record unchanged, and may not change the plan (403 naming it)", async () => {
    const shown = await req('GET', `/kobe/api/advertisements/${adId}/`, shop);
    expect(shown.status).toBe(200);
    expect(shown.body.plan).toBe('B');
    const same = await req('PUT', `/kobe/api/advertisements/${adId}/`, shop, { ...shown.body, description: '説明を変えました' });
    expect(same.status, same.text).toBe(200);
    const left = await req('PUT', `/kobe/api/advertisements/${adId}/`, shop, { name: '項目権限の店', version: same.body.version });
    expect(left.status, left.text).toBe(200);
    expect(left.body.plan).toBe('B');
    const changed = await req('PUT', `/kobe/api/advertisements/${adId}/`, shop, { ...left.body, plan: 'A' });
    expect(changed.status).toBe(403);
    expect(Object.keys(changed.body.fields as object)).toEqual(['plan']);
    expect((await req('GET', `/kobe/api/advertisements/${adId}/`, admin)).body.plan).toBe('B');
    const byCity = await req('PUT', `/kobe/api/advertisements/${adId}/`, admin, { ...left.body, plan: 'A' });
    expect(byCity.status, byCity.text).toBe(200);
    expect(byCity.body.plan).toBe('A');
  });
});

describe('an action writing a field the role may not write', () => {
  it('トップに掲載 (toppan sets is_top) is refused to the Advertiser naming is_top, and done by the Operator', async () => {
    const refused = await req('PUT', `/kobe/api/advertisements/${adId}/toppan/`, shop, {});
    expect(refused.status, refused.text).toBe(403);
    expect(Object.keys(refused.body.fields as object)).toEqual(['is_top']);
    expect((await req('GET', `/kobe/api/advertisements/${adId}/`, admin)).body.is_top).toBe(false);
    const done = await req('PUT', `/kobe/api/advertisements/${adId}/toppan/`, admin, {});
    expect(done.status, done.text).toBe(200);
    expect(done.body.is_top).toBe(true);
  });
});

describe('reading a field the role may not read', () => {
  it('a Teacher reads teachers without their e-mail and phone, in the show, the list, its search and the revisions', async () => {
    const shown = await req('GET', `/kobe/api/teacher/${teacherId}/`, teacher);
    expect(shown.status).toBe(200);
    expect(shown.body.name).toBe('連絡 先生');
    expect(shown.body).not.toHaveProperty('email');
    expect(shown.body).not.toHaveProperty('phone_number');
    const list = await req('GET', '/kobe/api/teacher/?limit=100', teacher);
    const rows = list.body.content as Array<Record<string, unknown>>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => 'email' in r || 'phone_number' in r)).toBe(false);
    // The e-mail is a search field: a Teacher's search does not look into it.
    expect(((await req('GET', '/kobe/api/teacher/?search=renraku%40school', teacher)).body.content as unknown[]).length).toBe(0);
    expect(((await req('GET', '/kobe/api/teacher/?search=renraku%40school', president)).body.content as unknown[]).length).toBe(1);
    const byPresident = await req('GET', `/kobe/api/teacher/${teacherId}/`, president);
    expect(byPresident.body.email).toBe('renraku@school.example.jp');
    // A change of the phone by the President: the Teacher's history shows no phone.
    const changed = await req('PUT', `/kobe/api/teacher/${teacherId}/`, president, { ...byPresident.body, phone_number: '090-2222-3333', subject: '理科' });
    expect(changed.status, changed.text).toBe(200);
    const theirs = await req('GET', `/kobe/api/revisions/teacher/${teacherId}/`, teacher);
    expect(theirs.status).toBe(200);
    const [newest] = theirs.body.content as Array<{ changes: Array<{ field: string }> }>;
    expect(newest.changes.map((c) => c.field)).toEqual(['subject']);
    const full = await req('GET', `/kobe/api/revisions/teacher/${teacherId}/`, president);
    expect((full.body.content as Array<{ changes: Array<{ field: string }> }>)[0].changes.map((c) => c.field).sort()).toEqual(['phone_number', 'subject']);
  });

  it('the CSV export leaves the column out, even when asked for', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/kobe/api/exports/teacher/?columns=name,email,phone_number', headers: teacher });
    if (r.statusCode === 404) return; // not an exported list
    expect(r.statusCode).toBe(200);
    expect(r.body).not.toContain('renraku@school.example.jp');
    expect(r.body).toContain('連絡 先生');
  });
});

describe('/openapi.json', () => {
  it('documents the revision routes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/{city}/api/revisions/{resource}/{id}/', '/{city}/api/revisions/{resource}/deleted/', '/{city}/api/revisions/{resource}/{id}/{revision}/restore/', '/{city}/api/revisions/{resource}/{id}/undelete/']));
  });
});
