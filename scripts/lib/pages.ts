/**
 * The console pages `npm run bench -- web` measures, in one place. A later route (statistics, maps,
 * chat, import…) adds its JS-transferred line with one more entry of PAGE_SCENARIOS (a path, what
 * shows it is ready, a budget); `lighthouse` adds Lighthouse audits of it too (about 15 s each), and
 * SIDEBAR_CLICKS times a click from one page to another.
 */
import { routeEntriesFor } from '../../src/shared/manifest';
import type { SignIn } from './lighthouse-audit';

/** Who the signed-in scenarios are: a demo account (`npm start` seeds it) and the city chosen. */
export const BENCH_USER: SignIn = { username: 'operator', password: 'demo1234', city: 'kobe' };

/** The rows of a list page, as antd renders them (the placeholder and measure rows excluded). */
export const TABLE_ROWS = '.ant-table-tbody tr.ant-table-row';

/** The console route of a resource's list for the bench user, e.g. '/kobe/news'. */
export function listPath(resource: string, user: SignIn = BENCH_USER): string {
  const route = routeEntriesFor('Operator', user.city).find((e) => e.resource === resource)?.route ?? resource;
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
    lighthouse: { desktop: { minScore: 0.95, textCompression: true }, mobile: { minScore: 0.8 } },
  },
  {
    name: 'news list',
    path: listPath('news'),
    signedIn: true,
    ready: { selector: TABLE_ROWS, count: 20 },
    seed: { resource: 'news', rows: 30 },
    jsBudgetBytes: 450 * KB,
    lighthouse: { desktop: { minScore: 0.9, maxTbtMs: 200 }, mobile: { minScore: 0.6 } },
  },
];

export interface SidebarClickScenario {
  /** Printed name. */
  name: string;
  /** Where each run starts (loaded afresh, so each click renders the target route anew). */
  from: string;
  /** The accessible name of the sidebar link clicked. */
  link: string;
  /** The path the click leads to. */
  to: string;
  /** The click is done once at least `count` elements match `selector` and a frame was painted. */
  done: { selector: string; count: number };
  seed?: { resource: string; rows: number };
  runs: number;
  /** Budget of the median, ms. */
  budgetMs: number;
}

export const SIDEBAR_CLICKS: SidebarClickScenario[] = [
  {
    name: 'sidebar ニュース click → 20 rows painted',
    from: `/${BENCH_USER.city}/dashboard`,
    link: 'ニュース',
    to: listPath('news'),
    done: { selector: TABLE_ROWS, count: 20 },
    seed: { resource: 'news', rows: 30 },
    runs: 6,
    budgetMs: 150,
  },
];
