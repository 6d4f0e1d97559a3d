/**
 * The map of a push by map (001 7.9 create_notification_by_map; docs/architecture.md 'Maps';
 * `x-map-area`): the area as it stands (a circle from its centre and radius in metres, or a polygon)
 * and geoman's drawing tools for a new circle or, when the form has a polygon field, a polygon. A
 * newly drawn shape replaces the old one: geoman's layer is handed over as numbers (`onCircle`,
 * `onPolygon`, points held to 000 5's limits) and removed, and the form's values draw it back.
 * Default export: loaded lazily by the form's widget, with Leaflet and geoman.
 */
import { useEffect, useRef } from 'react';
import type { Circle as LeafletCircle, Layer, LatLng as LeafletLatLng, Polygon as LeafletPolygon } from 'leaflet';
import { Circle, Polygon, useMap } from 'react-leaflet';
import './leaflet-global';
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import { BaseMap } from './base-map';
import { clampPoint, type LatLng } from './geo';

/** A circle area: centre and radius in metres. */
export interface CircleArea extends LatLng {
  radius: number;
}

/** Geoman's interface languages among the console's (000 1: ja, en, zh, es). */
type GeomanLang = 'ja' | 'en' | 'zh' | 'es';

export interface MapAreaMapProps {
  circle: CircleArea | null;
  polygon: LatLng[] | null;
  allowPolygon: boolean;
  disabled?: boolean;
  lang: string;
  label: string;
  onCircle: (c: CircleArea) => void;
  onPolygon: (points: LatLng[]) => void;
}

const SHAPE_STYLE = { color: '#d4380d', weight: 2, fillOpacity: 0.15 };

function DrawTools({ allowPolygon, lang, onCircle, onPolygon }: Pick<MapAreaMapProps, 'allowPolygon' | 'lang' | 'onCircle' | 'onPolygon'>) {
  const map = useMap();
  const handlers = useRef({ onCircle, onPolygon });
  useEffect(() => {
    handlers.current = { onCircle, onPolygon };
  }, [onCircle, onPolygon]);
  useEffect(() => {
    map.pm.setLang((['ja', 'en', 'zh', 'es'].includes(lang) ? lang : 'ja') as GeomanLang);
    map.pm.addControls({
      position: 'topleft',
      drawCircle: true,
      drawPolygon: allowPolygon,
      drawMarker: false,
      drawCircleMarker: false,
      drawPolyline: false,
      drawRectangle: false,
      drawText: false,
      editMode: false,
      dragMode: false,
      cutPolygon: false,
      removalMode: false,
      rotateMode: false,
    });
    const created = (e: { shape: string; layer: Layer }) => {
      if (e.shape === 'Circle') {
        const c = e.layer as LeafletCircle;
        const p = clampPoint(c.getLatLng());
        if (p) handlers.current.onCircle({ ...p, radius: Math.max(1, Math.round(c.getRadius())) });
      } else if (e.shape === 'Polygon') {
        const ring = (e.layer as LeafletPolygon).getLatLngs()[0] as LeafletLatLng[];
        handlers.current.onPolygon(ring.flatMap((ll) => clampPoint(ll) ?? []));
      }
      e.layer.remove();
    };
    map.on('pm:create', created);
    return () => {
      map.off('pm:create', created);
      map.pm.removeControls();
    };
  }, [map, allowPolygon, lang]);
  return null;
}

export default function MapAreaMap({ circle, polygon, allowPolygon, disabled, lang, label, onCircle, onPolygon }: MapAreaMapProps) {
  const center = circle ?? polygon?.[0] ?? null;
  return (
    <BaseMap label={label} center={center} zoom={center ? 12 : undefined} height={360} testId="map-area-map">
      {!disabled && <DrawTools allowPolygon={allowPolygon} lang={lang} onCircle={onCircle} onPolygon={onPolygon} />}
      {circle && <Circle center={[circle.lat, circle.lng]} radius={circle.radius} pathOptions={SHAPE_STYLE} />}
      {!circle && polygon && polygon.length >= 3 && <Polygon positions={polygon.map((p) => [p.lat, p.lng] as [number, number])} pathOptions={SHAPE_STYLE} />}
    </BaseMap>
  );
}
