/**
 * Field permissions in the console (docs/architecture.md 'Field permissions'): the same CASL field
 * rules the server enforces (src/shared/ability.ts `permittedFields`, made from the schemas'
 * `x-permissions`), read from the session's ability. A generated page works on the resource as the
 * user may read it: fields it may not read are not in its schema, its list columns, searches, sorts
 * or cards, so no list, CSV export, detail page or form shows them; fields it may read but not write
 * are shown as text on the edit form (./widgets/read-only-field.tsx) and left out of the create form.
 */
import { useMemo } from 'react';
import { useAbility } from '@casl/react';
import { permittedFields, type AppAbility } from '@/shared/ability';
import { getResource, type ResourceDef } from '@/shared/registry';

/** Readable views made so far, by resource and readable fields: one object per view, so memos hold. */
const views = new Map<string, ResourceDef>();

/**
 * `def` narrowed to the fields of `readable` (its properties, required fields, list columns,
 * searches, sorts, filters and card columns); `def` itself when every field is readable.
 * Example: a Teacher's `teacher` without `email` and `phone_number`.
 */
export function readableDef(def: ResourceDef, readable: readonly string[]): ResourceDef {
  const all = Object.keys(def.schema.properties);
  if (readable.length === all.length) return def;
  const key = `${def.name}|${readable.join()}`;
  const known = views.get(key);
  if (known) return known;
  const keep = (fields: readonly string[]) => fields.filter((f) => readable.includes(f));
  const view: ResourceDef = {
    ...def,
    schema: {
      ...def.schema,
      properties: Object.fromEntries(Object.entries(def.schema.properties).filter(([f]) => readable.includes(f))),
      required: def.schema.required ? keep(def.schema.required) : undefined,
    },
    list: {
      ...def.list,
      columns: keep(def.list.columns),
      search: keep(def.list.search),
      sort: keep(def.list.sort),
      filters: def.list.filters.filter((f) => (f.kind === 'equals' ? [f.field] : [f.start, f.end]).every((x) => readable.includes(x))),
      card: def.list.card ? keep(def.list.card) : null,
    },
  };
  views.set(key, view);
  return view;
}

/** What a generated page of a resource works with: the resource as readable, and the fields not writable. */
export interface FieldAccess {
  /** The resource narrowed to the fields the session may read (`readableDef`). */
  def: ResourceDef;
  /** Readable fields the session may not update (shown as text on the edit form). */
  unwritable: string[];
}

/**
 * The field access of the session to resource `name` (a registry name): `permittedFields` of its
 * ability for read and update, recomputed when the ability changes.
 */
export function useFieldAccess(name: string): FieldAccess {
  const ability = useAbility<AppAbility>();
  const full = getResource(name);
  const readable = permittedFields(ability, 'read', full);
  const writable = ability.can('update', name) ? permittedFields(ability, 'update', full) : readable;
  const readKey = readable.join();
  const unwritable = readable.filter((f) => !writable.includes(f)).join();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the field lists, not the arrays' identity
  return useMemo(() => ({ def: readableDef(full, readable), unwritable: unwritable ? unwritable.split(',') : [] }), [full, readKey, unwritable]);
}
