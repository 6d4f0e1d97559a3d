/**
 * CSV export of a generated list (docs/architecture.md 'Beyond the spec'): every row the current search selects, the columns shown
 * with translated headers, in UTF-8 with BOM or Shift_JIS; a cell starting with `=` is escaped.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './fixtures';
import iconv from 'iconv-lite';
import { fillPath, getResource } from '../../src/shared/registry';
import { chooseMenuItem, signInQuickly } from './helpers';

const CITY = 'kobe';
const news = getResource('news');

async function download(page: Page, choice: string): Promise<Buffer> {
  const pending = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV' }).click();
  await chooseMenuItem(page, choice);
  const file = await pending;
  expect(file.suggestedFilename()).toBe('news.csv');
  return readFile((await file.path())!);
}

test('the CSV holds the filtered rows, escapes formulas, and reads in UTF-8 and Shift_JIS', async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  for (const title of ['=1+2 EXPTEST', 'ＣＳＶ書き出し試験 EXPTEST']) {
    const res = await page.request.post(fillPath(news.api.create!.path, { city: CITY }), { data: { title, description: 'export', attr: 'event' } });
    expect(res.status()).toBe(201);
  }
  await page.goto(`/${CITY}/news?filters[0][field]=search&filters[0][operator]=contains&filters[0][value]=EXPTEST&pageSize=1`);
  await expect(page.locator('.ant-table tbody tr.ant-table-row')).toHaveCount(1);

  const utf8 = await download(page, 'CSV（UTF-8）');
  expect([...utf8.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = utf8.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(lines[0].split(',')).toEqual(['ID', 'タイトル', '種別', 'ニュース区分', '作成日時']);
  // All pages: two rows although the page shows one.
  expect(lines).toHaveLength(3);
  const titles = lines.slice(1).map((l) => l.split(',')[1]);
  expect(titles.sort()).toEqual(["'=1+2 EXPTEST", 'ＣＳＶ書き出し試験 EXPTEST']);
  expect(lines[1]).toContain('イベント');

  const sjis = await download(page, 'CSV（Shift_JIS）');
  expect(sjis[0]).not.toBe(0xef);
  const text = iconv.decode(sjis, 'Shift_JIS');
  expect(text).toContain('ＣＳＶ書き出し試験 EXPTEST');
  expect(text.split('\r\n')[0]).toBe(lines[0]);
});
