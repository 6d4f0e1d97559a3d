/**
 * RJSF fields of date-time periods (000 3 timesale validInterval; 5: time-sale periods continuous;
 * 001 9 formats): one range picker for a `{start, end}` object (`DateTimeRangeField`), and for a list
 * of periods that must follow one another (`x-continuous`) a timeline of range pickers
 * (`PeriodListField`) where 追加 adds a period starting when the last one ends. Values are ISO
 * instants, shown in the browser's time zone as YYYY/MM/DD HH:mm.
 */
import { Button, DatePicker, Flex, Timeline, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { FieldProps } from '@rjsf/utils';
import { PickerKeys } from '../widgets/date-widget';
import { NestedErrors } from './field-errors';

interface Period {
  start?: string;
  end?: string;
}

const SHOWN = 'YYYY/MM/DD HH:mm';

const day = (v: string | undefined): Dayjs | null => (v && dayjs(v).isValid() ? dayjs(v) : null);

/** One period as a range picker; `onPeriod` gets the ISO instants (undefined when cleared). */
function PeriodPicker({ value, onPeriod, disabled, label }: { value: Period; onPeriod: (p: Period) => void; disabled?: boolean; label: string }) {
  const { t } = useTranslation();
  return (
    <PickerKeys>
      <DatePicker.RangePicker
        showTime={{ format: 'HH:mm' }}
        format={SHOWN}
        needConfirm={false}
        aria-label={label}
        disabled={disabled}
        allowEmpty={[true, true]}
        placeholder={[t('fields.commerce.period_start'), t('fields.commerce.period_end')]}
        value={[day(value.start), day(value.end)]}
        onChange={(v) => onPeriod({ start: v?.[0]?.toISOString(), end: v?.[1]?.toISOString() })}
      />
    </PickerKeys>
  );
}

/** A `{start, end}` object of date-times as one range picker. */
export function DateTimeRangeField({ formData, onChange, fieldPathId, disabled, readonly, errorSchema, schema }: FieldProps) {
  const value = (formData ?? {}) as Period;
  return (
    <Flex vertical gap={4} data-testid="date-time-range">
      <PeriodPicker value={value} disabled={disabled || readonly} label={String(schema.title ?? '')} onPeriod={(p) => onChange(p, fieldPathId.path)} />
      <NestedErrors errorSchema={errorSchema} />
    </Flex>
  );
}

/** Periods one after another (`x-continuous`): a timeline of range pickers with 追加 / 削除. */
export function PeriodListField({ formData, onChange, fieldPathId, disabled, readonly, errorSchema, schema }: FieldProps) {
  const { t } = useTranslation();
  const periods: Period[] = Array.isArray(formData) ? (formData as Period[]) : [];
  const off = disabled || readonly;
  const set = (next: Period[]) => onChange(next, fieldPathId.path);
  const add = () => set([...periods, { start: periods.at(-1)?.end }]);
  return (
    <Flex vertical gap={8} data-testid="period-list">
      {periods.length === 0 ? (
        <Typography.Text type="secondary">{t('forms.emptyArray')}</Typography.Text>
      ) : (
        <Timeline
          items={periods.map((p, i) => ({
            key: i,
            children: (
              <Flex gap={8} align="center" wrap data-testid="period">
                <PeriodPicker
                  value={p}
                  disabled={off}
                  label={`${String(schema.title ?? '')} ${i + 1}`}
                  onPeriod={(next) => set(periods.map((x, k) => (k === i ? next : x)))}
                />
                <Button danger icon={<DeleteOutlined />} disabled={off} onClick={() => set(periods.filter((_, k) => k !== i))}>
                  {t('forms.remove')}
                </Button>
              </Flex>
            ),
          }))}
        />
      )}
      <Button type="dashed" block icon={<PlusOutlined />} disabled={off} onClick={add}>
        {t('forms.addPeriod')}
      </Button>
      <NestedErrors errorSchema={errorSchema} />
    </Flex>
  );
}
