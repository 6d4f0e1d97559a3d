/**
 * The formats of 001 9 on screen and the maintenance page outside a city (000 2.3; docs/architecture.md 'Beyond the spec'):
 * a news item just made reads relative to now in the list, moving on with the clock (its absolute `YYYY/MM/DD HH:mm:ss` in a
 * tooltip) and as `YYYY年MM月DD日 HH:mm:ss` (a full-width space between) on its detail page; a 503 answered to the login page's
 * calls or on /city shows the maintenance page, whose reload brings the page back once the service is.
 */
import { expect, test, type Page } from './fixtures';
import { fillPath, getResource } from '../../src/shared/registry';
import { openLogin, PASSWORD, rowAction, signInQuickly } from './helpers';

const CITY = 'kobe';
const news = getResource('news');
const MAINTENANCE = 'システム更新のため、サービスを一時停止しています。';

/** `iso` in the browser's zone (Asia/Tokyo) as 'YYYY-MM-DD HH:mm:ss'. */
function tokyo(iso: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** Every API call of the page answers 503, as the proxy does during a system update. */
async function serviceDown(page: Page): Promise<void> {
  await page.route('**/api/**', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"","code":"maintenance"}' }));
}

test('a list shows the creation time relative to now, the 001 9 date-time in its tooltip and on the detail page', async ({ page }) => {
  await page.clock.install();
  await signInQuickly(page, 'operator', CITY);
  const title = `FORMATS ${Date.now()}`;
  const res = await page.request.post(fillPath(news.api.create!.path, { city: CITY }), { data: { title, description: 'd', attr: 'news' } });
  expect(res.status(), await res.text()).toBe(201);
  const made = (await res.json()) as { id: number; create_at: string };
  const [day, time] = tokyo(made.create_at).split(' ');

  await page.goto(`/${CITY}/news`);
  const row = page.locator('.ant-table tbody tr.ant-table-row').filter({ hasText: title });
  const created = row.getByTestId('relative-time');
  await expect(created).toHaveText(/^(たった今|\d+分前)$/);
  await created.hover();
  await expect(page.getByRole('tooltip')).toHaveText(`${day.replace(/-/g, '/')} ${time}`);
  // The relative time moves on with the clock (two minutes later, without a reload).
  await page.clock.fastForward('02:00');
  await expect(created).toHaveText(/^[23]分前$/);

  await rowAction(row, '詳細');
  await expect(page).toHaveURL(new RegExp(`/${CITY}/news/show/${made.id}$`));
  const [y, m, d] = day.split('-');
  await expect(page.getByText(`${y}年${m}月${d}日\u3000${time}`, { exact: true })).toBeVisible();
});

test('the login page shows the maintenance page when its sign-in call answers 503, and again after a reload until the service is back', async ({ page }) => {
  await openLogin(page);
  await serviceDown(page);
  await page.getByLabel('ユーザー名').fill('operator');
  await page.getByLabel('パスワード').fill(PASSWORD);
  await page.getByRole('button', { name: 'ログイン' }).click();
  await expect(page.getByText(MAINTENANCE)).toBeVisible();
  await expect(page.getByLabel('ユーザー名')).toBeHidden();

  // Reloading while the service is still down: the session check answers 503, the page stays.
  await page.getByRole('button', { name: '再読み込み' }).click();
  await expect(page.getByText(MAINTENANCE)).toBeVisible();

  await page.unroute('**/api/**');
  await page.getByRole('button', { name: '再読み込み' }).click();
  await expect(page.getByLabel('ユーザー名')).toBeVisible();
  await expect(page.getByText(MAINTENANCE)).toBeHidden();
});

test('/city shows the maintenance page when the API answers 503, and the session outlives it', async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  await serviceDown(page);
  await page.goto('/city');
  await expect(page.getByText(MAINTENANCE)).toBeVisible();
  await expect(page).toHaveURL(/\/city$/);

  // The 503 of the session check did not sign out: once the service is back, /city is still there.
  await page.unroute('**/api/**');
  await page.getByRole('button', { name: '再読み込み' }).click();
  await expect(page.getByText(MAINTENANCE)).toBeHidden();
  await expect(page).toHaveURL(/\/city$/);
  await expect(page.getByRole('button', { name: '神戸市' })).toBeVisible();
});
