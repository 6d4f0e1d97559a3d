/**
 * Generated forms an operator is at home in (000 3 opening hours, validInterval; 5 files, business
 * hours, continuous periods; 001 9 formats): an event's image uploaded with its preview (a 16 MB image
 * refused with the spec's message); a time sale with two continuous periods set through the range
 * widget; an advertisement's form in its declared sections, its business hours set with the day chips
 * and a YouTube video with its thumbnail (YouTube answered by the test), then published. Screenshots of
 * the coupon, time-sale and advertisement forms at 1440 px and 390 px (test-results/screenshots).
 */
import { expect, test, type Page } from './fixtures';
import { fillPath, getResource } from '../../src/shared/registry';
import { clickInPopup, PNG_1X1, screenshot, signInQuickly } from './helpers';
import { recordBody } from './record-fixtures';

const CITY = 'kobe';

/** Fills an antd date-time picker of a generated form (`YYYY-MM-DD HH:mm:ss`) and confirms it with OK. */
async function pickDateTime(page: Page, id: string, value: string): Promise<void> {
  await page.locator(id).click();
  await page.locator(id).fill(value);
  // The picker opening: the previous field's may still be on screen, closing (its `-leave` motion).
  const picker = page.locator('.ant-picker-dropdown:visible:not([class*="-leave"])');
  await expect(picker).not.toHaveClass(/-(enter|appear)\b/);
  await picker.locator('.ant-picker-ok button').click();
  await expect(page.locator(id)).toHaveValue(value);
}

/** Types one period into a range picker of ./fields/period-fields (YYYY/MM/DD HH:mm). */
async function typePeriod(picker: ReturnType<Page['locator']>, start: string, end: string): Promise<void> {
  const [from, to] = [picker.locator('input').nth(0), picker.locator('input').nth(1)];
  await from.click();
  await from.fill(start);
  await from.press('Enter');
  await to.click();
  await to.fill(end);
  await to.press('Enter');
  await expect(from).toHaveValue(start);
  await expect(to).toHaveValue(end);
}

