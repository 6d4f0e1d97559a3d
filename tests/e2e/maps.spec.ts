/**
 * The console's maps as an Operator of kobe uses them (000 2.2 `map`, 5 map limits; 001 9 work
 * cities and default centre; 001 7.9 create_notification_by_map): the map page shows the seven work
 * cities and the city's shops, a shop's pin opens its page; an advertisement's coordinates are set by
 * dragging the picker's marker, saved, and shown; in the notification form a circle drawn with the
 * drawing tools fills the centre and radius, the recipient count follows it as the server counts,
 * and the push made from the form reaches `sent` on its page. No request leaves 127.0.0.1 (the tests run without a tile layer, playwright.config.ts),
 * Leaflet never loads on the login page or a list, no console error. Screenshots go to /tmp/maps-*.png.
 */
import type { Request } from '@playwright/test';
import { expect, test, type Page } from './fixtures';
import { clickInPopup, expectNoSeriousViolation, openLogin, signInQuickly } from './helpers';

const WORK_CITIES = ['明石市', '草津市', '高槻市', '豊中市', '藤沢市', '摂津市', '西宮市'];
/** Every request of `page` whose host is not 127.0.0.1, and every console error. */
function watch(page: Page): { foreign: string[]; errors: string[]; scripts: string[] } {
  const out = { foreign: [] as string[], errors: [] as string[], scripts: [] as string[] };
  const foreign = (r: Request) => !['data:', 'blob:'].includes(new URL(r.url()).protocol) && new URL(r.url()).hostname !== '127.0.0.1';
  page.on('request', (r) => {
    if (r.resourceType() === 'script' || r.resourceType() === 'stylesheet') out.scripts.push(new URL(r.url()).pathname);
  });
  // A request the page's Content-Security-Policy stopped never left; any other one to another host
  // did, or tried to (the demo shops' photos are the server's own, demo-files/).
  page.on('requestfinished', (r) => foreign(r) && out.foreign.push(r.url()));
  page.on('requestfailed', (r) => foreign(r) && r.failure()?.errorText !== 'csp' && out.foreign.push(`${r.url()} (${r.failure()?.errorText})`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    out.errors.push(`${page.url()}: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => out.errors.push(`uncaught at ${page.url()}: ${e.message}`));
  return out;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `/tmp/maps-${name}.png`, fullPage: true });
}

test('the map page shows the seven work cities and the shops; a shop opens its page; Leaflet stays off the login page and lists', async ({ page }) => {
  const seen = watch(page);
  await openLogin(page);
  await signInQuickly(page, 'operator', '/kobe/advertisments');
  await expect(page.getByRole('table')).toBeVisible();
  expect(seen.scripts.filter((s) => /leaflet|map-page|base-map/i.test(s)), 'no map code before a map').toEqual([]);

  await page.goto('/kobe/map');
  const map = page.getByRole('region', { name: '勤務地と店舗の地図' });
  await expect(map).toBeVisible();
  for (const name of WORK_CITIES) await expect(map.getByRole('button', { name, exact: true })).toHaveCount(1);
  // The offline basemap is drawn (Leaflet's SVG paths of the prefectures).
  await expect(map.locator('path.leaflet-interactive, path').first()).toBeAttached();
  const summary = page.getByTestId('map-summary');
  await expect(summary).toContainText('勤務地 7 件');
  const shops = Number(/店舗 (\d+) 件/.exec((await summary.textContent()) ?? '')?.[1]);
  expect(shops).toBeGreaterThan(0);
  await expect(map.locator('.map-cluster, .map-pin--shop').first()).toBeVisible();
  await shot(page, 'page');
  await expectNoSeriousViolation(page, 'map page');

  // Clusters split as they are clicked, down to single pins; a pin opens the shop's page.
  for (let i = 0; i < 8 && (await map.locator('.map-pin--shop').count()) === 0; i++) {
    await map.locator('.map-cluster').first().click();
    await page.waitForTimeout(400);
  }
  // Shops at the very same point stay stacked at the closest zoom: click the pin on top.
  const box = (await map.locator('.leaflet-marker-icon:has(.map-pin--shop)').first().boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const shopName = await page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.closest('.leaflet-marker-icon')?.getAttribute('title'), [x, y]);
  expect(shopName).toBeTruthy();
  await page.mouse.click(x, y);
  await expect(page).toHaveURL(/\/kobe\/advertisments\/show\/\d+$/);
  await expect(page.getByText(shopName ?? '', { exact: true }).first()).toBeVisible();

  expect(seen.foreign).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test("an advertisement's coordinates are set by dragging the picker's marker, saved and shown", async ({ page }) => {
  const seen = watch(page);
  await signInQuickly(page, 'operator', 'kobe');
  const list = await page.request.get('/kobe/api/operator-advertisement/?limit=100');
  const ad = ((await list.json()).content as Array<{ id: number; latitude?: number; longitude?: number }>).find((r) => typeof r.latitude === 'number');
  expect(ad, 'a demo shop with coordinates').toBeTruthy();
  await page.goto(`/kobe/advertisments/edit/${ad!.id}`);
  const lat = page.getByLabel('緯度', { exact: true });
  const lng = page.getByLabel('経度', { exact: true });
  await expect(lat).toHaveValue(String(ad!.latitude));
  const picker = page.getByRole('region', { name: '位置を選ぶ地図' });
  await picker.scrollIntoViewIfNeeded();
  const marker = picker.getByRole('button', { name: '選んだ位置（ドラッグで移動）' });
  await expect(marker).toBeVisible();
  await shot(page, 'picker');

  // Drag the marker down and to the right: south-east, so the latitude falls and the longitude grows.
  const box = (await marker.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 30, { steps: 8 });
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 60, { steps: 8 });
  await page.mouse.up();
  await expect(lat).not.toHaveValue(String(ad!.latitude));
  const newLat = Number(await lat.inputValue());
  const newLng = Number(await lng.inputValue());
  expect(newLat).toBeLessThan(ad!.latitude!);
  expect(newLng).toBeGreaterThan(ad!.longitude!);
  // Typing a number moves the marker back into step: the map keeps it in view.
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page).toHaveURL(/\/kobe\/advertisments$/);

  const stored = await (await page.request.get(`/kobe/api/advertisements/${ad!.id}/`)).json();
  expect(stored).toMatchObject({ latitude: newLat, longitude: newLng });
  await page.goto(`/kobe/advertisments/show/${ad!.id}`);
  const shown = (n: number) => n.toLocaleString('ja-JP', { maximumFractionDigits: 20 });
  await expect(page.getByText(shown(newLat), { exact: true })).toBeVisible();
  await expect(page.getByText(shown(newLng), { exact: true })).toBeVisible();

  expect(seen.foreign).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test('an operator draws a circle in the notification form, sees the recipient count, sends, and watches the push reach sent', async ({ page }) => {
  const seen = watch(page);
  await signInQuickly(page, 'operator', '/kobe/notification/create');
  await expect(page.getByRole('region', { name: '配信エリアを描く地図' })).toHaveCount(0);
  await page.locator('#root_title').fill('三宮駅周辺のお知らせ');
  await page.locator('#root_body').fill('本日は駅前で清掃活動を行います。');
  await page.locator('.ant-select', { has: page.getByRole('combobox', { name: '配信対象' }) }).click();
  await clickInPopup(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^地図で範囲指定$/ }));
  const map = page.getByRole('region', { name: '配信エリアを描く地図' });
  await map.scrollIntoViewIfNeeded();
  await expect(map).toBeVisible();
  await map.locator('.leaflet-pm-icon-circle').click();
  const box = (await map.boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.click(cx, cy);
  await page.mouse.move(cx + 30, cy, { steps: 5 });
  await page.mouse.move(cx + 60, cy, { steps: 5 });
  await page.mouse.click(cx + 60, cy);

  const lat = page.getByLabel('緯度', { exact: true });
  const lng = page.getByLabel('経度', { exact: true });
  const radius = page.getByLabel('半径（m）', { exact: true });
  await expect(radius).not.toHaveValue('');
  // 001 9's default centre: the circle was drawn in the middle of the view.
  expect(Math.abs(Number(await lat.inputValue()) - 36.04)).toBeLessThan(0.5);
  expect(Math.abs(Number(await lng.inputValue()) - 138.4)).toBeLessThan(0.5);
  // Drawn across a view of all Japan, the circle is wider than a push may reach: held to 100,000 m (000 3 radius_m).
  expect(Number(await radius.inputValue())).toBe(100_000);
  await expect(map.locator('path.leaflet-interactive').last()).toBeAttached();
  // No member of kobe lives within 100 km of the centre of Japan.
  await expect(page.getByTestId('recipient-count')).toContainText('0');

  // The circle moved onto Sannomiya by its fields: the count is the server's for the same body.
  await lat.fill('34.695');
  await lng.fill('135.197');
  await radius.fill('1500');
  const body = { title: '三宮駅周辺のお知らせ', body: '本日は駅前で清掃活動を行います。', type: 'map', lat: 34.695, lng: 135.197, radius_m: 1500 };
  const expected = ((await (await page.request.post('/kobe/api/notification/recipient-count/', { data: body })).json()) as { count: number }).count;
  expect(expected).toBeGreaterThan(0);
  await expect(page.getByTestId('recipient-count')).toContainText(new Intl.NumberFormat('ja-JP').format(expected), { timeout: 15_000 });
  await shot(page, 'area');

  const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/notification\/list-notify\/$/.test(new URL(r.url()).pathname));
  await page.getByRole('button', { name: '保存' }).click();
  // 保存 asks first, naming the people the push reaches.
  const ask = page.getByRole('dialog').filter({ hasText: `${new Intl.NumberFormat('ja-JP').format(expected)} 人に送信します。よろしいですか？` });
  await ask.getByRole('button', { name: '送信する' }).click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  const push = (await answer.json()) as { id: number; recipients: number };
  expect(push.recipients).toBe(expected);
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.goto(`/kobe/notification/show/${push.id}`);
  await expect(page.getByTestId('push-status')).toHaveText('配信済み', { timeout: 30_000 });
  await expect(page.getByTestId('push-recipients')).toContainText(new Intl.NumberFormat('ja').format(expected));

  expect(seen.foreign).toEqual([]);
  expect(seen.errors).toEqual([]);
});
