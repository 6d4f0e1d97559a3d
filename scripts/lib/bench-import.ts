/**
 * The CSV import figures of `npm run bench` (`-- import`; 000 5 CSV import, 001 7.16): a generated
 * Shift_JIS file of shops just under 10 MB (about 50,000 rows, with 髙, ①, ㈱ and 0x5C trail bytes)
 * is checked (dry run) and imported through the API of a server running as `npm start` runs it
 * (src/server/main.ts in a child process, so its memory is its own), on a new PGlite data directory
 * and on PostgreSQL (DATABASE_URL, in a schema of its own; else a throwaway local PostgreSQL when
 * one is installed, as scripts/test.sh starts it). For each: seconds and rows per second of the check
 * and of the import (upload to `success`, the state polled every 100 ms), and the server's peak RSS
 * growth over its RSS after a small check (the routes' first use), the check's memory counted in the
 * import's too (Linux /proc: the peak counter reset before each phase, and samples every 20 ms).
 * Budgets: ≤ 5 s each, ≤ 100 MB RSS growth.
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { CSV_IMPORT_MAX_BYTES, type DryRunAnswer, type ImportState } from '../../src/shared/csv-import';
import { limitRow, type BudgetRow } from './budget';
import { dropSchema, startLocalPostgres } from './local-postgres';
import { bearerOf, memoryOf, startServer, stopServer } from './server-process';

/** Budgets of the import: seconds of the check and of the import, MB of RSS growth. */
export const IMPORT_BUDGETS = { seconds: 5, rssMb: 100 };

const HEADER = '店舗名,メールアドレス,電話番号,住所,ジャンル,カテゴリ,説明,緯度,経度,ユーザー名\r\n';
const GENRES = ['グルメ', 'グルメ>カフェ・スイーツ', 'ショッピング', '美容・健康', '暮らし・サービス'];

/** The file: Shift_JIS (CP932) shops up to just under the 10 MB limit. Answers its bytes and rows. */
export function benchFile(): { bytes: Buffer; rows: number } {
  const parts: Buffer[] = [iconv.encode(HEADER, 'cp932')];
  let size = parts[0].length;
  let rows = 0;
  for (;;) {
    const i = rows + 1;
    const line =
      `㈱髙橋ソフト①号店 ${i},shop${i}@example.jp,078-${String(i % 1000).padStart(3, '0')}-${String(i % 10000).padStart(4, '0')},` +
      `神戸市中央区元町通${(i % 7) + 1}丁目${i % 100}-${i % 10} 表示能力ビル${i % 9}F,${GENRES[i % GENRES.length]},地元グルメ,` +
      `"厳選素材の料理を落ち着いた店内で。ソース、テイクアウト可",` +
      `${(34.6 + (i % 100) / 1000).toFixed(4)},${(135.1 + (i % 100) / 1000).toFixed(4)},advertiser\r\n`;
    const bytes = iconv.encode(line, 'cp932');
    if (size + bytes.length > CSV_IMPORT_MAX_BYTES - 1024) break;
    parts.push(bytes);
    size += bytes.length;
    rows += 1;
  }
  return { bytes: Buffer.concat(parts), rows };
}

/** Peak RSS of `pid` while `work` runs: the kernel's peak counter reset first (when allowed), and samples. */
async function peakDuring<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; peak: number | null }> {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not allowed: the samples alone
  }
  let peak = 0;
  const sample = () => (peak = Math.max(peak, memoryOf(pid)?.rss ?? 0));
  const timer = setInterval(sample, 20);
  try {
    const value = await work();
    sample();
    const hwm = memoryOf(pid)?.peak;
    return { value, peak: peak > 0 ? Math.max(peak, Number.isFinite(hwm) ? hwm! : 0) : null };
  } finally {
    clearInterval(timer);
  }
}

function post(url: string, auth: Record<string, string>, bytes: Buffer, name: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return fetch(url, { method: 'POST', headers: auth, body: form });
}

interface Figures {
  label: string;
  checkSeconds: number | null;
  checkRss: number | null;
  importSeconds: number | null;
  importRss: number | null;
}

