/**
 * The state of a generated list page (000 4 lists; 001 9 paging), apart from its rendering
 * (ra-core's `useListController` pattern; `resource-list.tsx` only renders): Refine core's
 * `useTable` (page, page size, sort and filters kept in the address bar), the columns shown, the
 * selected rows, and the handlers of the search box, the date-range filter, saved views and the
 * antd Table's own changes.
 *
 * The address bar carries the list's state once the user changed it (or when the list was opened
 * with a query): a list opened at its bare path shows its defaults and leaves the path as it is.
 * Refine's `syncWithLocation` otherwise replaces the location right after the first render, and
 * that navigation rendered the layout and the whole page a second time before the rows arrived
 * (docs/performance.md).
 *
 * Refine core's `useTable`, not `@refinedev/antd`'s: the latter also makes an antd form instance and
 * a search-form controller the console never renders (antd then warns "Instance created by
 * `useForm` is not connected to any Form element" on every list) and costs main-thread time.
 */
import { useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useTable, type BaseKey, type BaseRecord, type CrudFilter, type CrudSort, type GetListResponse } from '@refinedev/core';
import type { TablePaginationConfig, TableProps } from 'antd';
import { isRangeFilter, isRefField, isSearchFilter, searchFilter } from '@/shared/list-query';
import { getResource } from '@/shared/registry';
import { useFieldAccess } from './field-access';
import { prefetchedList, PREFETCH_TTL_MS, type ListRequest } from '../providers/data-provider';
import { errorNotification } from '../providers/error-notification';
import { defaultColumns, validColumns } from './column-chooser';
import type { ResourceRoute } from './resource-routes';
import type { ListViewState } from './saved-views-api';

/**
 * The fields of `def` a list can be narrowed to one value of in its column header: the declared
 * `equals` filters on enum fields (001 9 list parameters; the value travels as the filter's parameter).
 */
export function columnFilterFields(def: ReturnType<typeof getResource>): Set<string> {
  return new Set(def.list.filters.flatMap((f) => (f.kind === 'equals' && def.schema.properties[f.field]?.enum ? [f.field] : [])));
}

/** The value a column filter of `field` has among the filters (null when none). */
export function columnFilterValue(field: string, filters: readonly CrudFilter[]): string | null {
  const f = filters.find((x) => 'field' in x && x.field === field && x.operator === 'eq');
  return f ? String(f.value) : null;
}

/** The ids a reference column (`x-ref`) is narrowed to among the filters (null when none). */
export function refFilterValue(field: string, filters: readonly CrudFilter[]): string[] | null {
  const f = filters.find((x) => 'field' in x && x.field === field && x.operator === 'in');
  return f && Array.isArray(f.value) && f.value.length > 0 ? f.value.map(String) : null;
}

/** The search text among the filters ('' when none). */
export function searchValue(filters: readonly CrudFilter[]): string {
  const f = filters.find(isSearchFilter);
  return f ? String(f.value ?? '') : '';
}

type Sorter = Parameters<NonNullable<TableProps<BaseRecord>['onChange']>>[2];

/** Refine sorters of an antd Table sort change (an order cleared by the user: no sorter). */
export function sortersOfTable(sorter: Sorter): CrudSort[] {
  return (Array.isArray(sorter) ? sorter : [sorter]).flatMap((s) =>
    s.order && s.field !== undefined ? [{ field: String(s.columnKey ?? (Array.isArray(s.field) ? s.field.join('.') : s.field)), order: s.order === 'descend' ? 'desc' : 'asc' } as CrudSort] : [],
  );
}

/** antd's sort order of a column under the current sorters. */
export function sortOrderOf(field: string, sorters: readonly CrudSort[]): 'ascend' | 'descend' | null {
  const s = sorters.find((x) => x.field === field);
  return s ? (s.order === 'desc' ? 'descend' : 'ascend') : null;
}

/**
 * The request a list opened at its bare path makes first: page 1 of the schema's page size (001 9:
 * 20), the schema's default sort, no filters. The sidebar asks for it as it is clicked
 * (../providers/data-provider `prefetchList`).
 */
export function firstListRequest(route: Pick<ResourceRoute, 'resource'>, city: string): ListRequest {
  const def = getResource(route.resource);
  return {
    resource: def.name,
    pagination: { currentPage: 1, pageSize: def.list.pageSize, mode: 'server' },
    sorters: [{ field: def.list.defaultSort.field, order: def.list.defaultSort.order }],
    filters: [],
    meta: { city },
  };
}

/**
 * The list controller of `route` in `city`. Returns the rows and their total, the loading flag, the
 * sorters, filters, page size, the columns shown and the selection with their setters, and
 * `onSearch` (text, '' clears), `onRange` (the date-range filters), `applyView` (a saved view),
 * `onTableChange` (antd Table's sort and page changes) and `pagination` (antd's config without
 * `showTotal`). Every change of search, range or view returns to page 1 (000 4).
 */
