/**
 * RJSF widget of an `x-ref` field: a searchable antd Select whose options are rows of the referenced
 * resource in the current city (its list call; label from its first string column, ./ref-options).
 * Typing searches on the server when the resource declares search fields, else among the loaded
 * rows. A chosen row that is not among the options is loaded by id so its label shows. Without the
 * right to read the referenced resource the field is a plain id input (no call is made).
 */
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useList, useMany, type BaseKey } from '@refinedev/core';
import { useAbility } from '@casl/react';
import { Input, InputNumber, Select } from 'antd';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { AppAbility } from '@/shared/ability';
import { getResource, type FieldSchema } from '@/shared/registry';
import { baseType, itemsOf } from '../field-kinds';
import { refOptions } from '../ref-options';

/** Rows loaded per search. */
const OPTION_ROWS = 50;

export function RefSelectWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, onFocus, options, schema, placeholder, registry, multiple } = props;
  const resource = String(options.resource ?? '');
  const def = getResource(resource);
  const { city = '' } = useParams();
  const ability = useAbility<AppAbility>();
  const allowed = ability.can('read', resource);
  const [search, setSearch] = useState('');
  const serverSearch = def.list.search.length > 0;
  const readonlyAsDisabled = (registry.formContext as { readonlyAsDisabled?: boolean } | undefined)?.readonlyAsDisabled ?? true;
  const off = disabled || (readonlyAsDisabled && readonly);

  const { result, query } = useList({
    resource,
    pagination: { currentPage: 1, pageSize: OPTION_ROWS },
    filters: serverSearch && search ? [{ field: 'search', operator: 'contains', value: search }] : [],
    meta: { city },
    queryOptions: { enabled: allowed, placeholderData: (previous) => previous },
    errorNotification: false,
  });
  const chosen: BaseKey[] = (Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value]) as BaseKey[];
  const loaded = useMemo(() => refOptions(def, result.data ?? []), [def, result.data]);
  const missing = chosen.filter((v) => !loaded.some((o) => String(o.value) === String(v)));
  const { result: extra } = useMany({
    resource,
    ids: missing,
    meta: { city },
    queryOptions: { enabled: allowed && missing.length > 0 && !!def.api.show, retry: false },
    errorNotification: false,
  });
  const selectOptions = useMemo(() => {
    const more = refOptions(def, extra?.data ?? []).filter((o) => !loaded.some((l) => String(l.value) === String(o.value)));
    return [...loaded, ...more];
  }, [def, loaded, extra?.data]);

  const numeric = ['integer', 'number'].includes(baseType(multiple ? (itemsOf(schema as unknown as FieldSchema) as FieldSchema) : (schema as unknown as FieldSchema)));
  if (!allowed) {
    if (multiple) return <Input id={id} value={chosen.join(', ')} disabled aria-describedby={ariaDescribedByIds(id)} />;
    return numeric ? (
      <InputNumber id={id} value={value as number | undefined} disabled={off} onChange={(v) => onChange(v ?? options.emptyValue)} style={{ width: '100%' }} />
    ) : (
      <Input id={id} value={(value as string | undefined) ?? ''} disabled={off} onChange={(e) => onChange(e.target.value || options.emptyValue)} />
    );
  }

  return (
    <Select
      id={id}
      mode={multiple ? 'multiple' : undefined}
      showSearch
      allowClear
      value={multiple ? chosen : (chosen[0] ?? undefined)}
      options={selectOptions}
      loading={query.isFetching}
      placeholder={placeholder}
      disabled={off}
      filterOption={serverSearch ? false : (input, option) => String(option?.label ?? '').toLowerCase().includes(input.toLowerCase())}
      onSearch={serverSearch ? setSearch : undefined}
      onChange={(next: BaseKey | BaseKey[] | undefined) => {
        setSearch('');
        if (readonly) return;
        if (multiple) onChange(Array.isArray(next) ? next : []);
        else onChange(next === undefined || next === null ? options.emptyValue : next);
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      aria-describedby={ariaDescribedByIds(id)}
      style={{ width: '100%' }}
    />
  );
}
