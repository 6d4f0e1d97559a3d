/**
 * Every field of a record with its translated title and its value as ./field-value shows it, as a
 * bordered one-column list: the body of detail pages and of a singleton's settings page.
 */
import { useTranslation } from 'react-i18next';
import type { BaseRecord } from '@refinedev/core';
import { Descriptions } from 'antd';
import type { ResourceDef } from '@/shared/registry';
import { FieldValue } from './field-value';

/** Every field of `record` with its translated title, as a bordered one-column list. */
export function ShowBody({ def, record, city }: { def: ResourceDef; record: BaseRecord; city: string }) {
  const { t } = useTranslation();
  const items = Object.entries(def.schema.properties).map(([field, prop]) => ({
    key: field,
    label: t(prop.title),
    children: <FieldValue prop={prop} value={record[field]} size={120} resolveRefs city={city} place="detail" />,
  }));
  return <Descriptions bordered column={1} items={items} data-testid="show-fields" />;
}
