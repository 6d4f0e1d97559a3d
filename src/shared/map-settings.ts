/**
 * The maps' settings as the server hands them to the console (docs/architecture.md 'Maps';
 * `GET /default/api/console/map-settings`): the tile layer drawn over the offline basemap.
 */

/** The path of the settings. */
export const MAP_SETTINGS_PATH = '/default/api/console/map-settings';

/** The answer: a Leaflet tile URL template (null: no tile layer, the offline basemap alone) and its credit. */
export interface MapSettings {
  tile_url: string | null;
  tile_attribution: string;
}

/** JSON Schema of the answer. */
export const MAP_SETTINGS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['tile_url', 'tile_attribution'],
  properties: {
    tile_url: { type: ['string', 'null'], description: 'Leaflet URL template with {z}, {x}, {y} (MAP_TILE_URL); null: no tile layer' },
    tile_attribution: { type: 'string', description: 'the credit shown on the map (MAP_TILE_ATTRIBUTION)' },
  },
} as const;
