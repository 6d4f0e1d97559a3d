/**
 * The CSV export of any list (docs/architecture.md 'Beyond the spec': CSV export; ours): which lists it serves, its path and its
 * encodings. The server's route is src/server/routes/list-export.ts, answered by the one export of
 * src/server/routes/csv-export.ts (as the declared export actions are); the console's button
 * src/console/resources/export-button.tsx.
 */
import type { ResourceDef } from './registry';

/** Encodings an export may be asked in: UTF-8 with a BOM, or Shift_JIS (CP932). */
export const CSV_ENCODINGS = ['utf-8', 'shift_jis'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** Whether the generic export serves `def`'s list: a GET list (not a singleton) whose path names nothing but the city. */
export function exportable(def: ResourceDef): boolean {
  return !def.singleton && def.api.list.method === 'GET' && !/\{(?!city\})[^}]+\}/.test(def.api.list.path);
}

/** The path of the generic export of `resource` in `city`. */
export function listExportPath(city: string, resource: string): string {
  return `/${encodeURIComponent(city)}/api/exports/${encodeURIComponent(resource)}/`;
}
