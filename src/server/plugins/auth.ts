/**
 * Who is calling (docs/architecture.md 'Sign-in'; 001 7.1): reads the access token from `Authorization: Bearer`
 * or the `Admin-Token` cookie, checks it, loads the user and decorates the request with `profile`
 * (the shared Profile shape, null when signed out) and `tokenFamily`. Only API paths are looked at,
 * and routes marked `config.api` whose path does not look like one (`/japan/prefectures`).
 * Also decorates the instance with the token service.
 *
 * The (token → profile) lookup is kept for `config.authCacheMs` (default 1000 ms) per process: under
 * load a token's profile is read about once a second instead of on every call. The calls that come
 * while it is being read wait for that one reading: without this, every call in flight when an entry
 * expired read the profile too (under 50 connections, more readings than calls;
 * docs/performance.md 'Under load'). Any revocation or failed refresh in this process clears the
 * cache at once, and a reading begun before it is not kept; it tells the other processes (several
 * servers on one PostgreSQL) with a NOTIFY on AUTH_CACHE_CHANNEL, and they clear theirs as it
 * arrives (within milliseconds of the commit). A notification lost while a process's LISTEN
 * connection was down is covered by clearing when it is back, and by the AUTH_CACHE_MS bound.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COOKIE_ACCESS } from '../../shared/constants';
import type { ResourceDef } from '../../shared/registry';
import type { Profile } from '../../shared/roles';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { createTokenService, loadTokenSecret, type AccessClaims, type TokenService } from '../auth/tokens';
import { publish, subscribe } from '../events/live-channel';
import { isApiPath } from '../paths';
import { loadProfile } from '../repositories/user-repository';
import { isSessionUse, touchSession } from '../auth/sessions';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: Config;
    tokens: TokenService;
    /** The resources this app serves (the registry, or a test's own). */
    resources: ReadonlyMap<string, ResourceDef>;
  }
  interface FastifyRequest {
    /** The signed-in user, or null (000 3 Profile). */
    profile: Profile | null;
    /** The refresh-token family of the access token used, or null. */
    tokenFamily: string | null;
  }
}

/** The access token of a request: the Bearer token, else the `Admin-Token` cookie. */
export function accessTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+\S+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  return request.cookies?.[COOKIE_ACCESS] || null;
}

interface Cached {
  claims: AccessClaims;
  profile: Profile | null;
  until: number;
}

const CACHE_MAX_ENTRIES = 10_000;
/** The NOTIFY channel that tells every process to forget its cached profiles. */
export const AUTH_CACHE_CHANNEL = 'auth_cache';
/** Calls that write a user (001 7.1, 7.2: users, account, confirm, reset, my-number). */
const USER_WRITE = /\/api\/users\/|\/reset_password_operator\//;

/** Installs the token service and the `onRequest` hook that fills `request.profile`. */
export async function registerAuth(app: FastifyInstance, deps: { db: Database; config: Config }): Promise<void> {
  const base = createTokenService(deps.db, await loadTokenSecret(deps.db, deps.config.tokenSecret));
  const cache = new Map<string, Cached>();
  /** The readings under way, by token: later calls wait for them instead of reading again. */
  const reading = new Map<string, Promise<Cached | null>>();
  /** Bumped by every clearing, so a reading begun before one is not kept. */
  let generation = 0;
  const forgetHere = () => {
    generation++;
    cache.clear();
    reading.clear();
  };
  // Every process forgets too (several servers on one PostgreSQL, docs/deployment.md): a NOTIFY on
  // AUTH_CACHE_CHANNEL, sent once the change is committed; this process ignores its own.
  const origin = randomUUID();
  const forget = async () => {
    forgetHere();
    await publish(deps.db, AUTH_CACHE_CHANNEL, { o: origin }).catch((err: Error) => app.log.error(`auth cache: notifying the other processes failed: ${err.message}`));
  };
  const unsubscribe = await subscribe(deps.db, AUTH_CACHE_CHANNEL, (payload) => {
    if (payload.o !== origin) forgetHere();
  });
  // Notifications sent while the LISTEN connection was down are lost: forget what may have changed.
  const unrestored = deps.db.onListenRestored(forgetHere);
  app.addHook('onClose', async () => {
    unsubscribe();
    unrestored();
  });
  const ttl = deps.config.authCacheMs;
  // Revocations (logout, reuse of a spent refresh token) must end cached sessions of this process at once.
  const tokens: TokenService = {
    ...base,
    async rotateRefresh(token) {
      const next = await base.rotateRefresh(token);
      if (!next) await forget();
      return next;
    },
    async revokeFamily(family) {
      await base.revokeFamily(family);
      await forget();
    },
  };
  app.decorate('tokens', tokens);
  app.decorateRequest('profile', null);
  app.decorateRequest('tokenFamily', null);

  async function read(token: string): Promise<Cached | null> {
    const now = Date.now();
    const begun = generation;
    const claims = await tokens.verifyAccess(token);
    if (!claims) return null;
    const entry = { claims, profile: await loadProfile(deps.db, claims.userId, claims.family), until: Math.min(now + ttl, claims.expiresAt) };
    if (ttl > 0 && begun === generation) {
      if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
      cache.set(token, entry);
    }
    return entry;
  }

  async function lookup(token: string): Promise<Cached | null> {
    const hit = cache.get(token);
    if (hit && hit.until > Date.now()) return hit;
    if (ttl <= 0) return read(token);
    const pending = reading.get(token);
    if (pending) return pending;
    const started = read(token).finally(() => {
      if (reading.get(token) === started) reading.delete(token);
    });
    reading.set(token, started);
    return started;
  }

  // A write to a user (an account's own e-mail, a role, a city, a school) changes what the cached
  // profiles say: they are forgotten before the answer leaves, so the client's next call reads the
  // user again (a verification mail asked for right after a new address must see it unverified).
  app.addHook('onSend', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400 && USER_WRITE.test(request.url)) await forget();
  });

  app.addHook('onRequest', async (request) => {
    if (!isApiPath(request.url) && !request.routeOptions.config?.api) return;
    const token = accessTokenOf(request);
    if (!token) return;
    const entry = await lookup(token);
    if (!entry?.profile) return;
    request.profile = entry.profile;
    request.tokenFamily = entry.claims.family;
    // A use of the session for its idle limit (auth/sessions.ts): not the refresh, a stream or a background call.
    if (isSessionUse(request)) await touchSession(deps.db, entry.claims.family);
  });
}
