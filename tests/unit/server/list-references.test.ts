// The list's references and row actions (000 3 entities; docs/architecture.md 'Console'): every list
// column with an `x-ref` shows the referenced row's declared title, asked once per referenced
// resource and page through the data provider's `getMany` (the list with `ids`); reference filters
// (`<field>__in`); an action offered only on rows it applies to, and a `set` on a row that already
// holds its values answered as the row is.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BaseRecord } from '@refinedev/core';
import { registry, getResource, fillPath } from '../../../src/shared/registry';
import { isRefField } from '../../../src/shared/list-query';
import { dataProvider, batchable } from '../../../src/console/providers/data-provider';
import { setCity } from '../../../src/console/providers/session';
import { referencedIds } from '../../../src/console/resources/reference-labels';
import { labelField, refOptions } from '../../../src/console/resources/ref-options';
import { actionApplies } from '../../../src/console/resources/record-action-defs';
import { installFetch, type Call } from '../console/fake-fetch';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let operator: Session;

beforeAll(async () => {
  t = await createTestApp();
  operator = await login(t.app, 'operator');
  setCity('kobe');
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => vi.unstubAllGlobals());

/** The console's fetch answered by the app, as the operator; answers the calls made. */
function throughApp(session: Session): Call[] {
  return installFetch(async (call) => {
    const res = await t.app.inject({ method: call.method as 'GET', url: `${call.url.pathname}${call.url.search}`, headers: bearer(session), payload: call.body as never });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  });
}

function call(method: 'GET' | 'POST' | 'PUT', url: string, session: Session, payload?: unknown) {
  return t.app.inject({ method, url, headers: bearer(session), payload: payload as never });
}

const withRefColumns = [...registry.values()].filter((d) => d.list.columns.some((c) => isRefField(d, c)));

describe('reference columns show the referenced row’s title, one request per referenced resource and page', () => {
  it('every list with a reference column is covered, and every referenced resource declares its title field', () => {
    expect(withRefColumns.length).toBeGreaterThanOrEqual(30);
    for (const d of withRefColumns) {
      for (const c of d.list.columns.filter((f) => isRefField(d, f))) expect(getResource(d.schema.properties[c]['x-ref']!).titleField, `${d.name}.${c}`).toBeTruthy();
    }
  });

  let resolved = 0;
  for (const def of withRefColumns) {
    it(`${def.name}: ${def.list.columns.filter((c) => isRefField(def, c)).join(', ')}`, async () => {
      if (!batchable(def)) return; // a list under a parent row: its page is opened from that row
      const calls = throughApp(operator);
      let page: BaseRecord[];
      try {
        page = (await dataProvider.getList({ resource: def.name, pagination: { currentPage: 1, pageSize: 20, mode: 'server' }, meta: { city: 'kobe' } })).data;
      } catch {
        return; // not a list the operator reads
      }
      const wanted = referencedIds(def, def.list.columns, page);
      calls.length = 0;
      for (const [resource, ids] of wanted) {
        if (ids.length === 0) continue;
        const ref = getResource(resource);
        const before = calls.length;
        const { data } = await dataProvider.getMany!({ resource, ids, meta: { city: 'kobe' } });
        // One request for the whole page's ids of this resource, never one per row.
        expect(calls.length - before, `${def.name} → ${resource}`).toBe(batchable(ref) ? 1 : ids.length);
        const labels = new Map(refOptions(ref, data).map((o) => [String(o.value), o.label]));
        for (const id of ids) {
          // The label is the referenced row's declared title, as its own show call answers it.
          // (a resource without a show call: its full list.)
          const shown = ref.api.show
            ? await call('GET', fillPath(ref.api.show.path, { city: 'kobe', id }), operator)
            : await call('GET', `${fillPath(ref.api.list.path, { city: 'kobe' })}?limit=1000`, operator);
          const row = ref.api.show ? shown.json() : (shown.json().content ?? []).find((r: Record<string, unknown>) => String(r[ref.idField]) === id);
          if (shown.statusCode === 200 && row) {
            const title = row[labelField(ref)];
            expect(labels.get(id), `${def.name} → ${resource} #${id}`).toBe(title === null || title === undefined || title === '' ? `#${id}` : String(title));
            resolved += 1;
          } else {
            expect(labels.has(id), `${def.name} → ${resource} #${id} is not readable`).toBe(false);
          }
        }
      }
    });
  }
  it('the demo data resolves references in many lists', () => {
    expect(resolved).toBeGreaterThan(20);
  });
});

describe('ids and reference filters', () => {
  it('a list narrowed by ids, and by referenced rows', async () => {
    const coupons = (await call('GET', '/kobe/api/coupon/?limit=50', operator)).json().content as Array<{ id: number; advertisement: number }>;
    expect(coupons.length).toBeGreaterThan(2);
    const ad = coupons[0].advertisement;
    const byAd = (await call('GET', `/kobe/api/coupon/?advertisement__in=${ad}&limit=100`, operator)).json();
    expect(byAd.content.length).toBeGreaterThan(0);
    expect(byAd.content.every((c: { advertisement: number }) => c.advertisement === ad)).toBe(true);
    expect(byAd.total_length).toBe(coupons.filter((c) => c.advertisement === ad).length);
    const two = [coupons[0].id, coupons[2].id];
    const byIds = (await call('GET', `/kobe/api/coupon/?ids=${two.join(',')}`, operator)).json();
    expect(byIds.content.map((c: { id: number }) => c.id).sort()).toEqual([...two].sort());
  });

  it('ids that are not ids, or too many, are a 400', async () => {
    expect((await call('GET', '/kobe/api/coupon/?ids=1,abc', operator)).statusCode).toBe(400);
    expect((await call('GET', '/kobe/api/coupon/?advertisement__in=1%00', operator)).statusCode).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    expect((await call('GET', `/kobe/api/coupon/?ids=${many}`, operator)).statusCode).toBe(400);
  });
});

describe('the CSV export names referenced rows', () => {
  it('a reference column is followed by the referenced row’s name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/kobe/api/exports/coupon/?columns=id,title,advertisement', headers: { ...bearer(operator), 'accept-language': 'ja' } });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    const header = lines[0].split(',');
    expect(header).toEqual(['ID', 'タイトル', '広告', '広告（名称）']);
    const ads = new Map(((await call('GET', '/kobe/api/operator-advertisement/?limit=1000', operator)).json().content as Array<{ id: number; name: string }>).map((a) => [String(a.id), a.name]));
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r[3], r.join(',')).toBe(ads.get(r[2]) ?? '');
  });
});

