/**
 * One page of the city's users (001 7.2 GET {city}/api/users/ with search, offset, limit and
 * filter_by) through Refine's `useCustom`, so failures go through the console's error handling
 * (001 8). Answers the rows, the total and a `refetch`.
 */
import { useCustom } from '@refinedev/core';
import type { ListAnswer } from '@/shared/list-query';
import { errorNotification } from '../../providers/error-notification';
import { USERS_PAGE_SIZE, usersPath, type UserFilter, type UserRow } from './user-api';

export interface UsersQuery {
  city: string;
  search: string;
  filterBy: UserFilter;
  /** 1-based page number. */
  page: number;
}

export function useUsersList({ city, search, filterBy, page }: UsersQuery) {
  const { query, result } = useCustom<ListAnswer<UserRow> & Record<string, unknown>>({
    url: usersPath(city),
    method: 'get',
    config: { query: { search, filter_by: filterBy, limit: USERS_PAGE_SIZE, offset: (page - 1) * USERS_PAGE_SIZE } },
    queryOptions: { queryKey: ['users-page', city, search, filterBy, page], placeholderData: (previous) => previous },
    errorNotification,
  });
  return {
    rows: (result.data?.content ?? []) as UserRow[],
    total: Number(result.data?.total_length ?? 0),
    loading: query.isFetching,
    refetch: query.refetch,
  };
}
