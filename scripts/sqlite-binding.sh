#!/usr/bin/env bash
# Builds better-sqlite3's native module for another Node.js install (one of scripts/install-node.sh) without touching
# node_modules, and prints the built file's path. The file is kept beside that Node (keyed by better-sqlite3's version),
# so a second call returns at once. scripts/test-all.sh swaps it in for the legs that run on that Node.
#   scripts/sqlite-binding.sh .ci/node/24
set -euo pipefail
cd "$(dirname "$0")/.."
node_dir=$(cd "${1:?usage: sqlite-binding.sh NODE_DIR}" && pwd)
version=$(node -p 'require("better-sqlite3/package.json").version')
out="$node_dir/better_sqlite3-$version.node"
if [[ -f $out ]]; then echo "$out"; exit 0; fi
npm_root=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
gyp="$npm_root/node_modules/node-gyp/bin/node-gyp.js"
[[ -f $gyp ]] || { echo "sqlite-binding.sh: npm's node-gyp not found at $gyp" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r node_modules/better-sqlite3 "$tmp/"
rm -rf "$tmp/better-sqlite3/build"
# node-gyp takes its options from npm_config_* first: CI sets npm_config_nodedir to the current Node's headers.
(cd "$tmp/better-sqlite3" && PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" \
  "$node_dir/bin/node" "$gyp" rebuild --release --nodedir="$node_dir" -j "$(nproc)" >"$tmp/gyp.log" 2>&1) || { tail -n 30 "$tmp/gyp.log" >&2; exit 1; }
"$node_dir/bin/node" -e 'require(process.argv[1])' "$tmp/better-sqlite3/build/Release/better_sqlite3.node"
cp "$tmp/better-sqlite3/build/Release/better_sqlite3.node" "$out.part"
mv "$out.part" "$out"
echo "$out"
