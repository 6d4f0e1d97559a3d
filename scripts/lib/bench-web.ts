/**
 * The browser figures of `npm run bench` (`-- web`), measured against the server as shipped: builds
 * the console when stale, starts `npm start`'s script on a free port with a new PGlite database,
 * makes the rows the scenarios need through the API, then measures every scenario of pages.ts:
 * Lighthouse audits (desktop and mobile presets), the JavaScript transferred, and sidebar clicks.
 * Prints the details as it goes and returns the budget rows; a failed measurement becomes an 'n/a'
 * row, not an exception. The server and every browser are stopped at the end.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { demoFileNames, DEMO_FILES_DIR } from '../../src/server/files/demo-files';
import { getResource, type ResourceDef } from '../../src/shared/registry';
import { kb, limitRow, ms, passRow, type BudgetRow } from './budget';
import { ensureConsoleBuild, startConsoleServer } from './console-server';
import { measureJsTransfer } from './js-transfer';
import { auditPage, CHROME_FLAGS, CHROME_PATH, LIGHTHOUSE_RUNS, type FormFactor, type LighthouseFigures, type SignIn } from './lighthouse-audit';
import { BENCH_USER, PAGE_SCENARIOS, SIDEBAR_CLICKS, type PageScenario } from './pages';
import { sampleRecord } from './sample-record';
import { measureSidebarClicks, median } from './sidebar-click';

const score = (n: number) => n.toFixed(2);

function message(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}

/**
 * Makes sure the user's city holds at least `rows` rows of `resource`, creating the missing ones
 * with the resource's create call (records from its schema, as the API bench seeds them; a field
 * that takes an uploaded file gets a demo picture uploaded through the files API). Throws when the
 * sign-in or a call is refused.
 */
export async function ensureRows(origin: string, resource: string, rows: number, user: SignIn): Promise<void> {
  const login = await fetch(`${origin}/default/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: user.username, password: user.password }) });
  if (!login.ok) throw new Error(`sign-in as ${user.username} answered ${login.status}`);
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}`, 'content-type': 'application/json' };
  const def = getResource(resource);
  const listUrl = `${origin}${def.api.list.path.replace('{city}', user.city)}?limit=1&offset=0`;
  const list = await fetch(listUrl, { headers });
  if (!list.ok) throw new Error(`GET ${listUrl} answered ${list.status}`);
  const have = ((await list.json()) as { total_length: number }).total_length;
  if (!def.api.create) throw new Error(`${resource} has no create call to make rows with`);
  const createUrl = `${origin}${def.api.create.path.replace('{city}', user.city)}`;
  const now = Date.now();
  const uploads = have < rows ? await uploadedFileFields(origin, def, user.city, headers.authorization) : {};
  for (let i = have; i < rows; i++) {
    const res = await fetch(createUrl, { method: 'POST', headers, body: JSON.stringify({ ...sampleRecord(def, i, now), ...uploads }) });
    if (!res.ok) throw new Error(`POST ${createUrl} answered ${res.status}: ${await res.text()}`);
  }
}

/**
 * Values for the writable `x-upload` image fields of `def` (000 5 Files: a write names files uploaded
 * through POST /{city}/api/files/): one demo picture uploaded once, its URL (or a list of it).
 */
async function uploadedFileFields(origin: string, def: ResourceDef, city: string, authorization: string): Promise<Record<string, unknown>> {
  const fields = def.writableFields.filter((name) => def.schema.properties[name]['x-upload']?.kind !== undefined && def.schema.properties[name]['x-upload']?.kind !== 'pdf');
  if (fields.length === 0) return {};
  const picture = (await demoFileNames()).find((n) => n.endsWith('.jpg'));
  if (!picture) throw new Error(`no demo picture in ${DEMO_FILES_DIR}`);
  const res = await fetch(`${origin}/${city}/api/files/?kind=image&name=bench.jpg`, { method: 'POST', headers: { authorization, 'content-type': 'image/jpeg' }, body: await readFile(join(DEMO_FILES_DIR, picture)) });
  if (res.status !== 201) throw new Error(`upload of a demo picture answered ${res.status}: ${await res.text()}`);
  const { url } = (await res.json()) as { url: string };
  return Object.fromEntries(fields.map((name) => [name, def.schema.properties[name].type === 'array' ? [url] : url]));
}

/** How a scenario is signed in: BENCH_USER, with or without its city stored; undefined when signed out. */
function signInOf(scenario: PageScenario): SignIn | undefined {
  return scenario.signedIn ? { ...BENCH_USER, storeCity: scenario.storedCity ?? true } : undefined;
}

