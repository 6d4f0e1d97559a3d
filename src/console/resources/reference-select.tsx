/**
 * A select of rows of a referenced resource (`x-ref`) by name: the options are the rows of the
 * resource's list as the session may read them, labelled by its declared `titleField`
 * (./ref-options `labelField`); typing searches the resource (its list `search`, on the server) when it
 * declares search fields, else among the loaded options. Chosen ids show their names (asked once
 * through `getMany`, batched by the data provider). Used by the list's reference filter; made to be
 * reused by a form's reference picker.
 */
import { Select, type RefSelectProps } from 'antd';
import { useSelect, type BaseKey } from '@refinedev/core';
import { searchFilter, type ListQueryFilter } from '@/shared/list-query';
import { getResource } from '@/shared/registry';
import { labelField } from './ref-options';

export interface ReferenceSelectProps {
  /** The referenced resource. */
  resource: string;
  city: string;
  value: BaseKey[];
  onChange: (ids: BaseKey[]) => void;
  placeholder?: string;
  /** The accessible name of the select. */
  label: string;
  /** Options asked per search (default 50). */
  pageSize?: number;
  style?: React.CSSProperties;
  autoFocus?: boolean;
  /** Where the options' popup is mounted (inside another popup: that popup, so a choice does not close it). */
  getPopupContainer?: (trigger: HTMLElement) => HTMLElement;
  /** The width of the options' popup in px (default: the select's, as measured when it opens). */
  popupWidth?: number;
  /** The z-index of the options' popup (inside another popup: above it). */
  popupZIndex?: number;
  /** The select's handle (`focus()`, `blur()`). */
  selectRef?: React.Ref<RefSelectProps>;
}

export function ReferenceSelect({ resource, city, value, onChange, placeholder, label, pageSize = 50, style, autoFocus, getPopupContainer, popupWidth, popupZIndex, selectRef }: ReferenceSelectProps) {
  const def = getResource(resource);
  const searchable = def.list.search.length > 0;
  const field = labelField(def);
  const { options, onSearch, query } = useSelect({
    resource,
    meta: { city },
    optionLabel: (row) => (row[field] === undefined || row[field] === null || row[field] === '' ? `#${String(row.id)}` : String(row[field])),
    optionValue: (row) => String(row.id),
    defaultValue: value,
    pagination: { currentPage: 1, pageSize, mode: 'server' },
    debounce: 300,
    onSearch: searchable ? (text: string) => (text.trim() ? [searchFilter(text.trim()) as ListQueryFilter & { field: string; operator: 'contains' }] : []) : undefined,
    errorNotification: false,
  });
  return (
    <Select
      ref={selectRef}
      mode="multiple"
      showSearch
      allowClear
      autoFocus={autoFocus}
      aria-label={label}
      placeholder={placeholder}
      loading={query.isFetching}
      options={options}
      value={value.map(String)}
      onChange={(ids: string[]) => onChange(ids)}
      onSearch={searchable ? onSearch : undefined}
      filterOption={searchable ? false : (input, option) => String(option?.label ?? '').toLowerCase().includes(input.toLowerCase())}
      style={style}
      maxTagCount="responsive"
      getPopupContainer={getPopupContainer}
      popupMatchSelectWidth={popupWidth ?? true}
      styles={popupZIndex === undefined ? undefined : { popup: { root: { zIndex: popupZIndex } } }}
    />
  );
}
