/**
 * The calls of the statistics page (docs/architecture.md 'Adding a statistic'; 001 7.8, 7.11, 7.14):
 * one statistic's answer for a query (`GET /{city}/api/statistics/{name}/`) and its CSV export
 * (`GET /{city}/api/statistics/{name}/export/`, UTF-8 with BOM or Shift_JIS, like the list export),
 * both through the console's http layer (cookies, one refresh on a 401, the error catalogue).
 */
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import type { CsvEncoding } from '@/shared/list-export';
import type { StatisticAnswer, StatisticInterval } from '@/shared/statistics';
import { request, requestResponse } from '../../providers/http';
import { saveResponse } from '../../resources/download';

/** What the page asks a statistic for: a range of whole days, the periods, the groups and filters. */
export interface StatisticQuery {
  /** First and last day, both inclusive (local days; sent as YYYY-MM-DD). */
  range: [Dayjs, Dayjs];
  interval: StatisticInterval;
  /** A dimension key of the declaration. */
  by: string;
  /** Equality filters by declared field; '' or undefined: not filtered. */
  filters: Record<string, string | undefined>;
}

/** The path of statistic `name` in `city` (`/{city}/api/statistics/{name}/`). */
export function statisticPath(city: string, name: string): string {
  return `/${encodeURIComponent(city)}/api/statistics/${encodeURIComponent(name)}/`;
}

/**
 * The query parameters of the contract for `q`: `start_date`, `end_date` (YYYY-MM-DD), `interval`,
 * `by` and one parameter per filter that has a value.
 */
export function statisticParams(q: StatisticQuery): Record<string, string> {
  const out: Record<string, string> = {
    start_date: q.range[0].format('YYYY-MM-DD'),
    end_date: q.range[1].format('YYYY-MM-DD'),
    interval: q.interval,
    by: q.by,
  };
  for (const [field, value] of Object.entries(q.filters)) if (value !== undefined && value !== '') out[field] = value;
  return out;
}

/**
 * The answer of statistic `name` for `q`, cached per query (TanStack Query, the cache Refine shares);
 * the previous answer stays shown while a new query loads. Errors: `ApiRequestError` (400 with field
 * errors for a bad range or filter, 403, 404 for an unknown statistic).
 */
export function useStatistic(city: string, name: string, q: StatisticQuery) {
  const params = statisticParams(q);
  return useQuery<StatisticAnswer>({
    queryKey: ['statistic', city, name, params],
    queryFn: ({ signal }) => request<StatisticAnswer>(statisticPath(city, name), { query: params, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/**
 * Downloads the CSV of statistic `name` for `q` (one row per period and a total row, headers in
 * Japanese) in `encoding`; answers the file name saved (`<name>_<start>_<end>.csv` from the server).
 * Errors: `ApiRequestError`.
 */
export async function downloadStatistic(city: string, name: string, q: StatisticQuery, encoding: CsvEncoding): Promise<string> {
  const params = statisticParams(q);
  const res = await requestResponse(`${statisticPath(city, name)}export/`, { query: { ...params, encoding }, accept: 'text/csv' });
  return saveResponse(res, `${name}_${params.start_date}_${params.end_date}`);
}
