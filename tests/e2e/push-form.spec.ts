/**
 * Sending a push from its form (schemas/notification.schema.json; src/console/resources/
 * resource-form.tsx, form-schema.ts, recipient-count.tsx): the operator of kobe opens プッシュ通知 →
 * 新規作成; per 配信対象 only the fields that apply show (none invented: no polygon rows, no
 * 配信状況 or 既読); the recipient count follows the targeting and is the server's; 保存 asks
 * 「N 人に送信します。よろしいですか？」, キャンセル keeps the form, 送信する creates the push, which is
 * delivered to that many members; the back-to-top button stays clear of the save bar.
 */
import { expect, test, type Page } from './fixtures';
import { createI18n } from '../../src/shared/i18n';
import { clickInPopup, screenshot, signInQuickly } from './helpers';

const TYPE_FIELDS: Record<string, string[]> = {
  全員: [],
  指定ユーザー: ['ユーザー'],
  条件指定: ['年齢（下限）', '保有パス', 'お気に入りジャンル'],
  // The conditions narrow a map push too (src/server/push/targeting.ts).
  地図で範囲指定: ['緯度', '範囲（多角形）', '位置の基準', '年齢（下限）', '保有パス', 'お気に入りジャンル'],
  お気に入り登録者: ['広告（店舗）'],
  パスポート会員: [],
};
const ALL_TARGETING = [...new Set(Object.values(TYPE_FIELDS).flat())];

async function chooseType(page: Page, label: string): Promise<void> {
  await page.locator('.ant-select', { has: page.getByRole('combobox', { name: '配信対象' }) }).click();
  await clickInPopup(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: new RegExp(`^${label}$`) }));
}

/** The labels of the form's fields now shown. */
const labels = (page: Page) => page.locator('.generated-form label').allTextContents();

test('a push to everyone is saved from its form after the count is confirmed, and delivered to that many members', async ({ page }) => {
  await signInQuickly(page, 'operator', '/kobe/notification/create');
  await page.locator('#root_title').fill('年末年始のごみ収集について');
  await page.locator('#root_body').fill('12月31日から1月3日まではごみの収集をお休みします。');
  await expect(page.getByTestId('recipient-count')).not.toContainText('—');

  // Each type shows its own targeting fields and no other; never a server field.
  for (const [type, fields] of Object.entries(TYPE_FIELDS)) {
    if (type !== '全員') await chooseType(page, type);
    const shown = (await labels(page)).join('|');
    for (const f of fields) expect(shown, `${type}: ${f}`).toContain(f);
    for (const f of ALL_TARGETING.filter((f) => !fields.includes(f))) expect(shown, `${type}: not ${f}`).not.toContain(f);
    for (const f of ['配信状況', '既読']) expect(shown).not.toContain(f);
  }
  // No row is invented: the map type's polygon starts empty.
  await chooseType(page, '地図で範囲指定');
  await expect(page.locator('#root_polygon_0_lat')).toHaveCount(0);
  await chooseType(page, '全員');

  const expected = ((await (await page.request.post('/kobe/api/notification/recipient-count/', { data: { type: 'all' } })).json()) as { count: number }).count;
  expect(expected).toBeGreaterThan(0);
  const people = new Intl.NumberFormat('ja-JP').format(expected);
  await expect(page.getByTestId('recipient-count')).toContainText(people);

  // The back-to-top button, once shown, does not cover the save button.
  await page.mouse.wheel(0, 5000);
  const save = page.getByRole('button', { name: '保存' });
  const top = page.getByTestId('back-to-top');
  if (await top.isVisible()) {
    const a = (await save.boundingBox())!;
    const b = (await top.boundingBox())!;
    const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap).toBe(false);
  }

  // キャンセル in the question saves nothing and keeps the form.
  let posts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/notification\/list-notify\/$/.test(new URL(r.url()).pathname)) posts++;
  });
  await save.click();
  const ask = page.getByRole('dialog').filter({ hasText: `${people} 人に送信します。よろしいですか？` });
  await expect(ask).toBeVisible();
  await screenshot(page, 'push-form-confirm');
  await ask.getByRole('button', { name: 'キャンセル' }).click();
  await expect(ask).toBeHidden();
  expect(posts).toBe(0);
  await expect(page.locator('#root_title')).toHaveValue('年末年始のごみ収集について');

  const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/notification\/list-notify\/$/.test(new URL(r.url()).pathname));
  await save.click();
  await ask.getByRole('button', { name: '送信する' }).click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  const push = (await answer.json()) as { id: number; recipients: number; type: string };
  expect(push).toMatchObject({ type: 'all', recipients: expected });
  expect(answer.request().postDataJSON()).not.toHaveProperty('polygon');
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.goto(`/kobe/notification/show/${push.id}`);
  await expect(page.getByTestId('push-status')).toHaveText('配信済み', { timeout: 30_000 });
  await expect(page.getByTestId('push-recipients')).toContainText(people);
});

