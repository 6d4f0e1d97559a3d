/**
 * A push's progress on its detail page (000 2.2 notification; 001 7.9): a push by map to kobe's
 * demo members reaches `sent` with its counts in Japanese number format, and an inbox row read by
 * the app raises the opened count live (server-sent events), without a reload.
 */
import { expect, test } from './fixtures';
import { screenshot, signInQuickly } from './helpers';

test('a push by map shows its status and counts, and the opened count follows live', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  const made = await page.request.post('/kobe/api/notification/create_notification_by_map', {
    data: { title: '三宮駅周辺のお知らせ', body: '本日は駅前で清掃活動を行います。', type: 'map', lat: 34.695, lng: 135.197, radius_m: 1500 },
  });
  expect(made.status(), await made.text()).toBe(201);
  const push = (await made.json()) as { id: number; recipients: number };
  expect(push.recipients).toBeGreaterThan(0);

  await page.goto(`/kobe/notification/show/${push.id}`);
  await expect(page.getByTestId('push-status')).toHaveText('配信済み', { timeout: 30_000 });
  await expect(page.getByTestId('push-recipients')).toContainText(new Intl.NumberFormat('ja').format(push.recipients));
  await expect(page.getByTestId('push-opened')).toContainText('0');

  const inbox = await page.request.get(`/kobe/api/user-notify/?notification_id=${push.id}&limit=1`);
  const [row] = ((await inbox.json()) as { content: Array<{ id: number }> }).content;
  const read = await page.request.post(`/kobe/api/user-notify/${row.id}/read/`);
  expect(read.status(), await read.text()).toBe(200);
  await expect(page.getByTestId('push-opened')).toContainText('1');
  await screenshot(page, 'push-status');
});
