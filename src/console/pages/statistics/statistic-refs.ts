/**
 * Names of the rows a statistic's groups or filters point at (`x-ref` fields such as a voucher, a
 * pass or a shop, 000 3): the referenced resource's first rows in the city, each `{value: id,
 * label}` (resources/ref-options.ts), read with the same list call as a form's choice of a row.
 * Nothing is asked when the field is no reference or the session may not read that resource; a
 * group whose row is not among them keeps its id.
 */
import { useMemo } from 'react';
import { useList } from '@refinedev/core';
import { useAbility } from '@casl/react';
import type { AppAbility } from '@/shared/ability';
import { getResource } from '@/shared/registry';
import { refOptions } from '../../resources/ref-options';

/** Rows read per referenced resource (the groups of an answer are at most 100). */
const REF_ROWS = 100;

/** The resource an `x-ref` field of `resource` points at, or undefined. */
export function refOf(resource: string, field: string | undefined): string | undefined {
  const ref = field ? getResource(resource).schema.properties[field]?.['x-ref'] : undefined;
  return typeof ref === 'string' ? ref : undefined;
}

/** The rows of `ref` in `city` as options (none while loading, or when `ref` is undefined or not readable). */
export function useRefOptions(ref: string | undefined, city: string): Array<{ value: string | number; label: string }> {
  const ability = useAbility<AppAbility>();
  const allowed = !!ref && ability.can('read', ref);
  const { result } = useList({
    resource: ref ?? '',
    pagination: { currentPage: 1, pageSize: REF_ROWS },
    meta: { city },
    queryOptions: { enabled: allowed, retry: false },
    errorNotification: false,
  });
  return useMemo(() => (allowed && ref ? refOptions(getResource(ref), result.data ?? []) : []), [allowed, ref, result.data]);
}
