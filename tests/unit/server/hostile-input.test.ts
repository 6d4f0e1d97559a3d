// Hostile input over every call of /openapi.json (001 8, 9; docs/architecture.md 'Conventions'):
// each write gets bodies a hostile client sends (text PostgreSQL cannot store, huge strings, deep
// nesting, prototype keys, wrong types, non-JSON), each query parameter and path parameter hostile
// values. No answer may be a 5xx, and a call that refused every hostile request wrote nothing.
// New routes are covered as soon as they are in the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helpers';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let t: TestApp;
let headers: Record<string, string>;
let doc: Json;

/** Text PostgreSQL cannot store, text meant to break SQL or markup, and sizes past any limit. */
const HOSTILE_TEXT = ['a\u0000b', '\ud800', "' OR '1'='1' --", '<script>alert(1)</script>', 'あ'.repeat(100_000)];
/** Values of the wrong kind for any field. */
const HOSTILE_VALUES: unknown[] = [...HOSTILE_TEXT, -1, 1e308, true, null, [], {}, [[['deep']]], { __proto__: { admin: true } }];
/** Query parameter values (as sent in an address). */
const HOSTILE_QUERY = ['%00', '%ED%A0%80', "'%20OR%201%3D1--", '1e999', '-1', 'a'.repeat(3000)];
/** Path parameter values. */
const HOSTILE_IDS = ['0', '99999999999999999999', 'abc', '%00', '%ED%A0%80', '1%20OR%201%3D1'];
/**
 * Numbers past every integer's range (src/server/openapi/integer-params.ts): past a `bigint`, past
 * what a JavaScript number holds exactly, below any minimum, not an integer, not decimal. Each one in
 * a path or query integer answers 400 naming that field.
 */
const OUT_OF_RANGE = ['1e20', '-1', '9223372036854775808', '9223372036854775807', '9007199254740992', '1.5', '0x10', '-9223372036854775809'];
/** Numbers in range of a `bigint` id but past a PostgreSQL `integer` (users, cities): never a 5xx. */
const PAST_INT4 = ['2147483648', '9007199254740991'];

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** The bodies sent to a write: every declared property set to one hostile value at a time, and whole-body attacks. */
function hostileBodies(schema: Json | undefined): Array<string> {
  const props = Object.keys(schema?.properties ?? {});
  const keys = props.length > 0 ? props : ['name', 'title', 'id'];
  const bodies = HOSTILE_VALUES.map((v) => JSON.stringify(Object.fromEntries(keys.map((k) => [k, v]))));
  bodies.push(
    JSON.stringify(nested(3000)),
    JSON.stringify([{ a: 1 }]),
    JSON.stringify('text'),
    '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}',
    '{"a": 1,',
    'not json at all',
    JSON.stringify(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, i]))),
  );
  return bodies;
}

function fill(path: string, id: string): string {
  return path.replace('{city}', 'kobe').replace(/\{[^}]+\}/g, id);
}

/**
 * What a refused request must leave as it was: audited writes, row counts, users, jobs. Security
 * events are left out: a refused sign-in is one (auth/security-events.ts), and so is the test's own
 * sign-in again after a call answered 401.
 */
async function writeSignature(): Promise<string> {
  const [row] = await t.db.query<Record<string, unknown>>(
    `SELECT (SELECT coalesce(max(id), 0) FROM r_audit_log WHERE data->>'category' <> 'security') AS audit,
            (SELECT coalesce(sum(n), 0) FROM resource_counts WHERE resource <> 'audit_log') AS rows,
            (SELECT count(*) FROM users) AS users,
            (SELECT count(*) FROM jobs WHERE kind <> 'housekeeping') AS jobs`,
  );
  return JSON.stringify(row);
}

async function send(method: Method, url: string, body?: string): Promise<number> {
  const r = await t.app.inject({ method, url, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { payload: body }) });
  if (r.statusCode === 401) {
    // A call that ended the session (a password or role change): sign in again and go on.
    headers = bearer(await login(t.app, 'administrator'));
  }
  return r.statusCode;
}

beforeAll(async () => {
  t = await createTestApp();
  headers = bearer(await login(t.app, 'administrator'));
  doc = (await t.app.inject({ url: '/openapi.json' })).json();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Calls the fuzz leaves out: those that hold a stream open, and sign-out (it would only end the session). */
const SKIPPED = /\/stream$|logout/;

/** The integer parameters (path and query) of every call of the document, but the city. */
function integerParams(): Array<{ method: Method; path: string; param: Json; siblings: Json[] }> {
  const out: Array<{ method: Method; path: string; param: Json; siblings: Json[] }> = [];
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    if (SKIPPED.test(path)) continue;
    for (const [lower, op] of Object.entries(ops as Json)) {
      for (const param of (op.parameters ?? []) as Json[]) {
        const type = param.schema?.type;
        if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) out.push({ method: lower.toUpperCase() as Method, path, param, siblings: (op.parameters ?? []) as Json[] });
      }
    }
  }
  return out;
}

/**
 * `path` with every placeholder filled (`value` for `name`; another placeholder with the first value
 * of its declared enum, e.g. a resource's name, else `1`), and `name=value` in the query when it is a
 * query parameter.
 */