export function useResourceList(route: ResourceRoute, city: string) {
  // The resource as the session may read it: no column, search or sort of a field it may not read.
  const { def } = useFieldAccess(route.resource);
  const location = useLocation();
  // A list opened without query parameters gets the user's default (or last used) saved view.
  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  const restore = useRef(location.search === '').current;
  const [shown, setShown] = useState<string[]>(() => defaultColumns(def));
  const [selected, setSelected] = useState<BaseKey[]>([]);
  // The list state belongs in the address bar once changed here, or while the location has a query.
  const [changed, setChanged] = useState(false);
  const defaultSorters: CrudSort[] = [{ field: def.list.defaultSort.field, order: def.list.defaultSort.order }];
  // The first page's rows when they were asked for ahead (a sidebar click) and are here: the page
  // renders with them at once and does not ask again while they are fresh.
  const [early] = useState(() => (location.search === '' ? prefetchedList(firstListRequest(route, city)) : undefined));
  const { tableQuery, sorters, setSorters, filters, setFilters, currentPage, setCurrentPage, pageSize, setPageSize } = useTable<BaseRecord>({
    resource: route.identifier,
    pagination: { pageSize: def.list.pageSize },
    sorters: { initial: defaultSorters },
    meta: { city },
    syncWithLocation: changed || location.search !== '',
    errorNotification,
    // Only for the first request's query: a search, sort, page or view is another query, asked for.
    queryOptions: early && !changed && location.search === '' ? { initialData: early.answer as GetListResponse<BaseRecord>, initialDataUpdatedAt: early.at, staleTime: PREFETCH_TTL_MS } : undefined,
  });

  const onSearch = (value: string) => {
    setChanged(true);
    const rest = filters.filter((f) => !isSearchFilter(f));
    setFilters(value.trim() ? [...rest, searchFilter(value.trim()) as CrudFilter] : rest, 'replace');
    setCurrentPage(1);
  };
  const onRange = (range: CrudFilter[]) => {
    setChanged(true);
    setFilters([...filters.filter((f) => !isRangeFilter(def, f)), ...range], 'replace');
    setCurrentPage(1);
  };
  const applyView = (state: ListViewState) => {
    setChanged(true);
    setShown(validColumns(def, state.columns));
    setFilters(state.filters ?? [], 'replace');
    setSorters(state.sorters?.length ? state.sorters : defaultSorters);
    setPageSize(state.pageSize ?? def.list.pageSize);
    setCurrentPage(1);
    setSelected([]);
  };
  const onTableChange: NonNullable<TableProps<BaseRecord>['onChange']> = (page, tableFilters, sorter, extra) => {
    setChanged(true);
    if (sorter && Object.keys(sorter).length > 0) setSorters(sortersOfTable(sorter));
    if (extra?.action === 'filter') {
      // A column filter's choice replaces that field's value; the list starts again on its first page.
      const fields = columnFilterFields(def);
      const chosen: CrudFilter[] = [...fields].flatMap((field) => {
        const value = tableFilters[field]?.[0];
        return value === undefined || value === null ? [] : [{ field, operator: 'eq' as const, value: String(value) }];
      });
      // A reference column's chosen rows (by id) narrow it with `<field>__in`.
      const refs = Object.keys(tableFilters).filter((field) => isRefField(def, field));
      const chosenRefs: CrudFilter[] = refs.flatMap((field) => {
        const ids = (tableFilters[field] ?? []).map(String);
        return ids.length > 0 ? [{ field, operator: 'in' as const, value: ids }] : [];
      });
      const replaced = (f: CrudFilter) => 'field' in f && ((fields.has(f.field) && f.operator === 'eq') || (refs.includes(f.field) && f.operator === 'in'));
      setFilters([...filters.filter((f) => !replaced(f)), ...chosen, ...chosenRefs], 'replace');
      setCurrentPage(1);
      return;
    }
    setCurrentPage(page.current || 1);
    setPageSize(page.pageSize || def.list.pageSize);
  };
  /** A page change of the cards' pager. */
  const onPage = (page: number, size: number) => {
    setChanged(true);
    setCurrentPage(page || 1);
    setPageSize(size || def.list.pageSize);
  };
  const pagination: TablePaginationConfig = { current: currentPage, pageSize, total: tableQuery.data?.total };
  const view: ListViewState = { columns: shown, filters, sorters, pageSize };

  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  return {
    def,
    rows: tableQuery.data?.data,
    // Until the current query's first answer (rows asked for ahead count as answered).
    loading: tableQuery.isFetching ? !tableQuery.isFetched : tableQuery.isPending,
    sorters,
    filters,
    search: searchValue(filters),
    pageSize,
    pagination,
    shown,
    setShown,
    selected,
    setSelected,
    restore,
    view,
    onSearch,
    onRange,
    applyView,
    onTableChange,
    onPage,
  };
}
