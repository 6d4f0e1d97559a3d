/**
 * The contract test (001 7): every call of 001 §7, from the hand-written table in
 * section7-calls.ts, against the real server on a real database, as the Administrator in kobe.
 * A call passes when a route serves it (not the unknown-route answer), it does not fail with 500,
 * and its answer has the contract's shape: lists carry `content` (array) and `total_length` (number);
 * errors carry `{detail, code}`; the answers of ANSWER_KEYS hold exactly their keys, numbers. Calls marked as coming with later work are listed as skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from '../server/helpers';
import { ANSWER_KEYS, SECTION_7, STATISTIC_ANSWERS, type Call } from './section7-calls';

const LATER = /comes with the CSV import work/;
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    // Marks answers of the unknown-route handler, which has no route pattern.
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-contract-route', request.routeOptions.url ?? '');
    });
  });
  headers = bearer(await login(t.app, 'administrator'));
});
afterAll(() => t?.close());

function concrete(path: string): string {
  return path.replaceAll('{city}', 'kobe').replaceAll('{id}', '1').replaceAll('{x}', 'sample');
}

const rows: Array<[string, Call]> = Object.entries(SECTION_7).flatMap(([section, calls]) => calls.map((c) => [section, c] as [string, Call]));

describe('001 §7: every call is served', () => {
  it('the table holds every call of the spec', () => {
    expect(rows.length).toBeGreaterThan(300);
  });



  for (const [section, [method, path, note]] of rows) {
    const name = `${section}: ${method} ${path}`;
    if (note && LATER.test(note)) {
      it.skip(`${name} (${note})`, () => {});
      continue;
    }
    it(name, async () => {
      const url = concrete(path);
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const r = await t.app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
      expect(r.headers['x-contract-route'], `${method} ${url} has no route`).toBeTruthy();
      expect(r.statusCode, `${method} ${url}: ${r.body.slice(0, 200)}`).not.toBe(500);
      if (r.statusCode === 204 || r.body === '') return;
      if (String(r.headers['content-type']).startsWith('text/csv')) {
        // An export (7.7 coupon-usage-conditions/export): a CSV whose first line holds the column titles.
        expect(r.statusCode).toBe(200);
        expect(r.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toMatch(/^ID,/);
        return;
      }
      const answer = r.json() as Record<string, unknown>;
      if (r.statusCode >= 400) {
        expect(answer).toMatchObject({ detail: expect.any(String), code: expect.any(String) });
      } else if (answer && typeof answer === 'object' && 'content' in answer) {
        expect(Array.isArray(answer.content)).toBe(true);
        expect(typeof answer.total_length).toBe('number');
      }
    });
  }
});

describe('001 §7: answers whose shape the spec names', () => {
  // A session of its own: the walk above signs out and changes passwords on the way.
  let own: Record<string, string>;
  beforeAll(async () => {
    own = bearer(await login(t.app, 'administrator'));
  });

  it('every answer shape names a call of the table', () => {
    const calls = new Set(rows.map(([, [method, path]]) => `${method} ${path}`));
    for (const call of Object.keys(ANSWER_KEYS)) expect(calls.has(call), call).toBe(true);
  });

  it.each(Object.entries(ANSWER_KEYS))('%s answers exactly %j, numbers', async (call, keys) => {
    const [method, path] = call.split(' ') as [Call[0], string];
    const r = await t.app.inject({ method, url: concrete(path), headers: own });
    expect(r.statusCode, r.body).toBe(200);
    const answer = r.json() as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual([...keys].sort());
    for (const k of keys) expect(typeof answer[k]).toBe('number');
  });
});

describe("001 §7: the statistic calls answer in the spec's words (000 §3)", () => {
  let own: Record<string, string>;
  beforeAll(async () => {
    own = bearer(await login(t.app, 'administrator'));
  });

  it.each(Object.entries(STATISTIC_ANSWERS))('%s answers its totals and a row per group', async (call, { totals, row }) => {
    const [method, path] = call.split(' ') as [Call[0], string];
    const r = await t.app.inject({ method, url: `${concrete(path)}?start_date=2000-01-01&end_date=2099-12-31`, headers: own });
    expect(r.statusCode, r.body).toBe(200);
    const answer = r.json() as Record<string, unknown> & { content: Array<Record<string, unknown>> };
    for (const k of totals) expect(typeof answer[k], k).toBe('number');
    expect(answer.content.length).toBeGreaterThan(0);
    for (const c of answer.content) {
      expect(c).toHaveProperty(row);
      for (const k of totals) expect(typeof c[k], k).toBe('number');
    }
    const sum = (k: string) => answer.content.reduce((n, c) => n + Number(c[k]), 0);
    expect(sum('count')).toBe(answer.count);
  });
});
