/**
 * Shared steps of the console's end-to-end tests: open /login (waiting for the console build the
 * server may still be making), sign in, choose a city, sign out, click in antd popups once they are
 * shown, save screenshots, check a page with axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

export const PASSWORD = 'demo1234';
export const SCREENSHOTS = 'test-results/screenshots';

/** Opens /login; the first run may wait for `npm start`'s background build (its page reloads itself). */
export async function openLogin(page: Page): Promise<void> {
  await page.goto('/login');
  await expect(page.getByLabel('ユーザー名')).toBeVisible({ timeout: 150_000 });
}

/** Signs in through the login form. */
export async function signIn(page: Page, username: string, password = PASSWORD): Promise<void> {
  await openLogin(page);
  await page.getByLabel('ユーザー名').fill(username);
  await page.getByLabel('パスワード').fill(password);
  await page.getByRole('button', { name: 'ログイン' }).click();
}

/** Signs in and chooses a city on the city page (for users with several cities). */
export async function signInTo(page: Page, username: string, cityJa: string, citySlug: string): Promise<void> {
  await signIn(page, username);
  await expect(page).toHaveURL(/\/city$/);
  await page.getByRole('button', { name: cityJa }).click();
  await expect(page).toHaveURL(new RegExp(`/${citySlug}/dashboard$`));
}

/**
 * Signs in through the API (the session cookies land in the page's context) and opens `at`: a city
 * (its dashboard) or a path of the console (`/kobe/news`). For tests about something else than the
 * sign-in form: it saves the form's round trips, and with a path, a first load of the dashboard.
 */
export async function signInQuickly(page: Page, username: string, at: string, password = PASSWORD): Promise<void> {
  const res = await page.request.post('/default/api/login', { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto(at.startsWith('/') ? at : `/${at}/dashboard`);
  await expect(page.getByTestId('current-user')).toBeVisible({ timeout: 150_000 });
}

/**
 * Signs out with the top bar's button and waits for the login page that the logout loads afresh
 * (`location.replace('/login')`), not for an earlier /login of the router that the reload then replaces.
 */
export async function logOut(page: Page): Promise<void> {
  const loaded = page.waitForEvent('load', { timeout: 20_000 });
  await page.getByRole('button', { name: 'ログアウト' }).click();
  await loaded;
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('ユーザー名')).toBeVisible();
}

/**
 * Clicks `item` in an antd popup (a dropdown menu, a select's list, a popconfirm) once the popup
 * has finished appearing. antd fades a popup in (motion classes such as `ant-slide-up-enter-prepare`,
 * opacity 0 at first): Playwright already counts it visible and stable in those first frames, where
 * a user sees nothing, and on a slow machine a click then is lost (the popup stays open, nothing
 * chosen).
 */
export async function clickInPopup(item: Locator): Promise<void> {
  const token = (c: string) => `contains(concat(' ', normalize-space(@class), ' '), ' ${c} ')`;
  const popup = item.locator(`xpath=ancestor::div[${['ant-dropdown', 'ant-select-dropdown', 'ant-popover'].map(token).join(' or ')}][1]`);
  await expect(popup).toHaveCount(1);
  await expect(popup).not.toHaveClass(/-(enter|appear|leave)\b/);
  await item.click();
}

/** Chooses the item `name` of the antd dropdown menu just opened (see `clickInPopup`); it closes. */
export async function chooseMenuItem(page: Page, name: string, exact = false): Promise<void> {
  const item = page.getByRole('menuitem', { name, exact });
  await clickInPopup(item);
  await expect(item).toBeHidden();
}

/** Saves a full-page screenshot under test-results/screenshots. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

/**
 * Navigates inside the single-page console without reloading it (React Router follows popstate):
 * much faster than `page.goto` when a test walks many pages. The previous page may stay on screen
 * until the next one is ready: wait for something of the next page.
 */
export async function spaGoto(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState(null, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Runs axe with every rule it has on by default (WCAG 2.0, 2.1 and 2.2 A and AA, best practices; the
 * experimental ones off) and `label-content-name-mismatch` (WCAG 2.5.3 Label in Name: the visible text
 * begins the accessible name; experimental in axe, so off unless named) on the whole page as it is, antd's column-measuring rows of tables and the
 * open-page tab bar included, less the `exclude` selectors; a serious or critical violation fails the
 * test softly (the test goes on), named by `name`.
 */
export async function expectNoSeriousViolation(page: Page, name: string, exclude: readonly string[] = []): Promise<void> {
  let axe = new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } });
  for (const selector of exclude) axe = axe.exclude(selector);
  const result = await axe.analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.html.slice(0, 160)} ${n.failureSummary?.split('\n')[1] ?? ''}`).slice(0, 4).join(' | ')}`);
  expect.soft(bad, `${name} page`).toEqual([]);
}

/** A small real PNG (1×1, red). */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Runs the action `name` of a list row (a table row or a phone's card): its main link when that is
 * the action (編集 or 詳細), else the item of the row's overflow menu (made on the first click).
 */
export async function rowAction(row: Locator, name: string): Promise<void> {
  const link = row.getByRole('link', { name });
  if ((await link.count()) > 0) {
    await link.click();
    return;
  }
  await row.locator('[data-row-more]').click();
  await chooseMenuItem(row.page(), name);
}

/** Answers the confirmation dialog a row action opened with its button `button` (実行, 削除, キャンセル). */
export async function answerDialog(page: Page, button: string): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('xpath=ancestor::div[contains(@class, "ant-modal-wrap")][1]').locator('.ant-modal')).not.toHaveClass(/-(enter|appear|leave)\b/);
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}
