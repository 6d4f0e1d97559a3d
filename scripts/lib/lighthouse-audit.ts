/**
 * Lighthouse 12 (Node API) performance audits of one console page, in Debian's Chromium started by
 * chrome-launcher (a new Chrome per audit, killed whatever happens). A signed-in page is audited as
 * a returning user sees it: before the audit, a tab of the same Chrome signs in through the API
 * (`fetch` from a page of the console's origin, so the HttpOnly session cookies land in the browser)
 * and writes the chosen city to localStorage; Lighthouse's storage reset keeps cookies and
 * localStorage (its default `clearStorageTypes`) but empties the HTTP cache, so the page still loads
 * cold. A custom audit counts the elements of a selector at the end of the run, so a figure of the
 * login page taken for the list is caught.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { Audit, desktopConfig, Gatherer, type Artifacts, type Config, type Flags, type RunnerResult } from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { chromium } from '@playwright/test';

export const CHROME_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags of every Chrome the bench starts (headless, nothing reaching beyond the page's server). */
export const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export type FormFactor = 'desktop' | 'mobile';

export interface SignIn {
  username: string;
  password: string;
  /** Written to localStorage 'City' as the console does when a city is chosen. */
  city: string;
  /** False: nothing in localStorage 'City' (a new browser opening a city's address); default true. */
  storeCity?: boolean;
}

export interface LighthouseFigures {
  /** Performance category score, 0..1. */
  score: number | null;
  /** Largest Contentful Paint, ms. */
  lcpMs: number | null;
  /** Total Blocking Time, ms. */
  tbtMs: number | null;
  /** Every response's transfer size (headers and encoded body), bytes ('total-byte-weight'). */
  totalBytes: number | null;
  /** 'uses-text-compression' passed (score ≥ 0.9, Lighthouse's pass line, or not applicable). */
  textCompression: boolean;
  /** What compressing the text responses would still save, bytes (0 when it passed). */
  textCompressionSavingsBytes: number;
  /** Transfer size of the scripts in 'network-requests', bytes. */
  scriptBytes: number;
  /** The URL shown at the end of the run (after client-side redirects). */
  finalUrl: string;
  /** Elements matching `evidence.selector` at the end of the run (null without `evidence`). */
  evidenceCount: number | null;
  /** Files written: the final screenshot (JPEG) and the whole report (JSON). */
  screenshotPath: string | null;
  reportPath: string;
  /** Lighthouse's own warnings and runtime error, if any. */
  warnings: string[];
  /** Runs that measured the page (LIGHTHOUSE_RUNS, less those that failed); the figures are of their median run. */
  runs: number;
  /** The least and the most Total Blocking Time of those runs, ms. */
  tbtRangeMs: [number, number] | null;
}

/** Lighthouse runs per audit (LIGHTHOUSE_RUNS, default 3); the figures are its median run's (`computeMedianRun`). */
export const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS) || 3);

export interface AuditOptions {
  formFactor: FormFactor;
  /** Sign in (and choose the city) in the same Chrome before the audit. */
  signIn?: SignIn;
  /** A CSS selector whose matches are counted at the end of the run (e.g. the list's rows). */
  evidenceSelector?: string;
  /** Folder for the screenshot and the report; `name` prefixes their file names. */
  outDir: string;
  name: string;
}

const EVIDENCE_ARTIFACT = 'BenchEvidence';
const EVIDENCE_AUDIT = 'bench-evidence';

/** Counts the elements of one selector in the page once Lighthouse's navigation has settled. */
class EvidenceGatherer extends Gatherer {
  meta: Gatherer['meta'] = { supportedModes: ['navigation'] };
  constructor(private readonly selector: string) {
    super();
  }
  getArtifact(context: Parameters<Gatherer['getArtifact']>[0]): ReturnType<Gatherer['getArtifact']> {
    const count = context.driver.executionContext.evaluate((selector: string) => document.querySelectorAll(selector).length, { args: [this.selector] });
    // Lighthouse's types know only its own artifacts.
    return count as unknown as ReturnType<Gatherer['getArtifact']>;
  }
}

/** Reports the gatherer's count as the numeric value of an informative audit (not scored). */
class EvidenceAudit extends Audit {
  static get meta(): typeof Audit.meta {
    return {
      id: EVIDENCE_AUDIT,
      title: 'Elements of the bench selector at the end of the run',
      description: 'Evidence that the audited page is the one meant (e.g. a signed-in list with its rows).',
      scoreDisplayMode: Audit.SCORING_MODES.INFORMATIVE,
      requiredArtifacts: [EVIDENCE_ARTIFACT as keyof Artifacts],
    };
  }
  static audit(artifacts: Artifacts) {
    const count = (artifacts as unknown as Record<string, number>)[EVIDENCE_ARTIFACT];
    return { score: null, numericValue: count, numericUnit: 'element' as const, displayValue: String(count) };
  }
}