function urlWith(path: string, param: Json, value: string, siblings: Json[] = []): string {
  const sample = (name: string) => String(siblings.find((p) => p.in === 'path' && p.name === name)?.schema?.enum?.[0] ?? '1');
  const filled = path.replace('{city}', 'kobe').replace(/\{([^}]+)\}/g, (_m, name: string) => (param.in === 'path' && name === param.name ? value : sample(name)));
  return param.in === 'query' ? `${filled}?${param.name}=${value}` : filled;
}

describe('integers of paths and queries', () => {
  it('each declares a range, and a number past it answers 400 naming the field, never 5xx', async () => {
    const params = integerParams();
    const unbounded = params.filter(({ param }) => typeof param.schema.minimum !== 'number' || typeof param.schema.maximum !== 'number');
    expect(unbounded.map(({ method, path, param }) => `${method} ${path} ${param.name}`)).toEqual([]);
    const wrong: string[] = [];
    let requests = 0;
    for (const { method, path, param, siblings } of params) {
      // A write is sent an empty body: the range is checked before the body matters.
      const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
      for (const value of OUT_OF_RANGE) {
        const r = await t.app.inject({ method, url: urlWith(path, param, value, siblings), headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { payload: body }) });
        requests++;
        if (r.statusCode === 401) headers = bearer(await login(t.app, 'administrator'));
        // A caller the call refuses (403) learns nothing of the input; anyone else learns the field.
        const fields = r.statusCode === 400 ? Object.keys(r.json().fields ?? {}) : [];
        if (r.statusCode !== 403 && !(r.statusCode === 400 && fields.includes(param.name))) wrong.push(`${method} ${path} ${param.in} ${param.name}=${value}: ${r.statusCode} ${r.body.slice(0, 120)}`);
      }
      for (const value of PAST_INT4) {
        const status = await send(method, urlWith(path, param, value, siblings), method === 'GET' || method === 'DELETE' ? undefined : '{}');
        requests++;
        if (status >= 500) wrong.push(`${method} ${path} ${param.in} ${param.name}=${value}: ${status}`);
      }
    }
    console.log(`integers: ${params.length} parameters, ${requests} requests, ${wrong.length} wrong`);
    expect(wrong).toEqual([]);
    expect(params.length).toBeGreaterThan(500);
  }, 900_000);

  it('answers the chat page of a message id past a bigint with 400 naming `before`', async () => {
    const r = await t.app.inject({ url: '/kobe/api/chat/conversations/1/messages/?before=1e20', headers });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'validation', fields: { before: [expect.any(String)] } });
    expect((await t.app.inject({ url: '/kobe/api/chat/conversations/1/messages/?before=9007199254740991', headers })).statusCode).toBeLessThan(500);
    // A path with a word where the id goes still names nothing.
    expect((await t.app.inject({ url: '/kobe/api/chat/conversations/abc/messages/', headers })).statusCode).toBe(404);
  });
});

describe('hostile input over every call of /openapi.json', () => {
  it('never answers 5xx, and a call that refused every hostile request wrote nothing', async () => {
    const failures: string[] = [];
    const wrote: string[] = [];
    let requests = 0;
    for (const [path, ops] of Object.entries(doc.paths as Json)) {
      if (SKIPPED.test(path)) continue;
      for (const [lower, op] of Object.entries(ops as Json)) {
        const method = lower.toUpperCase() as Method;
        const check = (status: number, what: string) => {
          requests++;
          if (status >= 500) failures.push(`${method} ${path} ${what}: ${status}`);
        };
        const params = (op.parameters ?? []) as Json[];
        const hasId = params.some((p) => p.in === 'path' && p.name !== 'city');
        const base = fill(path, '1');
        if (method === 'GET') {
          for (const q of params.filter((p) => p.in === 'query')) {
            for (const v of HOSTILE_QUERY) check(await send('GET', `${base}?${q.name}=${v}`), `?${q.name}=${v.slice(0, 20)}`);
          }
          if (hasId) for (const id of HOSTILE_IDS) check(await send('GET', fill(path, id)), `id ${id}`);
          continue;
        }
        const before = await writeSignature();
        let accepted = 0;
        const writeCheck = (status: number, what: string) => {
          check(status, what);
          if (status < 300) accepted++;
        };
        if (method === 'DELETE') {
          for (const id of HOSTILE_IDS) writeCheck(await send('DELETE', fill(path, id)), `id ${id}`);
        } else {
          const json = op.requestBody?.content?.['application/json'];
          if (!json) continue;
          const schema = json.schema?.$ref ? doc.components.schemas[String(json.schema.$ref).split('/').pop()!] : json.schema;
          for (const body of hostileBodies(schema)) writeCheck(await send(method, base, body), `body ${body.slice(0, 40)}`);
          if (hasId) for (const id of HOSTILE_IDS) writeCheck(await send(method, fill(path, id), '{"name":"x"}'), `id ${id}`);
        }
        if (accepted === 0 && (await writeSignature()) !== before) wrote.push(`${method} ${path}`);
      }
    }
    console.log(`hostile input: ${requests} requests, ${failures.length} answered 5xx, ${wrote.length} refused calls wrote`);
    expect({ failures, wrote }).toEqual({ failures: [], wrote: [] });
    expect(requests).toBeGreaterThan(8_000);
  }, 900_000);
});
