// Error answers (001 8; docs/architecture.md 'Conventions'), the console fallback, rate limiting and settings.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config';
import { hashPassword, verifyPassword } from '../../../src/server/auth/passwords';
import { isApiPath } from '../../../src/server/paths';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let consoleDir: string;

beforeAll(async () => {
  consoleDir = await mkdtemp(join(tmpdir(), 'console-'));
  t = await createTestApp({ CONSOLE_DIR: consoleDir, LOGIN_RATE_LIMIT: '3' }, (app) => {
    app.get('/default/api/test-failure', async () => {
      throw new Error('secret internal detail');
    });
  });
});
afterAll(async () => {
  await t?.close();
  await rm(consoleDir, { recursive: true, force: true });
});

describe('error answers', () => {
  it('answers an unexpected failure with 500 and no stack or internal message', async () => {
    const r = await t.app.inject({ url: '/default/api/test-failure' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ detail: 'Server Error Occured. Please Try Again !', code: 'server_error' });
    expect(r.body).not.toContain('secret');
    expect(r.body).not.toMatch(/\bat .*\.ts/);
  });

  it('answers an unknown API route with a JSON 404', async () => {
    for (const [method, url] of [['GET', '/kobe/api/no-such-thing/'], ['POST', '/kobe/api/city/admin-news/1/extra'], ['DELETE', '/default/login/nothing']] as const) {
      const r = await t.app.inject({ method, url, headers: { accept: 'text/html' } });
      expect(r.statusCode, url).toBe(404);
      expect(r.json()).toEqual({ detail: '見つかりません。', code: 'not_found' });
    }
  });

  it('answers malformed JSON with 400', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/default/api/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('validation');
  });

  it('answers a body past its limit with 413 saying the limit, in the request\'s language', async () => {
    const payload = JSON.stringify({ username: 'x'.repeat(1_100_000), password: 'y' });
    const ja = await t.app.inject({ method: 'POST', url: '/default/api/login', headers: { 'content-type': 'application/json' }, payload });
    expect(ja.statusCode).toBe(413);
    expect(ja.json()).toEqual({ detail: '送信内容が大きすぎます。1,048,576バイトまでです。', code: 'too_large' });
    const en = await t.app.inject({ method: 'POST', url: '/default/api/login', headers: { 'content-type': 'application/json', 'accept-language': 'en' }, payload });
    expect(en.json().detail).toBe('The request is too large: at most 1,048,576 bytes.');
  });

  it('rate-limits login per IP (429 rate_limited)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/default/api/login', payload: { username: 'nobody', password: 'x' } });
      codes.push(r.statusCode);
      if (r.statusCode === 429) expect(r.json().code).toBe('rate_limited');
    }
    // The malformed-JSON test above spent one attempt.
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(2);
    expect(codes[codes.length - 1]).toBe(429);
    // The limit is per IP: another address still signs in.
    const other = await t.app.inject({ method: 'POST', url: '/default/api/login', remoteAddress: '10.0.0.9', payload: { username: 'police', password: 'demo1234' } });
    expect(other.statusCode).toBe(200);
  });
});

describe('console serving', () => {
  it('answers a preparing page while the console is not built', async () => {
    const r = await t.app.inject({ url: '/kobe/news', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.body).toContain('コンソールを準備中です…');
    expect(r.body).toContain('http-equiv="refresh" content="3"');
  });

  it('serves the build as soon as it lands, with index.html for client routes', async () => {
    await mkdir(join(consoleDir, 'assets'), { recursive: true });
    await writeFile(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    await writeFile(join(consoleDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    const page = await t.app.inject({ url: '/kobe/news?x=1', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>console</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    const root = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(root.body).toContain('<title>console</title>');
    const asset = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.app.inject({ url: '/assets/missing.js', headers: { accept: '*/*' } });
    expect(missing.statusCode).toBe(404);
  });

  it('sends the build precompressed as the client accepts it, and compresses API answers of 1 KB or more', async () => {
    const script = `export const text = ${JSON.stringify('コンソール'.repeat(400))};\n`;
    await mkdir(join(consoleDir, 'assets'), { recursive: true });
    await writeFile(join(consoleDir, 'assets', 'big-def456.js'), script);
    await writeFile(join(consoleDir, 'assets', 'big-def456.js.br'), brotliCompressSync(script));
    await writeFile(join(consoleDir, 'assets', 'big-def456.js.gz'), gzipSync(script));
    const br = await t.app.inject({ url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    // Never revalidated, so sent without validators; index.html (no-cache) keeps its ETag.
    expect(br.headers.etag).toBeUndefined();
    expect(br.headers['last-modified']).toBeUndefined();
    expect((await t.app.inject({ url: '/kobe/news', headers: { accept: 'text/html' } })).headers.etag).toBeDefined();
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await t.app.inject({ url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await t.app.inject({ url: '/assets/big-def456.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    // This suite limits sign-ins to 3 a minute per IP: sign in from an address of its own.
    const signIn = await t.app.inject({ method: 'POST', url: '/default/api/login', remoteAddress: '10.0.0.77', payload: { username: 'operator', password: 'demo1234' } });
    const operator = { authorization: `Bearer ${(signIn.json() as { token: string }).token}` };
    const list = await t.app.inject({ url: '/kobe/api/users/?limit=20&offset=0', headers: { ...operator, 'accept-encoding': 'br' } });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    const body = JSON.parse(brotliDecompressSync(list.rawPayload).toString()) as { content: unknown[] };
    expect(body.content.length).toBeGreaterThan(1);
    expect(brotliDecompressSync(list.rawPayload).length).toBeGreaterThanOrEqual(1024);
    // A small answer is not worth compressing.
    const small = await t.app.inject({ url: '/default/api/users/whoami', headers: { ...operator, 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('paths, settings and passwords', () => {
  it('tells API paths from console paths', () => {
    expect(isApiPath('/kobe/api/events/')).toBe(true);
    expect(isApiPath('/default/login/logout')).toBe(true);
    expect(isApiPath('/login')).toBe(false);
    expect(isApiPath('/login?redirect=/kobe')).toBe(false);
    expect(isApiPath('/kobe/login-event')).toBe(false);
    expect(isApiPath('/kobe/news')).toBe(false);
  });

  it('reads defaults and refuses bad settings with every problem named', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', dataDir: '/srv/app/data', consoleDir: '/srv/app/dist/console', databaseUrl: null, loginRateLimit: 20 });
    try {
      loadConfig({ PORT: 'abc', TOKEN_SECRET: 'short', DATABASE_URL: 'mysql://x' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toHaveLength(3);
    }
  });

  it('hashes passwords with scrypt and verifies them', async () => {
    const hash = await hashPassword('パスワード1234');
    expect(hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('パスワード1234', hash)).toBe(true);
    expect(await verifyPassword('パスワード1235', hash)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
    expect(hash).not.toBe(await hashPassword('パスワード1234'));
  });

});
