// The maps' pure pieces (src/console/components/maps/geo.ts, clusters.ts): the limits of 000 5 on a
// picked point, and the grouping of the map page's markers by zoom.
import { describe, expect, it } from 'vitest';
import { clampPoint, clampRadius, pointOf } from '../../../src/console/components/maps/geo';
import { clusterIndex } from '../../../src/console/components/maps/clusters';

describe('clampPoint (000 5: latitude -85…85, longitude -180…180)', () => {
  it('keeps a point within the limits, rounded to 6 places', () => {
    expect(clampPoint({ lat: 34.69473251, lng: 135.19551234 })).toEqual({ lat: 34.694733, lng: 135.195512 });
  });
  it('holds the latitude to ±85 (Leaflet lets a marker go to ±90 near the poles)', () => {
    expect(clampPoint({ lat: 89.9, lng: 10 })).toEqual({ lat: 85, lng: 10 });
    expect(clampPoint({ lat: -86, lng: 10 })).toEqual({ lat: -85, lng: 10 });
  });
  it('brings a longitude dragged across the antimeridian back into -180…180', () => {
    expect(clampPoint({ lat: 0, lng: 190 })).toEqual({ lat: 0, lng: -170 });
    expect(clampPoint({ lat: 0, lng: -200 })).toEqual({ lat: 0, lng: 160 });
    expect(clampPoint({ lat: 0, lng: 180 })).toEqual({ lat: 0, lng: 180 });
    expect(clampPoint({ lat: 0, lng: -180 })).toEqual({ lat: 0, lng: -180 });
    expect(clampPoint({ lat: 0, lng: 540 })).toEqual({ lat: 0, lng: 180 });
  });
  it('gives null for a point that is not a number', () => {
    expect(clampPoint({ lat: Number.NaN, lng: 0 })).toBeNull();
    expect(clampPoint({ lat: 0, lng: Number.POSITIVE_INFINITY })).toBeNull();
  });
});

describe('pointOf', () => {
  it('is the point of two numbers within the limits, else null (the picker then shows the default centre)', () => {
    expect(pointOf(34.7, 135.2)).toEqual({ lat: 34.7, lng: 135.2 });
    expect(pointOf(85, -180)).toEqual({ lat: 85, lng: -180 });
    expect(pointOf(85.1, 0)).toBeNull();
    expect(pointOf(0, 180.5)).toBeNull();
    expect(pointOf(undefined, 135)).toBeNull();
    expect(pointOf('34.7', 135)).toBeNull();
  });
});

describe('clampRadius', () => {
  it("holds a drawn radius to the field's limits in whole metres", () => {
    expect(clampRadius(1499.6, 1, 100_000)).toBe(1500);
    expect(clampRadius(186_146, 1, 100_000)).toBe(100_000);
    expect(clampRadius(0.4, 1, 100_000)).toBe(1);
    expect(clampRadius(250)).toBe(250);
  });
  it('gives null for no radius', () => {
    expect(clampRadius(0)).toBeNull();
    expect(clampRadius(Number.NaN)).toBeNull();
  });
});

describe('clusterIndex', () => {
  // Three shops a few hundred metres apart in central Kobe and one in Fukuoka.
  const points = [
    { lat: 34.6913, lng: 135.1955, item: 'a' },
    { lat: 34.6923, lng: 135.1965, item: 'b' },
    { lat: 34.6903, lng: 135.1945, item: 'c' },
    { lat: 33.5902, lng: 130.4017, item: 'd' },
  ];
  const japan: [number, number, number, number] = [122, 20, 154, 46];

  it('groups near points at a low zoom and counts them', () => {
    const marks = clusterIndex(points).marksIn({ bbox: japan, zoom: 5 });
    const cluster = marks.find((m) => m.kind === 'cluster');
    expect(cluster).toMatchObject({ kind: 'cluster', count: 3 });
    expect(cluster!.kind === 'cluster' && cluster!.expansionZoom).toBeGreaterThan(5);
    expect(marks.filter((m) => m.kind === 'point').map((m) => m.kind === 'point' && m.item)).toEqual(['d']);
  });

  it('draws every point alone when zoomed in close, and only those in view', () => {
    const kobe: [number, number, number, number] = [135.18, 34.68, 135.21, 34.7];
    const marks = clusterIndex(points).marksIn({ bbox: kobe, zoom: 18 });
    expect(marks.every((m) => m.kind === 'point')).toBe(true);
    expect(marks.map((m) => (m.kind === 'point' ? m.item : '')).sort()).toEqual(['a', 'b', 'c']);
  });

  it('has nothing to draw without points', () => {
    expect(clusterIndex([]).marksIn({ bbox: japan, zoom: 5 })).toEqual([]);
  });
});
