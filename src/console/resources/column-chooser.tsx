/**
 * The columns a generated list shows and their order (docs/architecture.md 'Beyond the spec': Saved views): a multiple choice of
 * the list's columns; the order chosen is the order shown. Kept by the saved views.
 */
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import type { ResourceDef } from '@/shared/registry';

/** The columns a list shows by default: the schema's `list.columns` less those hidden in lists. */
export function defaultColumns(def: ResourceDef): string[] {
  const shown = def.list.columns.filter((f) => !def.schema.properties[f]?.['x-hidden-in-list']);
  return shown.length ? shown : def.list.columns;
}

/** The columns of a saved state that the list still has, in their saved order; else the default. */
export function validColumns(def: ResourceDef, columns: readonly string[] | undefined): string[] {
  const ok = (columns ?? []).filter((c) => def.list.columns.includes(c));
  return ok.length ? [...new Set(ok)] : defaultColumns(def);
}

export interface ColumnChooserProps {
  def: ResourceDef;
  value: string[];
  onChange: (columns: string[]) => void;
}

export function ColumnChooser({ def, value, onChange }: ColumnChooserProps) {
  const { t } = useTranslation();
  return (
    <Select<string[]>
      mode="multiple"
      aria-label={t('lists.views.columns')}
      placeholder={t('lists.views.columns')}
      value={value}
      onChange={(v) => onChange(v.length ? v : defaultColumns(def))}
      options={def.list.columns.map((c) => ({ value: c, label: t(def.schema.properties[c].title) }))}
      maxTagCount="responsive"
      style={{ minWidth: 200, maxWidth: 360 }}
      data-testid="column-chooser"
    />
  );
}
