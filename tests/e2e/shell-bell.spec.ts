/**
 * The notification bell (000 2.3, 4, 6; 001 7.9): its count is the unread admin notices plus the
 * menu, review and matching report counts; a line links to its list and resets its count; an
 * Operator gets a new admin notice live (server-sent events), without a reload.
 */
import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { PASSWORD, signInQuickly } from './helpers';

async function json<T>(api: APIRequestContext, path: string): Promise<T> {
  const res = await api.get(path);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

/** The bell's total as the server counts it for kobe (what the bell must show). */
async function expectedTotal(api: APIRequestContext): Promise<{ notice: number; dish: number; review: number; matching: number }> {
  const notice = (await json<{ count: number }>(api, '/kobe/api/notify-operator/unread_count/')).count;
  const reports = await json<{ dish_report_count?: number; review_report_count?: number }>(api, '/kobe/api/dish-report/notification/');
  const matching = (await json<{ count: number }>(api, '/kobe/api/matching/notification/')).count;
  return { notice, dish: reports.dish_report_count ?? 0, review: reports.review_report_count ?? 0, matching };
}

const bell = (page: Page) => page.getByTestId('notification-bell');

/** The bell's accessible name: the badge's number as shown (none at 0, 99+ past 99), then the count in words (WCAG 2.5.3). */
const bellName = (total: number) => `${total === 0 ? '' : total > 99 ? '99+ ' : `${total} `}お知らせ（未読 ${total} 件）`;

/** Opens the bell's lines; a hover that cannot reach the bell fails here by name instead of at the test's timeout. */
const openBell = (page: Page) => bell(page).hover({ timeout: 15_000 });

test('the bell counts, resets a line on click and receives a live admin notice', async ({ page, playwright, baseURL }) => {
  // On a list: the dashboard's charts arriving move the page under the bell's popup while it is hovered.
  await signInQuickly(page, 'operator', '/kobe/news');
  const counts = await expectedTotal(page.request);
  const total = counts.notice + counts.dish + counts.review + counts.matching;
  expect(counts.notice).toBeGreaterThan(0);
  expect(counts.matching).toBeGreaterThan(0);
  await expect(bell(page)).toHaveAccessibleName(bellName(total));
  await expect(bell(page)).toHaveAttribute('href', '/kobe/notification-admin');

  // the lines
  await openBell(page);
  await expect(page.getByTestId('bell-line-notice')).toContainText(`運営からのお知らせ${counts.notice}`);
  await expect(page.getByTestId('bell-line-matching')).toContainText(`マッチングの通報${counts.matching}`);

  // a line goes to its list and resets its count (matching: POST /matching/read/ on the server)
  await page.getByTestId('bell-line-matching').click();
  await expect(page).toHaveURL(/\/kobe\/post\/list-report/);
  const afterMatching = total - counts.matching;
  await expect(bell(page)).toHaveAccessibleName(bellName(afterMatching));
  expect((await json<{ count: number }>(page.request, '/kobe/api/matching/notification/')).count).toBe(0);

  // a live admin notice, created by an Administrator through the API, arrives without a reload
  const admin = await playwright.request.newContext({ baseURL });
  const login = await admin.post('/default/api/login', { data: { username: 'administrator', password: PASSWORD } });
  expect(login.status()).toBe(200);
  const title = `ライブのお知らせ ${Date.now()}`;
  const made = await admin.post('/kobe/api/notify-operator/', { data: { title, description: '届きましたか？', operator: 2 } });
  expect(made.status(), await made.text()).toBe(201);
  await expect(page.getByText(title)).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName(bellName(afterMatching + 1));
  // Its toast opens below the top bar: a toast under the pointer stays open, and over the bell it hid it.
  const toast = page.locator('.ant-notification-notice', { hasText: title });
  await expect(toast).toBeVisible();
  const [toastBox, bellBox] = [await toast.boundingBox(), await bell(page).boundingBox()];
  expect(toastBox!.y).toBeGreaterThanOrEqual(bellBox!.y + bellBox!.height);
  await admin.dispose();

  // the admin-notice line: every notice read, the notices' list
  await openBell(page);
  await expect(page.getByTestId('bell-line-notice')).toContainText(`運営からのお知らせ${counts.notice + 1}`);
  await page.getByTestId('bell-line-notice').click();
  await expect(page).toHaveURL(/\/kobe\/notification-admin/);
  await expect(bell(page)).toHaveAccessibleName(bellName(counts.dish + counts.review));
  expect((await json<{ count: number }>(page.request, '/kobe/api/notify-operator/unread_count/')).count).toBe(0);
});

test('an Advertiser sees the report and matching counts (000 6), not the admin notices; reports reset locally', async ({ page }) => {
  await signInQuickly(page, 'advertiser', 'kobe');
  const reports = await json<{ dish_report_count?: number; review_report_count?: number }>(page.request, '/kobe/api/dish-report/notification/');
  const dish = reports.dish_report_count ?? 0;
  const review = reports.review_report_count ?? 0;
  const matching = (await json<{ count: number }>(page.request, '/kobe/api/matching/notification/')).count;
  await expect(bell(page)).toHaveAccessibleName(bellName(dish + review + matching));
  await openBell(page);
  await expect(page.getByTestId('bell-line-notice')).toHaveCount(0);
  await expect(page.getByTestId('bell-line-matching')).toHaveCount(1);
  await page.getByTestId('bell-line-dish').click();
  await expect(bell(page)).toHaveAccessibleName(bellName(review + matching));
  // kept across a reload: the reports seen stay seen
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName(bellName(review + matching));
});
