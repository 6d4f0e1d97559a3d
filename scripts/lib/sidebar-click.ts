/**
 * Time from a click on a sidebar link to the target page painted with its content, as the page
 * itself sees it: the click event's timestamp, then a MutationObserver that waits for the content
 * (e.g. 20 table rows) on the target path, then the end of the next frame (a requestAnimationFrame,
 * then a task posted from it, which runs after that frame was painted). As an operator works: one
 * signed-in session, a first list opened to warm the generic page's code (not timed), then each
 * target list opened once from the start page (a list the session has not shown: its data is
 * fetched and its page rendered anew; a list shown before would come back from its kept tab).
 * Beside it, the session's Interaction to Next Paint as the `web-vitals` library reports it
 * (`onINP`, loaded into every page of the session): the worst of its clicks, from the click to the
 * next frame painted, whether or not that frame shows the list yet. And the API requests each
 * target's page made, from its click until a second after its content painted (the names of a
 * list's references are asked once per referenced resource after its rows: docs/performance.md).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { SignIn } from './lighthouse-audit';
import { newBenchContext, waitForCount } from './js-transfer';
import type { SidebarClickScenario, SidebarTarget } from './pages';

declare global {
  interface Window {
    __benchClick?: Promise<number>;
    /** The latest INP value `web-vitals` reported (ms), or undefined before the first. */
    __benchInp?: number;
  }
}

/** web-vitals' script for a page (its IIFE build: a global `webVitals`). */
const WEB_VITALS_SCRIPT = join(dirname(createRequire(import.meta.url).resolve('web-vitals')), 'web-vitals.iife.js');

/**
 * Loads web-vitals into the page and reports every change of its INP into `window.__benchInp`
 * (source text: see ARM_TIMER). Run at DOMContentLoaded, not at the document's start: loaded by an
 * init script before the document exists, web-vitals 6 reports no metric at all in Chromium (not
 * even FCP), loaded at DOMContentLoaded it reports them (checked with a page whose button blocks 150 ms).
 */
function watchInp(): string {
  const webVitals = readFileSync(WEB_VITALS_SCRIPT, 'utf8');
  return `addEventListener('DOMContentLoaded', () => {\n${webVitals}\nwebVitals.onINP((metric) => { window.__benchInp = metric.value; }, { reportAllChanges: true });\n});`;
}

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Arms the in-page timer: `window.__benchClick` resolves to ms from the next click to the content
 * painted. Source text, not a function: tsx would wrap a function's inner functions in a helper
 * that does not exist in the page.
 */
const ARM_TIMER = `(args) => {
  window.__benchClick = new Promise((resolve, reject) => {
    let clickedAt = null;
    let done = false;
    const observer = new MutationObserver(check);
    function check() {
      if (done || clickedAt === null || location.pathname !== args.to) return;
      if (document.querySelectorAll(args.selector).length < args.count) return;
      done = true;
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now() - clickedAt);
        channel.port2.postMessage(null);
      });
    }
    observer.observe(document.body, { childList: true, subtree: true });
    setTimeout(() => done || reject(new Error('no ' + args.selector + ' on ' + args.to + ' within 60 s (at ' + location.pathname + ')')), 60000);
    document.addEventListener('click', (e) => { clickedAt = e.timeStamp; check(); }, { capture: true, once: true });
  });
}`;

/**
 * Counts React's fibers (source text, see ARM_TIMER): the whole tree under #root (its
 * `__reactContainer$…` key), and the subtree of the portal that renders the shown tab's page
 * (layout/kept-page.tsx), found from its container `[data-testid=tab-page]`. Resolves to
 * `{ total, page }`; page 0 when no tab page is shown.
 */
