/**
 * The console pages `npm run bench -- web` measures, in one place. A later route (statistics, maps,
 * chat, import…) adds its JS-transferred line with one more entry of PAGE_SCENARIOS (a path, what
 * shows it is ready, a budget); `lighthouse` adds Lighthouse audits of it too (about 15 s each), and
 * SIDEBAR_CLICKS times a click from one page to another.
 */
import { routeEntriesFor } from '../../src/shared/manifest';
import { loadManifests } from '../../src/server/manifests';
import type { SignIn } from './lighthouse-audit';

/** Who the signed-in scenarios are: a demo account (`npm start` seeds it) and the city chosen. */
export const BENCH_USER: SignIn = { username: 'operator', password: 'demo1234', city: 'kobe' };

/** The rows of a list page, as antd renders them (the placeholder and measure rows excluded). */
export const TABLE_ROWS = '.ant-table-tbody tr.ant-table-row';

/** A list page's rows in either form: table rows, or below 576 px (a phone, Lighthouse's mobile preset) cards. */
export const LIST_ROWS = `${TABLE_ROWS}, li.resource-card`;

/** The console route of a resource's list for the bench user, e.g. '/kobe/news'. */
export function listPath(resource: string, user: SignIn = BENCH_USER): string {
  const route = routeEntriesFor('Operator', user.city, loadManifests()).find((e) => e.resource === resource)?.route ?? resource;
  return `/${user.city}/${route}`;
}

/** Budgets of one Lighthouse preset (performance category). */
export interface LighthouseBudget {
  /** Least performance score, 0..1. */
  minScore: number;
  /** Most Total Blocking Time, ms. */
  maxTbtMs?: number;
  /** The 'uses-text-compression' audit must pass. */
  textCompression?: boolean;
}

export interface PageScenario {
  /** Printed name, e.g. 'login', 'news list'. */
  name: string;
  /** Path on the console's origin, e.g. '/login'. */
  path: string;
  /** Opened signed in as BENCH_USER with its city chosen (else with no session). */
  signedIn: boolean;
  /** False: signed in, but no city in localStorage (a new browser opening the city's address). */
  storedCity?: boolean;
  /** The page is ready (and is the page meant) once at least `count` elements match `selector`. */
  ready: { selector: string; count: number };
  /** Rows of a resource that must exist in the bench user's city (made through the API when fewer). */
  seed?: { resource: string; rows: number };
  /** Budget of the JavaScript transferred (compressed, as sent over the wire) to load the page, bytes. */
  jsBudgetBytes: number;
  /** Lighthouse audits with the desktop preset and/or the default (mobile) one, and their budgets. */
  lighthouse?: { desktop?: LighthouseBudget; mobile?: LighthouseBudget };
}

const KB = 1024;

export const PAGE_SCENARIOS: PageScenario[] = [
  {
    name: 'login',
    path: '/login',
    signedIn: false,
    ready: { selector: 'input[autocomplete="current-password"]', count: 1 },
    jsBudgetBytes: 250 * KB,
    lighthouse: { desktop: { minScore: 0.95, textCompression: true }, mobile: { minScore: 0.85 } },
  },
  {
    name: 'news list',
    path: listPath('news'),
    signedIn: true,
    ready: { selector: LIST_ROWS, count: 20 },
    seed: { resource: 'news', rows: 30 },
    jsBudgetBytes: 400 * KB,
    lighthouse: { desktop: { minScore: 0.9, maxTbtMs: 150 }, mobile: { minScore: 0.75 } },
  },
  {
    // The same list opened in a browser that has the session but no stored city (a bookmark on a
    // second machine, a link in a mail): the address names the city (src/console/providers/session.ts).
    name: 'news list, no stored city',
    path: listPath('news'),
    signedIn: true,
    storedCity: false,
    ready: { selector: LIST_ROWS, count: 20 },
    seed: { resource: 'news', rows: 30 },
    jsBudgetBytes: 400 * KB,
    lighthouse: { desktop: { minScore: 0.9, maxTbtMs: 200 } },
  },
  {
    // A hand-written page loaded lazily with its own texts (src/console/pages/import/): its drop zone shows it is there.
    name: 'CSV import upload',
    path: `/${BENCH_USER.city}/import/upload`,
    signedIn: true,
    ready: { selector: '.ant-upload-drag', count: 1 },
    jsBudgetBytes: 450 * KB,
    lighthouse: { desktop: { minScore: 0.9, maxTbtMs: 200 }, mobile: { minScore: 0.6 } },
  },
  {
    // The statistics page with ECharts (src/console/pages/statistics/, components/chart.tsx), loaded
    // only on statistic routes: both charts drawn (ECharts' aria label on each) show it is there.
    name: 'voucher statistics',
    path: `/${BENCH_USER.city}/special-voucher/statistic`,
    signedIn: true,
    ready: { selector: '.echarts-for-react[aria-label]', count: 2 },
    jsBudgetBytes: 650 * KB,
  },
  {
    // The map page with Leaflet (src/console/pages/maps/, components/maps/), loaded only on map routes:
    // the seven work cities' pins show it is there (the basemap is a JSON file, not counted as JS).
    // Budget: a list's and 60 KB for Leaflet, react-leaflet, supercluster and the page.
    name: 'map',
    path: `/${BENCH_USER.city}/map`,
    signedIn: true,
    ready: { selector: '.console-map .leaflet-marker-icon', count: 7 },
    jsBudgetBytes: 510 * KB,
  },
];

/** One sidebar link of a click scenario: its accessible name, where it leads, the rows it needs. */
export interface SidebarTarget {
  link: string;
  to: string;
  seed: { resource: string; rows: number };
}

export interface SidebarClickScenario {
  /** Printed name. */
  name: string;
  /** The page each click starts from (reached through its own sidebar link between the clicks). */
  from: { link: string; path: string };
  /** Clicked first, not timed: the generic page's code is fetched and compiled, as a session's first list. */
  warmUp: SidebarTarget;
  /** Each clicked once, timed: a list the session has not shown yet (no data cached, no tab open). */
  targets: SidebarTarget[];
  /** A click is done once at least `count` elements match `selector` and a frame was painted. */
  done: { selector: string; count: number };
  /** Budget of the median, ms. */
  budgetMs: number;
  /** Budget of the session's Interaction to Next Paint (web-vitals `onINP`), ms: 200 is the "good" line. */
  inpBudgetMs: number;
}

/** A list's sidebar link; `route` when the resource's first menu route is another entry's. */
const list = (link: string, resource: string, route?: string): SidebarTarget => ({
  link,
  to: route ? `/${BENCH_USER.city}/${route}` : listPath(resource),
  seed: { resource, rows: 30 },
});

export const SIDEBAR_CLICKS: SidebarClickScenario[] = [
  {
    name: 'sidebar click → 20 rows painted',
    from: { link: 'ダッシュボード', path: `/${BENCH_USER.city}/dashboard` },
    warmUp: list('トップ広告', 'top_advertisement', 'ads-pickup'),
    targets: [list('ニュース', 'news'), list('イベント', 'event'), list('店舗広告', 'advertisement'), list('おすすめ', 'top_advertisement'), list('シーン', 'scene'), list('チラシ', 'flyer', 'flyers')],
    done: { selector: TABLE_ROWS, count: 20 },
    budgetMs: 200,
    inpBudgetMs: 200,
  },
];