/** Checks and imports the file on one server (see the top of this file). */
async function measure(root: string, label: string, env: Record<string, string>, file: { bytes: Buffer; rows: number }): Promise<Figures> {
  const { url, child } = await startServer(root, env);
  const pid = child.pid!;
  try {
    const auth = await bearerOf(url, 'operator');
    // A small check first: the routes' first use (schema compiling) is not the import's memory, nor
    // on PGlite the start of the import's pass thread (src/server/import/pass-thread.ts), which the
    // check and the import after it share.
    await post(`${url}/kobe/api/import-csv/?dry_run=true`, auth, file.bytes.subarray(0, file.bytes.indexOf(0x0a, 4096) + 1), 'warm.csv');
    await new Promise((r) => setTimeout(r, 500));
    const base = memoryOf(pid)?.rss ?? null;
    const mb = (peak: number | null) => (peak !== null && base !== null ? (peak - base) / 1048576 : null);

    let t = performance.now();
    const check = await peakDuring(
      pid,
      async () => (await (await post(`${url}/kobe/api/import-csv/?dry_run=true`, auth, file.bytes, 'bench.csv')).json()) as DryRunAnswer,
    );
    const checkSeconds = (performance.now() - t) / 1000;
    if (check.value.rows !== file.rows || check.value.errors !== 0)
      throw new Error(`${label}: the check answered ${JSON.stringify(check.value).slice(0, 500)}`);
    console.log(
      `${label}: check ${file.rows.toLocaleString('en-US')} rows in ${checkSeconds.toFixed(2)} s (${Math.round(file.rows / checkSeconds).toLocaleString('en-US')} rows/s), peak RSS +${mb(check.peak)?.toFixed(1) ?? '?'} MB`,
    );

    t = performance.now();
    const done = await peakDuring(pid, async () => {
      const started = (await (await post(`${url}/kobe/api/import-csv/`, auth, file.bytes, 'bench.csv')).json()) as ImportState;
      for (;;) {
        const state = (await (await fetch(`${url}/kobe/api/import-csv/${started.id}/`, { headers: auth })).json()) as ImportState;
        if (state.status !== 'processing') return state;
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    const importSeconds = (performance.now() - t) / 1000;
    if (done.value.status !== 'success' || done.value.created !== file.rows) throw new Error(`${label}: the import ended ${JSON.stringify(done.value)}`);
    console.log(
      `${label}: import ${file.rows.toLocaleString('en-US')} rows in ${importSeconds.toFixed(2)} s (${Math.round(file.rows / importSeconds).toLocaleString('en-US')} rows/s), peak RSS +${mb(done.peak)?.toFixed(1) ?? '?'} MB`,
    );
    return { label, checkSeconds, checkRss: mb(check.peak), importSeconds, importRss: mb(done.peak) };
  } finally {
    await stopServer(child);
  }
}

function rowsOf(f: Figures, rows: number): BudgetRow[] {
  const s = (n: number) => `${n.toFixed(2)} s`;
  const m = (n: number) => `${n.toFixed(1)} MB`;
  const n = rows.toLocaleString('en-US');
  return [
    limitRow(`CSV import check (dry run), ${n} rows, ${f.label}`, f.checkSeconds, 'max', IMPORT_BUDGETS.seconds, s),
    limitRow(`CSV import, ${n} rows, ${f.label}`, f.importSeconds, 'max', IMPORT_BUDGETS.seconds, s),
    limitRow(
      `CSV import peak RSS growth, ${f.label}`,
      f.checkRss === null || f.importRss === null ? null : Math.max(f.checkRss, f.importRss),
      'max',
      IMPORT_BUDGETS.rssMb,
      m,
    ),
  ];
}

/** Runs the import bench in `root` (see the top of this file); prints its details and resolves to its budget rows. */
export async function runImportBench(root: string): Promise<BudgetRow[]> {
  const file = benchFile();
  console.log(
    `file: ${file.rows.toLocaleString('en-US')} shops, ${file.bytes.length.toLocaleString('en-US')} bytes of Shift_JIS (limit ${CSV_IMPORT_MAX_BYTES.toLocaleString('en-US')})`,
  );
  const out: BudgetRow[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'city-console-bench-import-'));
  try {
    // DATABASE_URL of the shell (the PostgreSQL part's) must not reach the PGlite server.
    out.push(...rowsOf(await measure(root, 'PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' }, file), file.rows));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const local = process.env.DATABASE_URL
    ? null
    : await startLocalPostgres().catch((err: Error) => (console.log(`PostgreSQL: not started (${err.message})`), null));
  const url = process.env.DATABASE_URL ?? local?.url;
  if (!url) {
    console.log('PostgreSQL: none (set DATABASE_URL or install postgresql)');
    return out;
  }
  const schema = `bench_import_${process.pid}`;
  try {
    out.push(...rowsOf(await measure(root, 'PostgreSQL', { DATABASE_URL: url, DATABASE_SCHEMA: schema }, file), file.rows));
  } finally {
    await dropSchema(url, schema);
    await local?.stop();
  }
  return out;
}
