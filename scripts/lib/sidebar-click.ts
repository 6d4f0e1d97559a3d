/**
 * Time from a click on a sidebar link to the target page painted with its content, as the page
 * itself sees it: the click event's timestamp, then a MutationObserver that waits for the content
 * (e.g. 20 table rows) on the target path, then the end of the next frame (a requestAnimationFrame,
 * then a task posted from it, which runs after that frame was painted). Each run loads the start
 * page afresh, so every click renders the target route anew (the console keeps visited pages alive
 * in tabs, and its data cache lives in the page).
 */
import type { Browser } from '@playwright/test';
import type { SignIn } from './lighthouse-audit';
import { newBenchContext, waitForCount } from './js-transfer';
import type { SidebarClickScenario } from './pages';

declare global {
  interface Window {
    __benchClick?: Promise<number>;
  }
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
  window.__benchClick = new Promise((resolve) => {
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
    document.addEventListener('click', (e) => { clickedAt = e.timeStamp; check(); }, { capture: true, once: true });
  });
}`;

/**
 * Runs `scenario.runs` clicks, each from `scenario.from` loaded afresh in one signed-in context (so
 * the first run fetches the target route's code and the next ones find it in the HTTP cache, as a
 * user's session does). Resolves to the milliseconds of each run, in order. Rejects when the start
 * page or the target content does not show within 60 s.
 */
export async function measureSidebarClicks(browser: Browser, origin: string, scenario: SidebarClickScenario, signIn: SignIn): Promise<number[]> {
  const context = await newBenchContext(browser, origin, signIn);
  const times: number[] = [];
  try {
    const page = await context.newPage();
    const link = page.getByTestId('side-menu').getByRole('link', { name: scenario.link, exact: true });
    for (let run = 0; run < scenario.runs; run++) {
      await page.goto(scenario.from);
      await link.waitFor({ state: 'visible', timeout: 60_000 });
      await page.getByTestId('current-user').waitFor({ state: 'visible', timeout: 60_000 });
      // Let the start page finish its own requests and rendering before the click.
      await page.waitForTimeout(1000);
      await page.evaluate(`(${ARM_TIMER})(${JSON.stringify({ to: scenario.to, selector: scenario.done.selector, count: scenario.done.count })})`);
      await link.click();
      try {
        await waitForCount(page, scenario.done.selector, scenario.done.count);
      } catch {
        throw new Error(`${scenario.name}: fewer than ${scenario.done.count} '${scenario.done.selector}' within 60 s of the click (at ${page.url()})`);
      }
      times.push(await page.evaluate(() => window.__benchClick!));
    }
  } finally {
    await context.close();
  }
  return times;
}
