/**
 * The CSV import as an Operator of kobe uses it (000 2.2 import/upload and import/history, 000 5 CSV
 * rules; 001 7.16, 8, 9): the template, a Shift_JIS file checked in a dry run (its problems row by
 * row), the import confirmed and followed to 100 %, the history and the import's log, the failed
 * rows as a CSV and the entry deleted, axe finding no serious violation on the way; an Advertiser has
 * neither the menu nor the pages nor the calls.
 */
import { readFile } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { expect, test, type Locator, type Page } from './fixtures';
import { clickInPopup, expectNoSeriousViolation, signInQuickly } from './helpers';

const SHOTS = '.bench-data';
const INVALID_CATEGORY = 'このカテゴリが無効なものです';

/** Saves a screenshot of the page under .bench-data/ once the fonts are in, the pointer moved off any control. */
async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Clicks `trigger` and answers the downloaded file's name and bytes. */
async function download(page: Page, trigger: Locator): Promise<{ name: string; bytes: Buffer }> {
  const pending = page.waitForEvent('download');
  await trigger.click();
  const file = await pending;
  return { name: file.suggestedFilename(), bytes: await readFile((await file.path())!) };
}

/** The value of a count of the dry run (行数, 新規作成, …) as shown. */
function count(page: Page, title: string): Locator {
  return page.getByTestId('dry-run').locator('.ant-statistic', { has: page.getByText(title, { exact: true }) }).locator('.ant-statistic-content');
}

/** The rows of a Shift_JIS shop file: three good rows, one bad phone (row 5), one unknown category (row 6). */
function shopFile(stamp: number): { bytes: Buffer; names: { good: string[]; bad: string; unknownCategory: string } } {
  const names = {
    good: [`E2E 髙橋珈琲 ${stamp}`, `E2E ①番館 ${stamp}`, `E2E ㈱みなと商店 ${stamp}`],
    bad: `E2E 電話なし商店 ${stamp}`,
    unknownCategory: `E2E 新カテゴリ食堂 ${stamp}`,
  };
  const lines = [
    '店舗名,電話番号,住所,ジャンル,カテゴリ,メールアドレス',
    `${names.good[0]},078-111-2222,神戸市中央区元町通1-1-1,グルメ>カフェ・スイーツ,地元グルメ,takahashi@example.jp`,
    `${names.good[1]},078-111-3333,神戸市中央区元町通2-2-2,グルメ,地元グルメ,`,
    `${names.good[2]},078-111-4444,神戸市中央区栄町通3-3-3,ショッピング,地元グルメ,`,
    `${names.bad},でんわ,神戸市中央区栄町通4-4-4,グルメ,地元グルメ,`,
    `${names.unknownCategory},078-111-5555,神戸市中央区海岸通5-5-5,グルメ,存在しないカテゴリ,`,
  ];
  return { bytes: iconv.encode(`${lines.join('\r\n')}\r\n`, 'Shift_JIS'), names };
}

