/**
 * The one Leaflet map of the console's map views (docs/architecture.md 'Maps'), in a lazy chunk with
 * Leaflet and its CSS: never on the login or list pages. It always draws the offline basemap, the
 * prefectures of Japan (./japan-prefectures.json, Global Map Japan of GSI, credited in the map's
 * attribution; README 'Maps'), fetched
 * as a hashed, compressed file of the build when a map first opens; over it the tile layer of the
 * server's settings (MAP_TILE_URL, MAP_TILE_ATTRIBUTION; none when empty). Tiles are asked for with
 * a Referer (`strict-origin-when-cross-origin`, as OpenStreetMap's tile policy wants), although the
 * pages otherwise send none. Children are react-leaflet layers.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { GeoJSON, MapContainer, TileLayer, useMap } from 'react-leaflet';
import type { GeoJsonObject } from 'geojson';
import { useQuery } from '@tanstack/react-query';
import { MAP_SETTINGS_PATH, type MapSettings } from '@/shared/map-settings';
import { request } from '../../providers/http';
import { DEFAULT_CENTER, DEFAULT_ZOOM, type LatLng } from './geo';
import basemapUrl from './japan-prefectures.json?url';
import 'leaflet/dist/leaflet.css';
import './maps.css';

/** The basemap, fetched once per page load. */
let basemap: Promise<GeoJsonObject> | undefined;
function loadBasemap(): Promise<GeoJsonObject> {
  basemap ??= fetch(basemapUrl).then((r) => (r.ok ? (r.json() as Promise<GeoJsonObject>) : Promise.reject(new Error(String(r.status)))));
  return basemap;
}

/** The server's map settings (`GET /default/api/console/map-settings`), cached for the session. */
export function useMapSettings(): MapSettings | undefined {
  return useQuery({ queryKey: ['map-settings'], queryFn: () => request<MapSettings>(MAP_SETTINGS_PATH), staleTime: Infinity, retry: false }).data;
}

const BASEMAP_STYLE = { color: '#7a8a99', weight: 1, fillColor: '#eef2e6', fillOpacity: 1 };

/** The basemap's source as its terms ask (README 'Maps'). */
const BASEMAP_CREDIT = '出典：地球地図日本（国土地理院）';

function Basemap() {
  const [data, setData] = useState<GeoJsonObject | null>(null);
  useEffect(() => {
    let live = true;
    loadBasemap().then((d) => live && setData(d), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  return data ? <GeoJSON data={data} style={BASEMAP_STYLE} interactive={false} attribution={BASEMAP_CREDIT} /> : null;
}

/**
 * Leaflet measures its container when the map is made and on window resizes only. A map made while
 * its page was not laid out yet (a page opened at its address mounts before its tab's pane is
 * shown; a kept tab is out of the document, docs/architecture.md) measured 0 × 0 and put its view's
 * centre at the container's corner. This follows the container's size, keeping the centre; a
 * hidden container (0 × 0) leaves the map as it is.
 */
function FollowContainerSize() {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    const observer = new ResizeObserver(() => {
      if (container.clientWidth > 0 && container.clientHeight > 0) map.invalidateSize({ animate: false });
    });
    observer.observe(container);
    return () => observer.disconnect();
  }, [map]);
  return null;
}

/** Keeps the view on `center` when it changes from outside (e.g. a number typed in a form). */
function FollowCenter({ center }: { center?: LatLng | null }) {
  const map = useMap();
  useEffect(() => {
    if (center && !map.getBounds().pad(-0.1).contains([center.lat, center.lng])) map.panTo([center.lat, center.lng]);
  }, [map, center]);
  return null;
}

export interface BaseMapProps {
  /** Where the view starts (default 001 9's centre) and its zoom (default a view of Japan). */
  center?: LatLng | null;
  zoom?: number;
  /** Pan to `center` whenever it leaves the view. */
  follow?: boolean;
  /** CSS height of the map (default 480px). */
  height?: number | string;
  /** Accessible name of the map region. */
  label: string;
  testId?: string;
  children?: ReactNode;
}

/** A map of Japan with the basemap, the configured tiles and `children`. */
export function BaseMap({ center, zoom = DEFAULT_ZOOM, follow, height = 480, label, testId, children }: BaseMapProps) {
  const settings = useMapSettings();
  const start = center ?? DEFAULT_CENTER;
  return (
    <div className="console-map" role="region" aria-label={label} data-testid={testId} style={{ height }}>
      <MapContainer center={[start.lat, start.lng]} zoom={zoom} style={{ height: '100%', width: '100%' }} worldCopyJump={false} attributionControl>
        <FollowContainerSize />
        <Basemap />
        {settings?.tile_url && (
          <TileLayer url={settings.tile_url} attribution={escapeText(settings.tile_attribution)} referrerPolicy="strict-origin-when-cross-origin" />
        )}
        {follow && <FollowCenter center={center} />}
        {children}
      </MapContainer>
    </div>
  );
}

/** The attribution as text: Leaflet writes it as HTML, and a setting is not markup. */
function escapeText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
