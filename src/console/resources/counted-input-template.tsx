/**
 * RJSF BaseInputTemplate for the antd theme that shows a 'current / max' counter on text inputs
 * with a `maxLength` (000 2.3). The limit is not enforced by the input (typing past it is allowed) so
 * the form's validation message tells the user, as the spec's messages say. Other inputs use the
 * antd theme's template.
 */
import type { ChangeEvent, FocusEvent } from 'react';
import { Input } from 'antd';
import { Templates } from '@rjsf/antd';
import { ariaDescribedByIds, type BaseInputTemplateProps } from '@rjsf/utils';

const AntdBaseInput = Templates.BaseInputTemplate!;

export function CountedInputTemplate(props: BaseInputTemplateProps) {
  const { schema, type, id, htmlName, value, disabled, readonly, placeholder, options, onChange, onBlur, onFocus, registry } = props;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const textual = schema.type === 'string' && (!type || type === 'text' || type === 'email' || type === 'url') && !schema.format;
  if (!max || !textual) return <AntdBaseInput {...props} />;
  const readonlyAsDisabled = (registry.formContext as { readonlyAsDisabled?: boolean } | undefined)?.readonlyAsDisabled ?? true;
  return (
    <Input
      id={id}
      name={htmlName || id}
      type={type === 'text' || !type ? 'text' : type}
      value={value ?? ''}
      placeholder={placeholder}
      disabled={disabled || (readonlyAsDisabled && readonly)}
      count={{ show: true, max }}
      onChange={readonly ? undefined : (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={readonly ? undefined : (e: FocusEvent<HTMLInputElement>) => onBlur(id, e.target.value)}
      onFocus={readonly ? undefined : (e: FocusEvent<HTMLInputElement>) => onFocus(id, e.target.value)}
      aria-describedby={ariaDescribedByIds(id, !!schema.examples)}
      style={{ width: '100%' }}
    />
  );
}