test('an event is created with its image uploaded and previewed; a 16 MB image is refused with the limit', async ({ page }) => {
  await signInQuickly(page, 'operator', `/${CITY}/event/create`);
  await expect(page.locator('form.generated-form')).toBeVisible();
  const file = page.locator('#root_image input[type=file], input[type=file]#root_image').first();
  // The spec's limit (000 5 Files: images up to 15 MB), checked before anything is sent.
  await file.setInputFiles({ name: '大きな写真.png', mimeType: 'image/png', buffer: Buffer.concat([PNG_1X1, Buffer.alloc(16 * 1024 * 1024)]) });
  await expect(page.getByText('大きな写真.png：ファイルサイズは15.0MB以下にしてください。')).toBeVisible();
  const uploaded = page.waitForResponse((r) => r.url().includes(`/${CITY}/api/files/`) && r.request().method() === 'POST');
  await file.setInputFiles({ name: '夏祭りの写真.png', mimeType: 'image/png', buffer: PNG_1X1 });
  expect((await uploaded).status()).toBe(201);
  await expect(page.locator('#root_image .ant-upload-list-item-done img, .ant-upload-list-item-done img').first()).toHaveAttribute('src', /\/files\//);

  const title = `画像つきイベント${Date.now()}`;
  await page.locator('#root_title').fill(title);
  await page.locator('#root_description').fill('港の夏祭りです。');
  await page.locator('#root_category').fill('祭り');
  await pickDateTime(page, '#root_start_date', '2030-08-01 10:00:00');
  await pickDateTime(page, '#root_end_date', '2030-08-01 20:00:00');
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/${CITY}/api/events/`);
  await page.getByRole('button', { name: '保存' }).click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  expect(((await answer.json()) as { image: string }).image).toMatch(/^\/files\//);
  await expect(page.getByText('保存しました。')).toBeVisible();
});

test('a time sale gets its sale period and two continuous periods through the range pickers', async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  const def = getResource('timesale');
  const body: Record<string, unknown> = { ...(await recordBody(page.request, CITY, def, 31)), title: `期間テスト${Date.now()}` };
  delete body.periods;
  delete body.validInterval;
  const made = await page.request.post(fillPath(def.api.create!.path, { city: CITY }), { data: body });
  expect(made.status(), await made.text()).toBe(201);
  const id = ((await made.json()) as { id: number }).id;

  await page.goto(`/${CITY}/timesales/index/edit/${id}`);
  await expect(page.locator('#root_title')).toHaveValue(String(body.title));
  await typePeriod(page.getByTestId('date-time-range').locator('.ant-picker'), '2030/09/01 10:00', '2030/09/30 18:00');
  const periods = page.getByTestId('period-list');
  await periods.getByRole('button', { name: '期間を追加' }).click();
  await typePeriod(periods.getByTestId('period').nth(0).locator('.ant-picker'), '2030/09/01 10:00', '2030/09/10 10:00');
  await periods.getByRole('button', { name: '期間を追加' }).click();
  // 追加 starts the new period when the last one ends.
  await expect(periods.getByTestId('period').nth(1).locator('input').first()).toHaveValue('2030/09/10 10:00');
  await typePeriod(periods.getByTestId('period').nth(1).locator('.ant-picker'), '2030/09/10 10:00', '2030/09/30 18:00');
  await screenshot(page, 'form-timesale-periods');
  const saved = page.waitForResponse((r) => r.request().method() === def.api.update!.method && new URL(r.url()).pathname === fillPath(def.api.update!.path, { city: CITY, id }));
  await page.getByRole('button', { name: '保存' }).click();
  expect((await saved).status()).toBe(200);
  const row = (await (await page.request.get(fillPath(def.api.show!.path, { city: CITY, id }))).json()) as Record<string, unknown>;
  expect(row.validInterval).toEqual({ start: '2030-09-01T01:00:00.000Z', end: '2030-09-30T09:00:00.000Z' });
  expect(row.periods).toEqual([
    { start: '2030-09-01T01:00:00.000Z', end: '2030-09-10T01:00:00.000Z' },
    { start: '2030-09-10T01:00:00.000Z', end: '2030-09-30T09:00:00.000Z' },
  ]);
});

test("an advertisement's form in its sections: business hours set with the day chips, a YouTube video with its thumbnail, then published", async ({ page }) => {
  // YouTube's thumbnail answered here: nothing leaves 127.0.0.1.
  const thumbnails: string[] = [];
  await page.route('https://img.youtube.com/**', (route) => {
    thumbnails.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'image/png', body: PNG_1X1 });
  });
  await signInQuickly(page, 'operator', CITY);
  const def = getResource('advertisement');
  const body = { ...(await recordBody(page.request, CITY, def, 41)), name: `営業時間テスト${Date.now()}`, status: 'private', business_hours: [] };
  const made = await page.request.post(fillPath(def.api.create!.path, { city: CITY }), { data: body });
  expect(made.status(), await made.text()).toBe(201);
  const id = ((await made.json()) as { id: number }).id;
  // The row goes at the end: a later test opening the newest shop would show its YouTube thumbnail.
  try {
    await page.goto(`/${CITY}/advertisments/edit/${id}`);
    await expect(page.locator('#root_name')).toHaveValue(String(body.name));
    await expect(page.getByRole('heading', { level: 4 })).toHaveText(['基本情報', '紹介', '所在地・連絡先', '営業時間', 'その他']);
    await expect(page.getByRole('region', { name: '営業時間' }).getByTestId('business-hours')).toBeVisible();
    const hours = page.getByTestId('business-hours');
    await hours.getByRole('button', { name: '曜日と時間を追加' }).click();
    const group = hours.getByTestId('business-hours-group').first();
    for (const day of ['月', '火', '水', '木', '金']) await group.getByRole('button', { name: day, exact: true }).click();
    await expect(group.getByRole('button', { name: '月', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(group.getByRole('button', { name: '日', exact: true })).toHaveAttribute('aria-pressed', 'false');
    await typePeriod(group.locator('.ant-picker'), '09:00', '18:00');
    // a video: a URL that is not YouTube is refused under its row, a YouTube one shows its thumbnail
    const videos = page.getByRole('region', { name: '紹介' }).getByTestId('video-links');
    await videos.getByRole('button', { name: '動画を追加' }).click();
    const url = videos.getByRole('textbox', { name: 'YouTube の URL 1' });
    await url.fill('https://example.com/movie.mp4');
    await expect(videos.getByRole('alert')).toHaveText('YouTube の動画 URL を入力してください。');
    await url.fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await expect(videos.getByRole('img', { name: 'サムネイル' })).toHaveAttribute('src', 'https://img.youtube.com/vi/dQw4w9WgXcQ/hqdefault.jpg');
    await expect(videos.getByRole('alert')).toHaveCount(0);
    // The image is asked for after its src is set: the request reaches the route a moment later.
    await expect.poll(() => thumbnails).toEqual(['https://img.youtube.com/vi/dQw4w9WgXcQ/hqdefault.jpg']);
    // publish (公開) from the status select
    await page.locator('.ant-select', { has: page.locator('#root_status') }).click();
    await clickInPopup(page.locator('.ant-select-item-option').filter({ hasText: /^公開$/ }).first());
    await screenshot(page, 'form-advertisement-hours');
    const saved = page.waitForResponse((r) => r.request().method() === def.api.update!.method && new URL(r.url()).pathname === fillPath(def.api.update!.path, { city: CITY, id }));
    await page.getByRole('button', { name: '保存' }).click();
    expect((await saved).status()).toBe(200);
    const row = (await (await page.request.get(fillPath(def.api.show!.path, { city: CITY, id }))).json()) as Record<string, unknown>;
    expect(row).toMatchObject({
      status: 'public',
      business_hours: [{ weekdays: ['2', '3', '4', '5', '6'], time: [{ start: '09:00', end: '18:00' }] }],
      video: { link: [{ content: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }], thumbnail: [{ url: 'https://img.youtube.com/vi/dQw4w9WgXcQ/hqdefault.jpg' }] },
    });
  } finally {
    await page.request.delete(fillPath(def.api.delete!.path, { city: CITY, id }));
  }
});

test('the coupon, time-sale and advertisement forms at 1440 px and 390 px', async ({ page }) => {
  await signInQuickly(page, 'operator', `/${CITY}/coupon/create`);
  for (const [name, path] of [
    ['coupon', `/${CITY}/coupon/create`],
    ['timesale', `/${CITY}/timesales/index/create`],
    ['advertisement', `/${CITY}/advertisments/create`],
  ] as const) {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
      await page.goto(path);
      const form = page.locator('form.generated-form');
      await expect(form).toBeVisible();
      // two columns on a wide screen for a form of more than 8 fields, else one: the title field's box
      // is about half or all of the form's width (the grid's gutter adds a little)
      const { ratio, fields } = await form.evaluate((f) => {
        // the grid's column (not the form item's own label and control columns)
        const field = f.querySelector('#root_title, #root_name')!.closest('.ant-col:not(.ant-form-item-control):not(.ant-form-item-label)') as HTMLElement;
        // the form's fields: the grid columns of the root, or of each of its sections
        const grids = [...f.querySelectorAll('fieldset#root, fieldset[id^="root__section"]')].map((s) => s.querySelector(':scope > .ant-row')!);
        return { ratio: field.getBoundingClientRect().width / f.getBoundingClientRect().width, fields: grids.reduce((n, g) => n + g.querySelectorAll(':scope > .ant-col').length, 0) };
      });
      const half = width > 1000 && fields > 8;
      expect(ratio, `${name} at ${width} px (${fields} fields)`).toBeGreaterThan(half ? 0.4 : 0.95);
      expect(ratio, `${name} at ${width} px (${fields} fields)`).toBeLessThan(half ? 0.6 : 1.15);
      // the save button is on screen without scrolling
      await expect(page.getByRole('button', { name: '保存' })).toBeInViewport();
      await screenshot(page, `form-${name}-${width}`);
    }
  }
});
