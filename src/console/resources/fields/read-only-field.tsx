/**
 * RJSF field of a value the user may read but not write (docs/architecture.md 'Field permissions';
 * ../field-access.ts): its title and its value as a detail page shows it (../field-value.tsx: text,
 * never HTML; dates, enums, references, thumbnails), with a line saying it cannot be changed. The
 * form keeps the stored value and sends it unchanged, which the server accepts.
 * uiSchema: `{'ui:field': 'readOnlyValue', 'ui:options': {prop}}` (`prop`: the schema's property).
 */
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Form } from 'antd';
import type { FieldProps } from '@rjsf/utils';
import type { FieldSchema } from '@/shared/registry';
import { FieldValue } from '../field-value';

export function ReadOnlyField({ formData, schema, uiSchema, fieldPathId }: FieldProps) {
  const { t } = useTranslation();
  const { city = '' } = useParams();
  const prop = (uiSchema?.['ui:options'] as { prop?: FieldSchema } | undefined)?.prop;
  return (
    <Form.Item layout="vertical" label={schema.title} colon={false} extra={t('history.fields.readOnly')} style={{ marginBottom: 16 }}>
      <div id={fieldPathId.$id} data-testid="read-only-field">
        <FieldValue prop={prop} value={formData} size={80} resolveRefs city={city} place="detail" />
      </div>
    </Form.Item>
  );
}
