/**
 * Pure coordinate helpers of the console's maps (docs/architecture.md 'Maps'): the limits of 000 5
 * (a map latitude from -85 to 85, a longitude from -180 to 180), the default centre of 001 9, and the
 * rounding of a point to what a form stores. No Leaflet here, so the unit tests and the light widgets
 * import it without the map library.
 */

/** 000 5: a map latitude lies from -85 to 85 degrees. */
export const LAT_LIMIT = 85;
/** 000 5: a map longitude lies from -180 to 180 degrees. */
export const LNG_LIMIT = 180;
/** 001 9: the maps' default centre, about 36.04, 138.40 (the middle of Honshu), and a zoom that shows Japan. */
export const DEFAULT_CENTER: LatLng = { lat: 36.04, lng: 138.4 };
export const DEFAULT_ZOOM = 5;
/** Decimal places a picked coordinate keeps (6: about 0.1 m). */
export const COORD_DECIMALS = 6;

/** A point in degrees (WGS 84). */
export interface LatLng {
  lat: number;
  lng: number;
}

/** `value` held to -`limit`…`limit`. */
function clamp(value: number, limit: number): number {
  return Math.min(Math.max(value, -limit), limit);
}

/** `value` rounded to COORD_DECIMALS places (no `-0`). */
export function roundCoord(value: number): number {
  const f = 10 ** COORD_DECIMALS;
  return Math.round(value * f) / f || 0;
}

/**
 * A point as a form stores it (000 5): latitude held to -85…85; longitude brought back into
 * -180…180 (Leaflet reports a point dragged across the antimeridian as e.g. 190°, which is -170°),
 * both rounded to COORD_DECIMALS places. Non-finite input gives null.
 */
export function clampPoint(p: LatLng): LatLng | null {
  if (!Number.isFinite(p.lat) || !Number.isFinite(p.lng)) return null;
  const wrapped = ((((p.lng + LNG_LIMIT) % 360) + 360) % 360) - LNG_LIMIT;
  const lng = wrapped === -LNG_LIMIT && p.lng > 0 ? LNG_LIMIT : wrapped;
  return { lat: roundCoord(clamp(p.lat, LAT_LIMIT)), lng: roundCoord(clamp(lng, LNG_LIMIT)) };
}

/** The point of two form values when both are numbers within the limits of 000 5, else null. */
export function pointOf(lat: unknown, lng: unknown): LatLng | null {
  if (typeof lat !== 'number' || typeof lng !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > LAT_LIMIT || Math.abs(lng) > LNG_LIMIT) return null;
  return { lat, lng };
}

/**
 * A drawn circle's radius in whole metres held to the field's limits (e.g. 1…100,000 m for a
 * notification's `radius_m`, 000 3); null for a radius that is not a positive finite number.
 */
export function clampRadius(metres: number, min = 1, max = Number.POSITIVE_INFINITY): number | null {
  if (!Number.isFinite(metres) || metres <= 0) return null;
  return Math.min(Math.max(Math.round(metres), Math.ceil(min)), Math.floor(max));
}
