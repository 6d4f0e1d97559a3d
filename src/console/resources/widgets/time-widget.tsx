/**
 * RJSF widget of a time of day (`x-widget: time` or `format: time`): an antd TimePicker showing
 * HH:mm (001 9 formats). The value is `HH:mm`, or `HH:mm:ss` for `format: time` (what ajv's format wants).
 * Enter in its input sets the time only, never submits the form (000 4 forms, ./date-widget).
 */
import { TimePicker } from 'antd';
import dayjs from 'dayjs';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { PickerKeys } from './date-widget';

/** A stored time ('09:30', '09:30:00') as a dayjs of today, or null. */
export function parseTime(value: unknown): dayjs.Dayjs | null {
  if (typeof value !== 'string' || !/^\d{1,2}:\d{2}/.test(value)) return null;
  const [h, m, s] = value.split(':').map((x) => Number.parseInt(x, 10));
  return dayjs().hour(h).minute(m).second(Number.isFinite(s) ? s : 0).millisecond(0);
}

export function TimeWidget({ id, value, disabled, readonly, onChange, onBlur, onFocus, schema, options, registry, placeholder }: WidgetProps) {
  const readonlyAsDisabled = (registry.formContext as { readonlyAsDisabled?: boolean } | undefined)?.readonlyAsDisabled ?? true;
  const stored = schema.format === 'time' ? 'HH:mm:ss' : 'HH:mm';
  return (
    <PickerKeys>
      <TimePicker
        id={id}
        format="HH:mm"
        minuteStep={1}
        value={parseTime(value)}
        placeholder={placeholder}
        disabled={disabled || (readonlyAsDisabled && readonly)}
        onChange={(t) => !readonly && onChange(t ? t.format(stored) : options.emptyValue)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
        aria-describedby={ariaDescribedByIds(id)}
        style={{ width: '100%' }}
        needConfirm={false}
      />
    </PickerKeys>
  );
}