test('a push to the favourites of a shop picks the shop by name and reaches its favourites', async ({ page }) => {
  await signInQuickly(page, 'operator', '/kobe/notification/create');
  await page.locator('#root_title').fill('商店街で春のセールを開催中');
  await page.locator('#root_body').fill('お気に入りのお店で使えるクーポンを配信中です。');
  await chooseType(page, 'お気に入り登録者');
  const picker = page.locator('.ant-select', { has: page.getByRole('combobox', { name: '広告（店舗）' }) });
  await picker.click();
  const first = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
  await expect(first).toBeVisible();
  expect((await first.textContent())?.trim()).not.toMatch(/^#?\d+$/);
  await clickInPopup(first);
  await page.keyboard.press('Escape');
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/notification\/list-notify\/$/.test(new URL(r.url()).pathname));
  await page.getByRole('button', { name: '保存' }).click();
  // The question names the count of the values saved (asked at 保存, not the debounced figure).
  const ask = page.getByRole('dialog').filter({ hasText: '人に送信します。よろしいですか？' });
  await expect(ask).toBeVisible();
  const figure = (await ask.textContent())!.match(/([\d,]+) 人に送信します/)![1].replace(/,/g, '');
  await ask.getByRole('button', { name: '送信する' }).click();
  const answer = await created;
  // A shop nobody favourited is refused (no recipient); otherwise the push reaches the counted members.
  if (Number(figure) === 0) expect(answer.status()).toBe(400);
  else {
    expect(answer.status(), await answer.text()).toBe(201);
    const push = (await answer.json()) as { recipients: number; advertisements: number[] };
    expect(push.recipients).toBe(Number(figure));
    expect(push.advertisements).toHaveLength(1);
  }
});

test("an edit form shows the push's server fields as text, not as inputs; the create form has none", async ({ page }) => {
  await signInQuickly(page, 'operator', '/kobe/notification/create');
  await expect(page.locator('#root_title')).toBeVisible();
  await expect(page.locator('#root_push_status, #root_recipients, #root_read')).toHaveCount(0);
  const list = (await (await page.request.get('/kobe/api/notification/list-notify/', { params: { limit: 1 } })).json()) as { content: Array<{ id: number; push_status: string }> };
  const push = list.content[0];
  await page.goto(`/kobe/notification/edit/${push.id}`);
  const status = page.locator('#root_push_status');
  await expect(status).toHaveJSProperty('tagName', 'DIV');
  await expect(status).toHaveText(createI18n('ja').t(`enums.notification.push_status.${push.push_status}`));
  await expect(page.locator('.generated-form').getByRole('combobox', { name: '配信状況' })).toHaveCount(0);
  await expect(page.locator('.generated-form input[disabled], .generated-form .ant-select-disabled')).toHaveCount(0);
});

/** The multi-select of the form field labelled `label`. */
const picker = (page: Page, label: string) => page.locator('.ant-select', { has: page.getByRole('combobox', { name: label }) });
/** The names a multi-select shows as chosen (not antd's "+ N ..." of a responsive tag list). */
const chosenNames = (select: ReturnType<typeof picker>) => select.locator('.ant-select-selection-item').filter({ hasNotText: /^\+ \d+ \.\.\.$/ });

