/**
 * A form value shown as text, never an input: `ReadOnlyValue` renders it as the detail page does
 * (../field-value; enum labels translated, dates in the 001 9 formats, references by name, text never
 * as HTML; '—' when empty). Two uses, one rendering: `ReadOnlyWidget`, the RJSF widget of a field the
 * server owns (`readOnly` in its schema: a push's 配信状況, a creation time) on an edit form (the
 * create form leaves such fields out, ../form-schema `formFields`); and ../fields/read-only-field, a
 * field the user may read but not write (field permissions). docs/architecture.md 'Console'.
 */
import { useParams } from 'react-router';
import type { WidgetProps } from '@rjsf/utils';
import type { FieldSchema } from '@/shared/registry';
import { FieldValue } from '../field-value';

export interface ReadOnlyValueProps {
  /** The element's id (the form field's id, for its label). */
  id: string;
  prop: FieldSchema | undefined;
  value: unknown;
  /** `data-testid` of the element. */
  testId: string;
  /** Id of the element naming it, when no `<label for>` does. */
  labelledBy?: string;
}

export function ReadOnlyValue({ id, prop, value, testId, labelledBy }: ReadOnlyValueProps) {
  const { city = '' } = useParams();
  const empty = value === undefined || value === null || value === '';
  return (
    <div id={id} className="read-only-value" data-testid={testId} aria-labelledby={labelledBy}>
      {empty ? '—' : <FieldValue prop={prop} value={value} size={80} resolveRefs city={city} place="detail" />}
    </div>
  );
}

export function ReadOnlyWidget({ id, value, schema }: WidgetProps) {
  return <ReadOnlyValue id={id} prop={schema as unknown as FieldSchema} value={value} testId="read-only-value" />;
}
