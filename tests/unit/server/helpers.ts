/**
 * Test helpers of the server: a real database (PostgreSQL in a schema of its own when DATABASE_URL is
 * set, else in-memory PGlite started from the machine's empty-cluster template, src/server/db/pglite-template.ts) and a prepared app for `inject`.
 * On PGlite an app of the real registry starts from a seeded template (`seededTemplate`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ResourceDef } from '../../../src/shared/registry';
import { buildApp } from '../../../src/server/app';
import { loadConfig, type Config } from '../../../src/server/config';
import type { Database } from '../../../src/server/db/database';
import { openPglite } from '../../../src/server/db/pglite';
import { pgliteTemplate } from '../../../src/server/db/pglite-template';
import { openPostgres } from '../../../src/server/db/postgres';
import { prepareDatabase } from '../../../src/server/db/prepare';

export interface TestDatabase {
  db: Database;
  /** Closes the database; on PostgreSQL also drops the test schema. */
  cleanup(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../../..');
/** What a seeded database is made of: its files change the seed (the server's code, schemas, manifests, catalogues). */
const SEED_SOURCES = ['schemas', 'menus', 'locales', 'src/server', 'src/shared', 'package-lock.json'];

function filesOf(path: string): string[] {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  return statSync(full).isDirectory() ? readdirSync(full).flatMap((name) => filesOf(`${path}/${name}`)) : [path];
}

/**
 * A PGlite dump of a database prepared and seeded with the demo data as `createTestApp` makes it,
 * made once and kept beside the empty-cluster template (PGLITE_TEMPLATE_DIR, src/server/db/pglite-template.ts)
 * under a key of the seed's sources and the hour in Tokyo (the demo data is dated from now): loading
 * it takes about a second where preparing and seeding take several. Written atomically; a cache only.
 */
let sourcesHash: string | undefined;
let seeded: { file: string; dump: Blob } | undefined;

async function seededTemplate(): Promise<Blob> {
  // The sources are read once a test file (a process); the hour is read each time.
  sourcesHash ??= (() => {
    const hash = createHash('sha256');
    for (const f of SEED_SOURCES.flatMap(filesOf).sort()) hash.update(f).update(readFileSync(join(ROOT, f)));
    return hash.digest('hex');
  })();
  const key = createHash('sha256').update(sourcesHash).update(new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 13)).digest('hex');
  const file = join(process.env.PGLITE_TEMPLATE_DIR || join(tmpdir(), 'city-console'), `seeded-${key.slice(0, 16)}.tgz`);
  if (seeded?.file === file) return seeded.dump;
  if (existsSync(file)) {
    seeded = { file, dump: new Blob([await readFile(file)]) };
    return seeded.dump;
  }
  const db = await openPglite('memory://', { template: await pgliteTemplate(), handleSignals: false });
  try {
    await prepareDatabase(db, { demo: true });
    const dump = await db.dumpDataDir!();
    await mkdir(join(file, '..'), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    seeded = { file, dump };
    return dump;
  } finally {
    await db.close();
  }
}

/** Opens an empty test database: PostgreSQL (DATABASE_URL, a new schema) or in-memory PGlite (`seeded`: from the seeded template). */
export async function openTestDatabase(seeded = false): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const db = await openPostgres(url, { schema, max: 10 });
    return {
      db,
      async cleanup() {
        await db.close();
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      },
    };
  }
  const db = await openPglite('memory://', { template: seeded ? await seededTemplate() : await pgliteTemplate(), handleSignals: false });
  return { db, cleanup: () => db.close() };
}

/** Settings for tests: no login rate limit, no console build, demo data. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory://', LOGIN_RATE_LIMIT: '0', CONSOLE_DIR: join(tmpdir(), 'city-console-no-console'), ...env });
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  close(): Promise<void>;
}

/**
 * A prepared, seeded database and an app on it (not listening; use `app.inject`). `resources`
 * replaces the registry (tests of the generic mechanisms on test-only schemas).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  hook?: (app: FastifyInstance) => void,
  options: { resources?: ReadonlyMap<string, ResourceDef> } = {},
): Promise<TestApp> {
  const { db, cleanup } = await openTestDatabase(!options.resources);
  await prepareDatabase(db, { demo: true, resources: options.resources });
  const app = await buildApp({ db, config: testConfig(env), resources: options.resources });
  hook?.(app);
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await cleanup();
    },
  };
}

export interface Session {
  token: string;
  refreshToken: string;
  body: Record<string, unknown>;
  response: LightMyRequestResponse;
}

/** Signs in a demo user (password demo1234). Throws when the login is not 200. */
export async function login(app: FastifyInstance, username: string, password = 'demo1234'): Promise<Session> {
  const response = await app.inject({ method: 'POST', url: '/default/api/login', payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login ${username}: ${response.statusCode} ${response.body}`);
  const body = response.json() as Record<string, unknown>;
  return { token: String(body.token), refreshToken: String(body.refresh_token), body, response };
}

/** `Authorization: Bearer` headers of a session. */
export function bearer(session: Session): Record<string, string> {
  return { authorization: `Bearer ${session.token}` };
}
