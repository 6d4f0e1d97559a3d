/**
 * How a stored record becomes an answer and how a payload becomes a record, per the field
 * extensions of the schemas (schemas/meta/resource.schema.json; 000 3 Advertisement):
 * - `x-coerce: "array"` and `x-drop-null`: the coercions of src/shared/coerce.ts (the console's too),
 *   on write (before validation) and on read;
 * - `readOnly` fields other than the id and created fields are the server's: clients cannot write
 *   them, updates keep their stored values, actions (`set`, `toggle`) write them.
 */
import { coerceAnswer, coerceArray, coerceOut, coercionsOf } from '../../shared/coerce';
import type { RecordOf, ResourceDef } from '../../shared/registry';

/**
 * A record as answered: its data plus `[idField]`, `[createdField]` (ISO 8601, UTC) and `version`;
 * typed by its schema when the code names the resource (`RecordOf<'news'>`).
 */
export type ResourceRow<N extends string = string> = RecordOf<N> & { version: number };

/** A row of a resource table as read. */
export interface DbRow {
  id: number | string;
  data: Record<string, unknown>;
  version: number;
  created_at: Date | string;
}

/** The fields of a resource that `readOnly` concerns. */
export interface Shape {
  /** readOnly fields kept in `data` (not the id or created field). */
  serverFields: string[];
}

const shapes = new WeakMap<ResourceDef, Shape>();

/** The server fields of `def` (computed once per definition). */
export function shapeOf(def: ResourceDef): Shape {
  let shape = shapes.get(def);
  if (!shape) {
    const props = Object.entries(def.schema.properties);
    shape = {
      serverFields: props.filter(([f, p]) => p.readOnly && f !== def.idField && f !== def.createdField).map(([f]) => f),
    };
    shapes.set(def, shape);
  }
  return shape;
}

/** A stored row as answered (x-coerce and x-drop-null applied). */
export function toRow<N extends string>(def: ResourceDef<N>, r: DbRow): ResourceRow<N> {
  const row: ResourceRow = { ...r.data, [def.idField]: Number(r.id), version: r.version };
  if (def.createdField) row[def.createdField] = new Date(r.created_at).toISOString();
  // The stored data passed the schema of `def` when written: it is a record of N.
  return coerceAnswer(def.schema.properties, row) as ResourceRow<N>;
}

/**
 * A client payload made ready for validation: `version` removed, null `x-drop-null` fields dropped,
 * `x-coerce` fields made lists. Anything that is not an object is answered unchanged (validation
 * refuses it).
 */
export function prepareInput(def: ResourceDef, body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { version: _version, ...rest } = body as Record<string, unknown>;
  return coerceOut(def.schema.properties, rest);
}

/** The values a resource answers when a singleton has no record yet: the schema's defaults. */
export function defaultsOf(def: ResourceDef): ResourceRow {
  const row: ResourceRow = { version: 0 };
  for (const [f, p] of Object.entries(def.schema.properties)) {
    if (p.default !== undefined) row[f] = structuredClone(p.default);
  }
  for (const f of coercionsOf(def.schema.properties).coerce) row[f] = coerceArray(row[f]);
  return row;
}
