/**
 * Chat in the browser (000 2.2 chat, chat/:id/:shopName/img/:imgShop, group/chat/; 000 2.3 the chat
 * badge; src/server/chat/), two users at once: the advertiser writes about its shop, the operator's
 * badge goes up live; the operator opens the conversation (the badge goes down) and replies with an
 * image, which the advertiser sees live; what a user writes stays text, links are safe links; the
 * teacher's class chat. No console error on any page.
 */
import { expect, test, type Page } from './fixtures';
import { expectNoSeriousViolation, PNG_1X1, screenshot, signInQuickly, spaGoto } from './helpers';

/** Collects the console errors and uncaught errors of `page`. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

const streamOpen = (page: Page, path: string) => page.waitForResponse((r) => r.url().includes(path) && r.status() === 200);

test.setTimeout(300_000);

test('the advertiser writes, the operator sees it live, replies with an image, the advertiser sees it live', async ({ page, browser }, testInfo) => {
  const { baseURL, locale, timezoneId, viewport } = testInfo.project.use;
  const operator = page;
  const operatorErrors = errorsOf(operator);
  const unreadStream = streamOpen(operator, '/default/api/users/chat-unread/stream');
  await signInQuickly(operator, 'operator', 'kobe');
  await unreadStream;
  const before = ((await (await operator.request.get('/default/api/users/account')).json()) as { chat_admin_unread: number }).chat_admin_unread;
  const menu = operator.getByRole('menu').first();

  const context = await browser.newContext({ baseURL, locale, timezoneId, viewport });
  const advertiser = await context.newPage();
  const advertiserErrors = errorsOf(advertiser);
  await signInQuickly(advertiser, 'advertiser', 'kobe');
  await spaGoto(advertiser, '/kobe/chat');
  const list = advertiser.getByTestId('chat-list');
  // The chat chunk and its catalogue load on the first visit: a slow machine may take a while.
  await expect(list.locator('.ant-list-item').first()).toBeVisible({ timeout: 60_000 });
  await screenshot(advertiser, 'chat-advertiser-list');
  const advertiserStream = streamOpen(advertiser, '/kobe/api/chat/stream');
  await list.locator('.ant-list-item').first().click();
  await expect(advertiser).toHaveURL(/\/kobe\/chat\/\d+\/[^/]+\/img\/[^/]+$/, { timeout: 30_000 });
  await expect(advertiser.getByTestId('chat-message').first()).toBeVisible({ timeout: 60_000 });
  await advertiserStream;
  const shopName = (await advertiser.getByTestId('chat-title').textContent()) ?? '';
  await expectNoSeriousViolation(advertiser, 'chat conversation');

  // The advertiser writes: hostile markup and a link among the text.
  const composer = advertiser.getByTestId('chat-composer');
  await composer.fill('こんにちは <img src=x onerror="window.__pwned=1"> 詳細 https://example.jp/a?b=1 javascript:alert(1)');
  await expect(advertiser.getByTestId('chat-counter')).toHaveText(/^\d+ \/ 2,000$/);
  await composer.press('Enter');
  const mine = advertiser.getByTestId('chat-message').filter({ hasText: 'こんにちは' }).last();
  await expect(mine).toContainText('<img src=x onerror="window.__pwned=1">');
  await expect(mine.locator('img[src="x"]')).toHaveCount(0);
  const link = mine.getByRole('link', { name: 'https://example.jp/a?b=1' });
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(mine.locator('a[href^="javascript:"]')).toHaveCount(0);

  // The operator's badge goes up live.
  const n = before + 1;
  await expect(menu.getByRole('link', { name: `チャット ${n > 99 ? '99+' : n} 未読 ${n} 件`, exact: true })).toBeVisible();

  // The operator opens the conversation: the badge goes down.
  await spaGoto(operator, '/kobe/chat');
  const row = operator.getByTestId('chat-list').locator('.ant-list-item').filter({ hasText: shopName });
  await expect(row.locator('.ant-badge-count')).toBeVisible({ timeout: 60_000 });
  await screenshot(operator, 'chat-operator-list');
  const operatorStream = streamOpen(operator, '/kobe/api/chat/stream');
  await row.click();
  await expect(operator.getByTestId('chat-message').filter({ hasText: 'こんにちは' })).toBeVisible({ timeout: 60_000 });
  await operatorStream;
  await expect(menu.getByRole('link', { name: 'チャット', exact: true })).toBeVisible();
  await expect(operator.getByTestId('chat-day').first()).toHaveText(/^\d{4}年\d{2}月\d{2}日$/);

  // ... and replies with an image.
  await operator.locator('input[type=file]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await expect(operator.getByTestId('chat-pending-image')).toContainText('photo.png');
  const reply = operator.getByTestId('chat-composer');
  await reply.fill('写真を送ります。');
  await reply.press('Enter');
  await expect(operator.getByTestId('chat-message').filter({ hasText: '写真を送ります。' }).getByTestId('chat-image')).toBeVisible();
  await screenshot(operator, 'chat-operator-conversation');

  // The advertiser sees it live.
  const received = advertiser.getByTestId('chat-message').filter({ hasText: '写真を送ります。' });
  await expect(received.locator('img')).toBeVisible();
  await screenshot(advertiser, 'chat-advertiser-conversation');
  expect(await advertiser.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  await context.close();
  expect(operatorErrors).toEqual([]);
  expect(advertiserErrors).toEqual([]);
});

test("the teacher's class chat", async ({ page }) => {
  const errors = errorsOf(page);
  await signInQuickly(page, 'teacher', 'kobe');
  await spaGoto(page, '/kobe/group/chat');
  const row = page.getByTestId('chat-list').locator('.ant-list-item').first();
  await expect(row).toBeVisible({ timeout: 60_000 });
  await row.click();
  await expect(page.getByTestId('chat-message').first()).toBeVisible({ timeout: 60_000 });
  const composer = page.getByTestId('chat-composer');
  await composer.fill('来週の授業参観のお知らせです。');
  await composer.press('Enter');
  await expect(page.getByTestId('chat-message').filter({ hasText: '来週の授業参観のお知らせです。' })).toBeVisible();
  await screenshot(page, 'chat-teacher-class');
  expect(errors).toEqual([]);
});
