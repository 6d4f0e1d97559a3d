/**
 * The messages of the parts of a custom field (an item's day, a period's end): RJSF gives a custom
 * field its error schema, and its FieldTemplate shows only the field's own messages.
 */
import { Typography } from 'antd';
import type { ErrorSchema } from '@rjsf/utils';

/** Every message below the top of `errorSchema`, once each. */
export function nestedErrors(errorSchema: ErrorSchema | undefined): string[] {
  const out = new Set<string>();
  const walk = (e: unknown, top: boolean) => {
    if (!e || typeof e !== 'object') return;
    for (const [k, v] of Object.entries(e as Record<string, unknown>)) {
      if (k === '__errors') {
        // RJSF leaves the key with no list in places (a part with no message).
        if (!top && Array.isArray(v)) for (const m of v as string[]) out.add(m);
      } else walk(v, false);
    }
  };
  walk(errorSchema, true);
  return [...out];
}

/** The nested messages of a custom field, as the theme shows a field's messages. */
export function NestedErrors({ errorSchema }: { errorSchema: ErrorSchema | undefined }) {
  const messages = nestedErrors(errorSchema);
  if (messages.length === 0) return null;
  return (
    <div role="alert">
      {messages.map((m) => (
        <Typography.Text key={m} type="danger" style={{ display: 'block' }}>
          {m}
        </Typography.Text>
      ))}
    </div>
  );
}
