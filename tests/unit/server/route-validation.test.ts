// Validation and serialization from the routes' schemas (src/server/plugins/validation.ts; 001 8, 9):
// the contract's 400, after the permission checks; text PostgreSQL cannot store refused; answers
// through their response schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../../src/shared/registry';
import { TEST_SCHEMAS, testRegistry } from './fixtures/test-resources';
import { bearer, createTestApp, login, type TestApp } from './helpers';

let t: TestApp;
let admin: Record<string, string>;
let police: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    // A route that answers without asking for its input's validation: a programming error.
    app.post('/default/api/test-unchecked', { schema: { body: { type: 'object', required: ['x'] } } }, async () => ({ ok: true }));
  }, { resources: testRegistry() });
  admin = bearer(await login(t.app, 'administrator'));
  police = bearer(await login(t.app, 'police'));
});
afterAll(async () => {
  await t?.close();
});

function call(method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) {
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

describe('route validation', () => {
  it("answers a body that breaks its schema with the contract's 400 and the fields' messages", async () => {
    const r = await call('POST', '/kobe/api/t-ads/', { ...admin, 'accept-language': 'en' }, { name: 5, bogus: 1 });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      detail: expect.any(String),
      code: 'validation',
      fields: { name: ['The value has the wrong type.'], bogus: ['This field is not accepted.'] },
    });
  });

  it('refuses strings PostgreSQL cannot store (NUL, a lone surrogate) in bodies and queries; a surrogate pair passes', async () => {
    for (const name of ['a\u0000b', 'a\ud800b', 'a\udc00']) {
      const r = await call('POST', '/kobe/api/t-ads/', admin, { name });
      expect(r.statusCode, JSON.stringify(name)).toBe(400);
      expect(Object.keys(r.json().fields)).toEqual(['name']);
    }
    expect((await call('POST', '/kobe/api/t-ads/', admin, { name: 'ok 😀' })).statusCode).toBe(201);
    expect((await call('PUT', '/kobe/api/users/account', admin, { name: '\u0000' })).json().fields).toHaveProperty('name');
    const search = await call('GET', '/kobe/api/t-ads/?search=a%00', admin);
    expect(search.statusCode).toBe(400);
    expect(Object.keys(search.json().fields)).toEqual(['search']);
  });

  it('checks the input only after the permission: who may not call learns 401 or 403, never 400', async () => {
    expect((await call('POST', '/kobe/api/t-ads/', police, { name: 5 })).statusCode).toBe(403);
    expect((await call('POST', '/kobe/api/t-ads/', {}, { name: 5 })).statusCode).toBe(401);
    expect((await call('POST', '/kobe/api/users/', police, {})).statusCode).toBe(403);
  });

  it('answers a path naming no row with 404, and a missing body like an empty one', async () => {
    const r = await call('GET', '/kobe/api/t-ads/abc/', admin);
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ detail: expect.any(String), code: 'not_found' });
    const empty = await call('POST', '/kobe/api/t-ads/', admin);
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().fields)).toEqual(['name']);
  });

  it('answers 500 when a route answers without asking for its validation', async () => {
    expect((await call('POST', '/default/api/test-unchecked', admin, {})).statusCode).toBe(500);
    expect((await call('POST', '/default/api/test-unchecked', admin, { x: 1 })).statusCode).toBe(200);
  });
});

describe('a PATCH body', () => {
  it('is checked as sent: the route fills no default in, so the merge keeps the stored values', async () => {
    const schemas = structuredClone(TEST_SCHEMAS);
    const ad = schemas.find((s) => s.$id === 't_ad')!;
    ad['x-resource'].api.update = { method: 'PATCH', path: '/{city}/api/t-ads/{id}/' };
    const p = await createTestApp({}, undefined, { resources: buildRegistry(schemas) });
    try {
      const h = bearer(await login(p.app, 'administrator'));
      const created = (await p.app.inject({ method: 'POST', url: '/kobe/api/t-ads/', headers: h, payload: { name: 'kept', status: 'public', price: 3 } })).json();
      const patched = await p.app.inject({ method: 'PATCH', url: `/kobe/api/t-ads/${created.id}/`, headers: h, payload: { name: 'renamed' } });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({ name: 'renamed', status: 'public', price: 3 });
      const bad = await p.app.inject({ method: 'PATCH', url: `/kobe/api/t-ads/${created.id}/`, headers: h, payload: { price: -1 } });
      expect(Object.keys(bad.json().fields)).toEqual(['price']);
    } finally {
      await p.close();
    }
  });
});

describe('serialization from the response schemas', () => {
  it('answers fixed shapes through their schema, and records with every stored field', async () => {
    const who = await call('GET', '/default/api/users/whoami', admin);
    expect(Object.keys(who.json()).sort()).toEqual(['id', 'refreshable']);
    const count = await call('GET', '/kobe/api/t-ads/count/', admin);
    expect(count.json()).toEqual({ count: expect.any(Number) });
    const list = (await call('GET', '/kobe/api/t-ads/', admin)).json();
    expect(list.content[0]).toHaveProperty('version');
    expect(list.content[0]).toHaveProperty('created_at');
  });
});
