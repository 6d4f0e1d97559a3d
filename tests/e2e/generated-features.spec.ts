/**
 * Features of the generated pages that depend on what a schema declares, each tried on the first
 * resource of the Operator's kobe menu that has it (skipped, with the reason, while the menu has
 * none): image thumbnails with a full-screen preview (closing on Escape, its close button or a click
 * outside the image), the CSV export, a row action (`set`/`toggle`), the optimistic delete (row gone
 * at once, back when the server refuses), a singleton's settings page; and a delete the server
 * answers with 209 (the row stays, its message shows); 複製 of a coupon (000 4 modal mode douplicate:
 * the create form filled from the row, its status and expiry fresh; a second coupon, the first as it was);
 * one save per intent on a create form (000 4 forms: Enter in a date picker confirms only the picker).
 */
import type { Request } from '@playwright/test';
import { expect, test, type Page } from './fixtures';
import { defineAbilityFor } from '../../src/shared/ability';
import { createI18n } from '../../src/shared/i18n';
import { menuFor, type MenuEntry } from '../../src/shared/manifest';
import { fillPath, getResource, registry, type ResourceDef } from '../../src/shared/registry';
import { actionApplies } from '../../src/console/resources/record-action-defs';
import type { Profile } from '../../src/shared/roles';
import { answerDialog, chooseMenuItem, clickInPopup, rowAction, signInQuickly } from './helpers';
import { createRecord, filesRouteExists, recordBody, someRowId, uploadSample } from './record-fixtures';

const CITY = 'kobe';
const ja = createI18n('ja');
const operator = { permission: 'Operator', is_captain_department: false, assign_city: [{ id: 1, name: CITY, name_ja: '神戸市' }] } as Pick<Profile, 'permission' | 'is_captain_department' | 'assign_city'>;
const ability = defineAbilityFor(operator, CITY);

function flat(list: readonly MenuEntry[]): MenuEntry[] {
  return list.flatMap((e) => [...(e.resource && registry.has(e.resource) ? [e] : []), ...flat(e.children ?? [])]);
}
const menu = flat(menuFor('Operator', CITY)).map((entry) => ({ entry, def: getResource(entry.resource!) }));
const listPath = (e: MenuEntry) => `/${CITY}/${(e.route ?? e.resource!).replace(/^\/+|\/+$/g, '')}`;
const canCreate = (d: ResourceDef) => !!d.api.create && ability.can('create', d.name) && !d.singleton;

async function openList(page: Page, entry: MenuEntry, id?: unknown): Promise<void> {
  await page.goto(listPath(entry));
  await expect(page.getByRole('heading', { name: ja.t(entry.title), exact: true })).toBeVisible();
  if (id !== undefined) await expect(page.locator(`tr[data-row-key="${String(id)}"]`)).toBeVisible();
}

const newestFirst = (d: ResourceDef) => d.list.defaultSort.order === 'desc' && [d.createdField, d.idField].includes(d.list.defaultSort.field);

test('an image column shows a thumbnail whose preview closes on Escape, its close button and a click outside', async ({ page }) => {
  const target = menu.find(
    ({ def }) =>
      canCreate(def) &&
      newestFirst(def) &&
      def.list.columns.some((c) => def.schema.properties[c]?.['x-upload']?.kind === 'image' && !def.schema.properties[c]['x-hidden-in-list']),
  );
  test.skip(!target, "no resource of the Operator's kobe menu lists an image upload column");
  await signInQuickly(page, 'operator', CITY);
  test.skip(!(await filesRouteExists(page.request, CITY)), 'the server has no upload route yet');
  const { entry, def } = target!;
  const field = def.list.columns.find((c) => def.schema.properties[c]?.['x-upload']?.kind === 'image')!;
  const body = await recordBody(page.request, CITY, def, 7);
  const url = await uploadSample(page.request, CITY, 'image');
  const isArray = def.schema.properties[field].type === 'array';
  body[field] = isArray ? [url] : url;
  const res = await page.request.fetch(fillPath(def.api.create!.path, { city: CITY }), { method: def.api.create!.method, data: body });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const id = ((await res.json()) as Record<string, unknown>)[def.idField];

  await openList(page, entry, id);
  const thumb = page.locator(`tr[data-row-key="${String(id)}"] .ant-image`).first();
  const preview = page.locator('.ant-image-preview-img');
  await thumb.click();
  await expect(preview).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
  await thumb.click();
  await expect(preview).toBeVisible();
  await page.locator('.ant-image-preview-close').click();
  await expect(preview).toBeHidden();
  await thumb.click();
  await expect(preview).toBeVisible();
  await page.mouse.click(8, 400);
  await expect(preview).toBeHidden();
});

