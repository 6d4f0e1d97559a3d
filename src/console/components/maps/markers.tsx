/**
 * Markers of the console's maps, drawn as CSS (./maps.css) through Leaflet's `divIcon`: no image
 * files, nothing for the Content-Security-Policy to allow. A marker's `title` is its accessible name
 * (Leaflet gives an interactive marker `role="button"` and a tab stop).
 */
import { useMemo, useState } from 'react';
import L from 'leaflet';
import { Marker, Tooltip, useMap, useMapEvents } from 'react-leaflet';
import { clusterIndex, type ClusterPoint, type ClusterView } from './clusters';

const pins = new Map<string, L.DivIcon>();
/** The pin icon of a kind (`shop`, `city`, `pick`), made once. */
export function pinIcon(kind: 'shop' | 'city' | 'pick'): L.DivIcon {
  let icon = pins.get(kind);
  if (!icon) {
    icon = L.divIcon({ className: '', html: `<div class="map-pin map-pin--${kind}"></div>`, iconSize: [22, 22], iconAnchor: [11, 28], tooltipAnchor: [0, -26] });
    pins.set(kind, icon);
  }
  return icon;
}

function clusterIcon(count: number): L.DivIcon {
  return L.divIcon({ className: '', html: `<div class="map-cluster">${count}</div>`, iconSize: [36, 36], iconAnchor: [18, 18] });
}

function viewOf(map: L.Map): ClusterView {
  const b = map.getBounds();
  return { bbox: [Math.max(b.getWest(), -180), Math.max(b.getSouth(), -85), Math.min(b.getEast(), 180), Math.min(b.getNorth(), 85)], zoom: map.getZoom() };
}

export interface ClusteredMarkersProps<T> {
  points: ReadonlyArray<ClusterPoint<T>>;
  /** The marker's accessible name and tooltip. */
  title: (item: T) => string;
  onOpen: (item: T) => void;
  /** Accessible name of a group of `count` markers (a click zooms in to where it splits). */
  groupTitle: (count: number) => string;
}

/** `points` as pins, grouped with their count where they crowd at the current zoom (./clusters). */
export function ClusteredMarkers<T>({ points, title, onOpen, groupTitle }: ClusteredMarkersProps<T>) {
  const map = useMap();
  const [view, setView] = useState<ClusterView>(() => viewOf(map));
  useMapEvents({ moveend: () => setView(viewOf(map)) });
  const index = useMemo(() => clusterIndex(points), [points]);
  const marks = useMemo(() => index.marksIn(view), [index, view]);
  return (
    <>
      {marks.map((m) =>
        m.kind === 'cluster' ? (
          <Marker
            key={`c${m.id}`}
            position={[m.lat, m.lng]}
            icon={clusterIcon(m.count)}
            title={groupTitle(m.count)}
            eventHandlers={{ click: () => map.setView([m.lat, m.lng], Math.min(m.expansionZoom, map.getMaxZoom())) }}
          />
        ) : (
          <Marker key={`p${m.lat},${m.lng},${title(m.item)}`} position={[m.lat, m.lng]} icon={pinIcon('shop')} title={title(m.item)} eventHandlers={{ click: () => onOpen(m.item) }}>
            <Tooltip direction="top">{title(m.item)}</Tooltip>
          </Marker>
        ),
      )}
    </>
  );
}
