/**
 * Server settings, read from the environment and checked once at start (docs/architecture.md 'The fastify/demo model':
 * "env validated at start"). Nothing else in src/server reads `process.env`.
 */
import { resolve } from 'node:path';
import { ROLES } from '../shared/roles';

/** The checked settings. Paths are absolute; `dataDir` may also be `memory://` (tests). */
/** The object-store settings (Config.s3: S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, S3_PREFIX; src/server/files/s3-file-store.ts). */
export interface S3Settings {
  bucket: string;
  endpoint: string | null;
  region: string;
  forcePathStyle: boolean;
  /** Key prefix, '' or ending in '/'. */
  prefix: string;
}

export interface Config {
  /** TCP port to listen on (PORT, default 8080; 0 = any free port). */
  port: number;
  /** Interface to listen on (HOST, default 127.0.0.1). */
  host: string;
  /** PGlite data directory (DATA_DIR, default ./data), or `memory://` for an in-memory database. */
  dataDir: string;
  /** PostgreSQL connection string (DATABASE_URL); when set PGlite is not used. */
  databaseUrl: string | null;
  /** PostgreSQL schema to work in (DATABASE_SCHEMA, optional; created when missing). */
  databaseSchema: string | null;
  /** NODE_ENV as given (default `development`). */
  nodeEnv: string;
  /** NODE_ENV=production: no demo users or demo content are seeded. */
  production: boolean;
  /** HS256 secret of access tokens (TOKEN_SECRET, at least 32 characters); null = generated and kept in the database. */
  tokenSecret: string | null;
  /** Folder of the built console (CONSOLE_DIR, default dist/console). */
  consoleDir: string;
  /** Login attempts allowed per IP and minute (LOGIN_RATE_LIMIT, default 20; 0 = no limit). */
  loginRateLimit: number;
  /** Chat messages one user may send per minute (CHAT_RATE_LIMIT, default 30; 0 = no limit; src/server/chat/chat-writes.ts). */
  chatRateLimit: number;
  /** Days revisions and the recycle bin keep a row's past (REVISION_DAYS, default 400; src/server/revisions/). */
  revisionDays: number;
  /** Trust X-Forwarded-* headers from a proxy (TRUST_PROXY=1), e.g. for the Secure cookie flag behind TLS. */
  trustProxy: boolean;
  /** How long a process reuses a token's profile lookup, in ms (AUTH_CACHE_MS, default 1000; 0 = never). */
  authCacheMs: number;
  /** pino log level (LOG_LEVEL, default `warn`; requests are logged at `info`). */
  logLevel: string;
  /**
   * The maps' tile layer, a Leaflet URL template with `{z}`, `{x}`, `{y}` (and optionally `{s}`, `{r}`)
   * over http(s) (MAP_TILE_URL, default OpenStreetMap's standard tiles); null (set empty): no tile
   * layer, the offline basemap alone (docs/architecture.md 'Maps').
   */
  mapTileUrl: string | null;
  /** The tile layer's credit shown on the map (MAP_TILE_ATTRIBUTION, default `© OpenStreetMap contributors`). */
  mapTileAttribution: string;
  /** A Firebase service-account JSON file (FCM_CREDENTIALS): pushes go through FCM HTTP v1; null = the outbox provider (src/server/push/providers.ts). */
  fcmCredentials: string | null;
  /** SMTP server of outgoing mail (SMTP_URL, `smtp://user:pass@host:port` or `smtps://…`); null = mails stay in the outbox only. */
  smtpUrl: string | null;
  /** Sender of outgoing mail (MAIL_FROM, default `City Console <no-reply@localhost>`). */
  mailFrom: string;
  /** Attempts to send one mail before it is marked failed (MAIL_MAX_ATTEMPTS, default 5). */
  mailMaxAttempts: number;
  /** Delay before the second attempt of a mail, doubled after each failure (MAIL_RETRY_MS, default 60,000 ms). */
  mailRetryMs: number;
  /** Public origin of the console the mails link to (PUBLIC_URL, default `http://<HOST>:<PORT>`), without a trailing slash. */
  publicUrl: string;
  /** Origin of the residents' app that QR codes link to (APP_URL, default `https://app.example.jp`), without a trailing slash. */
  appUrl: string;
  /**
   * Roles that must sign in with a second factor (REQUIRE_MFA_ROLES, comma-separated, e.g.
   * `Administrator,Operator`; default none): a user of one without a factor enrols right after the
   * password (src/server/routes/mfa-routes.ts).
   */
  requireMfaRoles: string[];
  /**
   * Key sealing the TOTP secrets at rest (MFA_SECRET_KEY, 32 characters or more; src/server/auth/secret-box.ts).
   * null: outside production a key derived from the token secret; in production no TOTP.
   */
  mfaSecretKey: string | null;
  /** Earlier MFA_SECRET_KEY values, only to open (MFA_SECRET_KEY_PREVIOUS, comma-separated; key rotation). */
  mfaSecretKeysPrevious: string[];
  /** WebAuthn relying party id (WEBAUTHN_RP_ID, a host name); null = the host of each request. */
  webauthnRpId: string | null;
  /** WebAuthn origin the browser reports (WEBAUTHN_ORIGIN, e.g. https://console.example.jp); null = the request's own origin. */
  webauthnOrigin: string | null;
  /** A staff session unused this long ends at its next refresh, minutes (SESSION_IDLE_MINUTES, default 120; 0 = no idle limit). */
  sessionIdleMinutes: number;
  /** Any staff session ends this long after its sign-in, hours (SESSION_MAX_HOURS, default 336 = 14 days). */
  sessionMaxHours: number;
  /**
   * Uploads in an S3-compatible bucket (S3_BUCKET; S3_ENDPOINT, S3_REGION default `us-east-1`,
   * S3_FORCE_PATH_STYLE=1, S3_PREFIX); null = the folder `<DATA_DIR>/files` (src/server/files/file-store.ts).
   */
  s3: S3Settings | null;
  /** On SIGTERM, how long running requests may take before the process ends anyway, in ms (SHUTDOWN_GRACE_MS, default 10,000). */
  shutdownGraceMs: number;
  /**
   * A running job whose heartbeat is older than this was left by a process that died, and another
   * process takes it over, in ms (JOB_STALE_MS, default 30,000; src/server/jobs/job-runner.ts).
   */
  jobStaleMs: number;
}

