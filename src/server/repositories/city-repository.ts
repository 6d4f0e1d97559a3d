/**
 * Cities (000 3 City: id, name, name_ja; 001 7.3).
 */
import type { City } from '../../shared/roles';
import type { Queryable } from '../db/database';

/** Every city, ordered by id. */
export async function listCities(db: Queryable): Promise<City[]> {
  return db.query<City>('SELECT id, name, name_ja FROM cities ORDER BY id');
}

/** The city named `name`, or null. */
export async function findCity(db: Queryable, name: string): Promise<City | null> {
  const rows = await db.query<City>('SELECT id, name, name_ja FROM cities WHERE name = $1', [name]);
  return rows[0] ?? null;
}
