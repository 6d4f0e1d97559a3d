/**
 * Leaflet as the global `L`: geoman (@geoman-io/leaflet-geoman-free) is a script that extends the
 * global, not a module that imports Leaflet. Imported before geoman by ./map-area-map only.
 */
import L from 'leaflet';

(globalThis as { L?: typeof L }).L = L;
