/**
 * The shell's layout (000 2.3, 4): the sidebar (kurashiki on two lines, collapsed state kept in a
 * cookie, no toggle in cippoweb), the top bar (breadcrumb from the dashboard, size and language kept
 * across reloads with their messages, theme colour and dark mode, contact-us hidden for Advertiser,
 * profile page), back-to-top after 400 px, the carousel's popup, the help-centre notice and the
 * mobile layout at 800 px.
 */
import { expect, test, type Page } from './fixtures';
import { chooseMenuItem, clickInPopup, signInQuickly, spaGoto } from './helpers';

/**
 * Starts recording every antd message the page shows and returns a reader of the texts so far. The
 * messages leave after 3 s; on a loaded machine a poll for the visible message may come after it has
 * gone, the record does not. After each batch of DOM changes every message notice in the document is
 * looked at, and recorded once, as soon as it has text: it does not matter whether antd inserted the
 * notice whole, filled it later, or built it in a detached container first.
 */
async function watchMessages(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const shown: string[] = [];
    const seen = new WeakSet<Element>();
    (window as unknown as { shownMessages: string[] }).shownMessages = shown;
    const look = () => {
      for (const n of document.querySelectorAll('.ant-message-notice')) {
        const text = n.textContent ?? '';
        if (seen.has(n) || !text) continue;
        seen.add(n);
        shown.push(text);
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { shownMessages: string[] }).shownMessages);
}

test('sidebar: kurashiki on two lines; collapsed state survives a reload (cookie)', async ({ page }) => {
  await signInQuickly(page, 'administrator', 'kurashiki');
  const twoLines = page.getByTestId('city-name-two-lines');
  await expect(twoLines).toBeVisible();
  await expect(twoLines.locator(':scope > span')).toHaveText(['倉敷市', 'Kurashiki']);
  const [first, second] = await twoLines.locator(':scope > span').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
  expect(second).toBeGreaterThan(first);

  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false');
  await page.getByTestId('sidebar-toggle').click();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
  expect((await page.context().cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
  await page.reload();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
  // Collapsed to its icons, a top-level item's label is its tooltip.
  await page.getByTestId('side-menu').getByRole('menuitem', { name: 'ダッシュボード' }).hover();
  await expect(page.getByRole('tooltip').filter({ hasText: 'ダッシュボード' })).toBeVisible();
  await page.getByTestId('sidebar-toggle').click();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false');
});

test('top bar: breadcrumb from the dashboard, size and language kept across a reload', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).click();
  await page.getByRole('button', { name: '新規作成' }).click();
  await expect(page.getByTestId('breadcrumb').locator('li')).toHaveText(['ダッシュボード', '/', 'ニュース', '/', '新規作成']);
  await page.getByTestId('breadcrumb').getByRole('link', { name: 'ダッシュボード' }).click();
  await expect(page).toHaveURL(/\/kobe\/dashboard$/);

  // size: medium by default; small after the switch, with its message, also after a reload
  const logout = page.getByRole('button', { name: 'ログアウト' });
  await expect(logout).not.toHaveClass(/ant-btn-sm/);
  let messages = await watchMessages(page);
  await page.getByTestId('size-switch').click();
  expect(await messages()).toEqual([]);
  await chooseMenuItem(page, '小', true);
  await expect.poll(messages).toEqual(['Switch Size Success']);
  await expect(logout).toHaveClass(/ant-btn-sm/);
  await page.reload();
  await expect(page.getByRole('button', { name: 'ログアウト' })).toHaveClass(/ant-btn-sm/);

  // language: English after the switch, with its message, also after a reload
  messages = await watchMessages(page);
  await page.getByTestId('language-switch').click();
  expect(await messages()).toEqual([]);
  await clickInPopup(page.getByTitle('English'));
  await expect.poll(messages).toEqual(['Switch Language Success']);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(page.getByTestId('breadcrumb')).toHaveText('Dashboard');
});

test('theme colour #409EFF by default; dark mode kept across a reload', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).click();
  await expect(page.getByRole('button', { name: '新規作成' })).toHaveCSS('background-color', 'rgb(64, 158, 255)');
  await page.getByTestId('theme-picker').click();
  await page.getByTestId('dark-mode').click();
  await expect(page.getByTestId('dark-mode')).toHaveAttribute('aria-checked', 'true');
  await page.reload();
  await expect(page.locator('.ant-layout').first()).toHaveCSS('background-color', 'rgb(0, 0, 0)');
});

test('contact-us for an Operator, not for an Advertiser; the profile page saves', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await expect(page.getByTestId('contact-us')).toHaveAttribute('href', /^https:\/\//);
  await expect(page.getByTestId('contact-us')).toHaveAttribute('target', '_blank');
  await page.getByTestId('profile-link').click();
  await expect(page).toHaveURL(/\/kobe\/profile$/);
  const original = await page.getByLabel('氏名').inputValue();
  const name = `運用 太郎 ${Date.now() % 10000}`;
  await page.getByLabel('氏名').fill(name);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText(name);
  // The demo operator's name is what other tests read: put it back.
  await page.getByLabel('氏名').fill(original);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByTestId('current-user')).toContainText(original);

  await page.context().clearCookies();
  await signInQuickly(page, 'advertiser', 'kobe');
  await expect(page.getByTestId('contact-us')).toHaveCount(0);
});

test('cippoweb hides the sidebar toggle', async ({ page }) => {
  await signInQuickly(page, 'member', 'cippoweb');
  await expect(page.getByTestId('current-user')).toBeVisible();
  await expect(page.getByTestId('sidebar-toggle')).toHaveCount(0);
});

test('back-to-top after 400 px of scroll; the help-centre notice slides in and leaves', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 420 });
  await signInQuickly(page, 'operator', 'kobe');
  await expect(page.getByTestId('help-notice')).toBeVisible();
  await expect(page.getByTestId('help-notice')).toHaveCount(0);
  // A long page: the advertisement form (the sidebar scrolls on its own, so the content must be long).
  await spaGoto(page, '/kobe/advertisments/create');
  await expect(page.locator('form').first()).toBeVisible();
  const max = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  expect(max).toBeGreaterThan(420);
  await page.evaluate(() => window.scrollTo(0, 300));
  await expect(page.locator('.ant-float-btn')).toHaveCount(0);
  await page.evaluate((y) => window.scrollTo(0, y), max);
  await expect(page.locator('.ant-float-btn')).toBeVisible();
  await page.locator('.ant-float-btn').click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('the carousel shows the latest admin notices; a click opens a popup with OK', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  const carousel = page.getByTestId('notice-carousel');
  await expect(carousel).toBeVisible();
  const box = await carousel.boundingBox();
  expect(Math.round(box!.height)).toBe(70);
  const slide = carousel.locator('.slick-active [role=button]').first();
  const title = (await slide.locator('strong').first().textContent())!;
  await slide.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(title);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toHaveCount(0);
});

test('mobile layout at 800 px: the sidebar is closed and closes again after a route change', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await signInQuickly(page, 'operator', 'kobe');
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
  await page.getByTestId('sidebar-toggle').click();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false');
  await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).click();
  await expect(page).toHaveURL(/\/kobe\/news/);
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
});

test('the maintenance page once the API answers 503', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await page.route('**/kobe/api/**', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"","code":"maintenance"}' }));
  await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).click();
  await expect(page.getByText('システム更新のため、サービスを一時停止しています。', { exact: false })).toBeVisible();
  await expect(page.getByTestId('page-tabs')).toBeHidden();
});
