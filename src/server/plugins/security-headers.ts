/**
 * Security headers with @fastify/helmet on every answer but the hashed build files (docs/architecture.md
 * 'The fastify/demo model'; 001 8 errors keep their bodies, only headers are added):
 * - Content-Security-Policy: scripts only from this origin, no inline script, no plugin objects, no
 *   framing (`frame-ancestors 'none'`, with X-Frame-Options DENY for older browsers), forms and
 *   `<base>` only to this origin. Two allowances, each for a library the console uses:
 *   - `style-src 'unsafe-inline'`: antd's CSS-in-JS writes its styles into `<style>` elements at run
 *     time. A nonce instead would have to be written into index.html per answer, which the
 *     precompressed, cached index.html cannot carry; a style cannot run script.
 *   - `script-src 'unsafe-eval'`: the forms' validation (RJSF's ajv validator) compiles each schema
 *     to a function with `new Function`. No inline or foreign script is allowed.
 * - `img-src` also allows YouTube's thumbnails (img.youtube.com: a shop's video links) and the origin
 *   of the maps' tile layer (MAP_TILE_URL; a `{s}` subdomain as `*.`; none when there is none,
 *   docs/architecture.md 'Maps').
 * - X-Content-Type-Options nosniff, Referrer-Policy no-referrer, Cross-Origin-Opener-Policy and
 *   -Resource-Policy same-origin, and helmet's other defaults.
 * - Strict-Transport-Security only on requests that came over HTTPS as a trusted proxy says
 *   (TRUST_PROXY, `request.protocol`): a plain-HTTP server never announces it.
 * The hashed files under `/assets/` (scripts, styles, fonts of the build) go without them: each
 * header would be sent with every one of a page's ~140 files, and a policy applies to documents
 * (docs/performance.md 'How a page is served').
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** The origin of YouTube's video thumbnails, which a shop's video links show (GET /{city}/api/users/youtube_thumbnail, 001 7.2). */
export const YOUTUBE_THUMBNAILS = 'https://img.youtube.com';

/** The Content-Security-Policy directives of every document and answer. */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'unsafe-eval'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', YOUTUBE_THUMBNAILS],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // Requests stay on the scheme the page came with: the server may run on plain HTTP on loopback.
  upgradeInsecureRequests: null,
};

/**
 * The `img-src` source of a tile URL template (`https://{s}.tile.example.org/{z}/{x}/{y}.png` →
 * `https://*.tile.example.org`), or null for none or a template whose host is not a plain host name.
 */
export function tileImageSource(tileUrl: string | null): string | null {
  if (!tileUrl) return null;
  const m = /^(https?):\/\/([^/]+)\//.exec(tileUrl);
  if (!m) return null;
  const host = m[2].replace(/^\{s\}\./, '*.');
  return /^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(host) ? `${m[1]}://${host}` : null;
}

/** One year, in seconds: HSTS on HTTPS answers. */
const HSTS_MAX_AGE_S = 31_536_000;

/** Registers the headers, images allowed from `tileUrl`'s origin too; call before the routes and the console's files. */
export async function registerSecurityHeaders(app: FastifyInstance, tileUrl: string | null = null): Promise<void> {
  const tiles = tileImageSource(tileUrl);
  const directives = tiles ? { ...CSP_DIRECTIVES, imgSrc: [...CSP_DIRECTIVES.imgSrc, tiles] } : CSP_DIRECTIVES;
  await app.register(helmet, {
    global: false,
    contentSecurityPolicy: { useDefaults: false, directives },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: false,
  });
  // After helmet's own hook, which gives each reply its `helmet()` (the headers, set at once).
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/assets/')) reply.helmet(request.protocol === 'https' ? { strictTransportSecurity: { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true } } : undefined);
    done();
  });
}
