/**
 * What the history page reads besides its list (001 7.16): one import's state, read again every
 * IMPORT_POLL_MS while it is `processing` (its progress in the list and in the log drawer), and one
 * page of its log (GET /{city}/api/logs-file-imported/{id}/, 20 a page, filtered by level), read
 * again while the import runs. Both through the data cache Refine shares (TanStack Query).
 */
import { useQuery } from '@tanstack/react-query';
import type { ImportState } from '@/shared/csv-import';
import { encodeListQuery, type ListAnswer } from '@/shared/list-query';
import { getResource } from '@/shared/registry';
import { request } from '../../providers/http';
import { fetchImportState, IMPORT_PAGE_SIZE, IMPORT_POLL_MS, importLogPath } from './import-api';

/** One line of an import's log (resource `csv_import_log`). */
export interface LogLine {
  id: number;
  row_number?: number;
  column?: string;
  level: 'info' | 'warning' | 'error';
  message: string;
}

/** How often a running import's log is read again (ms). */
const LOG_POLL_MS = 2_000;

/** The state of import `id` (none while `id` is null), read again while it is processing. */
export function useImportState(city: string, id: number | null) {
  return useQuery<ImportState>({
    queryKey: ['csv-import-state', city, id],
    queryFn: ({ signal }) => fetchImportState(city, id!, signal),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? IMPORT_POLL_MS : false),
    retry: false,
  });
}

export interface LogQuery {
  city: string;
  id: number | null;
  /** 1-based page. */
  page: number;
  /** Only lines of this level; null for every line. */
  level: LogLine['level'] | null;
  /** The import is still running: its log grows. */
  running: boolean;
}

/** One page of the log of import `id`, in row order. */
export function useImportLog({ city, id, page, level, running }: LogQuery) {
  return useQuery<ListAnswer<LogLine>>({
    queryKey: ['csv-import-log', city, id, page, level],
    queryFn: ({ signal }) => {
      const filters = level ? [{ field: 'level', operator: 'eq', value: level }] : [];
      const query = encodeListQuery(getResource('csv_import_log'), { pagination: { currentPage: page, pageSize: IMPORT_PAGE_SIZE }, filters });
      return request<ListAnswer<LogLine>>(importLogPath(city, id!), { query, signal, background: running });
    },
    enabled: id !== null,
    placeholderData: (previous) => previous,
    refetchInterval: running ? LOG_POLL_MS : false,
    retry: false,
  });
}
