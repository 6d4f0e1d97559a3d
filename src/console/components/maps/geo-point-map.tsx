/**
 * The small map of a coordinate pair in a form (docs/architecture.md 'Maps'; `x-geo-point`): a
 * draggable marker at the point; dragging it, or a click on the map, picks a new point within the
 * limits of 000 5 (./geo clampPoint). With no point yet, the view starts at 001 9's default centre
 * and the first click places the marker. Default export: loaded lazily by the form's widget.
 */
import type { LeafletEventHandlerFnMap, Marker as LeafletMarker } from 'leaflet';
import { Marker, useMapEvents } from 'react-leaflet';
import { BaseMap } from './base-map';
import { clampPoint, type LatLng } from './geo';
import { pinIcon } from './markers';

/** Zoom of a picker that has a point (streets visible with tiles). */
const POINT_ZOOM = 13;

export interface GeoPointMapProps {
  point: LatLng | null;
  onPick: (p: LatLng) => void;
  disabled?: boolean;
  /** Accessible names of the map and of its marker. */
  label: string;
  markerTitle: string;
}

function PickOnClick({ onPick }: { onPick: (p: LatLng) => void }) {
  useMapEvents({
    click: (e) => {
      const p = clampPoint(e.latlng);
      if (p) onPick(p);
    },
  });
  return null;
}

export default function GeoPointMap({ point, onPick, disabled, label, markerTitle }: GeoPointMapProps) {
  const handlers: LeafletEventHandlerFnMap = {
    dragend: (e) => {
      const marker = e.target as LeafletMarker;
      const p = clampPoint(marker.getLatLng());
      if (!p) return;
      marker.setLatLng([p.lat, p.lng]);
      onPick(p);
    },
  };
  return (
    <div className="geo-point-map">
      <BaseMap label={label} center={point} zoom={point ? POINT_ZOOM : undefined} follow height={260} testId="geo-point-map">
        {!disabled && <PickOnClick onPick={onPick} />}
        {point && <Marker position={[point.lat, point.lng]} icon={pinIcon('pick')} draggable={!disabled} autoPan title={markerTitle} eventHandlers={handlers} />}
      </BaseMap>
    </div>
  );
}
