/**
 * How a stored record becomes an answer and how a payload becomes a record, per the field
 * extensions of the schemas (schemas/meta/resource.schema.json; 000 3 Advertisement):
 * - `x-coerce: "array"`: a missing or null value becomes [], a single value a one-item list, on write
 *   (before validation) and on read;
 * - `x-drop-null`: a null value is left out of answers, and dropped from payloads before validation;
 * - `readOnly` fields other than the id and created fields are the server's: clients cannot write
 *   them, updates keep their stored values, actions (`set`, `toggle`) write them.
 */
import type { ResourceDef } from '../../shared/registry';

/** A record as answered: its data plus `[idField]`, `[createdField]` (ISO 8601, UTC) and `version`. */
export type ResourceRow = Record<string, unknown> & { version: number };

/** A row of a resource table as read. */
export interface DbRow {
  id: number | string;
  data: Record<string, unknown>;
  version: number;
  created_at: Date | string;
}

/** The fields of a resource that an extension or `readOnly` concerns. */
export interface Shape {
  coerce: string[];
  dropNull: string[];
  /** readOnly fields kept in `data` (not the id or created field). */
  serverFields: string[];
}

const shapes = new WeakMap<ResourceDef, Shape>();

/** The extension fields of `def` (computed once per definition). */
export function shapeOf(def: ResourceDef): Shape {
  let shape = shapes.get(def);
  if (!shape) {
    const props = Object.entries(def.schema.properties);
    shape = {
      coerce: props.filter(([, p]) => p['x-coerce'] === 'array').map(([f]) => f),
      dropNull: props.filter(([, p]) => p['x-drop-null']).map(([f]) => f),
      serverFields: props.filter(([f, p]) => p.readOnly && f !== def.idField && f !== def.createdField).map(([f]) => f),
    };
    shapes.set(def, shape);
  }
  return shape;
}

/** `x-coerce: "array"`: undefined, null and '' → [], an array as is, anything else → [value]. */
export function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** A stored row as answered (x-coerce and x-drop-null applied). */
export function toRow(def: ResourceDef, r: DbRow): ResourceRow {
  const row: ResourceRow = { ...r.data, [def.idField]: Number(r.id), version: r.version };
  if (def.createdField) row[def.createdField] = new Date(r.created_at).toISOString();
  const shape = shapeOf(def);
  for (const f of shape.coerce) row[f] = asArray(row[f]);
  for (const f of shape.dropNull) if (row[f] === null) delete row[f];
  return row;
}

/**
 * A client payload made ready for validation: `version` removed, null `x-drop-null` fields dropped,
 * `x-coerce` fields made lists. Anything that is not an object is answered unchanged (validation
 * refuses it).
 */
export function prepareInput(def: ResourceDef, body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { version: _version, ...rest } = body as Record<string, unknown>;
  const shape = shapeOf(def);
  for (const f of shape.dropNull) if (rest[f] === null) delete rest[f];
  for (const f of shape.coerce) if (!def.schema.properties[f].readOnly) rest[f] = asArray(rest[f]);
  return rest;
}

/** The values a resource answers when a singleton has no record yet: the schema's defaults. */
export function defaultsOf(def: ResourceDef): ResourceRow {
  const row: ResourceRow = { version: 0 };
  for (const [f, p] of Object.entries(def.schema.properties)) {
    if (p.default !== undefined) row[f] = structuredClone(p.default);
  }
  for (const f of shapeOf(def).coerce) row[f] = asArray(row[f]);
  return row;
}
