#!/usr/bin/env bash
# The whole test suite (`npm test`). Runs every leg in order and prints a summary:
#   unit            vitest --project unit
#   e2e-sqlite      vitest --project e2e --project e2e-timed (temp SQLite files; the timed files one at a time, after the rest)
#   e2e-mariadb     vitest --project e2e --project e2e-timed with TEST_DB_URL (default mysql://root@127.0.0.1:3306)
#   e2e-postgres    vitest --project e2e --project e2e-timed with TEST_DB_URL=TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres)
#   web-unit        the web client's tests (only when web/ has them)
#   browser         Playwright + Debian chromium (only when playwright.config.ts exists)
# Outside CI a leg whose service or tool is missing is SKIPPED with the reason; with CI=true it FAILS.
# Exits non-zero when any leg fails. The summary names each failed test (leg: file > test);
# the last line is always "N passed, N failed" (tests over all legs).
#
# Environment:
#   TEST_DB_URL         MariaDB/MySQL server for the e2e-mariadb leg (default mysql://root@127.0.0.1:3306)
#   TEST_PG_URL         PostgreSQL server for the e2e-postgres leg (default postgres://postgres@127.0.0.1:5432/postgres)
#   CHROMIUM_PATH       browser for the browser leg (default /usr/bin/chromium)
#   TEST_SKIP_BUILD=1   the browser leg does not run `npm run build` first (CI builds before testing)
#   TEST_LEGS           space-separated subset of legs to run, e.g. "unit e2e-sqlite"
#   TEST_OLDEST_NODE    folder of the oldest Node.js line package.json's `engines` admits (scripts/install-node.sh 24 DIR).
#                       With it, the unit tests run a second time on that Node (leg unit-oldest) and the legs named in
#                       TEST_OLDEST_LEGS (default "e2e-postgres") run on it instead of the current Node; better-sqlite3's
#                       native module for it is built once (scripts/sqlite-binding.sh) and swapped in for those legs only.
set -uo pipefail
cd "$(dirname "$0")/.."

CI_MODE=false
case "${CI:-}" in true | 1 | yes) CI_MODE=true ;; esac
MARIADB_URL="${TEST_DB_URL:-mysql://root@127.0.0.1:3306}"
POSTGRES_URL="${TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
LEGS="${TEST_LEGS:-unit unit-oldest e2e-sqlite e2e-mariadb e2e-postgres web-unit browser}"
OLDEST_NODE="${TEST_OLDEST_NODE:-}"
OLDEST_LEGS="${TEST_OLDEST_LEGS:-e2e-postgres}"
CURRENT_PATH="$PATH"
BINDING=node_modules/better-sqlite3/build/Release/better_sqlite3.node

OUT="$(mktemp -d)"
# The current Node's better-sqlite3 module is put back whatever happens (see use_node).
trap 'if [[ -f $OUT/current.node ]]; then cp "$OUT/current.node" "$BINDING.swap" && mv "$BINDING.swap" "$BINDING"; fi; rm -rf "$OUT"' EXIT

TOTAL_PASSED=0
TOTAL_FAILED=0
ANY_FAILED=0
SUMMARY=()
FAILURES=()

bold() { if [[ -t 1 ]]; then printf '\033[1m%s\033[0m\n' "$*"; else printf '%s\n' "$*"; fi; }
want() { [[ " $LEGS " == *" $1 "* ]]; }

# record LEG STATUS PASSED FAILED SECONDS NOTE
record() {
  local leg=$1 status=$2 passed=$3 failed=$4 secs=$5 note=${6:-}
  TOTAL_PASSED=$((TOTAL_PASSED + passed))
  TOTAL_FAILED=$((TOTAL_FAILED + failed))
  [[ $status == FAILED ]] && ANY_FAILED=1
  SUMMARY+=("$(printf '%-12s %-8s %5s passed %5s failed %6ss  %s' "$leg" "$status" "$passed" "$failed" "$secs" "$note")")
  bold ">>> $leg: $status ($passed passed, $failed failed, ${secs}s)${note:+ - $note}"
  echo
}