test('an Operator downloads the template, checks and imports a Shift_JIS file, follows it to 100 %, reads its log and downloads its failed rows', async ({ page }) => {
  const stamp = Date.now();
  await signInQuickly(page, 'operator', 'kobe');

  // the upload page, from its group of the side menu
  const menu = page.getByTestId('side-menu');
  await menu.getByText('CSVインポート', { exact: true }).click();
  await menu.getByRole('link', { name: 'CSVアップロード', exact: true }).click();
  await expect(page).toHaveURL(/\/kobe\/import\/upload$/);
  await expect(page.getByRole('heading', { name: 'CSVインポート' })).toBeVisible();

  // the template of shops: UTF-8 with BOM, the header and two example rows
  const template = await download(page, page.getByRole('button', { name: 'テンプレートをダウンロード' }));
  expect(template.name).toMatch(/\.csv$/);
  expect([...template.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const templateLines = template.bytes.toString('utf8').slice(1).trim().split(/\r?\n/);
  expect(templateLines).toHaveLength(3);
  for (const label of ['店舗名', '電話番号', '住所', 'ジャンル', 'カテゴリ']) expect(templateLines[0]).toContain(label);

  // the browser refuses an empty file and a file that is not .csv before sending anything
  const input = page.locator('input[type=file]');
  await input.setInputFiles({ name: '空.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  await expect(page.getByRole('alert')).toHaveText('「空.csv」は空のファイルです。中身のあるCSVファイルを選んでください。');
  await input.setInputFiles({ name: 'shops.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('PK') });
  await expect(page.getByRole('alert')).toHaveText('「shops.xlsx」はCSVファイルではありません。拡張子が .csv のファイルを選んでください。');

  // the dry run of a Shift_JIS file: counts and problems, nothing written yet
  const file = shopFile(stamp);
  const fileName = `神戸店舗_${stamp}.csv`;
  await input.setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: file.bytes });
  await expect(page.getByTestId('chosen-file')).toContainText(fileName);
  await page.getByRole('button', { name: '内容を確認' }).click();
  const dryRun = page.getByTestId('dry-run');
  await expect(dryRun.getByRole('heading', { name: '確認結果（まだ何も登録していません）' })).toBeVisible();
  await expect(dryRun).toContainText('文字コード Shift_JIS');
  await expect(count(page, '行数')).toHaveText('5');
  await expect(count(page, '新規作成')).toHaveText('4');
  await expect(count(page, '更新')).toHaveText('0');
  await expect(count(page, 'エラー')).toHaveText('1');
  await expect(count(page, '警告')).toHaveText('1');
  const problems = dryRun.locator('.ant-table-tbody tr.ant-table-row');
  await expect(problems).toHaveCount(2);
  await expect(problems.nth(0).locator('td').nth(0)).toHaveText('5');
  await expect(problems.nth(0).locator('td').nth(1)).toHaveText('電話番号');
  await expect(problems.nth(0).locator('td').nth(2)).toHaveText('エラー');
  await expect(problems.nth(1).locator('td').nth(0)).toHaveText('6');
  await expect(problems.nth(1).locator('td').nth(1)).toHaveText('カテゴリ');
  await expect(problems.nth(1).locator('td').nth(2)).toHaveText('警告');
  await expect(problems.nth(1).locator('td').nth(3)).toHaveText(INVALID_CATEGORY);
  await expect(dryRun).toContainText('エラーのある1行はインポートされません。');
  const shops = await page.request.get('/kobe/api/operator-advertisement/', { params: { search: String(stamp) } });
  expect((await shops.json()).content).toHaveLength(0);
  await shot(page, 'import-dry-run');
  await expectNoSeriousViolation(page, 'upload with a dry run');

  // the import: its progress bar reaches 100 % and the result says how it ended
  await page.getByRole('button', { name: 'インポート', exact: true }).click();
  const progress = page.getByTestId('import-run').getByRole('progressbar', { name: '進み具合' });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
  const result = page.getByTestId('import-result');
  await expect(result).toHaveAttribute('data-status', 'partial');
  await expect(result).toContainText('インポートが完了しました（一部の行はエラーのため登録していません）');
  await expect(result).toContainText('5行のうち、新規作成 4件・更新 0件・エラー 1件・警告 1件');
  await expect(page.getByTestId('import-run')).toContainText('5 / 5 行を処理しました');
  await shot(page, 'import-progress');
  const imported = await page.request.get('/kobe/api/operator-advertisement/', { params: { search: String(stamp) } });
  const importedNames = ((await imported.json()).content as Array<{ name: string }>).map((s) => s.name).sort();
  expect(importedNames).toEqual([...file.names.good, file.names.unknownCategory].sort());

  // the history with the import's log open
  await result.getByRole('link', { name: 'ログを見る' }).click();
  await expect(page).toHaveURL(/\/kobe\/import\/history\?log=\d+$/);
  const row = page.locator('.ant-table-row', { hasText: fileName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('店舗');
  await expect(row).toContainText('Shift_JIS');
  await expect(row.locator('[data-status]')).toHaveText('一部エラー');
  const log = page.getByRole('dialog', { name: `インポートのログ：${fileName}` });
  await expect(log).toBeVisible();
  const lines = log.locator('.ant-table-tbody tr.ant-table-row');
  // A line by the tag of its level (the third cell); the summary line may name the levels too.
  const ofLevel = (level: string) => lines.filter({ has: page.locator('td:nth-child(3)', { hasText: new RegExp(`^${level}$`) }) });
  await expect(ofLevel('エラー')).toHaveCount(1);
  await expect(ofLevel('エラー').locator('td').nth(0)).toHaveText('5');
  await expect(ofLevel('エラー').locator('td').nth(1)).toHaveText('電話番号');
  await expect(ofLevel('警告')).toHaveCount(1);
  await expect(ofLevel('警告').locator('td').nth(0)).toHaveText('6');
  await expect(ofLevel('警告').locator('td').nth(3)).toHaveText(INVALID_CATEGORY);
  await shot(page, 'import-history');
  await expectNoSeriousViolation(page, 'history with a log');

  // the log filtered by level: warnings only
  await log.locator('.ant-select', { has: page.getByRole('combobox', { name: '種類で絞り込み' }) }).click();
  await clickInPopup(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^警告$/ }));
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toContainText(INVALID_CATEGORY);

  // the failed rows: the one bad row as uploaded, with its error, ready to fix and upload again
  const failed = await download(page, log.getByRole('button', { name: '失敗した行をダウンロード' }));
  expect(failed.name).toMatch(/\.csv$/);
  const failedText = failed.bytes.toString('utf8').replace(/^\uFEFF/, '');
  const failedLines = failedText.trim().split(/\r?\n/);
  expect(failedLines).toHaveLength(2);
  expect(failedLines[0]).toContain('店舗名,電話番号,住所,ジャンル,カテゴリ,メールアドレス');
  expect(failedLines[1]).toContain(file.names.bad);
  expect(failedLines[1]).toContain('でんわ');
  for (const good of file.names.good) expect(failedText).not.toContain(good);

  // the entry deleted after a confirmation: the shops stay
  await page.keyboard.press('Escape');
  await expect(log).toBeHidden();
  await row.getByRole('button', { name: '削除' }).click();
  await clickInPopup(page.locator('.ant-popover:visible').getByRole('button', { name: '削除' }));
  await expect(page.getByText('削除しました。')).toBeVisible();
  await expect(row).toHaveCount(0);
  const kept = await page.request.get('/kobe/api/operator-advertisement/', { params: { search: String(stamp) } });
  expect((await kept.json()).content).toHaveLength(4);
});

test('the same file again: the check says it was imported before, and importing it asks first', async ({ page }) => {
  const stamp = Date.now();
  const fileName = `再取り込み_${stamp}.csv`;
  const file = { name: fileName, mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF店舗名,電話番号,住所,ジャンル,カテゴリ\nE2E 再取り込み ${stamp},078-999-0000,神戸市中央区元町通9-9,グルメ,地元グルメ\n`) };
  await signInQuickly(page, 'operator', '/kobe/import/upload');
  const importOnce = async () => {
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByRole('button', { name: '内容を確認' }).click();
    await expect(page.getByTestId('dry-run')).toContainText('文字コード UTF-8');
  };

  await importOnce();
  await expect(page.getByText('このファイルは以前にインポートされています。')).toHaveCount(0);
  await page.getByRole('button', { name: 'インポート', exact: true }).click();
  await expect(page.getByTestId('import-result')).toHaveAttribute('data-status', 'success');
  await page.getByRole('button', { name: '続けてインポート' }).click();

  await importOnce();
  await expect(page.getByText('このファイルは以前にインポートされています。')).toBeVisible();
  // The page's button (the question's own button, in a popover outside the page, is named alike).
  const importButton = page.getByTestId('tab-page').getByRole('button', { name: 'インポート', exact: true });
  await importButton.click();
  const ask = page.locator('.ant-popover:visible');
  await expect(ask).toContainText('同じファイルをもう一度インポートしますか？');
  await clickInPopup(ask.getByRole('button', { name: 'キャンセル' }));
  await expect(ask).toHaveCount(0);
  await expect(page.getByTestId('import-run')).toHaveCount(0);
  await importButton.click();
  await clickInPopup(ask.getByRole('button', { name: 'インポート' }));
  await expect(page.getByTestId('import-result')).toHaveAttribute('data-status', 'success');
  const history = await page.request.get('/kobe/api/admin-tools/list-imported/', { params: { search: String(stamp) } });
  expect((await history.json()).content).toHaveLength(2);
});

test('a file still being sent shows the bytes sent, and cancelling stops the upload: nothing is stored', async ({ page, context }) => {
  const stamp = Date.now();
  await signInQuickly(page, 'operator', '/kobe/import/upload');
  const rows = Array.from({ length: 20_000 }, (_, i) => `E2E 送信中止 ${stamp} ${i},078-000-0000,神戸市中央区元町通${i},グルメ,地元グルメ`);
  const fileName = `送信中止_${stamp}.csv`;
  await page.locator('input[type=file]').setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(['店舗名,電話番号,住所,ジャンル,カテゴリ', ...rows].join('\n')) });
  // A slow uplink (200 KB/s) keeps the 2.2 MB file in flight for about ten seconds.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 10_000_000, uploadThroughput: 200 * 1024 });
  await page.getByRole('button', { name: '内容を確認' }).click();
  const sending = page.getByTestId('sending-progress');
  await expect(sending).toContainText(/ファイルを送信しています（[\d.,]+ (B|KB|MB) \/ 2\.\d MB）/);
  await expect(sending.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow', '0');
  await sending.getByRole('button', { name: '中止' }).click();
  await expect(page.getByText('送信を中止しました。何も登録していません。')).toBeVisible();
  await expect(sending).toBeHidden();
  await expect(page.getByTestId('dry-run')).toHaveCount(0);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const history = await page.request.get('/kobe/api/admin-tools/list-imported/', { params: { search: String(stamp) } });
  expect((await history.json()).content).toHaveLength(0);
});

test('an Advertiser has no CSV import: not in the menu, the pages go to /401, the calls answer 403', async ({ page }) => {
  await signInQuickly(page, 'advertiser', 'kobe');
  await expect(page.getByTestId('side-menu').getByText('CSVインポート', { exact: true })).toHaveCount(0);
  await page.goto('/kobe/import/upload');
  await expect(page).toHaveURL(/\/401\?noGoBack=true$/);
  await page.goto('/kobe/import/history');
  await expect(page).toHaveURL(/\/401\?noGoBack=true$/);
  const refused = await page.request.post('/kobe/api/import-csv/?dry_run=true', {
    multipart: { file: { name: 'shops.csv', mimeType: 'text/csv', buffer: Buffer.from('店舗名\nA\n') } },
  });
  expect(refused.status()).toBe(403);
});
