/**
 * The date filter of a generated list (issue 5; 001 9 date-range presets): a range picker on one of
 * the list's date columns (a choice when it has several) with the presets today, last week, last
 * month and last 3 months. The range becomes the filters `<field>__from` and `<field>__to`.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CrudFilter } from '@refinedev/core';
import { DatePicker, Flex, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ResourceDef } from '@/shared/registry';
import { DATE_PRESETS, RANGE_FROM, RANGE_TO, presetRange, rangeValues } from './date-presets';
import { DATE_FORMAT } from './format-value';

/** The list columns a date range can narrow (date, date-time or the created time), in column order. */
export function dateColumns(def: ResourceDef): string[] {
  return def.list.columns.filter((f) => {
    const format = def.schema.properties[f]?.format;
    return f === def.createdField || format === 'date' || format === 'date-time';
  });
}

/** Whether a filter is a date-range one. */
export function isRangeFilter(f: CrudFilter): boolean {
  return 'field' in f && (f.field.endsWith(RANGE_FROM) || f.field.endsWith(RANGE_TO));
}

export interface DateRangeFilterProps {
  def: ResourceDef;
  filters: CrudFilter[];
  /** Replaces the date-range filters with these (none: cleared). */
  onChange: (rangeFilters: CrudFilter[]) => void;
}

export function DateRangeFilter({ def, filters, onChange }: DateRangeFilterProps) {
  const { t } = useTranslation();
  const columns = useMemo(() => dateColumns(def), [def]);
  const current = filters.filter(isRangeFilter);
  const from = current.find((f) => 'field' in f && f.field.endsWith(RANGE_FROM));
  const to = current.find((f) => 'field' in f && f.field.endsWith(RANGE_TO));
  const active = from && 'field' in from ? from.field.slice(0, -RANGE_FROM.length) : to && 'field' in to ? to.field.slice(0, -RANGE_TO.length) : undefined;
  const field = active && columns.includes(active) ? active : columns[0];
  if (!field) return null;
  const format = def.schema.properties[field]?.format;
  const value: [Dayjs, Dayjs] | null = from && to ? [dayjs(String(from.value)), dayjs(String(to.value))] : null;

  const set = (target: string, range: [Dayjs, Dayjs] | null) => {
    if (!range) return onChange([]);
    const [a, b] = rangeValues(range, def.schema.properties[target]?.format);
    onChange([
      { field: `${target}${RANGE_FROM}`, operator: 'gte', value: a },
      { field: `${target}${RANGE_TO}`, operator: 'lte', value: b },
    ]);
  };

  return (
    <Flex gap={4} align="center" data-testid="date-range-filter">
      {columns.length > 1 && (
        <Select
          aria-label={t('lists.dates.field')}
          value={field}
          onChange={(f) => set(f, value)}
          options={columns.map((c) => ({ value: c, label: t(def.schema.properties[c].title) }))}
          style={{ minWidth: 120 }}
        />
      )}
      <DatePicker.RangePicker
        aria-label={t('lists.dates.range')}
        placeholder={[t('lists.dates.start'), t('lists.dates.end')]}
        format={DATE_FORMAT}
        value={value}
        allowClear
        presets={DATE_PRESETS.map((p) => ({ label: t(p.label), value: () => presetRange(p.key) }))}
        onChange={(range) => set(field, range && range[0] && range[1] ? [range[0], range[1]] : null)}
        data-format={format}
      />
    </Flex>
  );
}
