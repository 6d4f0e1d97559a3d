/**
 * RJSF textarea widget for the antd theme with a 'current / max' counter when the field has a
 * `maxLength` (000 2.3); like the input, it does not cut what is typed: validation reports it.
 */
import type { ChangeEvent, FocusEvent } from 'react';
import { Input } from 'antd';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';

export function CountedTextareaWidget(props: WidgetProps) {
  const { schema, id, htmlName, value, disabled, readonly, placeholder, options, onChange, onBlur, onFocus, registry } = props;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const readonlyAsDisabled = (registry.formContext as { readonlyAsDisabled?: boolean } | undefined)?.readonlyAsDisabled ?? true;
  return (
    <Input.TextArea
      id={id}
      name={htmlName || id}
      value={value ?? ''}
      placeholder={placeholder}
      rows={typeof options.rows === 'number' ? options.rows : 4}
      disabled={disabled || (readonlyAsDisabled && readonly)}
      count={max ? { show: true, max } : undefined}
      onChange={readonly ? undefined : (e: ChangeEvent<HTMLTextAreaElement>) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={readonly ? undefined : (e: FocusEvent<HTMLTextAreaElement>) => onBlur(id, e.target.value)}
      onFocus={readonly ? undefined : (e: FocusEvent<HTMLTextAreaElement>) => onFocus(id, e.target.value)}
      aria-describedby={ariaDescribedByIds(id)}
      style={{ width: '100%' }}
    />
  );
}
