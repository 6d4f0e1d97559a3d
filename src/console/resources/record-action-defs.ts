/**
 * Which `x-resource.actions` the generated pages offer (001 7 calls that are not CRUD): `set` and
 * `toggle` as buttons on each row and on the detail page, `export` as a list-level CSV button; other
 * kinds (count, children, sums…) are not buttons. Each needs the action's `permission` in the
 * session's ability. Labels are `actions.<name>`, else the name made readable. 複製 (`canClone`) is a
 * row button where the schema declares `x-resource.clone`. Pure.
 */
import type { ActionDef, ResourceDef } from '@/shared/registry';

/** Kinds shown as row buttons. */
export const ROW_ACTION_KINDS: ReadonlyArray<ActionDef['kind']> = ['set', 'toggle', 'mail-qr'];
/** Kinds shown as list-level buttons. */
export const LIST_ACTION_KINDS: ReadonlyArray<ActionDef['kind']> = ['export'];

/** The ability's answer; with `field`, for that field (CASL field rules: `x-permissions`). */
type Can = (action: ActionDef['permission'], subject: string, field?: string) => boolean;

/** The fields a row button writes: its `set` values and its toggled `field`. */
function writtenFields(action: ActionDef): string[] {
  return [...Object.keys(action.set ?? {}), ...(action.kind === 'toggle' && action.field ? [action.field] : [])];
}

/**
 * The row buttons of `def` the ability allows (not a `set` that takes `fields` from a body: it needs
 * a form), down to the fields: a button writing a field the role may not write (an Advertiser's
 * トップに掲載 sets `is_top`) is not offered, as the server refuses it (docs/architecture.md 'Field permissions').
 */
export function rowActions(def: ResourceDef, can: Can): ActionDef[] {
  return def.actions.filter(
    (a) =>
      ROW_ACTION_KINDS.includes(a.kind) &&
      !(a.kind === 'set' && a.fields) &&
      a.path.includes('{id}') &&
      can(a.permission, def.name) &&
      (a.permission !== 'update' && a.permission !== 'create' ? true : writtenFields(a).every((f) => can(a.permission, def.name, f))),
  );
}

/** The list-level buttons (CSV export) of `def` the ability allows. */
export function listActions(def: ResourceDef, can: Can): ActionDef[] {
  return def.actions.filter((a) => LIST_ACTION_KINDS.includes(a.kind) && !a.path.includes('{id}') && can(a.permission, def.name));
}

/**
 * Whether a row of `def` offers 複製 (000 4 modal mode douplicate): declared by `x-resource.clone`,
 * with a create call, not a singleton, and the ability allows `create` (a copy is a new record).
 */
export function canClone(def: ResourceDef, can: Can): boolean {
  return !!def.clone && !!def.api.create && !def.singleton && can('create', def.name);
}

/** 'approve_report' → 'Approve report' (the label when no translation exists). */
export function readableName(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The translated label of an action: `actions.<name>` when the catalogue has it, else the readable name. */
export function actionLabel(name: string, t: (key: string, options?: Record<string, unknown>) => string): string {
  return t(`actions.${name}`, { defaultValue: readableName(name) });
}

/** A row's value of `field`, its schema default when absent (a new row's `is_top` is false). */
function rowValue(def: ResourceDef, row: Record<string, unknown>, field: string): unknown {
  const v = row[field];
  return v === undefined ? (def.schema.properties[field]?.default ?? null) : v;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null) || (typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b) && a !== null && b !== null);

/**
 * Whether `action` applies to `row` of `def`: the row is in one of the states the action declares
 * (`when`: each named field holds one of its values), and a `set` without body fields would change
 * it (one of its `set` values differs from the row's). The lists and the detail page offer an
 * action only on rows it applies to; the server answers either way. Without a row: true. Pure.
 */
export function actionApplies(def: ResourceDef, action: ActionDef, row: Record<string, unknown> | undefined): boolean {
  if (!row) return true;
  for (const [field, values] of Object.entries(action.when ?? {})) {
    if (!values.some((v) => same(v, rowValue(def, row, field)))) return false;
  }
  if (action.kind === 'set' && action.set && !action.fields) return Object.entries(action.set).some(([field, v]) => !same(v, rowValue(def, row, field)));
  return true;
}
