/**
 * The date filter of a generated list (001 9 date-range presets): a range picker on one of
 * the list's date columns (a choice when it has several) with the presets today, last week, last
 * month and last 3 months. The range becomes the two filters of `rangeFilters` (src/shared/list-query.ts),
 * which the data provider sends as the contract's date-range parameters.
 *
 * antd's picker loads on first use (./date-range-picker): until then a read-only stand-in of the
 * same size and label shows. The pointer coming over it or the focus reaching it starts the
 * download; a click, Enter, Space or Arrow Down on it gives way to the real picker, focused and
 * open. Tabbing past it changes nothing. A list opened with a range (its address, a saved view)
 * shows the real picker at once.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CrudFilter } from '@refinedev/core';
import { Flex, Input, Select } from 'antd';
import { CalendarOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { isDateField, rangeFilters, rangeOf } from '@/shared/list-query';
import type { ResourceDef } from '@/shared/registry';
import { DATE_PRESETS, presetRange, rangeValues } from './date-presets';
import { DATE_FORMAT } from './format-value';

/** The list columns a date range can narrow (date, date-time or the created time), in column order. */
export function dateColumns(def: ResourceDef): string[] {
  return def.list.columns.filter((f) => isDateField(def, f));
}

const loadPicker = () => import('./date-range-picker');
const RangePicker = lazy(() => loadPicker().then((m) => ({ default: m.RangePicker })));

/** Width of the stand-in and the picker (px), so that nothing moves when one gives way to the other. */
const FILTER_WIDTH = 264;

export interface DateRangeFilterProps {
  def: ResourceDef;
  filters: CrudFilter[];
  /** Replaces the date-range filters with these (none: cleared). */
  onChange: (rangeFilters: CrudFilter[]) => void;
}

export function DateRangeFilter({ def, filters, onChange }: DateRangeFilterProps) {
  const { t } = useTranslation();
  const columns = useMemo(() => dateColumns(def), [def]);
  // 'idle': the stand-in; 'shown': the real picker; 'opened': the real picker, focused and open.
  const [picker, setPicker] = useState<'idle' | 'shown' | 'opened'>('idle');
  const current = rangeOf(def, filters);
  const field = current && columns.includes(current.field) ? current.field : columns[0];
  if (!field) return null;
  const format = def.schema.properties[field]?.format;
  const value: [Dayjs, Dayjs] | null = current?.from && current.to ? [dayjs(current.from), dayjs(current.to)] : null;
  if (value && picker === 'idle') setPicker('shown');

  const set = (target: string, range: [Dayjs, Dayjs] | null) => {
    if (!range) return onChange([]);
    const [a, b] = rangeValues(range, def.schema.properties[target]?.format);
    onChange(rangeFilters(target, a, b) as CrudFilter[]);
  };

  const standIn = (
    <Input
      readOnly
      aria-label={t('lists.dates.range')}
      placeholder={`${t('lists.dates.start')} → ${t('lists.dates.end')}`}
      suffix={<CalendarOutlined aria-hidden />}
      style={{ width: FILTER_WIDTH }}
      onMouseEnter={() => void loadPicker()}
      onFocus={() => void loadPicker()}
      onClick={() => setPicker('opened')}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' && e.key !== ' ' && e.key !== 'ArrowDown') return;
        e.preventDefault();
        setPicker('opened');
      }}
      data-testid="date-range-stand-in"
    />
  );

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
      {picker === 'idle' ? (
        standIn
      ) : (
        <Suspense fallback={standIn}>
          <RangePicker
            aria-label={t('lists.dates.range')}
            placeholder={[t('lists.dates.start'), t('lists.dates.end')]}
            format={DATE_FORMAT}
            value={value}
            allowClear
            style={{ width: FILTER_WIDTH }}
            autoFocus={picker === 'opened'}
            defaultOpen={picker === 'opened'}
            presets={DATE_PRESETS.map((p) => ({ label: t(p.label), value: () => presetRange(p.key) }))}
            onChange={(range) => set(field, range && range[0] && range[1] ? [range[0], range[1]] : null)}
            data-format={format}
          />
        </Suspense>
      )}
    </Flex>
  );
}