# A missing service/tool: SKIPPED outside CI, FAILED (counted as one failure) in CI.
unavailable() {
  local leg=$1 reason=$2
  if $CI_MODE; then
    record "$leg" FAILED 0 1 0 "$reason (required with CI=true)"
  else
    record "$leg" SKIPPED 0 0 0 "$reason"
  fi
}

# Reads "passed failed" from a vitest JSON report (or "0 0").
vitest_counts() {
  node -e '
    try {
      const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      console.log(`${j.numPassedTests ?? 0} ${j.numFailedTests ?? 0}`);
    } catch { console.log("0 0"); }' "$1"
}

# Reads "passed failed" from a Playwright JSON report (flaky tests passed on retry).
playwright_counts() {
  node -e '
    try {
      const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).stats ?? {};
      console.log(`${(s.expected ?? 0) + (s.flaky ?? 0)} ${s.unexpected ?? 0}`);
    } catch { console.log("0 0"); }' "$1"
}

# Prints "file > test name" (and the reason, indented) per failed test of a vitest JSON report (a file that failed to load counts too).
vitest_failures() {
  node -e '
    try {
      const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      const rel = (f) => require("path").relative(process.cwd(), f);
      for (const file of j.testResults ?? []) {
        const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
        // The reason (its first lines, plain) goes with the name: a CI log is often read only at its tail.
        const why = (t) => String((t.failureMessages ?? [])[0] ?? "").replace(/\x1b\[[0-9;]*m/g, "")
          .split("\n").map((l) => l.trim()).filter(Boolean).slice(0, 4).join(" | ").slice(0, 400);
        for (const t of failed) console.log(`${rel(file.name)} > ${t.fullName ?? t.title}${why(t) ? `\n      ${why(t)}` : ""}`);
        if (file.status === "failed" && failed.length === 0)
          console.log(`${rel(file.name)} > (the file failed: ${String(file.message ?? "").split("\n")[0].slice(0, 160)})`);
      }
    } catch {}' "$1"
}

# Prints "file:line > title" per test of a Playwright JSON report that failed on every try.
playwright_failures() {
  node -e '
    try {
      const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      const walk = (suite, titles) => {
        for (const spec of suite.specs ?? [])
          for (const t of spec.tests ?? [])
            if (t.status === "unexpected") {
              console.log(`${spec.file}:${spec.line} > ${[...titles, spec.title].join(" > ")} [${t.projectName}]`);
              const err = (t.results ?? []).map((r) => r.error?.message).find(Boolean);
              if (err) console.log("      " + String(err).replace(/\x1b\[[0-9;]*m/g, "").split("\n").map((l) => l.trim()).filter(Boolean).slice(0, 4).join(" | ").slice(0, 400));
            }
        for (const s of suite.suites ?? []) walk(s, [...titles, s.title]);
      };
      for (const s of j.suites ?? []) walk(s, []); // a top-level suite is a file: its title is the path
    } catch {}' "$1"
}

# remember_failures LEG < lines : keeps the failed tests' names for the summary at the end.
remember_failures() {
  local line
  while IFS= read -r line; do
    if [[ $line == "      "* ]]; then FAILURES+=("  ${line#    }"); elif [[ -n $line ]]; then FAILURES+=("$1: $line"); fi
  done
}

# finish LEG EXIT_CODE SECONDS "PASSED FAILED" [NOTE]
finish() {
  local leg=$1 rc=$2 secs=$3 counts=$4 note=${5:-}
  local passed=${counts% *} failed=${counts#* }
  if [[ $rc -eq 0 ]]; then
    record "$leg" PASSED "$passed" "$failed" "$secs" "$note"
  else
    # A run that failed without a failing test (crash, load error, no report) still counts as one failure.
    if [[ $failed -eq 0 ]]; then failed=1; note="${note:+$note; }exit code $rc without a failing test (counted as 1 failure)"; fi
    record "$leg" FAILED "$passed" "$failed" "$secs" "$note"
  fi
}

run_vitest_leg() {
  local leg=$1; shift
  local report="$OUT/$leg.json" start=$SECONDS rc=0
  bold "=== $leg: $*"
  "$@" --reporter=default --reporter=json --outputFile.json="$report" || rc=$?
  finish "$leg" "$rc" $((SECONDS - start)) "$(vitest_counts "$report")"
  remember_failures "$leg" < <(vitest_failures "$report")
}

mariadb_reachable() {
  TEST_DB_URL="$MARIADB_URL" node -e '
    const u = new URL(process.env.TEST_DB_URL);
    require("mysql2/promise").createConnection({
      host: u.hostname, port: Number(u.port || 3306),
      user: decodeURIComponent(u.username || "root"), password: decodeURIComponent(u.password),
      connectTimeout: 3000,
    }).then(async (c) => { await c.query("SELECT 1"); await c.end(); })
      .catch((e) => { console.error(e.code || e.message); process.exit(1); });' 2>"$OUT/mariadb-ping.err"
}

postgres_reachable() {
  TEST_PG_URL="$POSTGRES_URL" node -e '
    const { Client } = require("pg");
    const c = new Client({ connectionString: process.env.TEST_PG_URL, connectionTimeoutMillis: 3000 });
    c.connect().then(async () => { await c.query("SELECT 1"); await c.end(); })
      .catch((e) => { console.error(e.code || e.message); process.exit(1); });' 2>"$OUT/postgres-ping.err"
}

# use_node current|oldest : the Node.js (PATH) and better-sqlite3 module the next leg runs on.
use_node() {
  if [[ $1 == oldest ]]; then
    [[ -f $OUT/current.node ]] || cp "$BINDING" "$OUT/current.node"
    cp "$OLDEST_BINDING" "$BINDING.swap" && mv "$BINDING.swap" "$BINDING"
    PATH="$OLDEST_NODE/bin:$CURRENT_PATH"
  else
    if [[ -f $OUT/current.node ]]; then cp "$OUT/current.node" "$BINDING.swap" && mv "$BINDING.swap" "$BINDING"; fi
    PATH="$CURRENT_PATH"
  fi
  hash -r
}

# node_for LEG : switches to the oldest Node when LEG is one of TEST_OLDEST_LEGS, else to the current one; prints a note.
node_for() {
  if [[ -n $OLDEST_BINDING && " $OLDEST_LEGS " == *" $1 "* ]]; then use_node oldest; else use_node current; fi
  echo "node $(node --version)"
}

has_web_vitest_project() {
  ls vitest.config.* >/dev/null 2>&1 && grep -Eq "name:[[:space:]]*['\"]web['\"]" vitest.config.*
}

# ---------------------------------------------------------------------------------------------
echo "Test suite (CI=$CI_MODE) - legs: $LEGS"

OLDEST_BINDING=""
if [[ -z $OLDEST_NODE ]] && $CI_MODE && { want unit-oldest || [[ -n ${TEST_OLDEST_LEGS:-} ]]; }; then
  # CI proves the oldest admitted line (package.json engines, e.g. ">=24.11.0" -> 24), installed from the npm registry.
  oldest_major=$(node -p 'require("./package.json").engines.node.match(/\d+/)[0]')
  if bash scripts/install-node.sh "$oldest_major" ".ci/node/$oldest_major" >/dev/null; then OLDEST_NODE=".ci/node/$oldest_major"; fi
fi
if [[ -n $OLDEST_NODE ]]; then
  OLDEST_NODE=$(cd "$OLDEST_NODE" && pwd)
  if ! OLDEST_BINDING=$(bash scripts/sqlite-binding.sh "$OLDEST_NODE"); then
    OLDEST_BINDING=""
    record unit-oldest FAILED 0 1 0 "better-sqlite3 could not be built for $OLDEST_NODE"
  fi
fi
echo "node $(node --version)${OLDEST_BINDING:+; the oldest admitted, $("$OLDEST_NODE/bin/node" --version), runs unit-oldest and $OLDEST_LEGS}"
echo

if want unit; then
  run_vitest_leg unit npx vitest run --project unit --passWithNoTests
fi

if want unit-oldest && [[ -n $OLDEST_BINDING ]]; then
  use_node oldest
  run_vitest_leg unit-oldest npx vitest run --project unit --passWithNoTests
  SUMMARY[-1]="${SUMMARY[-1]}(node $(node --version))"
  use_node current
elif want unit-oldest && [[ -z $OLDEST_NODE ]]; then
  unavailable unit-oldest "no Node.js of the oldest admitted line (TEST_OLDEST_NODE; with CI=true it is installed into .ci/node)"
fi

if want e2e-sqlite; then
  node_for e2e-sqlite
  run_vitest_leg e2e-sqlite env -u TEST_DB_URL npx vitest run --project e2e --project e2e-timed
  use_node current
fi

if want e2e-mariadb; then
  if mariadb_reachable; then
    node_for e2e-mariadb
    run_vitest_leg e2e-mariadb env TEST_DB_URL="$MARIADB_URL" npx vitest run --project e2e --project e2e-timed
    use_node current
  else
    unavailable e2e-mariadb "MariaDB not reachable at ${MARIADB_URL} ($(tr -d '\n' <"$OUT/mariadb-ping.err" | cut -c1-80))"
  fi
fi

if want e2e-postgres; then
  if postgres_reachable; then
    node_for e2e-postgres
    run_vitest_leg e2e-postgres env TEST_DB_URL="$POSTGRES_URL" npx vitest run --project e2e --project e2e-timed
    SUMMARY[-1]="${SUMMARY[-1]}(node $(node --version))"
    use_node current
  else
    unavailable e2e-postgres "PostgreSQL not reachable at ${POSTGRES_URL} ($(tr -d '\n' <"$OUT/postgres-ping.err" | cut -c1-80))"
  fi
fi

if want web-unit; then
  web_config="$(ls web/vitest.config.* 2>/dev/null | head -n 1 || true)"
  if has_web_vitest_project; then
    run_vitest_leg web-unit npx vitest run --project web
  elif [[ -n $web_config ]]; then
    run_vitest_leg web-unit npx vitest run --config "$web_config"
  elif [[ -f web/package.json ]] && node -e 'process.exit(require("./web/package.json").scripts?.test ? 0 : 1)'; then
    start=$SECONDS; rc=0
    bold "=== web-unit: npm --prefix web test"
    npm --prefix web test || rc=$?
    finish web-unit "$rc" $((SECONDS - start)) "0 0" "test counts not available from this runner"
  else
    record web-unit SKIPPED 0 0 0 "no web client tests in this tree (web/vitest.config.* or web/package.json test script)"
  fi
fi

if want browser; then
  if ! ls playwright.config.* >/dev/null 2>&1; then
    record browser SKIPPED 0 0 0 "no playwright.config.ts in this tree"
  elif [[ ! -x $CHROMIUM ]]; then
    unavailable browser "chromium not found at $CHROMIUM (Debian: apt-get install chromium)"
  elif ! command -v openssl >/dev/null 2>&1; then
    unavailable browser "openssl not found (the certificate of the tests' .invalid hosts; Debian: apt-get install openssl)"
  elif ! node -e 'require.resolve("@playwright/test")' 2>/dev/null; then
    unavailable browser "@playwright/test is not installed (run npm install)"
  else
    start=$SECONDS; rc=0
    if [[ ${TEST_SKIP_BUILD:-} != 1 ]]; then
      bold "=== browser: npm run build (the browser tests run against the built app)"
      npm run build || rc=$?
    fi
    report="$OUT/browser.json"
    if [[ $rc -eq 0 ]]; then
      bold "=== browser: npx playwright test"
      PLAYWRIGHT_JSON_OUTPUT_FILE="$report" PLAYWRIGHT_JSON_OUTPUT_NAME="$report" \
        npx --no-install playwright test --reporter=list,json || rc=$?
    fi
    finish browser "$rc" $((SECONDS - start)) "$(playwright_counts "$report")"
    remember_failures browser < <(playwright_failures "$report")
  fi
fi

echo "================================ test summary ================================"
for line in "${SUMMARY[@]}"; do echo "$line"; done
echo "=============================================================================="
if [[ ${#FAILURES[@]} -gt 0 ]]; then
  echo "failed tests:"
  for line in "${FAILURES[@]}"; do echo "  $line"; done
fi
if [[ $ANY_FAILED -ne 0 ]]; then echo "RESULT: FAILED"; else echo "RESULT: OK"; fi
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
exit "$ANY_FAILED"
