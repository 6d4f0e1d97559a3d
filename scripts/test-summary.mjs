// Adds up the JSON reports of vitest and Playwright and prints the plain closing line
// 'tests: N passed, N failed' (, N skipped). Exits 1 when anything failed or nothing ran.
import { readFileSync } from 'node:fs';

let passed = 0, failed = 0, skipped = 0;
for (const file of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in r) {
    passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  } else if (r.stats) {
    passed += r.stats.expected + (r.stats.flaky ?? 0); failed += r.stats.unexpected; skipped += r.stats.skipped;
  }
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
