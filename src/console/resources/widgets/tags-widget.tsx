/**
 * RJSF widget of an array of free strings (or numbers): an antd tags Select, one tag per item. Number
 * items are converted back to numbers; values that are not numbers are dropped for number arrays.
 */
import { Select } from 'antd';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { baseType, itemsOf } from '../field-kinds';
import type { FieldSchema } from '@/shared/registry';

export function TagsWidget({ id, value, disabled, readonly, onChange, onBlur, onFocus, schema, placeholder, registry }: WidgetProps) {
  const readonlyAsDisabled = (registry.formContext as { readonlyAsDisabled?: boolean } | undefined)?.readonlyAsDisabled ?? true;
  const itemType = baseType({ type: itemsOf(schema as unknown as FieldSchema).type ?? 'string' } as FieldSchema);
  const numeric = itemType === 'integer' || itemType === 'number';
  const items = Array.isArray(value) ? value.map(String) : [];
  const change = (next: string[]) => {
    if (!numeric) return onChange(next);
    const nums = next.map(Number).filter((n) => Number.isFinite(n) && (itemType === 'number' || Number.isInteger(n)));
    onChange(nums);
  };
  return (
    <Select
      id={id}
      mode="tags"
      value={items}
      open={false}
      suffixIcon={null}
      tokenSeparators={[',', '、']}
      placeholder={placeholder}
      disabled={disabled || (readonlyAsDisabled && readonly)}
      onChange={readonly ? undefined : change}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      aria-describedby={ariaDescribedByIds(id)}
      style={{ width: '100%' }}
    />
  );
}