describe('an action shows only where it applies', () => {
  const ads = getResource('advertisement');
  const action = (name: string) => ads.actions.find((a) => a.name === name)!;

  it('トップに掲載 only on rows not at the top, トップから外す only on rows at the top', () => {
    expect(actionApplies(ads, action('toppan'), { is_top: false })).toBe(true);
    expect(actionApplies(ads, action('toppan'), {})).toBe(true); // the schema's default: false
    expect(actionApplies(ads, action('toppan'), { is_top: true })).toBe(false);
    expect(actionApplies(ads, action('untoppan'), { is_top: true })).toBe(true);
    expect(actionApplies(ads, action('untoppan'), { is_top: false })).toBe(false);
    expect(actionApplies(ads, action('untoppan'), {})).toBe(false);
  });

  it('declared row states: a push is resent only when sent, partly sent or failed; cancelled only while queued', () => {
    const n = getResource('notification');
    const resend = n.actions.find((a) => a.name === 'resend_notification')!;
    const cancel = n.actions.find((a) => a.name === 'cancel_push')!;
    expect(['queued', 'sending', 'sent', 'partial', 'failed', 'cancelled'].filter((s) => actionApplies(n, resend, { push_status: s }))).toEqual(['sent', 'partial', 'failed']);
    expect(['queued', 'sending', 'sent', 'partial', 'failed', 'cancelled'].filter((s) => actionApplies(n, cancel, { push_status: s }))).toEqual(['queued']);
  });

  it('the server answers トップに掲載 on a row already at the top with the row, unchanged', async () => {
    const list = (await call('GET', '/kobe/api/operator-advertisement/?limit=5', operator)).json().content as Array<{ id: number }>;
    const id = list[0].id;
    const first = await call('PUT', `/kobe/api/advertisements/${id}/toppan/`, operator);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().is_top).toBe(true);
    const again = await call('PUT', `/kobe/api/advertisements/${id}/toppan/`, operator);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().is_top).toBe(true);
    expect(again.json().version).toBe(first.json().version);
    // The list shows the row at the top (the console offers トップから外す there).
    const listed = (await call('GET', '/kobe/api/operator-advertisement/?limit=5', operator)).json().content as Array<{ id: number; is_top?: boolean }>;
    expect(listed.find((a) => a.id === id)?.is_top).toBe(true);
  });
});