interface Audited {
  scenario: PageScenario;
  formFactor: FormFactor;
  figures: LighthouseFigures | null;
  /** Why the figures are missing or are not of the page meant; null when they are good. */
  problem: string | null;
}

/** Lighthouse audits of every scenario and preset that has a budget, one after another. */
async function runAudits(origin: string, outDir: string): Promise<Audited[]> {
  const out: Audited[] = [];
  for (const scenario of PAGE_SCENARIOS) {
    for (const formFactor of ['desktop', 'mobile'] as const) {
      if (!scenario.lighthouse?.[formFactor]) continue;
      const started = performance.now();
      let figures: LighthouseFigures | null = null;
      let problem: string | null = null;
      try {
        figures = await auditPage(`${origin}${scenario.path}`, {
          formFactor,
          signIn: signInOf(scenario),
          evidenceSelector: scenario.ready.selector,
          outDir,
          name: scenario.name,
        });
        const finalPath = new URL(figures.finalUrl).pathname;
        if (finalPath !== scenario.path || (figures.evidenceCount ?? 0) < scenario.ready.count) {
          problem = `wrong page: ended on ${finalPath} with ${figures.evidenceCount} of ${scenario.ready.count} '${scenario.ready.selector}'`;
        } else if (figures.score === null) {
          problem = `no score: ${figures.warnings.join('; ') || 'Lighthouse gave none'}`;
        }
      } catch (err) {
        problem = `Lighthouse failed: ${message(err)}`;
      }
      const secs = ((performance.now() - started) / 1000).toFixed(0);
      if (figures) {
        console.log(
          `${`${scenario.name} ${formFactor}`.padEnd(20)} score ${figures.score === null ? '—' : score(figures.score)}  LCP ${figures.lcpMs === null ? '—' : ms(figures.lcpMs).padStart(7)}  ` +
            `TBT ${figures.tbtMs === null ? '—' : ms(figures.tbtMs).padStart(7)}  total ${figures.totalBytes === null ? '—' : kb(figures.totalBytes).padStart(9)}  ` +
            `scripts ${kb(figures.scriptBytes).padStart(9)}  text compression ${figures.textCompression ? 'passed' : `FAILED (${kb(figures.textCompressionSavingsBytes)} to save)`}  ` +
            `end: ${new URL(figures.finalUrl).pathname}, ${figures.evidenceCount} × '${scenario.ready.selector}'  ` +
            `(median of ${figures.runs} runs${figures.tbtRangeMs ? `, TBT ${ms(figures.tbtRangeMs[0])}–${ms(figures.tbtRangeMs[1])}` : ''}; ${secs} s)`,
        );
        for (const w of figures.warnings) console.log(`    warning: ${w}`);
      }
      if (problem) console.log(`${`${scenario.name} ${formFactor}`.padEnd(20)} ${problem}`);
      out.push({ scenario, formFactor, figures, problem });
    }
  }
  return out;
}

function auditRows(audited: Audited[]): BudgetRow[] {
  const rows: BudgetRow[] = [];
  for (const { scenario, formFactor, figures, problem } of audited) {
    const budget = scenario.lighthouse![formFactor]!;
    const label = `${scenario.name} ${formFactor}`;
    const good = problem ? null : figures;
    const missing = problem ?? undefined;
    rows.push(limitRow(`${label}: Lighthouse score`, good?.score ?? null, 'min', budget.minScore, score, missing));
    if (budget.maxTbtMs !== undefined) rows.push(limitRow(`${label}: TBT`, good?.tbtMs ?? null, 'max', budget.maxTbtMs, ms, missing));
    if (budget.textCompression) {
      rows.push(
        passRow(
          `${label}: text compression audit`,
          good ? good.textCompression : null,
          good?.textCompression ? 'passed' : `failed (${kb(good?.textCompressionSavingsBytes ?? 0)} to save)`,
          missing,
        ),
      );
    }
  }
  return rows;
}

async function jsRows(browser: Browser, origin: string): Promise<BudgetRow[]> {
  const rows: BudgetRow[] = [];
  for (const scenario of PAGE_SCENARIOS) {
    const figure = `JS transferred: ${scenario.name}`;
    try {
      const js = await measureJsTransfer(browser, origin, scenario.path, scenario.ready, signInOf(scenario));
      console.log(
        `${scenario.name.padEnd(20)} ${kb(js.transferredBytes).padStart(9)} transferred  ${kb(js.decodedBytes).padStart(9)} decoded  ${String(js.files).padStart(3)} files  ` +
          `content-encoding ${js.encodings.join(', ') || '—'}  (Accept-Encoding: ${js.acceptEncoding ?? '?'})`,
      );
      rows.push(limitRow(figure, js.transferredBytes, 'max', scenario.jsBudgetBytes, kb));
    } catch (err) {
      console.log(`${scenario.name.padEnd(20)} failed: ${message(err)}`);
      rows.push(limitRow(figure, null, 'max', scenario.jsBudgetBytes, kb, `failed: ${message(err)}`));
    }
  }
  return rows;
}

