/**
 * The role × call matrix (docs/architecture.md 'One set of permission rules'): every call of 001 §7 (section7-calls.ts) as every role,
 * against the real server on a real database, expecting what the table written from the spec says
 * (role-matrix-table.ts): an allowed role passes the permission check (2xx; 400 for the empty test
 * body; 404 for the unknown test id), every other role gets 403; open refresh calls without a refresh
 * token answer 401. Each role works in its own city (the Member in cippoweb, the others in kobe).
 * Row ids are an id no table has, so no call changes demo data another call reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../../src/shared/roles';
import { bearer, createTestApp, login, type TestApp } from '../server/helpers';
import { KNOWN_GAPS, ROLE_MATRIX, type MatrixRow } from './role-matrix-table';
import { SECTION_7, type Call } from './section7-calls';

const LATER = /comes with the CSV import work/;
const UNKNOWN_ID = '999999';
const USERNAME: Record<Role, string> = {
  Administrator: 'administrator',
  Operator: 'operator',
  President: 'president',
  Captain: 'captain',
  Teacher: 'teacher',
  Advertiser: 'advertiser',
  Police: 'police',
  Member: 'member',
};
const CITY: Record<Role, string> = { ...Object.fromEntries(ROLES.map((r) => [r, 'kobe'])), Member: 'cippoweb' } as Record<Role, string>;

let t: TestApp;
const headers = {} as Record<Role, Record<string, string>>;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) headers[role] = bearer(await login(t.app, USERNAME[role]));
});
afterAll(() => t?.close());

/** The row of the table that decides a call (the first whose pattern matches). */
function rowOf([method, path]: Call): MatrixRow | undefined {
  return ROLE_MATRIX.find((r) => r.calls.test(`${method} ${path}`));
}

function concrete(path: string, role: Role): string {
  return path.replaceAll('{city}', CITY[role]).replaceAll('{id}', UNKNOWN_ID).replaceAll('{x}', 'sample');
}

function passed(status: number): boolean {
  return (status >= 200 && status < 300) || status === 400 || status === 404 || status === 409;
}

async function call(role: Role, [method, path]: Call): Promise<number> {
  // Logout ends the session it is made with: use a session of its own.
  const h = path === '/default/login/logout' ? bearer(await login(t.app, USERNAME[role])) : headers[role];
  const payload = method === 'GET' || method === 'DELETE' ? undefined : {};
  const r = await t.app.inject({ method, url: concrete(path, role), headers: h, ...(payload ? { payload } : {}) });
  return r.statusCode;
}

const sections = Object.entries(SECTION_7).map(([section, calls]) => [section, calls.filter((c) => !(c[2] && LATER.test(c[2])))] as const);

describe('role × call matrix (001 §7 × 000 §6)', () => {
  it('the table decides every call of section 7', () => {
    const undecided = sections.flatMap(([, calls]) => calls.filter((c) => !rowOf(c)).map((c) => `${c[0]} ${c[1]}`));
    expect(undecided).toEqual([]);
    expect(sections.reduce((n, [, calls]) => n + calls.length, 0) * ROLES.length).toBeGreaterThan(2500);
  });

  for (const [section, calls] of sections) {
    for (const role of ROLES) {
      const gaps = KNOWN_GAPS.filter((g) => g.role === role && calls.some((c) => `${c[0]} ${c[1]}` === g.call));
      const test = gaps.length > 0 ? it.fails : it;
      test(`${section} as ${role}${gaps.length > 0 ? ` (known gaps: ${gaps.map((g) => `${g.call}: ${g.why}`).join('; ')})` : ''}`, async () => {
        const wrong: string[] = [];
        for (const c of calls) {
          const row = rowOf(c);
          if (!row) continue;
          const status = await call(role, c);
          const expected = row.status ?? (row.allow.includes(role) ? 'pass' : 403);
          const ok = expected === 'pass' ? passed(status) : status === expected;
          if (!ok) wrong.push(`${c[0]} ${c[1]}: expected ${expected} (${row.area}), got ${status}`);
        }
        expect(wrong).toEqual([]);
      });
    }
  }
});