const COUNT_FIBERS = `() => {
  const rootEl = document.getElementById('root');
  const key = rootEl && Object.keys(rootEl).find((k) => k.startsWith('__reactContainer$'));
  if (!key) return { total: 0, page: 0 };
  const count = (fiber) => {
    let n = 0;
    const stack = fiber ? [fiber] : [];
    while (stack.length) {
      const f = stack.pop();
      n += 1;
      if (f.sibling && f !== fiber) stack.push(f.sibling);
      if (f.child) stack.push(f.child);
    }
    return n;
  };
  const total = count(rootEl[key]);
  const tab = document.querySelector('[data-testid=tab-page]');
  let page = 0;
  if (tab) {
    const first = tab.firstElementChild;
    const fkey = first && Object.keys(first).find((k) => k.startsWith('__reactFiber$'));
    let f = fkey ? first[fkey] : null;
    while (f && f.tag !== 4) f = f.return;
    if (f) page = count(f) - 1;
  }
  return { total, page };
}`;

/** React fibers mounted on `page` now: the whole tree and the shown tab's page (see COUNT_FIBERS). */
export async function countFibers(page: Page): Promise<{ total: number; page: number }> {
  return page.evaluate(`(${COUNT_FIBERS})()`);
}

/** Clicks `target`'s sidebar link with the timer armed; resolves to the ms to its content painted. */
async function timedClick(page: Page, target: SidebarTarget, done: SidebarClickScenario['done']): Promise<number> {
  await page.evaluate(`(${ARM_TIMER})(${JSON.stringify({ to: target.to, selector: done.selector, count: done.count })})`);
  await page.getByTestId('side-menu').getByRole('link', { name: target.link, exact: true }).click();
  try {
    await waitForCount(page, done.selector, done.count);
  } catch {
    throw new Error(`${target.link}: fewer than ${done.count} '${done.selector}' within 60 s of the click (at ${page.url()})`);
  }
  return page.evaluate(() => window.__benchClick!);
}

/**
 * Loads `scenario.from` once in a signed-in context, clicks the warm-up link (timed but not counted),
 * then, for each target, goes back to the start page through its sidebar link and clicks the target.
 * Resolves to the warm-up's ms, each target's ms, in order, the API requests of each target's page
 * (`GET /kobe/api/news/?limit=20…`, in order, from the click until a second after its content
 * painted), the fibers mounted once each target showed its content (countFibers), and the
 * session's INP (ms, every click of it, those back to the start page too; null when web-vitals
 * reported none). Rejects when a page or its content does not show within 60 s.
 */
export async function measureSidebarClicks(
  browser: Browser,
  origin: string,
  scenario: SidebarClickScenario,
  signIn: SignIn,
): Promise<{ warmUp: number; times: number[]; requests: string[][]; fibers: { total: number; page: number }[]; inp: number | null }> {
  const context = await newBenchContext(browser, origin, signIn);
  await context.addInitScript(watchInp());
  try {
    const page = await context.newPage();
    // Playwright's library waits forever by default: a link that never shows fails the scenario instead.
    page.setDefaultTimeout(60_000);
    await page.goto(scenario.from.path);
    await page.getByTestId('current-user').waitFor({ state: 'visible', timeout: 60_000 });
    const back = async () => {
      await page.getByTestId('side-menu').getByRole('link', { name: scenario.from.link, exact: true }).click();
      await page.waitForURL(`**${scenario.from.path}`);
      // Let the start page finish its own requests and rendering before the click.
      await page.waitForTimeout(1000);
    };
    await page.waitForTimeout(1000);
    const warmUp = await timedClick(page, scenario.warmUp, { ...scenario.done, count: 1 });
    const times: number[] = [];
    const fibers: { total: number; page: number }[] = [];
    const requests: string[][] = [];
    let asked: string[] | null = null;
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (asked && url.pathname.includes('/api/')) asked.push(`${r.method()} ${url.pathname}${url.search}`);
    });
    for (const target of scenario.targets) {
      await back();
      asked = [];
      times.push(await timedClick(page, target, scenario.done));
      fibers.push(await countFibers(page));
      // The names of the page's references are asked once its rows are in.
      await page.waitForTimeout(1000);
      requests.push(asked);
      asked = null;
    }
    // web-vitals reports an interaction once its event timing entry is in (after the next paint).
    await page.waitForTimeout(500);
    const inp = await page.evaluate(() => window.__benchInp ?? null);
    return { warmUp, times, requests, fibers, inp };
  } finally {
    await context.close();
  }
}
