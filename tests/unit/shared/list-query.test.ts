/**
 * The list-query codec (src/shared/list-query.ts; 001 9 Paging, date-range presets): what the
 * console encodes from Refine's pagination, sorters and filters, the server decodes to the same
 * page, search, sort, filters and ranges; bad values come back as field errors.
 */
import { describe, expect, it } from 'vitest';
import { clampPage, decodeListQuery, encodeListQuery, listAnswer, rangeFilters, rangeOf, searchFilter } from '@/shared/list-query';
import { MAX_LIMIT } from '@/shared/constants';
import { getResource } from '@/shared/registry';

const news = getResource('news');
const event = getResource('event');

/** The query as it travels: every value a string, as a query string gives it to the server. */
const wire = (q: Record<string, string | number | undefined>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));

describe('encodeListQuery → decodeListQuery', () => {
  it('gives the server the page, search, sort and date range the console asked for', () => {
    const q = encodeListQuery(news, {
      pagination: { currentPage: 3, pageSize: 50 },
      sorters: [{ field: 'nope', order: 'asc' }, { field: news.list.sort[0], order: 'desc' }],
      filters: [searchFilter('神戸 祭り'), ...rangeFilters('create_at', '2026-01-01T00:00:00.000Z', '2026-01-31T14:59:59.999Z')],
    });
    expect(q).toMatchObject({ limit: 50, offset: 100, search: '神戸 祭り', order_by: `-${news.list.sort[0]}`, create_at__from: '2026-01-01T00:00:00.000Z' });
    const d = decodeListQuery(news, wire(q));
    expect(d.errors).toEqual({});
    expect(d.page).toEqual({ limit: 50, offset: 100 });
    expect(d.search).toBe('神戸 祭り');
    expect(d.order).toEqual({ field: news.list.sort[0], desc: true });
    expect(d.ranges).toEqual([
      { field: 'create_at', end: 'from', value: '2026-01-01T00:00:00.000Z' },
      { field: 'create_at', end: 'to', value: '2026-01-31T14:59:59.999Z' },
    ]);
  });
  it('reads date-times as UTC instants, and the ranges saved views kept as <field>__from', () => {
    const filters = [
      { field: 'start_date__from', operator: 'gte', value: '2026-03-01T10:00:00+09:00' },
      { field: 'start_date__to', operator: 'lte', value: '2026-03-31T23:59:59.999+09:00' },
    ];
    expect(rangeOf(event, filters)).toEqual({ field: 'start_date', from: '2026-03-01T10:00:00+09:00', to: '2026-03-31T23:59:59.999+09:00' });
    const d = decodeListQuery(event, wire(encodeListQuery(event, { filters })));
    expect(d.ranges.map((r) => r.value)).toEqual(['2026-03-01T01:00:00.000Z', '2026-03-31T14:59:59.999Z']);
  });
  it('answers field errors for a range end that is not a date and a period not declared', () => {
    const period = event.list.filters.find((f) => f.kind === 'period');
    const d = decodeListQuery(event, { start_date__from: 'yesterday', ...(period ? { [period.param]: 'someday' } : {}) });
    expect(d.errors.start_date__from?.[0].key).toBe('validation.generic.format');
    if (period) expect(d.errors[period.param]?.[0].key).toBe('validation.generic.enum');
  });
  it('falls back to the default sort and the resource page size', () => {
    const d = decodeListQuery(news, { order_by: 'password' });
    expect(d.order).toEqual({ field: news.list.defaultSort.field, desc: news.list.defaultSort.order === 'desc' });
    expect(d.page).toEqual({ limit: news.list.pageSize, offset: 0 });
  });
});

describe('paging', () => {
  it('holds limit to 1…MAX_LIMIT and reads numbers or digit strings only', () => {
    expect(clampPage('0', '5', 20)).toEqual({ limit: 1, offset: 5 });
    expect(clampPage(99999, -3, 20)).toEqual({ limit: MAX_LIMIT, offset: 0 });
    expect(clampPage('1e3', 'x', 20)).toEqual({ limit: 20, offset: 0 });
    expect(encodeListQuery(news, { pagination: { mode: 'off' } })).toMatchObject({ limit: MAX_LIMIT, offset: 0 });
  });
  it('answers the envelope of the contract', () => {
    expect(listAnswer(['a', 'b'], 41, { limit: 20, offset: 40 })).toEqual({ content: ['a', 'b'], total_length: 41, count: 2, limit: 20, offset: 40, page_length: 3 });
  });
});
