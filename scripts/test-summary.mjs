// Adds up the JSON reports of vitest and Playwright and prints the plain closing line
// 'tests: N passed, N failed' (, N skipped). A Playwright test that failed once and passed on its
// retry counts as passed and is named on a line 'flaky (passed on its retry): …' before it, so that a
// flaky test stays in sight (its first attempt's journal is in the output above). Exits 1 when
// anything failed or nothing ran.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

let passed = 0, failed = 0, skipped = 0;
const flaky = [];

/** The titles of the flaky tests of a Playwright report's suite, with their file and line. */
function flakyOf(suite, rootDir, path = []) {
  const here = suite.title ? [...path, suite.title] : path;
  for (const spec of suite.specs ?? []) {
    if (spec.tests?.some((t) => t.status === 'flaky')) flaky.push(`${relative(process.cwd(), join(rootDir, spec.file))}:${spec.line} › ${[...here.slice(1), spec.title].join(' › ')}`);
  }
  for (const child of suite.suites ?? []) flakyOf(child, rootDir, here);
}

for (const file of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in r) {
    passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  } else if (r.stats) {
    passed += r.stats.expected + (r.stats.flaky ?? 0); failed += r.stats.unexpected; skipped += r.stats.skipped;
    for (const suite of r.suites ?? []) flakyOf(suite, r.config?.rootDir ?? '');
  }
}
for (const title of flaky) console.log(`flaky (passed on its retry): ${title}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
