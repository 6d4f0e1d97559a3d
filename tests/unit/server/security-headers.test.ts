// Security headers (src/server/plugins/security-headers.ts): the console's documents and the API's
// answers carry them; the hashed build files do not; HSTS only over HTTPS as a trusted proxy says.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let proxied: TestApp;
let consoleDir: string;

beforeAll(async () => {
  consoleDir = await mkdtemp(join(tmpdir(), 'console-'));
  await mkdir(join(consoleDir, 'assets'), { recursive: true });
  await writeFile(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(join(consoleDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  t = await createTestApp({ CONSOLE_DIR: consoleDir });
  proxied = await createTestApp({ CONSOLE_DIR: consoleDir, TRUST_PROXY: '1' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await proxied?.close();
  await rm(consoleDir, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Record<string, string[]> {
  return Object.fromEntries(
    String(header ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe('security headers', () => {
  it('a console page may not be framed, runs no inline or foreign script and is not sniffed', async () => {
    const page = await t.app.inject({ url: '/kobe/news', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    const csp = directives(page.headers['content-security-policy']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['script-src']).toContain("'self'");
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
    expect(csp['script-src'].filter((s) => !s.startsWith("'"))).toEqual([]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('API answers, errors included, carry them too', async () => {
    for (const url of ['/default/api/users/whoami', '/kobe/api/city/admin-news/', '/kobe/api/no-such-call/']) {
      const r = await t.app.inject({ url });
      expect(r.headers['x-content-type-options'], url).toBe('nosniff');
      expect(directives(r.headers['content-security-policy'])['frame-ancestors'], url).toEqual(["'none'"]);
    }
  });

  it('the hashed build files go without them (sent with each of a page’s files)', async () => {
    const asset = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-security-policy']).toBeUndefined();
    expect(asset.headers['x-frame-options']).toBeUndefined();
  });

  it('HSTS only on a request a trusted proxy says came over HTTPS', async () => {
    const plain = await proxied.app.inject({ url: '/kobe/news', headers: { accept: 'text/html', 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const tls = await proxied.app.inject({ url: '/kobe/news', headers: { accept: 'text/html', 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    // Without TRUST_PROXY the header of the client is not believed.
    const spoofed = await t.app.inject({ url: '/kobe/news', headers: { accept: 'text/html', 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });
});
