/**
 * Field permissions on the server (docs/architecture.md 'Field permissions'; the rules: `x-permissions`
 * of the schemas made CASL field rules by src/shared/ability.ts, `deniedFields`): fields the caller
 * may not read leave every answer of rows, and a write that changes a field the caller may not write
 * is refused with 403 naming the field.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ResourceDef } from '../../shared/registry';
import type { FieldErrors } from '../../shared/validation';
import { HttpError } from '../http-error';

/** A row without `fields` (a copy; the row itself when there is nothing to leave out). */
export function rowWithout<T>(row: T, fields: readonly string[]): T {
  if (fields.length === 0 || typeof row !== 'object' || row === null || Array.isArray(row)) return row;
  const out = { ...(row as Record<string, unknown>) };
  for (const f of fields) delete out[f];
  return out as T;
}

/**
 * An answer of a call of `def` without `fields`: a row (an object with the id field), or a list
 * answer (`content` of rows); anything else (a count, a CSV already sent) as it is.
 */
export function withoutFields<T>(def: Pick<ResourceDef, 'idField'>, answer: T, fields: readonly string[]): T {
  if (fields.length === 0 || typeof answer !== 'object' || answer === null || Array.isArray(answer)) return answer;
  const a = answer as Record<string, unknown>;
  if (Array.isArray(a.content)) return { ...a, content: a.content.map((r) => rowWithout(r, fields)) } as T;
  return def.idField in a ? rowWithout(answer, fields) : answer;
}

/**
 * Refuses a write of `data` that changes one of `fields` (those the caller may not write): an
 * update compares with the stored `before`, a create with the field's schema default (absent when
 * it has none); `'any'` (a write over many rows in one statement, kind `set-all`) counts every one of
 * `fields` that `data` names as a change. Sending the unchanged value passes, so a whole-record form
 * still saves. The one check of every write: create, update, restore, undelete, actions (set, toggle,
 * bulk-update, set-all, create-child, mail-qr) and singleton upserts.
 * Errors: 403 `forbidden` with `fields` naming each changed field (`validation.history.field_forbidden`).
 */
export function checkFieldWrites(
  def: Pick<ResourceDef, 'schema'>,
  data: Readonly<Record<string, unknown>>,
  before: Readonly<Record<string, unknown>> | null | 'any',
  fields: readonly string[],
): void {
  const fieldErrors: FieldErrors = {};
  for (const f of fields) {
    const changed = before === 'any' ? f in data : !isDeepStrictEqual(data[f] ?? null, (before ? before[f] : def.schema.properties[f]?.default) ?? null);
    if (changed) fieldErrors[f] = [{ key: 'validation.history.field_forbidden', params: { field: f } }];
  }
  if (Object.keys(fieldErrors).length > 0) throw new HttpError('forbidden', { fieldErrors });
}
