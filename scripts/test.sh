#!/usr/bin/env bash
# Every test: server unit, server integration (PGlite, plus PostgreSQL when TEST_DATABASE_URL is set),
# client unit, and browser end-to-end in Debian's Chromium against the built app.
# Prints one closing line "N passed, N failed" over all of them.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
REPORTS=$(mktemp -d)
trap 'rm -rf "$REPORTS"' EXIT

pnpm install --frozen-lockfile --prefer-offline >/dev/null || { echo "pnpm install failed" >&2; exit 1; }
pnpm --filter @coinpurse/contract build >/dev/null || exit 1
pnpm --filter @coinpurse/client build >/dev/null || { echo "client build failed" >&2; exit 1; }

if [[ -z "${TEST_DATABASE_URL:-}" ]]; then
  echo "TEST_DATABASE_URL is not set: integration tests run on PGlite only (set it to also run them on PostgreSQL)."
fi
if [[ -z "${CHROMIUM_PATH:-}" ]] && ! command -v chromium >/dev/null; then
  echo "Chromium not found (apt-get install -y chromium): browser tests will fail." >&2
fi

status=0
run() {
  local name=$1 dir=$2
  shift 2
  echo "== $name"
  (cd "$dir" && pnpm exec vitest run "$@" --reporter=default --reporter=json --outputFile.json="$REPORTS/$name.json") || status=1
}

run server-unit packages/server --project unit
# The browser walks (one browser, one file at a time) run beside the integration files: both mostly wait on nodes,
# timers and the browser, and one after the other they took over half an hour on two cores. The walks' output is
# printed after the integration files', whole.
E2E_LOG="$REPORTS/e2e.log"
(run e2e packages/server --project e2e >"$E2E_LOG" 2>&1; echo "$status" >"$REPORTS/e2e.status") &
E2E_PID=$!
run server-integration packages/server --project integration
run client-unit packages/client
wait "$E2E_PID"
cat "$E2E_LOG"
[[ "$(cat "$REPORTS/e2e.status" 2>/dev/null)" == 0 ]] || status=1
rm -f "$E2E_LOG" "$REPORTS/e2e.status"

node -e '
// The closing lines: every failed test by suite and name with the first line of its error (a CI log may keep only
// its tail), then the totals.
const fs = require("fs"); let passed = 0, failed = 0, skipped = 0; const failures = [];
for (const f of fs.readdirSync(process.argv[1])) {
  const r = JSON.parse(fs.readFileSync(process.argv[1] + "/" + f, "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests || 0);
  for (const file of r.testResults || []) {
    for (const test of file.assertionResults || []) {
      if (test.status !== "failed") continue;
      const reason = String((test.failureMessages || [])[0] || "").split("\n").find((line) => line.trim()) || "";
      failures.push(`FAILED ${f.replace(/\.json$/, "")} ${file.name.replace(process.cwd() + "/", "")} > ${test.fullName}\n    ${reason.slice(0, 300)}`);
    }
  }
}
if (failures.length) console.log("\n" + failures.join("\n"));
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
' "$REPORTS"
exit $status
