#!/usr/bin/env bash
# `bash scripts/sqlmap-scan.sh`: scans the API of a server started here (src/server/main.ts on a fresh
# PGlite, or DATABASE_URL) with sqlmap from Debian's package, on 127.0.0.1 only: every parameter of a
# list call (search, order_by, a declared filter, the date range, limit, offset), a show call's path,
# and the sign-in body (username, password). Prints sqlmap's verdict per target and a summary;
# exits 1 when sqlmap reports an injection point. The logs are kept in test-results/sqlmap/. Takes a few minutes; not part of `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v sqlmap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends sqlmap >/dev/null; }
work=$(mktemp -d /tmp/city-console-sqlmap.XXXXXX)
port=$((57000 + RANDOM % 1000))
base="http://127.0.0.1:$port"
SKIP_CONSOLE_BUILD=1 PORT=$port DATA_DIR="$work/data" LOGIN_RATE_LIMIT=0 LOG_LEVEL=error npx tsx src/server/main.ts >"$work/server.log" 2>&1 &
server=$!
logs=test-results/sqlmap
mkdir -p "$logs"
trap 'kill $server 2>/dev/null || true; cp "$work"/*.log "$logs"/ 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do curl -sf "$base/default/api/users/whoami" >/dev/null && break; sleep 1; done
token=$(curl -sf -H 'content-type: application/json' -d '{"username":"operator","password":"demo1234"}' "$base/default/api/login" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))')
common=(--batch --dbms=PostgreSQL --level 3 --risk 2 --threads 4 --output-dir "$work/out" --disable-coloring)
found=0
scan() {
  local name=$1; shift
  echo "== $name"
  sqlmap "$@" "${common[@]}" >"$work/$name.log" 2>&1 || true
  if grep -qiE 'identified the following injection point|is vulnerable' "$work/$name.log"; then
    found=1; grep -iE 'injection point|Parameter:|Type:|Title:' "$work/$name.log"
  else
    grep -iE 'does not seem to be injectable|do not appear to be injectable' "$work/$name.log" | sed 's/^\[[0-9:]*\] //' | sort -u
    echo "  $(grep -ciE "testing '" "$work/$name.log") techniques tried; HTTP errors: $(grep -A3 'HTTP error codes' "$work/$name.log" | grep -oE '[0-9]{3} \([^)]*\) - [0-9]+ times' | paste -sd, - || true)"
  fi
}
auth=(-H "Authorization: Bearer $token")
scan list -u "$base/kobe/api/city/admin-news/?search=a&order_by=-created_at&attr=1&create_at__from=2026-01-01&create_at__to=2026-12-31&limit=20&offset=0" "${auth[@]}" -p 'search,order_by,attr,create_at__from,create_at__to,limit,offset'
scan show -u "$base/kobe/api/city/admin-news/1*/" "${auth[@]}"
scan login -u "$base/default/api/login" --data '{"username":"operator","password":"x"}' -H 'Content-Type: application/json' -p 'username,password'
if [ $found = 1 ]; then echo "sqlmap: an injection point was reported"; exit 1; fi
echo "sqlmap: nothing injectable in the list parameters, the show path and the sign-in"
