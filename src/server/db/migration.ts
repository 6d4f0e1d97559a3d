/**
 * The shape of one migration (docs/architecture.md 'Storage'), below both lists that hold them,
 * ./migrations.ts (the tables of the registry's resources and the server) and
 * ./feature-migrations.ts (the features' fixed tables), so neither list imports the other's module
 * for its type (docs/architecture.md 'The picture').
 */
import type { Queryable } from './database';

/** One migration: its name (applied in the list's order, recorded by name) and its SQL. */
export interface Migration {
  name: string;
  up: (tx: Queryable) => Promise<void>;
}
