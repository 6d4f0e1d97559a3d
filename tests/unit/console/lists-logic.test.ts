/**
 * The logic behind the lists beyond the spec (docs/architecture.md): bulk delete keeps every failure with its reason; date
 * ranges reach the query as `<field>__from`/`<field>__to` only on date fields; the view a list opens
 * with; the columns a saved view may put back.
 */
import { describe, expect, it } from 'vitest';
import { deleteAll } from '@/console/resources/bulk-delete';
import { defaultColumns, validColumns } from '@/console/resources/column-chooser';
import { dateColumns } from '@/console/resources/date-range-filter';
import { initialView, type SavedView } from '@/console/resources/saved-views-api';
import { encodeListQuery, rangeParamOf } from '@/shared/list-query';
import { exportable } from '@/shared/list-export';
import { getResource, registry } from '@/shared/registry';

const news = getResource('news');

describe('deleteAll', () => {
  it('deletes what it can and reports each failure (thrown or kept) with its reason', async () => {
    const seen: number[] = [];
    const result = await deleteAll(
      [1, 2, 3, 4, 5],
      async (id) => {
        seen.push(id as number);
        if (id === 2) throw new Error('見つかりません');
        if (id === 4) return { id, kept: true, detail: '' };
        return { id };
      },
      '削除できませんでした。',
    );
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(result.deleted.sort()).toEqual([1, 3, 5]);
    expect(result.failed.sort((a, b) => Number(a.id) - Number(b.id))).toEqual([
      { id: 2, reason: '見つかりません' },
      { id: 4, reason: '削除できませんでした。' },
    ]);
  });
  it('does nothing for no ids', async () => {
    expect(await deleteAll([], async () => undefined, 'x')).toEqual({ deleted: [], failed: [] });
  });
});

describe('date ranges', () => {
  it('pass only on date fields and the created time', () => {
    expect(rangeParamOf(news, 'create_at__from')).toEqual({ field: 'create_at', end: 'from' });
    expect(rangeParamOf(news, 'create_at__to')).toEqual({ field: 'create_at', end: 'to' });
    expect(rangeParamOf(news, 'title__from')).toBeNull();
    expect(rangeParamOf(news, 'nope__from')).toBeNull();
    const { limit: _l, offset: _o, ...query } = encodeListQuery(news, {
      filters: [
        { field: 'create_at__from', operator: 'gte', value: '2026-01-01T00:00:00.000Z' },
        { field: 'title__to', operator: 'lte', value: 'x' },
        { field: 'title', operator: 'lte', value: 'x' },
        { field: 'search', operator: 'contains', value: 'abc' },
      ],
    });
    expect(query).toEqual({ create_at__from: '2026-01-01T00:00:00.000Z', search: 'abc' });
  });
  it('are offered on the date columns of a list', () => {
    expect(dateColumns(news)).toEqual(['create_at']);
    expect(dateColumns(getResource('event'))).toEqual(['start_date', 'end_date']);
  });
});

describe('saved views', () => {
  const v = (id: number, used: string, isDefault = false): SavedView => ({ id, resource: 'news', name: `v${id}`, state: {}, is_default: isDefault, used_at: used, created_at: used });
  it('open with the default, else the last used', () => {
    expect(initialView([v(1, '2026-01-02T00:00:00Z'), v(2, '2026-01-03T00:00:00Z')])?.id).toBe(2);
    expect(initialView([v(1, '2026-01-02T00:00:00Z', true), v(2, '2026-01-03T00:00:00Z')])?.id).toBe(1);
    expect(initialView([])).toBeUndefined();
  });
  it('put back only columns the list has, in their saved order', () => {
    expect(validColumns(news, ['title', 'nope', 'id', 'title'])).toEqual(['title', 'id']);
    expect(validColumns(news, ['nope'])).toEqual(defaultColumns(news));
    expect(validColumns(news, undefined)).toEqual(defaultColumns(news));
  });
});

describe('exportable', () => {
  it('serves every list whose path names only the city', () => {
    expect(exportable(news)).toBe(true);
    for (const def of registry.values()) if (/\{(?!city\})/.test(def.api.list.path)) expect(exportable(def)).toBe(false);
  });
});
