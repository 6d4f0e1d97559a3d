/**
 * Lints the OpenAPI document the API serves (README 'The API'; `npm run check`): builds the app on an
 * in-memory PGlite with the real registry, asks GET /openapi.json and validates the answer with
 * @apidevtools/swagger-parser (the OpenAPI 3.1 schema, `$ref`s resolving, parameters of each path).
 * Prints the problem and exits 1 when the document is not valid; prints a summary line otherwise.
 * Usage: `npx tsx scripts/lint-openapi.ts`.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openPglite } from '../src/server/db/pglite';
import { pgliteTemplate } from '../src/server/db/pglite-template';
import { prepareDatabase } from '../src/server/db/prepare';

const db = await openPglite('memory://', { template: await pgliteTemplate(), handleSignals: false });
let failed = false;
try {
  await prepareDatabase(db, { demo: false });
  const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: 'memory://', LOGIN_RATE_LIMIT: '0', CONSOLE_DIR: join(tmpdir(), 'city-console-no-console') });
  const app = await buildApp({ db, config });
  try {
    await app.ready();
    const answer = await app.inject({ url: '/openapi.json' });
    if (answer.statusCode !== 200) throw new Error(`GET /openapi.json answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
    const doc = answer.json() as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    await SwaggerParser.validate(structuredClone(doc) as never);
    console.log(`openapi: /openapi.json is a valid OpenAPI 3.1 document (${Object.keys(doc.paths).length} paths, ${operations} operations)`);
  } finally {
    await app.close();
  }
} catch (err) {
  failed = true;
  console.error(`openapi: ${(err as Error).message}`);
} finally {
  await db.close();
}
process.exit(failed ? 1 : 0);
