/**
 * RJSF field of a value the user may read but not write (docs/architecture.md 'Field permissions';
 * ../field-access.ts): its title and its value as text (../widgets/read-only-widget `ReadOnlyValue`,
 * as a detail page shows it), with a line saying it cannot be changed. The
 * form keeps the stored value and sends it unchanged, which the server accepts.
 * uiSchema: `{'ui:field': 'readOnlyValue', 'ui:options': {prop}}` (`prop`: the schema's property).
 */
import { useTranslation } from 'react-i18next';
import { Flex, Typography } from 'antd';
import type { FieldProps } from '@rjsf/utils';
import type { FieldSchema } from '@/shared/registry';
import { ReadOnlyValue } from '../widgets/read-only-widget';

export function ReadOnlyField({ formData, schema, uiSchema, fieldPathId }: FieldProps) {
  const { t } = useTranslation();
  const prop = (uiSchema?.['ui:options'] as { prop?: FieldSchema } | undefined)?.prop;
  return (
    <Flex vertical gap={4} style={{ marginBottom: 24 }}>
      <Typography.Text id={`${fieldPathId.$id}__title`}>{schema.title}</Typography.Text>
      <ReadOnlyValue id={fieldPathId.$id} prop={prop} value={formData} testId="read-only-field" labelledBy={`${fieldPathId.$id}__title`} />
      <Typography.Text type="secondary">{t('history.fields.readOnly')}</Typography.Text>
    </Flex>
  );
}
