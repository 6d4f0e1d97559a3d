// The maps' settings (src/server/config.ts MAP_TILE_URL, MAP_TILE_ATTRIBUTION; routes/map-settings.ts)
// and the tile server's place in the page's Content-Security-Policy (plugins/security-headers.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_MAP_TILE_ATTRIBUTION, DEFAULT_MAP_TILE_URL, loadConfig } from '../../../src/server/config';
import { tileImageSource } from '../../../src/server/plugins/security-headers';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ MAP_TILE_URL: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: '© Example' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('map settings', () => {
  it('default to OpenStreetMap, empty means no tile layer, a bad template is refused at start', () => {
    const base = { DATA_DIR: 'memory://' };
    expect(loadConfig(base)).toMatchObject({ mapTileUrl: DEFAULT_MAP_TILE_URL, mapTileAttribution: DEFAULT_MAP_TILE_ATTRIBUTION });
    expect(loadConfig({ ...base, MAP_TILE_URL: '', MAP_TILE_ATTRIBUTION: '' })).toMatchObject({ mapTileUrl: null, mapTileAttribution: '' });
    expect(() => loadConfig({ ...base, MAP_TILE_URL: 'ftp://tiles.example.org/{z}/{x}/{y}.png' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, MAP_TILE_URL: 'https://tiles.example.org/tile.png' })).toThrow(/MAP_TILE_URL/);
  });

  it('the img-src source of a template is its origin, a {s} subdomain as a wildcard', () => {
    expect(tileImageSource(DEFAULT_MAP_TILE_URL)).toBe('https://tile.openstreetmap.org');
    expect(tileImageSource('https://{s}.tiles.example.org:8443/{z}/{x}/{y}.png')).toBe('https://*.tiles.example.org:8443');
    expect(tileImageSource('https://{z}.example.org/{x}/{y}')).toBeNull();
    expect(tileImageSource(null)).toBeNull();
  });

  it('are answered without sign-in, and the pages allow images from the tile server and YouTube thumbnails only', async () => {
    const r = await t.app.inject({ url: '/default/api/console/map-settings' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ tile_url: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png', tile_attribution: '© Example' });
    const csp = String(r.headers['content-security-policy']);
    const img = csp.split(';').map((d) => d.trim().split(/\s+/)).find((d) => d[0] === 'img-src');
    expect(img?.slice(1)).toEqual(["'self'", 'data:', 'blob:', 'https://img.youtube.com', 'https://*.tiles.example.org']);
    expect(csp).toMatch(/script-src 'self' 'unsafe-eval'(;|$)/);
  });
});
