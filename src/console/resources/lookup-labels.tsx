/**
 * The names of a lookup field's values on a detail page (`x-widget: members | municipalities`;
 * ./lookups.ts): 「会員12（yamada_012）」 for a member id, 「中央区」 for a code. A value no row names
 * (or every value, without the right to read the rows, or while loading) shows as itself.
 */
import { useQuery } from '@tanstack/react-query';
import { useAbility } from '@casl/react';
import { Space } from 'antd';
import type { AppAbility } from '@/shared/ability';
import { LOOKUPS, type LookupKind } from './lookups';

export function LookupLabels({ kind, values, city }: { kind: LookupKind; values: Array<string | number>; city: string }) {
  const lookup = LOOKUPS[kind];
  const allowed = useAbility<AppAbility>().can('read', lookup.subject);
  const { data } = useQuery({
    queryKey: ['lookup-values', kind, city, values.map(String).sort().join(',')],
    queryFn: () => lookup.byValue(city, values),
    enabled: allowed && values.length > 0,
    staleTime: 60_000,
    retry: false,
  });
  return (
    <Space wrap size={8}>
      {values.map((v) => (
        <span key={String(v)}>{data?.find((o) => String(o.value) === String(v))?.label ?? String(v)}</span>
      ))}
    </Space>
  );
}
