/**
 * RJSF widget of a field the server owns (`readOnly` in its schema: a push's 配信状況, a creation
 * time) on an edit form: its value as text, as the detail page shows it (./field-value; enum labels
 * translated, dates in the 001 9 formats), never an input (docs/architecture.md 'Console'). The create
 * form leaves such fields out (../form-schema `formFields`).
 */
import { useParams } from 'react-router';
import type { WidgetProps } from '@rjsf/utils';
import type { FieldSchema } from '@/shared/registry';
import { FieldValue } from '../field-value';

export function ReadOnlyWidget({ id, value, schema }: WidgetProps) {
  const { city = '' } = useParams();
  const empty = value === undefined || value === null || value === '';
  return (
    <div id={id} className="read-only-value" data-testid="read-only-value">
      {empty ? '—' : <FieldValue prop={schema as unknown as FieldSchema} value={value} size={80} resolveRefs city={city} place="detail" />}
    </div>
  );
}
