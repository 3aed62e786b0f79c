#!/usr/bin/env bash
# The pages' ES modules type-checked from their JSDoc (`tsc --noEmit`, strict; TypeScript is
# a dev dependency of e2e/): every module of crates/server/assets and of each crates/*/web
# (tsconfig.json), and the service worker in a worker's scope (tsconfig.sw.json). The
# server serves them all from one folder, so a game's `./kit.js` is the platform's: the
# check runs with `rootDirs` naming every web/ folder there is, found here, so that a new
# game's pages are checked with no change outside its crates (tsconfig.json lists the
# folders of today for editors). About a second.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/e2e"
if [ ! -x node_modules/.bin/tsc ]; then
  npm ci --no-audit --no-fund
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
dirs="\"$root/crates/server/assets\""
for d in "$root"/crates/*/web; do
  [ -d "$d" ] && dirs="$dirs, \"$d\""
done
cat >"$tmp/tsconfig.json" <<JSON
{
  "extends": "$root/tsconfig.json",
  "compilerOptions": { "rootDirs": [$dirs] },
  "include": ["$root/crates/server/assets/*.js", "$root/crates/*/web/*.js"],
  "exclude": ["$root/crates/server/assets/sw.js"]
}
JSON
node_modules/.bin/tsc -p "$tmp/tsconfig.json"
node_modules/.bin/tsc -p "$root/tsconfig.sw.json"