/** Signs in from a tab of the Chrome listening on `port` and closes that tab. Throws when refused. */
async function signInInChrome(port: number, origin: string, signIn: SignIn): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0].newPage();
    // A small same-origin JSON answer, not a console page: nothing of the console gets cached.
    await page.goto(`${origin}/default/api/users/whoami`);
    const status = await page.evaluate(async ({ username, password, city, storeCity }) => {
      const res = await fetch('/default/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
      if (storeCity === false) localStorage.removeItem('City');
      else localStorage.setItem('City', city);
      return res.status;
    }, signIn);
    if (status !== 200) throw new Error(`sign-in as ${signIn.username} answered ${status}`);
    await page.close();
  } finally {
    // Disconnects Playwright; the Chrome it did not start keeps running with its cookies.
    await browser.close();
  }
}

/**
 * Audits `url` (performance category only) with the desktop preset or the default (mobile) one.
 * Runs it LIGHTHOUSE_RUNS times in the same Chrome (a run whose trace missed the navigation's start
 * once more) and resolves to the figures of the median run; writes its final screenshot and report
 * to `outDir`. Rejects when Chrome cannot start, the sign-in is refused or Lighthouse fails; Chrome
 * is killed in every case.
 */
export async function auditPage(url: string, options: AuditOptions): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'silent', handleSIGINT: false });
  // Killed on any exit, and a Ctrl-C or SIGTERM exits (running every exit hook, e.g. the server's).
  const onExit = () => chrome.kill();
  const onSignal = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (options.signIn) await signInInChrome(chrome.port, new URL(url).origin, options.signIn);
    const base: Config = options.formFactor === 'desktop' ? desktopConfig : { extends: 'lighthouse:default' };
    const config: Config = options.evidenceSelector
      ? { ...base, artifacts: [{ id: EVIDENCE_ARTIFACT, gatherer: { instance: new EvidenceGatherer(options.evidenceSelector) } }], audits: [{ implementation: EvidenceAudit }] }
      : base;
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(options.evidenceSelector ? { onlyAudits: [EVIDENCE_AUDIT] } : {}),
    };
    // Lighthouse's figures of one load vary much on a busy machine (its own guidance: run it several
    // times and keep the median run). Each run loads the page cold again (its storage reset).
    const results: RunnerResult[] = [];
    for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
      let result = await lighthouse(url, flags, config);
      // Its trace now and then misses the navigation's start and asks to be run again (NO_NAVSTART).
      if (result?.lhr.runtimeError?.code === 'NO_NAVSTART') result = await lighthouse(url, flags, config);
      if (!result) throw new Error('Lighthouse returned no result');
      results.push(result);
    }
    const measured = results.filter((r) => !r.lhr.runtimeError);
    const result = measured.length ? (measured.find((r) => r.lhr === computeMedianRun(measured.map((m) => m.lhr))) ?? measured[0]) : results[0];
    const { lhr } = result;
    const tbts = measured.map((r) => r.lhr.audits['total-blocking-time']?.numericValue ?? NaN).filter(Number.isFinite);
    const audit = (id: string) => lhr.audits[id];
    const num = (id: string) => audit(id)?.numericValue ?? null;
    const compression = audit('uses-text-compression');
    const compressionDetails = compression?.details as { overallSavingsBytes?: number } | undefined;
    const requests = (audit('network-requests')?.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)?.items ?? [];

    await mkdir(options.outDir, { recursive: true });
    const stem = `${options.name}-${options.formFactor}`.replace(/[^\w.-]+/g, '-');
    const reportPath = join(options.outDir, `${stem}.report.json`);
    await writeFile(reportPath, typeof result.report === 'string' ? result.report : JSON.stringify(lhr));
    let screenshotPath: string | null = null;
    const shot = (audit('final-screenshot')?.details as { data?: string } | undefined)?.data;
    if (shot?.startsWith('data:image/jpeg;base64,')) {
      screenshotPath = join(options.outDir, `${stem}.final.jpg`);
      await writeFile(screenshotPath, Buffer.from(shot.slice('data:image/jpeg;base64,'.length), 'base64'));
    }
    const warnings = [...lhr.runWarnings.map(String)];
    if (lhr.runtimeError) warnings.push(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    return {
      score: lhr.categories.performance?.score ?? null,
      lcpMs: num('largest-contentful-paint'),
      tbtMs: num('total-blocking-time'),
      totalBytes: num('total-byte-weight'),
      textCompression: compression ? compression.scoreDisplayMode === 'notApplicable' || (compression.score ?? 0) >= 0.9 : false,
      textCompressionSavingsBytes: compressionDetails?.overallSavingsBytes ?? 0,
      scriptBytes: requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      finalUrl: lhr.finalDisplayedUrl,
      evidenceCount: options.evidenceSelector ? (num(EVIDENCE_AUDIT) ?? null) : null,
      screenshotPath,
      reportPath,
      warnings,
      runs: measured.length,
      tbtRangeMs: tbts.length ? [Math.min(...tbts), Math.max(...tbts)] : null,
    };
  } finally {
    process.removeListener('exit', onExit);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    chrome.kill();
  }
}