test('the CSV button downloads the export', async ({ page }) => {
  const target = menu.find(({ def }) => def.actions.some((a) => a.kind === 'export' && ability.can(a.permission, def.name)) && ability.can('read', def.name));
  test.skip(!target, "no resource of the Operator's kobe menu has an export action");
  await signInQuickly(page, 'operator', CITY);
  await openList(page, target!.entry);
  // The list has settled (its rows or its empty state) before the export is chosen.
  await expect(page.locator('.ant-table tbody tr.ant-table-row, .ant-table .ant-empty').first()).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV' }).first().click();
  await chooseMenuItem(page, 'CSV（UTF-8）');
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
});

test('a row action asks for confirmation, runs and says 保存しました。', async ({ page }) => {
  const target = menu.find(
    ({ def }) => canCreate(def) && newestFirst(def) && def.actions.some((a) => ['set', 'toggle'].includes(a.kind) && a.path.includes('{id}') && ability.can(a.permission, def.name)),
  );
  test.skip(!target, "no resource of the Operator's kobe menu has a set or toggle action the Operator may run");
  await signInQuickly(page, 'operator', CITY);
  const { entry, def } = target!;
  const row = await createRecord(page.request, CITY, def, 8);
  const id = row[def.idField];
  // An action the new row offers (its declared states, a set that would change it).
  const action = def.actions.find((a) => ['set', 'toggle'].includes(a.kind) && a.path.includes('{id}') && !a.fields && actionApplies(def, a, row));
  test.skip(!action, `no set or toggle action applies to a new ${def.name} row`);
  if (!action) return;
  await openList(page, entry, id);
  const call = page.waitForResponse((r) => r.request().method() === action.method && r.url().includes(fillPath(action.path, { city: CITY, id: id as string })));
  const tr = page.locator(`tr[data-row-key="${String(id)}"]`);
  await tr.locator('[data-row-more]').click();
  await clickInPopup(page.locator(`.ant-dropdown [data-action="${action.name}"]`));
  await answerDialog(page, '実行');
  expect((await call).status()).toBeLessThan(300);
  await expect(page.getByText('保存しました。')).toBeVisible();
});

test('an optimistic delete removes the row at once and puts it back when the server refuses', async ({ page }) => {
  const target = menu.find(({ def }) => def.optimisticDelete && canCreate(def) && newestFirst(def) && !!def.api.delete && ability.can('delete', def.name));
  test.skip(!target, "no resource of the Operator's kobe menu deletes optimistically");
  await signInQuickly(page, 'operator', CITY);
  const { entry, def } = target!;
  const id = (await createRecord(page.request, CITY, def, 9))[def.idField];
  await openList(page, entry, id);
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route(`**${fillPath(def.api.delete!.path, { city: CITY, id: id as string })}`, async (route) => {
    await held;
    await route.fulfill({ status: 500, json: { code: 'server_error', detail: 'x' } });
  });
  const row = page.locator(`tr[data-row-key="${String(id)}"]`);
  await rowAction(row, '削除');
  await answerDialog(page, '削除');
  await expect(row).toHaveCount(0);
  release();
  await expect(page.getByText('Server Error Occured. Please Try Again !')).toBeVisible();
  await expect(row).toBeVisible();
});

test("a delete answered 209 keeps the row and shows the server's message", async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  const news = menu.find(({ def }) => def.name === 'news')!;
  const row = await createRecord(page.request, CITY, news.def, 10);
  await openList(page, news.entry, row.id);
  await page.route(`**/${CITY}/api/city/admin-news/${String(row.id)}/`, (route) =>
    route.request().method() === 'DELETE' ? route.fulfill({ status: 209, json: { detail: 'このデータは削除できません。' } }) : route.continue(),
  );
  const tr = page.locator(`tr[data-row-key="${String(row.id)}"]`);
  await rowAction(tr, '削除');
  await answerDialog(page, '削除');
  await expect(page.getByText('このデータは削除できません。')).toBeVisible();
  await expect(tr).toBeVisible();
  await expect(page.getByText('削除しました。')).toHaveCount(0);
});

