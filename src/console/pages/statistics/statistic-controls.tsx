/**
 * The query controls of the statistics page (001 9 date-range presets): the range of days with the
 * presets of every date filter (today, last week, last month, last 3 months: date-presets.ts), the
 * periods (day, week, month), the dimension of the groups and the declaration's equality filters
 * (a choice for enum and yes/no fields and for references to rows the session may read, a text box
 * for the others).
 */
import { useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DatePicker, Flex, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { getResource } from '@/shared/registry';
import { STATISTIC_INTERVALS, type StatisticDef, type StatisticInterval } from '@/shared/statistics';
import { DATE_PRESETS, presetRange } from '../../resources/date-presets';
import { baseType, enumLabelKeys, enumValues } from '../../resources/field-kinds';
import { DATE_FORMAT } from '../../resources/format-value';
import type { StatisticQuery } from './statistic-api';
import { refOf, useRefOptions } from './statistic-refs';

export interface StatisticControlsProps {
  def: StatisticDef;
  query: StatisticQuery;
  onChange: (query: StatisticQuery) => void;
  /** Filters fixed by the menu entry: not offered. */
  fixedFilters: readonly string[];
}

/** A text filter, sent when the box loses the focus or on Enter. */
function TextFilter({ label, value, onCommit }: { label: string; value: string; onCommit: (v: string) => void }) {
  const [text, setText] = useState(value);
  return (
    <Input
      aria-label={label}
      placeholder={label}
      value={text}
      allowClear
      onChange={(e) => {
        setText(e.target.value);
        if (!e.target.value) onCommit('');
      }}
      onBlur={() => text !== value && onCommit(text.trim())}
      onPressEnter={() => onCommit(text.trim())}
      style={{ width: 160 }}
    />
  );
}

/** A filter on a reference: a searchable choice of the referenced rows, else a text box. */
function RefFilter({ refResource, label, value, onCommit }: { refResource: string; label: string; value: string; onCommit: (v: string | undefined) => void }) {
  const { city = '' } = useParams();
  const options = useRefOptions(refResource, city);
  if (options.length === 0) return <TextFilter label={label} value={value} onCommit={onCommit} />;
  return (
    <Select
      aria-label={label}
      placeholder={label}
      allowClear
      showSearch
      optionFilterProp="label"
      value={value || undefined}
      options={options.map((o) => ({ value: String(o.value), label: o.label }))}
      onChange={(v: string | undefined) => onCommit(v)}
      style={{ minWidth: 160, maxWidth: 240 }}
    />
  );
}

export function StatisticControls({ def, query, onChange, fixedFilters }: StatisticControlsProps) {
  const { t } = useTranslation();
  const schema = getResource(def.resource).schema;
  const setFilter = (field: string, value: string | undefined) => onChange({ ...query, filters: { ...query.filters, [field]: value } });
  const filter = (field: string) => {
    const prop = schema.properties[field];
    const label = prop?.title ? t(prop.title) : field;
    const values = prop ? enumValues(prop) : undefined;
    const labels = prop ? enumLabelKeys(prop) : undefined;
    const yesNo = prop && baseType(prop) === 'boolean';
    if (values || yesNo) {
      const options = yesNo
        ? [
            { value: 'true', label: t('actions.yes') },
            { value: 'false', label: t('actions.no') },
          ]
        : values!.map((v, i) => ({ value: String(v), label: labels?.[i] ? t(labels[i]) : String(v) }));
      return (
        <Select
          key={field}
          aria-label={label}
          placeholder={label}
          allowClear
          value={query.filters[field] || undefined}
          options={options}
          onChange={(v) => setFilter(field, v)}
          style={{ minWidth: 140 }}
          data-testid={`statistic-filter-${field}`}
        />
      );
    }
    const ref = refOf(def.resource, field);
    if (ref) return <RefFilter key={field} refResource={ref} label={label} value={query.filters[field] ?? ''} onCommit={(v) => setFilter(field, v)} />;
    return <TextFilter key={field} label={label} value={query.filters[field] ?? ''} onCommit={(v) => setFilter(field, v)} />;
  };

  return (
    <Flex wrap gap={8} align="center" data-testid="statistic-controls">
      <DatePicker.RangePicker
        aria-label={t('lists.dates.range')}
        placeholder={[t('lists.dates.start'), t('lists.dates.end')]}
        format={DATE_FORMAT}
        value={query.range}
        allowClear={false}
        disabledDate={(d: Dayjs) => d.isAfter(dayjs().endOf('day'))}
        presets={DATE_PRESETS.map((p) => ({ label: t(p.label), value: () => presetRange(p.key) }))}
        onChange={(range) => range?.[0] && range[1] && onChange({ ...query, range: [range[0].startOf('day'), range[1].endOf('day')] })}
        style={{ width: 264, maxWidth: '100%' }}
      />
      <Select
        aria-label={t('statistics.page.interval')}
        value={query.interval}
        options={STATISTIC_INTERVALS.map((i) => ({ value: i, label: t(`statistics.page.intervals.${i}`) }))}
        onChange={(interval: StatisticInterval) => onChange({ ...query, interval })}
        style={{ width: 96 }}
        data-testid="statistic-interval"
      />
      {def.dimensions.length > 1 && (
        <Select
          aria-label={t('statistics.page.by')}
          value={query.by}
          options={def.dimensions.map((d) => ({ value: d.key, label: t('statistics.page.byDimension', { dimension: t(d.label) }) }))}
          onChange={(by: string) => onChange({ ...query, by })}
          style={{ minWidth: 140 }}
          data-testid="statistic-by"
        />
      )}
      {def.filters.filter((f) => !fixedFilters.includes(f)).map(filter)}
    </Flex>
  );
}
