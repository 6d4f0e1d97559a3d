/**
 * The shape of a registry call's schema (001 7; made by ./call-schemas.ts, used by
 * src/server/routes/call-route.ts). A module of its own, below the schemas' maker, which reads the
 * statistics calls (src/server/statistics/spec-calls.ts), whose handlers take the call route's
 * context: so the route does not import the maker for its type (docs/architecture.md 'The picture').
 */
import type { FastifySchema } from 'fastify';

/** A registry call's schema and how its route treats it. */
export interface CallSchema {
  schema: FastifySchema;
  /** The query is a list query, read by the list codec (src/shared/list-query.ts), not by the schema. */
  listQuery: boolean;
  /** The answers are stored records, serialized as they are (plugins/validation.ts `serializeAsIs`). */
  records: boolean;
}