async function clickRows(browser: Browser, origin: string): Promise<BudgetRow[]> {
  const rows: BudgetRow[] = [];
  for (const scenario of SIDEBAR_CLICKS) {
    const figure = `${scenario.name} (median of ${scenario.targets.length})`;
    const inpFigure = `${scenario.name}: INP (web-vitals)`;
    try {
      const { warmUp, times, requests, fibers, inp } = await measureSidebarClicks(browser, origin, scenario, BENCH_USER);
      console.log(`${scenario.name}: first list of the session (${scenario.warmUp.link}, fetches the list page's code, not counted) ${ms(warmUp)}`);
      console.log(`  ${scenario.targets.map((t, i) => `${t.link} ${ms(times[i])}`).join(', ')}  (median ${ms(median(times))}, ${ms(Math.min(...times))}–${ms(Math.max(...times))})`);
      console.log(`  React fibers with each list shown (its page / the whole console): ${scenario.targets.map((t, i) => `${t.link} ${fibers[i].page} / ${fibers[i].total}`).join(', ')}`);
      // The requests each list made (its page, then one per referenced resource for the names on it).
      for (const [i, t] of scenario.targets.entries()) console.log(`  ${t.link}: ${requests[i].length} API requests: ${requests[i].join(', ')}`);
      console.log(`  INP of the session (web-vitals onINP, its ${2 * scenario.targets.length + 1} clicks): ${inp === null ? 'none reported' : ms(inp)}`);
      rows.push(limitRow(figure, median(times), 'max', scenario.budgetMs, ms));
      rows.push(limitRow(inpFigure, inp, 'max', scenario.inpBudgetMs, ms, inp === null ? 'web-vitals reported no INP' : undefined));
    } catch (err) {
      console.log(`${scenario.name}: failed: ${message(err)}`);
      rows.push(limitRow(figure, null, 'max', scenario.budgetMs, ms, `failed: ${message(err)}`));
      rows.push(limitRow(inpFigure, null, 'max', scenario.inpBudgetMs, ms, `failed: ${message(err)}`));
    }
  }
  return rows;
}

/**
 * Runs the browser part of the bench in `root` (the project folder). Resolves to the budget rows in
 * the order Lighthouse, JS transferred, sidebar clicks. Rejects only when the console cannot be
 * built or the server cannot start (nothing can be measured then); the server is stopped either way.
 */
export async function runWebBench(root: string): Promise<BudgetRow[]> {
  let t = performance.now();
  const built = await ensureConsoleBuild(root);
  console.log(built ? `console built (${built}) in ${((performance.now() - t) / 1000).toFixed(1)} s` : 'console build is current (dist/console)');
  t = performance.now();
  const server = await startConsoleServer(root);
  console.log(`npm start (scripts/start.ts) ready on ${server.url} in ${((performance.now() - t) / 1000).toFixed(1)} s, PGlite in ${server.dataDir}`);
  let browser: Browser | null = null;
  try {
    const seeds = new Map<string, number>();
    const wanted = [...PAGE_SCENARIOS.flatMap((p) => (p.seed ? [p.seed] : [])), ...SIDEBAR_CLICKS.flatMap((c) => [c.warmUp, ...c.targets].map((t) => t.seed))];
    for (const seed of wanted) seeds.set(seed.resource, Math.max(seeds.get(seed.resource) ?? 0, seed.rows));
    for (const [resource, rows] of seeds) await ensureRows(server.url, resource, rows, BENCH_USER);
    if (seeds.size) console.log(`rows in ${BENCH_USER.city}: ${[...seeds].map(([r, n]) => `${r} ≥ ${n}`).join(', ')}`);

    const outDir = join(root, '.bench-data', 'lighthouse');
    console.log(`\nLighthouse 12, performance, the median of ${LIGHTHOUSE_RUNS} runs per page and preset (Chromium ${CHROME_PATH}; reports and final screenshots in ${outDir}):`);
    const rows = auditRows(await runAudits(server.url, outDir));

    browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')) });
    console.log('\nJavaScript transferred (Chromium, cold cache, as received over the wire):');
    rows.push(...(await jsRows(browser, server.url)));
    console.log('\nsidebar click to content painted (Chromium, one signed-in session, each list opened once):');
    rows.push(...(await clickRows(browser, server.url)));
    return rows;
  } finally {
    await browser?.close().catch(() => undefined);
    await server.stop();
  }
}
