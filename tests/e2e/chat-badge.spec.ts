/**
 * The chat entry's unread badge (000 2.3 'the chat item shows an unread badge, capped at 99 (shown as
 * 99+)'; 001 7.9 chatAdminUnread): the count the chat service sets with PUT
 * /default/api/users/chat-unread/ reaches the signed-in Operator's sidebar live, without a reload
 * (GET /default/api/users/chat-unread/stream), and from the user info after a reload.
 */
import { expect, test, type Page } from './fixtures';
import { signInQuickly } from './helpers';

async function setCount(page: Page, count: number): Promise<void> {
  const res = await page.request.put('/default/api/users/chat-unread/', { data: { username: 'operator', count } });
  expect(res.status(), await res.text()).toBe(200);
}

test('the chat badge follows the unread count live: 5, then 99+, then none', async ({ page }) => {
  // The stream answers once the server listens: a count set after that reaches the page.
  const listening = page.waitForResponse((r) => r.url().endsWith('/default/api/users/chat-unread/stream') && r.status() === 200);
  await signInQuickly(page, 'operator', 'kobe');
  const menu = page.getByRole('menu').first();
  // The demo chat leaves the operator some messages unread (src/server/chat/chat-demo.ts): the badge starts from it.
  await expect(menu.getByRole('link', { name: /^チャット/ })).toBeVisible();
  await listening;
  await setCount(page, 0);
  await expect(menu.getByRole('link', { name: 'チャット', exact: true })).toBeVisible();
  await expect(page.getByTestId('chat-badge')).toHaveCount(0);

  await setCount(page, 5);
  await expect(menu.getByRole('link', { name: 'チャット 5 未読 5 件', exact: true })).toBeVisible();
  await expect(page.getByTestId('chat-badge')).toBeVisible();

  await setCount(page, 150);
  await expect(menu.getByRole('link', { name: 'チャット 99+ 未読 150 件', exact: true })).toBeVisible();
  await expect(page.getByTestId('chat-badge')).toContainText('99+');

  await setCount(page, 0);
  await expect(menu.getByRole('link', { name: 'チャット', exact: true })).toBeVisible();
  await expect(page.getByTestId('chat-badge')).toHaveCount(0);
});

test('the chat badge shows the count of the user info after a reload', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await setCount(page, 3);
  await page.reload();
  const menu = page.getByRole('menu').first();
  await expect(menu.getByRole('link', { name: 'チャット 3 未読 3 件', exact: true })).toBeVisible();
  await setCount(page, 0);
});
