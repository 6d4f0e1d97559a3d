/**
 * Server settings, read from the environment and checked once at start (docs/architecture.md 'The fastify/demo model':
 * "env validated at start"). Nothing else in src/server reads `process.env`.
 */
import { resolve } from 'node:path';

/** The checked settings. Paths are absolute; `dataDir` may also be `memory://` (tests). */
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
  /** Trust X-Forwarded-* headers from a proxy (TRUST_PROXY=1), e.g. for the Secure cookie flag behind TLS. */
  trustProxy: boolean;
  /** How long a process reuses a token's profile lookup, in ms (AUTH_CACHE_MS, default 1000; 0 = never). */
  authCacheMs: number;
  /** pino log level (LOG_LEVEL, default `warn`; requests are logged at `info`). */
  logLevel: string;
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
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: rawDataDir === 'memory://' ? rawDataDir : resolve(cwd, rawDataDir),
    databaseUrl,
    databaseSchema,
    nodeEnv,
    production: nodeEnv === 'production',
    tokenSecret,
    consoleDir: resolve(cwd, env.CONSOLE_DIR?.trim() || 'dist/console'),
    loginRateLimit,
    chatRateLimit,
    authCacheMs,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    logLevel,
  };
}
