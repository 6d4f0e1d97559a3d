/** RJSF widget of a boolean field: an antd Switch (the theme's default is a checkbox). */
import { Switch } from 'antd';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';

export function SwitchWidget({ id, value, disabled, readonly, onChange, label, registry }: WidgetProps) {
  const readonlyAsDisabled = (registry.formContext as { readonlyAsDisabled?: boolean } | undefined)?.readonlyAsDisabled ?? true;
  return (
    <Switch
      id={id}
      checked={value === true}
      disabled={disabled || (readonlyAsDisabled && readonly)}
      onChange={(checked) => {
        if (!readonly) onChange(checked);
      }}
      aria-label={label}
      aria-describedby={ariaDescribedByIds(id)}
    />
  );
}
