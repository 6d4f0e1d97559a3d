/**
 * The データ点検 page's call (docs/architecture.md 'Changing an entity'): stored rows that fail their
 * resource's current schema, per resource, with a link to each failing row's form. Shared by the
 * server's route (src/server/data-check/data-check-routes.ts) and the console's page.
 */

/** Path of the call: `GET /{city}/api/data-check/` (Administrators; path ours). */
export const DATA_CHECK_PATH = '/{city}/api/data-check/';

/** Rows read per table for the page (a sample of a larger table, the failing count estimated). */
export const DATA_CHECK_SAMPLE = 2000;
/** Failing rows named per resource. */
export const DATA_CHECK_FIRST = 20;

/** One broken rule of one stored row. */
export interface DataCheckFailure {
  id: number;
  /** The row's city key (`*`: a global resource's row). */
  city: string;
  field: string;
  /** The rule: the JSON Schema keyword (`maxLength`, `required`, `type`, …) or the project's (`x-gte`, …). */
  rule: string;
  /** The i18n key of its message, and the message's values. */
  key: string;
  params: Record<string, unknown>;
  /** The console path of the row's form (`/kobe/scene/edit/3`), or null when no menu of the Administrator reaches it. */
  path: string | null;
}

/** What the check found in one resource. */
export interface DataCheckResource {
  resource: string;
  /** The resource's i18n label key. */
  label: string;
  total: number;
  checked: number;
  failing: number;
  sampled: boolean;
  failures: DataCheckFailure[];
}

/** The answer: every resource with failing rows (the others pass). */
export interface DataCheckAnswer {
  checked_at: string;
  resources_checked: number;
  rows_checked: number;
  resources: DataCheckResource[];
}

const FAILURE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'city', 'field', 'rule', 'key', 'params', 'path'],
  properties: {
    id: { type: 'integer' },
    city: { type: 'string' },
    field: { type: 'string' },
    rule: { type: 'string' },
    key: { type: 'string' },
    params: { type: 'object', additionalProperties: true },
    path: { type: ['string', 'null'] },
  },
} as const;

/** The answer's JSON Schema. */
export const DATA_CHECK_ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['checked_at', 'resources_checked', 'rows_checked', 'resources'],
  properties: {
    checked_at: { type: 'string', format: 'date-time' },
    resources_checked: { type: 'integer' },
    rows_checked: { type: 'integer' },
    resources: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['resource', 'label', 'total', 'checked', 'failing', 'sampled', 'failures'],
        properties: {
          resource: { type: 'string' },
          label: { type: 'string' },
          total: { type: 'integer' },
          checked: { type: 'integer' },
          failing: { type: 'integer' },
          sampled: { type: 'boolean' },
          failures: { type: 'array', items: FAILURE_SCHEMA },
        },
      },
    },
  },
} as const;
