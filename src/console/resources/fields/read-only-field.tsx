/**
 * RJSF field of a value the user may read but not write (docs/architecture.md 'Field permissions';
 * ../field-access.ts): its title and its value as a detail page shows it (../field-value.tsx: text,
 * never HTML; dates, enums, references, thumbnails), with a line saying it cannot be changed. The
 * form keeps the stored value and sends it unchanged, which the server accepts.
 * uiSchema: `{'ui:field': 'readOnlyValue', 'ui:options': {prop}}` (`prop`: the schema's property).
 */
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Flex, Typography } from 'antd';
import type { FieldProps } from '@rjsf/utils';
import type { FieldSchema } from '@/shared/registry';
import { FieldValue } from '../field-value';

export function ReadOnlyField({ formData, schema, uiSchema, fieldPathId }: FieldProps) {
  const { t } = useTranslation();
  const { city = '' } = useParams();
  const prop = (uiSchema?.['ui:options'] as { prop?: FieldSchema } | undefined)?.prop;
  return (
    <Flex vertical gap={4} style={{ marginBottom: 24 }}>
      <Typography.Text id={`${fieldPathId.$id}__title`}>{schema.title}</Typography.Text>
      <div id={fieldPathId.$id} data-testid="read-only-field" aria-labelledby={`${fieldPathId.$id}__title`}>
        <FieldValue prop={prop} value={formData} size={80} resolveRefs city={city} place="detail" />
      </div>
      <Typography.Text type="secondary">{t('history.fields.readOnly')}</Typography.Text>
    </Flex>
  );
}