/** OpenStreetMap's standard tiles and their credit: the default tile layer of the maps. */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_MAP_TILE_ATTRIBUTION = '© OpenStreetMap contributors';

/** Whether `url` is a usable tile URL template: http(s), a host, and the `{z}`, `{x}`, `{y}` placeholders. */
export function isTileUrl(url: string): boolean {
  return /^https?:\/\/[^/\s]+\/\S*$/.test(url) && ['{z}', '{x}', '{y}'].every((p) => url.includes(p));
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Thrown by `loadConfig` with one line per bad variable. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`invalid environment:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    problems.push(`${name}=${raw}: expected an integer from ${min} to ${max}`);
    return fallback;
  }
  return n;
}

/**
 * Reads and checks the settings from `env` (default `process.env`); relative paths are resolved
 * against `cwd` (default `process.cwd()`). Throws `ConfigError` naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const port = int(env, 'PORT', 8080, 0, 65535, problems);
  const loginRateLimit = int(env, 'LOGIN_RATE_LIMIT', 20, 0, 1_000_000, problems);
  const chatRateLimit = int(env, 'CHAT_RATE_LIMIT', 30, 0, 1_000_000, problems);
  const revisionDays = int(env, 'REVISION_DAYS', 400, 1, 36_500, problems);
  const authCacheMs = int(env, 'AUTH_CACHE_MS', 1000, 0, 60_000, problems);
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL: expected postgres://user@host:port/database');
  const databaseSchema = env.DATABASE_SCHEMA?.trim() || null;
  if (databaseSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) problems.push('DATABASE_SCHEMA: expected a lower-case SQL identifier');
  const tokenSecret = env.TOKEN_SECRET || null;
  if (tokenSecret && tokenSecret.length < 32) problems.push('TOKEN_SECRET: expected at least 32 characters');
  const logLevel = env.LOG_LEVEL?.trim() || 'warn';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL=${logLevel}: expected one of ${LOG_LEVELS.join(', ')}`);
  const rawDataDir = env.DATA_DIR?.trim() || './data';
  const nodeEnv = env.NODE_ENV?.trim() || 'development';
  const mapTileUrl = env.MAP_TILE_URL === undefined ? DEFAULT_MAP_TILE_URL : env.MAP_TILE_URL.trim() || null;
  if (mapTileUrl && !isTileUrl(mapTileUrl)) problems.push(`MAP_TILE_URL=${mapTileUrl}: expected an http(s) URL template with {z}, {x} and {y}, or empty for none`);
  const mapTileAttribution = env.MAP_TILE_ATTRIBUTION === undefined ? DEFAULT_MAP_TILE_ATTRIBUTION : env.MAP_TILE_ATTRIBUTION.trim();
  const mailMaxAttempts = int(env, 'MAIL_MAX_ATTEMPTS', 5, 1, 100, problems);
  const mailRetryMs = int(env, 'MAIL_RETRY_MS', 60_000, 0, 86_400_000, problems);
  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL: expected smtp://user:password@host:port or smtps://…');
  const host = env.HOST?.trim() || '127.0.0.1';
  const origin = (name: string, fallback: string) => {
    const raw = (env[name]?.trim() || fallback).replace(/\/+$/, '');
    if (!/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(raw)) problems.push(`${name}: expected an http(s) origin such as https://console.example.jp`);
    return raw;
  };
  const publicUrl = origin('PUBLIC_URL', `http://${host}:${port}`);
  const appUrl = origin('APP_URL', 'https://app.example.jp');
  const roleNames: readonly string[] = ROLES;
  const requireMfaRoles = (env.REQUIRE_MFA_ROLES ?? '').split(',').map((r) => r.trim()).filter(Boolean);
  for (const r of requireMfaRoles) if (!roleNames.includes(r)) problems.push(`REQUIRE_MFA_ROLES: unknown role ${r} (expected some of ${roleNames.join(', ')})`);
  const mfaSecretKey = env.MFA_SECRET_KEY?.trim() || null;
  if (mfaSecretKey && mfaSecretKey.length < 32) problems.push('MFA_SECRET_KEY: expected at least 32 characters');
  const mfaSecretKeysPrevious = (env.MFA_SECRET_KEY_PREVIOUS ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  const webauthnRpId = env.WEBAUTHN_RP_ID?.trim() || null;
  if (webauthnRpId && !/^[a-z0-9.-]+$/i.test(webauthnRpId)) problems.push('WEBAUTHN_RP_ID: expected a host name such as console.example.jp');
  const webauthnOrigin = env.WEBAUTHN_ORIGIN?.trim() ? origin('WEBAUTHN_ORIGIN', '') : null;
  const sessionIdleMinutes = int(env, 'SESSION_IDLE_MINUTES', 120, 0, 525_600, problems);
  const sessionMaxHours = int(env, 'SESSION_MAX_HOURS', 24 * 14, 1, 24 * 366, problems);
  const shutdownGraceMs = int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000, problems);
  const jobStaleMs = int(env, 'JOB_STALE_MS', 30_000, 1000, 3_600_000, problems);
  let s3: S3Settings | null = null;
  const bucket = env.S3_BUCKET?.trim();
  if (bucket) {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) problems.push(`S3_BUCKET=${bucket}: expected a bucket name (3 to 63 lower-case letters, digits, dots, hyphens)`);
    const endpoint = env.S3_ENDPOINT?.trim().replace(/\/+$/, '') || null;
    if (endpoint && !/^https?:\/\/[^/\s]+$/.test(endpoint)) problems.push('S3_ENDPOINT: expected an http(s) origin such as https://s3.example.jp:9000');
    let prefix = env.S3_PREFIX?.trim().replace(/^\/+/, '') ?? '';
    if (prefix && !prefix.endsWith('/')) prefix += '/';
    if (!/^[A-Za-z0-9!_.*'()/-]*$/.test(prefix)) problems.push('S3_PREFIX: expected letters, digits and / _ . - only');
    const pathStyle = env.S3_FORCE_PATH_STYLE?.trim();
    s3 = { bucket, endpoint, region: env.S3_REGION?.trim() || 'us-east-1', forcePathStyle: pathStyle === '1' || pathStyle === 'true', prefix };
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    dataDir: rawDataDir === 'memory://' ? rawDataDir : resolve(cwd, rawDataDir),
    databaseUrl,
    databaseSchema,
    nodeEnv,
    production: nodeEnv === 'production',
    tokenSecret,
    consoleDir: resolve(cwd, env.CONSOLE_DIR?.trim() || 'dist/console'),
    loginRateLimit,
    chatRateLimit,
    revisionDays,
    authCacheMs,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    logLevel,
    mapTileUrl,
    mapTileAttribution,
    fcmCredentials: env.FCM_CREDENTIALS?.trim() ? resolve(cwd, env.FCM_CREDENTIALS.trim()) : null,
    smtpUrl,
    mailFrom: env.MAIL_FROM?.trim() || 'City Console <no-reply@localhost>',
    mailMaxAttempts,
    mailRetryMs,
    publicUrl,
    appUrl,
    requireMfaRoles,
    mfaSecretKey,
    mfaSecretKeysPrevious,
    webauthnRpId,
    webauthnOrigin,
    sessionIdleMinutes,
    sessionMaxHours,
    s3,
    shutdownGraceMs,
    jobStaleMs,
  };
}
