/**
 * The JavaScript a page costs over the wire, as Chromium counts it: every script response's
 * `encodedDataLength` of CDP `Network.loadingFinished` (headers and body as received, compressed
 * when the server compresses), with the browser's own `Accept-Encoding`, in a new browser context
 * (empty cache).
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { SignIn } from './lighthouse-audit';

export interface JsTransfer {
  /** Script responses received. */
  files: number;
  /** Bytes over the wire (headers and encoded bodies). */
  transferredBytes: number;
  /** Bytes of the scripts once decoded. */
  decodedBytes: number;
  /** Content-Encoding values of the scripts ('identity' for none), each once. */
  encodings: string[];
  /** The Accept-Encoding the browser sent for the scripts (the first one seen). */
  acceptEncoding: string | null;
}

/**
 * A new context of `browser` (no cache, no cookies). With `signIn`, it signs in through the API
 * (the session cookies land in the context) and every page starts with the city in localStorage
 * (none when `signIn.storeCity` is false).
 * Throws when the sign-in is refused.
 */
export async function newBenchContext(browser: Browser, origin: string, signIn?: SignIn): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1350, height: 940 } });
  if (signIn) {
    const res = await context.request.post('/default/api/login', { data: { username: signIn.username, password: signIn.password } });
    if (res.status() !== 200) {
      await context.close();
      throw new Error(`sign-in as ${signIn.username} answered ${res.status()}: ${await res.text()}`);
    }
    if (signIn.storeCity !== false) await context.addInitScript((city) => localStorage.setItem('City', city), signIn.city);
  }
  return context;
}

/** Waits until at least `count` elements match `selector` (default timeout 60 s). */
export async function waitForCount(page: Page, selector: string, count: number, timeoutMs = 60_000): Promise<void> {
  await page.waitForFunction(([s, n]) => document.querySelectorAll(s as string).length >= (n as number), [selector, count] as const, { timeout: timeoutMs });
}

/** How long no script may be asked for before the page counts as loaded, ms. */
const QUIET_MS = 1500;

/**
 * Opens `path` in a new context, waits until `ready` matches and no script was asked for or arrived
 * for QUIET_MS (at most 30 s), and sums the scripts received. Rejects when the page never gets ready (the message names the URL reached).
 */
export async function measureJsTransfer(browser: Browser, origin: string, path: string, ready: { selector: string; count: number }, signIn?: SignIn): Promise<JsTransfer> {
  const context = await newBenchContext(browser, origin, signIn);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const scripts = new Map<string, { encoding: string; decoded: number; transferred: number | null }>();
    let acceptEncoding: string | null = null;
    const acceptOf = new Map<string, string>();
    // Scripts asked for and not finished, and when a script was last asked for or finished: the page
    // keeps event streams open, so Playwright's 'networkidle' never comes.
    const pending = new Set<string>();
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.type !== 'Script') return;
      pending.add(e.requestId);
      lastActivity = Date.now();
    });
    cdp.on('Network.loadingFailed', (e) => {
      if (pending.delete(e.requestId)) lastActivity = Date.now();
    });
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
      const value = Object.entries(e.headers).find(([k]) => k.toLowerCase() === 'accept-encoding')?.[1];
      if (value !== undefined) acceptOf.set(e.requestId, String(value));
    });
    cdp.on('Network.responseReceived', (e) => {
      if (e.type !== 'Script') return;
      const encoding = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
      scripts.set(e.requestId, { encoding: encoding ? String(encoding) : 'identity', decoded: 0, transferred: null });
      acceptEncoding ??= acceptOf.get(e.requestId) ?? null;
    });
    cdp.on('Network.dataReceived', (e) => {
      const s = scripts.get(e.requestId);
      if (s) s.decoded += e.dataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const s = scripts.get(e.requestId);
      if (s) s.transferred = e.encodedDataLength;
      if (pending.delete(e.requestId)) lastActivity = Date.now();
    });
    await cdp.send('Network.enable');
    await page.goto(path);
    try {
      await waitForCount(page, ready.selector, ready.count);
    } catch {
      throw new Error(`${path}: fewer than ${ready.count} '${ready.selector}' within 60 s (at ${page.url()})`);
    }
    const quietUntil = Date.now() + 30_000;
    while ((pending.size > 0 || Date.now() - lastActivity < QUIET_MS) && Date.now() < quietUntil) await page.waitForTimeout(100);
    const done = [...scripts.values()].filter((s) => s.transferred !== null);
    return {
      files: done.length,
      transferredBytes: done.reduce((sum, s) => sum + (s.transferred ?? 0), 0),
      decodedBytes: done.reduce((sum, s) => sum + s.decoded, 0),
      encodings: [...new Set(done.map((s) => s.encoding))],
      acceptEncoding,
    };
  } finally {
    await context.close();
  }
}
