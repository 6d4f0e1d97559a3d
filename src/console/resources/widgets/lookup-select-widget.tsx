/**
 * RJSF widget of an array of values picked by name from rows that are not a schema resource
 * (`x-widget: members | municipalities`; where the rows come from: ../lookups.ts): a searchable
 * multi-select; typing searches on the server where the lookup says so (debounced), else among the
 * loaded options. Without the right to read the rows the field
 * is a tags input of the raw values (no call is made). A chosen value no row names shows as itself.
 */
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useAbility } from '@casl/react';
import { Select } from 'antd';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { AppAbility } from '@/shared/ability';
import { LOOKUPS, type LookupKind } from '../lookups';
import { useSettled } from '../../hooks/use-settled';
import { TagsWidget } from './tags-widget';

/** Milliseconds after the last keystroke before the server is searched. */
const SEARCH_DEBOUNCE_MS = 300;

/** The widget of `x-widget: members` or `municipalities` (ui:options `lookup`). */
export function LookupSelectWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, onFocus, options, placeholder, registry } = props;
  const kind = options.lookup as LookupKind;
  const lookup = LOOKUPS[kind];
  const { city = '' } = useParams();
  const ability = useAbility<AppAbility>();
  const allowed = ability.can('read', lookup.subject);
  const [search, setSearch] = useState('');
  const serverSearch = lookup.serverSearch(city);
  const readonlyAsDisabled = (registry.formContext as { readonlyAsDisabled?: boolean } | undefined)?.readonlyAsDisabled ?? true;
  const chosen = useMemo(() => (Array.isArray(value) ? (value as Array<string | number>) : []), [value]);

  const text = useSettled(serverSearch ? search.trim() : '', SEARCH_DEBOUNCE_MS);
  const found = useQuery({
    queryKey: ['lookup', kind, city, text],
    queryFn: () => lookup.search(city, text),
    enabled: allowed,
    placeholderData: (previous) => previous,
    staleTime: 60_000,
  });
  const loaded = useMemo(() => found.data ?? [], [found.data]);
  const missing = chosen.filter((v) => !loaded.some((o) => String(o.value) === String(v)));
  const named = useQuery({
    queryKey: ['lookup-values', kind, city, missing.map(String).sort().join(',')],
    queryFn: () => lookup.byValue(city, missing),
    enabled: allowed && missing.length > 0,
    staleTime: 60_000,
    retry: false,
  });
  const selectOptions = useMemo(() => {
    const more = (named.data ?? []).filter((o) => !loaded.some((l) => String(l.value) === String(o.value)));
    return [...loaded, ...more];
  }, [loaded, named.data]);

  if (!allowed) return <TagsWidget {...props} />;
  const numeric = kind === 'members';
  return (
    <Select
      id={id}
      mode="multiple"
      showSearch
      allowClear
      value={chosen}
      options={selectOptions}
      loading={found.isFetching}
      placeholder={placeholder}
      disabled={disabled || (readonlyAsDisabled && readonly)}
      filterOption={serverSearch ? false : (input, option) => String(option?.label ?? '').toLowerCase().includes(input.toLowerCase())}
      onSearch={serverSearch ? setSearch : undefined}
      onChange={(next: Array<string | number>) => {
        setSearch('');
        if (readonly) return;
        onChange(numeric ? next.map(Number) : next.map(String));
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      aria-describedby={ariaDescribedByIds(id)}
      style={{ width: '100%' }}
    />
  );
}
