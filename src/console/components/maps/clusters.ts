/**
 * Clustering of the map page's markers (docs/architecture.md 'Maps'): Mapbox's supercluster (a
 * hierarchical greedy clustering over a KD-tree, pure JavaScript) groups the points close together at
 * the current zoom; a group is drawn as one marker with its count, a click zooms to where it splits.
 * Pure: no Leaflet.
 */
import Supercluster from 'supercluster';
import type { LatLng } from './geo';

/** A point to cluster: its position and what the page draws for it. */
export interface ClusterPoint<T> extends LatLng {
  item: T;
}

/** What to draw at a zoom: a lone point with its item, or a group with its size and the zoom where it splits. */
export type ClusterMark<T> =
  | { kind: 'point'; lat: number; lng: number; item: T }
  | { kind: 'cluster'; id: number; lat: number; lng: number; count: number; expansionZoom: number };

/** The view to cluster for: west, south, east, north in degrees and an integer zoom. */
export interface ClusterView {
  bbox: [number, number, number, number];
  zoom: number;
}

/** Cluster radius in screen pixels and the zoom from which every point is drawn alone. */
export const CLUSTER_RADIUS_PX = 60;
export const CLUSTER_MAX_ZOOM = 16;

/** An index of `points`; `marksIn` answers the marks of a view. Building takes O(n log n). */
export function clusterIndex<T>(points: ReadonlyArray<ClusterPoint<T>>): { marksIn(view: ClusterView): Array<ClusterMark<T>> } {
  const index = new Supercluster<{ i: number }, Record<string, never>>({ radius: CLUSTER_RADIUS_PX, maxZoom: CLUSTER_MAX_ZOOM });
  index.load(points.map((p, i) => ({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: [p.lng, p.lat] } })));
  return {
    marksIn({ bbox, zoom }) {
      const z = Math.max(0, Math.min(Math.round(zoom), CLUSTER_MAX_ZOOM + 1));
      return index.getClusters(bbox, z).map((f) => {
        const [lng, lat] = f.geometry.coordinates;
        const props = f.properties as { cluster?: boolean; cluster_id?: number; point_count?: number; i?: number };
        if (props.cluster) {
          const id = props.cluster_id!;
          return { kind: 'cluster', id, lat, lng, count: props.point_count!, expansionZoom: index.getClusterExpansionZoom(id) };
        }
        return { kind: 'point', lat, lng, item: points[props.i!].item };
      });
    },
  };
}
