/**
 * The integers of paths and queries (001 8, 001 9 Paging; docs/architecture.md 'Conventions'): every
 * one has a range in its route schema, `minimum` and `maximum`, so a number past what its column
 * holds is a 400 naming the field and never reaches the database. The schemas here are shared by the
 * registry calls (./call-schemas.ts) and the hand-written routes; plugins/validation.ts checks the
 * address's text against them (decimal digits only, within the range) and refuses, at start, a route
 * that declares a path or query integer without both bounds.
 */
import { MAX_LIMIT } from '../../shared/constants';

/**
 * The largest row id a path or query takes: ids are PostgreSQL `bigint` (at most
 * 9,223,372,036,854,775,807), read as JavaScript numbers, which hold integers exactly only up to
 * 2^53 − 1; past that two ids would read as one, so the range ends there.
 */
export const ROW_ID_MAX = Number.MAX_SAFE_INTEGER;

/** The largest value of a PostgreSQL `integer` column (users, cities: `serial`). */
export const INT4_MAX = 2_147_483_647;

/** The largest list offset (the list codec, src/shared/list-query.ts, reads at most nine digits). */
export const OFFSET_MAX = 999_999_999;

type IntegerSchema = { type: 'integer'; minimum: number; maximum: number; default?: number; description?: string };

/** A row id (`bigserial`): 1…ROW_ID_MAX. */
export function rowId(description?: string): IntegerSchema {
  return { type: 'integer', minimum: 1, maximum: ROW_ID_MAX, ...(description ? { description } : {}) };
}

/** An id of a user or a city (`serial`, a PostgreSQL `integer`): `minimum`…INT4_MAX. */
export function int4Id(minimum = 1, description?: string): IntegerSchema {
  return { type: 'integer', minimum, maximum: INT4_MAX, ...(description ? { description } : {}) };
}

/** A page size (001 9 Paging): 1…`maximum` (MAX_LIMIT), `pageSize` when not sent. */
export function pageLimit(pageSize: number, maximum: number = MAX_LIMIT, description = 'Page size (001 9 Paging)'): IntegerSchema {
  return { type: 'integer', minimum: 1, maximum, default: pageSize, description };
}

/** A page's first row (001 9 Paging, 0-based): 0…`maximum` (OFFSET_MAX), 0 when not sent. */
export function pageOffset(maximum: number = OFFSET_MAX): IntegerSchema {
  return { type: 'integer', minimum: 0, maximum, default: 0 };
}
