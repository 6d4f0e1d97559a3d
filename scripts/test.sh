#!/usr/bin/env bash
# `npm test`: everything, on a real database and a real browser.
#  1. installs Debian's chromium, fonts-noto-cjk, postgresql and haproxy when missing (nothing else is downloaded);
#  2. `npm run check` (generated types, schema and manifest validation, type-check, lint);
#  3. unit tests on PGlite; 4. the server and contract tests again on a throwaway PostgreSQL (DATABASE_URL);
#  4b. two server processes on that PostgreSQL and s3rver behind HAProxy (tests/unit/haproxy, under a minute);
#  5. the console build and the Playwright end-to-end tests in Debian's Chromium.
# Prints 'tests: N passed, N failed' at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mkdir -p test-results
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
{ command -v fc-list >/dev/null && fc-list | grep -qi 'Noto Sans CJK'; } || need+=(fonts-noto-cjk)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
if [ ${#need[@]} -gt 0 ]; then
  echo "test: installing Debian packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

echo "== check"
npm run check

echo "== unit tests (PGlite)"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit-pglite.json

echo "== server and contract tests (PostgreSQL)"
pgbin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
pgdir=$(mktemp -d /tmp/city-console-pg.XXXXXX)
pgport=$((54000 + RANDOM % 1000))
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$pgdir"
as_pg "$pgbin/initdb" -D "$pgdir/data" -A trust -U postgres >/dev/null
as_pg "$pgbin/pg_ctl" -D "$pgdir/data" -o "-p $pgport -k $pgdir -c listen_addresses=127.0.0.1" -l "$pgdir/log" -w start >/dev/null
stop_pg() { as_pg "$pgbin/pg_ctl" -D "$pgdir/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pgdir"; }
trap stop_pg EXIT
DATABASE_URL="postgres://postgres@127.0.0.1:$pgport/postgres" \
  npx vitest run tests/unit/server tests/unit/contract --reporter=default --reporter=json --outputFile.json=test-results/unit-postgres.json

echo "== two processes behind HAProxy (PostgreSQL, s3rver)"
PATH="$PATH:/usr/sbin" HAPROXY_STAGE=1 DATABASE_URL="postgres://postgres@127.0.0.1:$pgport/postgres" \
  npx vitest run tests/unit/haproxy --reporter=default --reporter=json --outputFile.json=test-results/haproxy.json

echo "== end-to-end (Chromium)"
npm run build
PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/e2e.json npx playwright test --reporter=list,json

node "$root/scripts/test-summary.mjs" test-results/unit-pglite.json test-results/unit-postgres.json test-results/haproxy.json test-results/e2e.json
