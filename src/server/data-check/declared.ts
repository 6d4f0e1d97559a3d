/**
 * Declared data migrations of resource rows (docs/architecture.md 'Changing an entity'): what one
 * migration of `migrations/` is, in its two forms.
 * - `migrations/NNN-name.ts`: a default export made with `defineDataMigration({resource, up})`; `up`
 *   is given a copy of each stored row's data and answers the new data, or nothing to leave the row.
 * - `migrations/NNN-name.json`: `{resource, description?, steps}`, steps of the common changes, applied
 *   in order to each row: `{"rename": f, "to": g}`, `{"default": f, "value": v}` (where `f` is
 *   missing, null or ""), `{"convert": f, "to": "string" | "number" | "integer" | "boolean" | "array"}`
 *   (a value that cannot be converted stays as it is, and `npm run check:data` names it),
 *   `{"move": f, "to": "a.b"}` (into a nested object, made when missing) and `{"drop": f}`. Field
 *   names may be dotted paths into nested objects.
 * The migration's name is its file name without the extension; the runner is ./migration-runner.ts.
 */
import { createAjv } from '../../shared/validation';

/** The row a migration is given besides its data. */
export interface MigratedRow {
  id: number;
  /** The row's city key (`*` for global resources). */
  city: string;
}

/** What a migration's author writes (the default export of a `.ts` migration). */
export interface DataMigrationSpec {
  /** The registry resource whose rows it changes. */
  resource: string;
  /** One line for people: what it changes and why. */
  description?: string;
  /**
   * The new data of one stored row, given a copy of its data (change it in place and return it, or
   * build a new object); `undefined` (or the same value) leaves the row as it is. Throwing fails the
   * migration: nothing of it is written.
   */
  up(data: Record<string, unknown>, row: MigratedRow): Record<string, unknown> | undefined | void;
}

/** A migration as the runner knows it: its spec and its name (`NNN-name`, from the file). */
export interface DataMigration extends DataMigrationSpec {
  name: string;
}

/** Types a `.ts` migration: `export default defineDataMigration({resource: 'scene', up(data) {…}})`. */
export function defineDataMigration(spec: DataMigrationSpec): DataMigrationSpec {
  return spec;
}

/** One step of a JSON migration. */
export type DataMigrationStep =
  | { rename: string; to: string }
  | { default: string; value: unknown }
  | { convert: string; to: 'string' | 'number' | 'integer' | 'boolean' | 'array' }
  | { move: string; to: string }
  | { drop: string };

/** A `.json` migration file. */
export interface JsonDataMigration {
  resource: string;
  description?: string;
  steps: DataMigrationStep[];
}

const PATH = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$' };
const step = (props: Record<string, unknown>, required: string[]) => ({ type: 'object', additionalProperties: false, required, properties: props });

/** The JSON Schema of a `.json` migration file. */
export const JSON_MIGRATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['resource', 'steps'],
  properties: {
    $schema: { type: 'string' },
    resource: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    description: { type: 'string', maxLength: 500 },
    steps: {
      type: 'array',
      minItems: 1,
      items: {
        oneOf: [
          step({ rename: PATH, to: PATH }, ['rename', 'to']),
          step({ default: PATH, value: {} }, ['default', 'value']),
          step({ convert: PATH, to: { enum: ['string', 'number', 'integer', 'boolean', 'array'] } }, ['convert', 'to']),
          step({ move: PATH, to: PATH }, ['move', 'to']),
          step({ drop: PATH }, ['drop']),
        ],
      },
    },
  },
} as const;

let checkJson: ReturnType<ReturnType<typeof createAjv>['compile']> | null = null;

function parentOf(data: Record<string, unknown>, path: string, make: boolean): [Record<string, unknown> | null, string] {
  const parts = path.split('.');
  let at: Record<string, unknown> = data;
  for (const part of parts.slice(0, -1)) {
    let next = at[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      if (!make || (next !== undefined && next !== null)) return [null, parts[parts.length - 1]];
      next = at[part] = {};
    }
    at = next as Record<string, unknown>;
  }
  return [at, parts[parts.length - 1]];
}

const has = (o: Record<string, unknown> | null, k: string): o is Record<string, unknown> => o !== null && Object.hasOwn(o, k);

/**
 * A value converted to `to`, or `undefined` when it cannot be without losing what it says:
 * numbers from decimal strings (trimmed; `integer` only when whole), strings from numbers and
 * booleans, booleans from true/false/1/0 (as numbers or strings), a list from a single value (null: empty).
 */
export function convertValue(value: unknown, to: 'string' | 'number' | 'integer' | 'boolean' | 'array'): unknown {
  switch (to) {
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    case 'number':
    case 'integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
      return Number.isFinite(n) && (to === 'number' || Number.isInteger(n)) ? n : undefined;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === '1' || value === 'true') return true;
      if (value === 0 || value === '0' || value === 'false') return false;
      return undefined;
    case 'array':
      return Array.isArray(value) ? value : value === null ? [] : [value];
  }
}

/** Applies one JSON step to `data` in place. */
function applyStep(data: Record<string, unknown>, s: DataMigrationStep): void {
  if ('rename' in s || 'move' in s) {
    const from = 'rename' in s ? s.rename : s.move;
    const [src, key] = parentOf(data, from, false);
    if (!has(src, key)) return;
    const value = src[key];
    delete src[key];
    const [dst, target] = parentOf(data, s.to, true);
    // A value already at the target wins: the row was written under the new schema.
    if (dst && !Object.hasOwn(dst, target)) dst[target] = value;
  } else if ('default' in s) {
    const [at, key] = parentOf(data, s.default, true);
    if (at && (!has(at, key) || at[key] === null || at[key] === '')) at[key] = structuredClone(s.value);
  } else if ('convert' in s) {
    const [at, key] = parentOf(data, s.convert, false);
    if (!has(at, key)) return;
    const converted = convertValue(at[key], s.to);
    if (converted !== undefined) at[key] = converted;
  } else {
    const [at, key] = parentOf(data, s.drop, false);
    if (has(at, key)) delete at[key];
  }
}

/**
 * The migration of a `.json` file's content. Errors: an Error naming `name` and what is wrong
 * when the content is not a JSON migration (JSON_MIGRATION_SCHEMA).
 */
export function jsonMigration(name: string, content: unknown): DataMigration {
  checkJson ??= createAjv({ useDefaults: false }).compile(JSON_MIGRATION_SCHEMA);
  if (!checkJson(content)) {
    const e = checkJson.errors?.[0];
    throw new Error(`migrations/${name}.json: ${e ? `${e.instancePath || '/'} ${e.message}` : 'not a data migration'}`);
  }
  const json = content as JsonDataMigration;
  return {
    name,
    resource: json.resource,
    description: json.description,
    up(data) {
      for (const s of json.steps) applyStep(data, s);
      return data;
    },
  };
}
