/**
 * `npm run check:data`: every stored row of every resource of the database `npm start` would open
 * (DATA_DIR, or DATABASE_URL and DATABASE_SCHEMA) checked against its resource's current schema, as a
 * write of it would be (src/server/data-check/check-rows.ts; docs/architecture.md 'Changing an
 * entity'). Prints, per resource with failing rows, how many fail and the first failures as
 * `resource id city field rule`, then a line of totals; progress on stderr when it is a terminal.
 * Reads in batches of 1,000 rows (bounded memory). PGlite: stop the server first.
 * Options: `--first N` failing rows named per resource (default 10). Exit code 1 when a row fails or
 * the database cannot be read.
 */
import { registry } from '../src/shared/registry';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/open-database';
import { tableName } from '../src/server/db/resource-tables';
import { checkData, reportLines } from '../src/server/data-check/check-rows';

const at = process.argv.indexOf('--first');
const first = at > 0 ? Number(process.argv[at + 1]) : 10;
if (!Number.isInteger(first) || first < 0) {
  console.error('check:data: --first takes a whole number');
  process.exit(1);
}

try {
  const db = await openDatabase(loadConfig(process.env), { handleSignals: true });
  try {
    // Only resources whose table exists: a resource added since the last start has no rows yet.
    const tables = new Set(
      (await db.query<{ name: string }>(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'`)).map((r) => r.name),
    );
    const resources = [...registry.values()].filter((def) => tables.has(tableName(def)));
    const tty = process.stderr.isTTY;
    const checks = await checkData(db, {
      resources,
      first,
      onProgress: ({ resource, checked, total }) => {
        if (tty) process.stderr.write(`\rcheck:data: ${resource} ${checked.toLocaleString('ja-JP')} / ${total.toLocaleString('ja-JP')} rows\x1b[K`);
      },
    });
    if (tty) process.stderr.write('\r\x1b[K');
    const lines = reportLines(checks);
    const failing = checks.some((c) => c.failing > 0);
    for (const line of lines) (failing ? console.error : console.log)(line);
    if (failing) process.exitCode = 1;
  } finally {
    await db.close();
  }
} catch (err) {
  console.error(`check:data: ${(err as Error).message}`);
  process.exit(1);
}