test('a singleton has one settings page: its fields, then the form, then its fields again', async ({ page }) => {
  const target = menu.find(({ def }) => def.singleton && !!def.api.update && ability.can('update', def.name));
  test.skip(!target, "no singleton resource in the Operator's kobe menu");
  await signInQuickly(page, 'operator', CITY);
  const { entry, def } = target!;
  const body = await recordBody(page.request, CITY, def, 11);
  const res = await page.request.fetch(fillPath(def.api.update!.path, { city: CITY }), { method: def.api.update!.method, data: body });
  expect(res.status(), await res.text()).toBeLessThan(300);
  await page.goto(listPath(entry));
  await expect(page.getByTestId('show-fields')).toBeVisible();
  await page.getByRole('button', { name: '編集' }).click();
  await expect(page.locator('form.generated-form')).toBeVisible();
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page.getByTestId('show-fields')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${listPath(entry)}$`));
});

test('duplicating a coupon opens its form prefilled, saves a second coupon, and the first is unchanged', async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  const { entry, def } = menu.find(({ def }) => def.name === 'coupon')!;
  const stamp = `複製テスト${Date.now()}`;
  const body: Record<string, unknown> = {
    ...(await recordBody(page.request, CITY, def, 12)),
    title: stamp,
    start_date: '2030-04-01T02:00:00.000Z',
    end_date: '2030-06-30T14:00:00.000Z',
    discount_day: '2030-07-31T14:00:00.000Z',
    status: 'approved',
  };
  const made = await page.request.fetch(fillPath(def.api.create!.path, { city: CITY }), { method: def.api.create!.method, data: body });
  expect(made.status(), await made.text()).toBeLessThan(300);
  const id = ((await made.json()) as Record<string, unknown>)[def.idField] as number;
  const showPath = fillPath(def.api.show!.path, { city: CITY, id });
  const before = (await (await page.request.get(showPath)).json()) as Record<string, unknown>;

  await openList(page, entry, id);
  await rowAction(page.locator(`tr[data-row-key="${id}"]`), '複製');
  await expect(page).toHaveURL(new RegExp(`${listPath(entry)}/clone/${id}$`));
  await expect(page.getByRole('heading', { name: `${ja.t(entry.title)}：複製（No.${id} のコピー）` })).toBeVisible();
  // The row's values, less what a new coupon starts fresh with: its status and its expiry (x-future).
  await expect(page.locator('#root_title')).toHaveValue(stamp);
  await expect(page.locator('#root_content')).toHaveValue(String(body.content));
  await expect(page.locator('#root_start_date')).toHaveValue('2030-04-01 11:00:00');
  await expect(page.locator('#root_end_date')).toHaveValue('');
  await expect(page.locator('.ant-select', { has: page.locator('#root_status') }).locator('.ant-select-selection-item')).toHaveText(ja.t('enums.coupon.status.request'));
  await expect(page.getByText(ja.t('pages.cloneCleared', { fields: ja.t('fields.commerce.expiry') }))).toBeVisible();
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: '.bench-data/duplicate.png', fullPage: true });

  await page.locator('#root_end_date').click();
  await page.locator('#root_end_date').fill('2030-06-15 12:00:00');
  // The picker's OK, once its popup has appeared.
  const picker = page.locator('.ant-picker-dropdown:visible');
  await expect(picker).not.toHaveClass(/-(enter|appear|leave)\b/);
  await picker.locator('.ant-picker-ok button').click();
  await expect(page.locator('#root_end_date')).toHaveValue('2030-06-15 12:00:00');
  const created = page.waitForResponse((r) => r.request().method() === def.api.create!.method && new URL(r.url()).pathname === fillPath(def.api.create!.path, { city: CITY }));
  await page.getByRole('button', { name: '保存' }).click();
  expect((await created).status()).toBeLessThan(300);
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${listPath(entry)}$`));

  // Two coupons of that title now, the first as it was.
  await page.getByPlaceholder('検索').fill(stamp);
  await page.getByPlaceholder('検索').press('Enter');
  const rows = page.locator('.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: stamp })).toHaveCount(2);
  await expect(page.locator(`tr[data-row-key="${id}"]`)).toContainText(ja.t('enums.coupon.status.approved'));
  const after = (await (await page.request.get(showPath)).json()) as Record<string, unknown>;
  expect(after).toEqual(before);
  const copyId = await rows.evaluateAll((trs, first) => trs.map((tr) => tr.getAttribute('data-row-key')).find((k) => k !== String(first)), id);
  const copy = (await (await page.request.get(fillPath(def.api.show!.path, { city: CITY, id: copyId! }))).json()) as Record<string, unknown>;
  expect(copy).toMatchObject({ title: stamp, content: body.content, status: 'request', end_date: '2030-06-15T03:00:00.000Z' });
});

