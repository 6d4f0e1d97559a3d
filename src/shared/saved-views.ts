/**
 * The shapes of a saved list view (docs/architecture.md 'Beyond the spec': Saved views), shared by the server's routes
 * (src/server/routes/saved-views.ts) and the console's client (src/console/resources/saved-views-api.ts).
 */

/** Filter and sorter shapes as the server stores them (the console narrows them to Refine's types). */
export interface StoredFilter {
  field: string;
  operator: string;
  value: unknown;
}
export interface StoredSorter {
  field: string;
  order: 'asc' | 'desc';
}

/** What a view keeps of a list: the columns shown in order, filters, sort and page size. */
export interface ListViewState<Filter = StoredFilter, Sorter = StoredSorter> {
  /** Fields shown, in order (a subset of the list's columns). */
  columns?: string[];
  /** Refine filters `{field, operator, value}`. */
  filters?: Filter[];
  /** Refine sorters `{field, order}`. */
  sorters?: Sorter[];
  /** Rows per page. */
  pageSize?: number;
}

/** A saved view as the API answers it (timestamps ISO 8601). */
export interface SavedView<State = ListViewState> {
  id: number;
  resource: string;
  name: string;
  state: State;
  is_default: boolean;
  used_at: string;
  created_at: string;
}
