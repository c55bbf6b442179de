#!/usr/bin/env bash
# OpenAPI drift check: regenerates the spec from the BUILT server (run `npm run build` first) into a
# temp file and compares it with the committed openapi/openapi.json.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -f dist/src/openapi-export.js ]]; then
  echo "openapi:check: dist/src/openapi-export.js is missing - run npm run build first" >&2
  exit 2
fi
if [[ ! -f openapi/openapi.json ]]; then
  echo "openapi:check: openapi/openapi.json is missing - run npm run build && npm run openapi, then commit it" >&2
  exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
node dist/src/openapi-export.js "$tmp/openapi.json" >/dev/null

if diff -u openapi/openapi.json "$tmp/openapi.json" >"$tmp/diff"; then
  echo "openapi:check: openapi/openapi.json matches the built server"
else
  echo "openapi:check: openapi/openapi.json differs from what the built server generates:" >&2
  head -n 80 "$tmp/diff" >&2
  lines=$(wc -l <"$tmp/diff")
  if (( lines > 80 )); then echo "... ($lines diff lines in total)" >&2; fi
  echo >&2
  echo "openapi:check: FAILED - the committed spec is out of date: run npm run openapi (after npm run build) and commit openapi/openapi.json" >&2
  exit 1
fi
