/**
 * RJSF field of business hours (`x-widget: business-hours`; 000 3 opening hours, 5: publishing needs
 * a day and a time): a card per group of days, with the spec's day chips 月 火 水 木 金 土 日 (values
 * 2–7 and S) as toggle buttons and HH:mm ranges (001 9 formats), each added and removed with its
 * labelled button. The value is the schema's: `[{weekdays: ['2', …], time: [{start: 'HH:mm', end: 'HH:mm'}]}]`.
 */
import { Button, Card, Flex, TimePicker, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FieldProps } from '@rjsf/utils';
import { parseTime } from '../widgets/time-widget';
import { PickerKeys } from '../widgets/date-widget';
import { NestedErrors } from './field-errors';

/** The spec's day values, Monday to Sunday (000 3: 2–7 for Monday–Saturday, S for Sunday). */
export const WEEKDAYS = ['2', '3', '4', '5', '6', '7', 'S'] as const;

interface TimeRange {
  start?: string;
  end?: string;
}
interface DayHours {
  weekdays?: string[];
  time?: TimeRange[];
}

export function BusinessHoursField({ formData, onChange, fieldPathId, disabled, readonly, errorSchema }: FieldProps) {
  const { t } = useTranslation();
  const rows: DayHours[] = Array.isArray(formData) ? (formData as DayHours[]) : [];
  const off = disabled || readonly;
  const set = (next: DayHours[]) => onChange(next, fieldPathId.path);
  const setRow = (i: number, row: DayHours) => set(rows.map((r, k) => (k === i ? row : r)));
  const toggle = (i: number, day: string) => {
    const days = new Set(rows[i].weekdays ?? []);
    if (days.has(day)) days.delete(day);
    else days.add(day);
    setRow(i, { ...rows[i], weekdays: WEEKDAYS.filter((d) => days.has(d)) });
  };
  return (
    <Flex vertical gap={8} data-testid="business-hours">
      {rows.map((row, i) => (
        <Card key={i} size="small" data-testid="business-hours-group">
          <Flex vertical gap={8}>
            <Flex gap={4} wrap role="group" aria-label={t('fields.commerce.weekdays')}>
              {WEEKDAYS.map((d) => {
                const on = (row.weekdays ?? []).includes(d);
                return (
                  <Button key={d} shape="round" size="small" type={on ? 'primary' : 'default'} aria-pressed={on} disabled={off} onClick={() => toggle(i, d)}>
                    {t(`enums.commerce.weekday.${d}`)}
                  </Button>
                );
              })}
            </Flex>
            {(row.time ?? []).map((range, j) => (
              <Flex key={j} gap={8} align="center" wrap>
                <PickerKeys>
                  <TimePicker.RangePicker
                    format="HH:mm"
                    needConfirm={false}
                    disabled={off}
                    aria-label={t('fields.commerce.hours_time')}
                    placeholder={[t('fields.commerce.opens_at'), t('fields.commerce.closes_at')]}
                    value={[parseTime(range.start), parseTime(range.end)]}
                    onChange={(v) =>
                      setRow(i, { ...row, time: (row.time ?? []).map((r, k) => (k === j ? { start: v?.[0]?.format('HH:mm'), end: v?.[1]?.format('HH:mm') } : r)) })
                    }
                  />
                </PickerKeys>
                <Button danger icon={<DeleteOutlined />} disabled={off} onClick={() => setRow(i, { ...row, time: (row.time ?? []).filter((_, k) => k !== j) })}>
                  {t('forms.removeTime')}
                </Button>
              </Flex>
            ))}
            <Flex gap={8} wrap>
              <Button icon={<PlusOutlined />} disabled={off} onClick={() => setRow(i, { ...row, time: [...(row.time ?? []), {}] })}>
                {t('forms.addTime')}
              </Button>
              <Button danger icon={<DeleteOutlined />} disabled={off} onClick={() => set(rows.filter((_, k) => k !== i))}>
                {t('forms.removeDays')}
              </Button>
            </Flex>
          </Flex>
        </Card>
      ))}
      {rows.length === 0 && <Typography.Text type="secondary">{t('forms.emptyArray')}</Typography.Text>}
      <Button type="dashed" block icon={<PlusOutlined />} disabled={off} onClick={() => set([...rows, { weekdays: [], time: [{}] }])}>
        {t('forms.addDays')}
      </Button>
      <NestedErrors errorSchema={errorSchema} />
    </Flex>
  );
}
