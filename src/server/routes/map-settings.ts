/**
 * The maps' settings for the console (ours; docs/architecture.md 'Maps'): GET
 * /default/api/console/map-settings → `{tile_url, tile_attribution}` from MAP_TILE_URL and
 * MAP_TILE_ATTRIBUTION (src/server/config.ts). No sign-in, like the menu manifests: it names a public
 * tile server and its credit, nothing about any row or user, and the map pages read it before their
 * first tile. The page's Content-Security-Policy allows images from that tile server
 * (plugins/security-headers.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { MAP_SETTINGS_PATH, MAP_SETTINGS_SCHEMA, type MapSettings } from '../../shared/map-settings';

/** Registers GET /default/api/console/map-settings. */
export function registerMapSettingsRoute(app: FastifyInstance, config: Pick<Config, 'mapTileUrl' | 'mapTileAttribution'>): void {
  const body: MapSettings = { tile_url: config.mapTileUrl, tile_attribution: config.mapTileAttribution };
  app.get(
    MAP_SETTINGS_PATH,
    {
      config: { api: true },
      schema: {
        operationId: 'consoleMapSettings',
        tags: ['console'],
        summary: "The maps' tile layer and its credit",
        security: [],
        response: { 200: { description: 'The tile layer over the offline basemap', ...MAP_SETTINGS_SCHEMA } },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return body;
    },
  );
}
