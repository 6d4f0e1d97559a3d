/**
 * The `test` and `expect` of every e2e spec: Playwright's, with one automatic fixture, `journal`. It
 * keeps a journal of the test's pages (main-frame navigations, answers of the API and session calls,
 * failed requests, console errors and warnings, uncaught page errors, each with its time since the
 * test began) and prints it when the test fails. The CI machine keeps only the output, not the
 * trace: the journal is what shows there what the console and the server did before the failure.
 */
import { expect, test as base, type Page } from '@playwright/test';
// The specs read menus at load time (src/shared/manifest.ts works on the manifests it is handed).
import '../use-manifests';

export { expect };
export type { APIRequestContext, Locator, Page } from '@playwright/test';

/** The most lines a journal keeps (its end). */
const JOURNAL_LINES = 300;

export const test = base.extend<{ journal: void }>({
  journal: [
    async ({ context }, use, testInfo) => {
      const start = Date.now();
      const lines: string[] = [];
      const note = (line: string) => {
        lines.push(`${String(Date.now() - start).padStart(7)} ms  ${line}`);
        if (lines.length > JOURNAL_LINES) lines.shift();
      };
      const watch = (page: Page) => {
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame()) note(`at ${frame.url()}`);
        });
        page.on('response', (response) => {
          const url = new URL(response.url());
          if (/\/api\/|\/login\//.test(url.pathname)) note(`${response.status()} ${response.request().method()} ${url.pathname}${url.search}`);
        });
        page.on('requestfailed', (request) => note(`failed ${request.method()} ${request.url()}: ${request.failure()?.errorText ?? ''}`));
        page.on('console', (message) => {
          if (message.type() === 'error' || message.type() === 'warning') note(`console.${message.type()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => note(`page error: ${error.message}`));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        console.log(`journal of '${testInfo.title}' (its pages; the last ${JOURNAL_LINES} lines):\n${lines.join('\n')}`);
      }
    },
    { auto: true },
  ],
});