test('a push to chosen members picks them by name and reaches exactly them; the edit form names them again', async ({ page }) => {
  await signInQuickly(page, 'operator', '/kobe/notification/create');
  await page.locator('#root_title').fill('図書館の予約本が届きました');
  await page.locator('#root_body').fill('受付カウンターでお受け取りください。');
  await chooseType(page, '指定ユーザー');
  const users = picker(page, 'ユーザー');
  await users.click();
  // Typing searches the city's members on the server, by user name or name.
  await page.getByRole('combobox', { name: 'ユーザー' }).fill('yamada_1');
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(options.first()).toContainText('（yamada_1');
  const picked = [(await options.nth(0).textContent())!.trim(), (await options.nth(1).textContent())!.trim()];
  for (const label of picked) expect(label).toMatch(/^会員\d+（yamada_1\d*）$/);
  await clickInPopup(options.nth(0));
  await clickInPopup(options.nth(1));
  await page.keyboard.press('Escape');
  await expect(chosenNames(users)).toHaveText(picked);
  await expect(page.getByTestId('recipient-count')).toContainText('2');

  const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/notification\/list-notify\/$/.test(new URL(r.url()).pathname));
  await page.getByRole('button', { name: '保存' }).click();
  const ask = page.getByRole('dialog').filter({ hasText: '2 人に送信します。よろしいですか？' });
  await ask.getByRole('button', { name: '送信する' }).click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  const push = (await answer.json()) as { id: number; users: number[]; recipients: number };
  expect(push.users).toHaveLength(2);
  expect(push.recipients).toBe(2);
  // The members chosen are those the push went to.
  const chosen = ((await (await page.request.get('/kobe/api/users/', { params: { filter_by: 'member', ids: push.users.join(',') } })).json()) as { content: Array<{ username: string }> }).content;
  expect(chosen.map((u) => u.username).sort()).toEqual(picked.map((l) => l.match(/（(.+)）/)![1]).sort());
  await page.goto(`/kobe/notification/show/${push.id}`);
  await expect(page.getByTestId('push-status')).toHaveText('配信済み', { timeout: 30_000 });
  await expect(page.getByTestId('push-recipients')).toContainText('2');
  // The detail page names them too.
  for (const label of picked) await expect(page.getByText(label, { exact: true })).toBeVisible();
  // Opened again, the picker names the stored ids.
  await page.goto(`/kobe/notification/edit/${push.id}`);
  await expect(chosenNames(picker(page, 'ユーザー'))).toHaveText(picked);
});

test("a push by condition picks the city's wards by name and reaches the members living there", async ({ page }) => {
  await signInQuickly(page, 'operator', '/kobe/notification/create');
  await page.locator('#root_title').fill('中央区の防災訓練のお知らせ');
  await page.locator('#root_body').fill('12月7日に区役所前で防災訓練を行います。');
  await chooseType(page, '条件指定');
  // The picker takes its column's width, as its neighbours do.
  const width = async (label: string) => (await picker(page, label).boundingBox())!.width;
  expect(await width('居住地域（市区町村）')).toBe(await width('性別'));
  await picker(page, '居住地域（市区町村）').click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  // kobe's manifest names its nine wards: they and only they are offered, by name.
  await expect(options).toHaveText(['東灘区', '灘区', '兵庫区', '長田区', '須磨区', '垂水区', '北区', '中央区', '西区']);
  await screenshot(page, 'push-form-municipalities');
  await clickInPopup(options.filter({ hasText: /^中央区$/ }));
  await page.keyboard.press('Escape');
  const expected = ((await (await page.request.post('/kobe/api/notification/recipient-count/', { data: { type: 'condition', municipalities: ['28110'] } })).json()) as { count: number }).count;
  expect(expected).toBeGreaterThan(0);
  const people = new Intl.NumberFormat('ja-JP').format(expected);
  await expect(page.getByTestId('recipient-count')).toContainText(people);
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/notification\/list-notify\/$/.test(new URL(r.url()).pathname));
  await page.getByRole('button', { name: '保存' }).click();
  await page.getByRole('dialog').filter({ hasText: `${people} 人に送信します。よろしいですか？` }).getByRole('button', { name: '送信する' }).click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  const push = (await answer.json()) as { id: number; municipalities: string[]; recipients: number };
  expect(push).toMatchObject({ municipalities: ['28110'], recipients: expected });
  await page.goto(`/kobe/notification/show/${push.id}`);
  await expect(page.getByText('中央区', { exact: true })).toBeVisible();
});