/**
 * Opens the coupon create form with its create calls counted (`sent`, `answered`) and fills it, the
 * start date confirmed with the picker's OK; the expiry is left to the test.
 */
async function fillCouponForm(page: Page, stamp: string) {
  await signInQuickly(page, 'operator', CITY);
  const { entry, def } = menu.find(({ def }) => def.name === 'coupon')!;
  // The advertisement select needs a row to choose.
  await someRowId(page.request, CITY, 'advertisement');
  const createPath = fillPath(def.api.create!.path, { city: CITY });
  const isCreate = (r: Request) => r.method() === def.api.create!.method && new URL(r.url()).pathname === createPath;
  const calls = { sent: 0, answered: 0 };
  page.on('request', (r) => void (isCreate(r) && calls.sent++));
  page.on('requestfinished', (r) => void (isCreate(r) && calls.answered++));
  page.on('requestfailed', (r) => void (isCreate(r) && calls.answered++));

  await page.goto(`${listPath(entry)}/create`);
  await expect(page.locator('form.generated-form')).toBeVisible();
  await page.locator('#root_title').fill(stamp);
  for (const field of ['content', 'presentation_conditions', 'conditions_of_use']) await page.locator(`#root_${field}`).fill(`${stamp} ${field}`);
  await page.locator('.ant-select', { has: page.locator('#root_advertisement') }).click();
  await clickInPopup(page.locator('.ant-select-dropdown:visible .ant-select-item-option').first());
  await page.locator('#root_start_date').click();
  await page.locator('#root_start_date').fill('2030-04-01 11:00:00');
  const picker = page.locator('.ant-picker-dropdown:visible');
  await expect(picker).not.toHaveClass(/-(enter|appear|leave)\b/);
  await picker.locator('.ant-picker-ok button').click();
  await expect(picker).toHaveCount(0);
  return { entry, def, createPath, calls, picker };
}

/** The titles of the coupons whose title or content contains `stamp`, through the API's list. */
async function couponTitles(page: Page, def: ResourceDef, stamp: string): Promise<unknown[]> {
  const list = await page.request.get(fillPath(def.api.list.path, { city: CITY }), { params: { search: stamp } });
  expect(list.ok(), await list.text()).toBe(true);
  return ((await list.json()) as { content: Array<Record<string, unknown>> }).content.map((c) => c.title);
}

test('Enter in a date picker only confirms the picker, and one click on 保存 creates one coupon', async ({ page }) => {
  const stamp = `一回保存${Date.now()}`;
  const { entry, def, calls, picker } = await fillCouponForm(page, stamp);
  // The date typed, then Enter in the picker's input: it confirms the picker and sends nothing.
  await page.locator('#root_end_date').click();
  await page.locator('#root_end_date').fill('2030-06-15 12:00:00');
  await expect(picker).not.toHaveClass(/-(enter|appear|leave)\b/);
  await page.locator('#root_end_date').press('Enter');
  await expect(page.locator('#root_end_date')).toHaveValue('2030-06-15 12:00:00');
  await expect(picker).toHaveCount(0);
  expect(calls.sent).toBe(0);

  await page.getByRole('button', { name: '保存' }).click({ timeout: 5_000 });
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${listPath(entry)}$`));
  await expect.poll(() => calls.answered).toBe(calls.sent);
  expect(calls.sent).toBe(1);
  expect(await couponTitles(page, def, stamp)).toEqual([stamp]);
});

test('while a coupon is being saved, 保存 is disabled and a further submit sends nothing', async ({ page }) => {
  const stamp = `保存中${Date.now()}`;
  const { entry, def, createPath, calls, picker } = await fillCouponForm(page, stamp);
  await page.locator('#root_end_date').click();
  await page.locator('#root_end_date').fill('2030-06-15 12:00:00');
  await expect(picker).not.toHaveClass(/-(enter|appear|leave)\b/);
  await picker.locator('.ant-picker-ok button').click();
  // The server answers the create slowly: the save stays in flight while the user tries again.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === createPath,
    async (route) => {
      await held;
      await route.continue();
    },
  );

  const save = page.getByRole('button', { name: '保存' });
  await save.click();
  await expect(save).toBeDisabled();
  // A further submit that does not pass through the disabled button (as Enter in a text input makes).
  await page.locator('form.generated-form').evaluate((form: HTMLFormElement) => form.requestSubmit());
  release();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${listPath(entry)}$`));
  await expect.poll(() => calls.answered).toBe(calls.sent);
  expect(calls.sent).toBe(1);
  expect(await couponTitles(page, def, stamp)).toEqual([stamp]);
});
