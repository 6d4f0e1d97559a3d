/**
 * Makes the maps' offline basemap, src/console/components/maps/japan-prefectures.json (README 'Maps'),
 * from `japan.topojson` of https://github.com/dataofjapan/land (Global Map Japan, GSI): decodes the
 * TopoJSON arcs, simplifies each arc once (Douglas–Peucker, so neighbouring prefectures keep one
 * shared border), rounds to 3 decimals (about 100 m) and writes a GeoJSON FeatureCollection of the 47
 * prefectures with `code` and `name` (Japanese). Run by hand when the source changes:
 * `npx tsx scripts/basemap.ts <japan.topojson> [tolerance in degrees, default 0.006]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

type Pt = [number, number];
interface Topo {
  transform: { scale: Pt; translate: Pt };
  arcs: Pt[][];
  objects: Record<string, { geometries: Array<{ type: 'Polygon' | 'MultiPolygon'; arcs: number[][] | number[][][]; properties: { id: number; nam_ja: string } }> }>;
}

const OUT = 'src/console/components/maps/japan-prefectures.json';

/** Douglas–Peucker: the points of `pts` that keep it within `tol` degrees. */
function simplify(pts: Pt[], tol: number): Pt[] {
  if (pts.length <= 2) return pts;
  const keep = new Uint8Array(pts.length);
  keep[0] = keep[pts.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, pts.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = pts[a];
    const [bx, by] = pts[b];
    const len = Math.hypot(bx - ax, by - ay);
    let worst = -1;
    let at = -1;
    for (let i = a + 1; i < b; i++) {
      const [px, py] = pts[i];
      const d = len === 0 ? Math.hypot(px - ax, py - ay) : Math.abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / len;
      if (d > worst) [worst, at] = [d, i];
    }
    if (worst > tol) {
      keep[at] = 1;
      stack.push([a, at], [at, b]);
    }
  }
  return pts.filter((_, i) => keep[i]);
}

const [file, tolArg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx scripts/basemap.ts <japan.topojson> [tolerance]');
const tol = Number(tolArg ?? 0.006);
const topo = JSON.parse(readFileSync(file, 'utf8')) as Topo;
const { scale, translate } = topo.transform;
const round = (v: number) => Math.round(v * 1000) / 1000;
const arcs = topo.arcs.map((arc) => {
  let x = 0;
  let y = 0;
  const abs = arc.map(([dx, dy]): Pt => [(x += dx) * scale[0] + translate[0], (y += dy) * scale[1] + translate[1]]);
  return simplify(abs, tol).map(([px, py]): Pt => [round(px), round(py)]);
});
const ring = (ids: number[]): Pt[] => {
  const out: Pt[] = [];
  for (const id of ids) {
    const pts = id < 0 ? [...arcs[~id]].reverse() : arcs[id];
    for (const p of out.length ? pts.slice(1) : pts) if (!out.length || out[out.length - 1][0] !== p[0] || out[out.length - 1][1] !== p[1]) out.push(p);
  }
  return out;
};
// A ring left with fewer than 4 points (a tiny island) is dropped.
const polygon = (rings: number[][]) => rings.map(ring).filter((r) => r.length >= 4);
const features = Object.values(topo.objects)[0].geometries.map((g) => {
  const polys = (g.type === 'Polygon' ? [g.arcs as number[][]] : (g.arcs as number[][][])).map(polygon).filter((p) => p.length > 0);
  return { type: 'Feature', properties: { code: g.properties.id, name: g.properties.nam_ja }, geometry: { type: 'MultiPolygon', coordinates: polys } };
});
features.sort((a, b) => a.properties.code - b.properties.code);
const text = JSON.stringify({ type: 'FeatureCollection', features });
writeFileSync(OUT, text);
console.log(`${OUT}: ${features.length} prefectures, ${text.length} bytes`);
