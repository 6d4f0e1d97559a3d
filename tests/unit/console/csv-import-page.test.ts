/**
 * The CSV import pages' own logic (000 5 CSV rules; 001 7.16, 9): the browser refuses what the server
 * would (not .csv, empty, over 10,485,760 bytes) with messages naming the file and the limit; sizes
 * and progress read as people read them; the calls carry the file as multipart field `file` with
 * `dry_run` or `confirm_duplicate`; the pages' texts load with the pages, not with the city.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CSV_IMPORT_MAX_BYTES } from '@/shared/csv-import';
import { i18n, loadConsoleCatalogues, switchLanguage } from '@/console/i18n';
import { loadPageCatalogue } from '@/console/pages/page-catalogue';
import { checkCsv, checkCsvFile, formatBytes, importableRows, startImport } from '@/console/pages/import/import-api';
import { percentOf } from '@/console/pages/import/import-status';
import { hasFailedRows } from '@/console/pages/import/history-columns';

beforeEach(async () => {
  await i18n.changeLanguage('ja');
});
afterEach(() => vi.unstubAllGlobals());

describe('the texts of the import pages', () => {
  it('are not loaded with the city, only when a page asks for them', async () => {
    await loadConsoleCatalogues();
    expect(i18n.exists('imports.upload.title')).toBe(false);
    await loadPageCatalogue('imports');
    expect(i18n.t('imports.upload.title')).toBe('CSVインポート');
  });

  it('a language switch loads them in the new language before it takes effect', async () => {
    vi.stubGlobal('document', { documentElement: {} });
    await loadPageCatalogue('imports');
    await switchLanguage('es');
    expect(i18n.t('imports.upload.title')).toBe('Importación CSV');
    await switchLanguage('ja');
  });
});

describe('checkCsvFile', () => {
  const message = (file: { name: string; size: number }) => {
    const problem = checkCsvFile(file);
    return problem && i18n.t(problem.key, problem.params);
  };

  it('accepts a .csv of 1 byte up to 10,485,760 bytes, whatever the case of its extension', async () => {
    await loadPageCatalogue('imports');
    expect(checkCsvFile({ name: '店舗.csv', size: 1 })).toBeNull();
    expect(checkCsvFile({ name: 'SHOPS.CSV', size: CSV_IMPORT_MAX_BYTES })).toBeNull();
    expect(CSV_IMPORT_MAX_BYTES).toBe(10_485_760);
  });

  it('refuses another extension, an empty file and a byte too many, naming the file and the limit', async () => {
    await loadPageCatalogue('imports');
    expect(message({ name: 'shops.xlsx', size: 10 })).toBe('「shops.xlsx」はCSVファイルではありません。拡張子が .csv のファイルを選んでください。');
    expect(message({ name: 'shops.csv.png', size: 10 })).toContain('CSVファイルではありません');
    expect(message({ name: '空.csv', size: 0 })).toBe('「空.csv」は空のファイルです。中身のあるCSVファイルを選んでください。');
    expect(message({ name: 'big.csv', size: CSV_IMPORT_MAX_BYTES + 1 })).toBe('「big.csv」は10 MBあります。CSVファイルは10 MB（10,485,760バイト）以下にしてください。');
    expect(message({ name: 'bigger.csv', size: 11 * 1_048_576 })).toContain('は11 MBあります');
  });
});

describe('sizes and progress', () => {
  it('bytes, KB and MB with one decimal and the language separators', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(CSV_IMPORT_MAX_BYTES)).toBe('10 MB');
    expect(formatBytes(5_500_000, 'es')).toBe('5,2 MB');
  });

  it('percent rounds down, so 100 % means every row is done', () => {
    expect(percentOf(0, 5, false)).toBe(0);
    expect(percentOf(4, 5, false)).toBe(80);
    expect(percentOf(999, 1000, false)).toBe(99);
    expect(percentOf(1000, 1000, true)).toBe(100);
    expect(percentOf(0, 0, true)).toBe(100);
    expect(percentOf(0, 0, false)).toBe(0);
  });

  it('rows to import are the rows without errors; failed rows exist once an import with errors has ended', () => {
    expect(importableRows({ rows: 5, errors: 1 })).toBe(4);
    expect(importableRows({ rows: 2, errors: 2 })).toBe(0);
    expect(hasFailedRows({ status: 'partial', error_rows: 2 })).toBe(true);
    expect(hasFailedRows({ status: 'success', error_rows: 0 })).toBe(false);
    expect(hasFailedRows({ status: 'failed', error_rows: 0 })).toBe(true);
    expect(hasFailedRows({ status: 'processing', error_rows: 3 })).toBe(false);
  });
});

/** An XMLHttpRequest that records what is sent and answers `status` with `body`. */
function installXhr(status: number, body: unknown) {
  const sent: Array<{ url: string; body: unknown }> = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    withCredentials = false;
    upload = { onprogress: null as ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private url = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    abort() {
      this.onabort?.();
    }
    send(payload: unknown) {
      sent.push({ url: this.url, body: payload });
      queueMicrotask(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 10, total: 20 });
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

describe('the upload calls', () => {
  const file = new File(['店舗名\nA\n'], '店舗.csv', { type: 'text/csv' });

  it('the dry run posts the file as multipart field `file` with dry_run=true and reports the bytes sent', async () => {
    const answer = { dry_run: true, rows: 1, problems: [] };
    const sent = installXhr(200, answer);
    const progress: Array<[number, number]> = [];
    expect(await checkCsv('kobe', 'ads', file, { onProgress: (loaded, total) => progress.push([loaded, total]) })).toEqual(answer);
    expect(sent[0].url).toBe('/kobe/api/import-csv/?dry_run=true');
    expect((sent[0].body as FormData).get('file')).toBeInstanceOf(File);
    expect(((sent[0].body as FormData).get('file') as File).name).toBe('店舗.csv');
    expect(progress).toEqual([[10, 20]]);
  });

  it('the import of malls asks for a file imported before only when confirmed; a refusal carries the server message', async () => {
    let sent = installXhr(202, { id: 7, status: 'processing' });
    await startImport('kobe', 'mall', file, false);
    expect(sent[0].url).toBe('/kobe/api/import-csv-mall/');
    sent = installXhr(202, { id: 8, status: 'processing' });
    await startImport('kobe', 'mall', file, true);
    expect(sent[0].url).toBe('/kobe/api/import-csv-mall/?confirm_duplicate=true');
    installXhr(400, { code: 'validation', detail: '必須の列がありません: 店舗名' });
    await expect(checkCsv('kobe', 'ads', file)).rejects.toMatchObject({ status: 400, message: '必須の列がありません: 店舗名' });
  });

  it('an aborted upload rejects as an abort, before or while sending', async () => {
    installXhr(200, {});
    const controller = new AbortController();
    controller.abort();
    await expect(checkCsv('kobe', 'ads', file, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
