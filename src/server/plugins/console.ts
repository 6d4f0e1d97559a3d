/**
 * Serves the built console (CONSOLE_DIR, default dist/console) and the not-found answers:
 * - files of the build with @fastify/static (hashed `assets/` cached for a year without validators,
 *   the rest no-cache),
 *   each in the brotli or gzip form the build wrote beside it (`*.br`, `*.gz`: vite.config.ts) when
 *   the client accepts it, with `Content-Encoding` and `Vary: Accept-Encoding`;
 * - any other GET that accepts text/html and is not an API path → `index.html` (client routing, 000 2),
 *   or, while the console is not built yet, a small page 'コンソールを準備中です…' that reloads every 3 s;
 * - everything else → JSON 404 `{detail, code: 'not_found'}`.
 * The folder is read per request, so a build that lands while the server runs is served at once.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath } from '../paths';
import { sendNotFound } from './errors';

/** The page answered while the console is being built. */
export const PREPARING_HTML = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>コンソールを準備中です…</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;height:100vh;margin:0;color:#333}</style>
</head><body><p>コンソールを準備中です…</p></body></html>
`;

function wantsHtml(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html') && !isApiPath(request.url);
}

/** Registers static serving of `consoleDir` and the not-found handler. */
export async function registerConsole(app: FastifyInstance, consoleDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: consoleDir,
    prefix: '/',
    wildcard: true,
    index: false,
    preCompressed: true,
    // The folder may not exist until the first build lands.
    suppressWarning: true,
    setHeaders(reply) {
      reply.header('cache-control', 'no-cache');
    },
  });

  // Hashed build files never change under their name: cached for a year, never revalidated, so they
  // go without ETag, Last-Modified and Accept-Ranges (about 100 bytes on each of a page's ~100 files).
  await app.register(fastifyStatic, {
    root: join(consoleDir, 'assets'),
    prefix: '/assets/',
    wildcard: true,
    index: false,
    preCompressed: true,
    etag: false,
    lastModified: false,
    acceptRanges: false,
    decorateReply: false,
    suppressWarning: true,
    setHeaders(reply) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  const sendConsole = (reply: FastifyReply): FastifyReply => {
    if (existsSync(join(consoleDir, 'index.html'))) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return reply.code(200).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(PREPARING_HTML);
  };
  // `/` is a directory to @fastify/static (403 without a listing); it is the console's entry.
  app.get('/', (_request, reply) => sendConsole(reply));
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => (wantsHtml(request) ? sendConsole(reply) : sendNotFound(request, reply)));
}
