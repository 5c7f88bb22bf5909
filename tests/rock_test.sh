#!/bin/sh
# SPDX-License-Identifier: MIT
# rock_test.sh — `luarocks make` of this source tree (lodestar-*.rockspec)
# into a scratch tree for Lua 5.4, from a copy of the tracked files (what a
# clean clone holds), then `require "lodestar"` from that tree alone: the
# version equals the rockspec's, a path is found, the C module is the tree's.
# Prints "rock: N passed, N failed"; skipped (exit 0) when luarocks or
# lua5.4 is missing.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v luarocks >/dev/null 2>&1 || ! command -v lua5.4 >/dev/null 2>&1; then
  echo "rock: luarocks or lua5.4 not installed: skipped (make deps installs them)"
  exit 0
fi
TMP=$(mktemp -d /tmp/lds_rock.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL rock: $*" >&2; }
# a clean tree: the files git would commit (no build/)
mkdir "$TMP/src"
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar cf - 2>/dev/null) | (cd "$TMP/src" && tar xf -) || \
  cp -R "$SRC/." "$TMP/src/"
rm -rf "$TMP/src/build"
spec=$(cd "$TMP/src" && ls lodestar-*.rockspec | head -1)
[ -n "$spec" ] && ok || ko "no lodestar-*.rockspec in the tree"
if (cd "$TMP/src" && luarocks --lua-version 5.4 --tree "$TMP/tree" make "$spec") >"$TMP/log" 2>&1; then ok; else
  ko "luarocks make $spec: $(tail -c 800 "$TMP/log")"; fi
# from the tree alone: LUA_PATH/LUA_CPATH of the scratch tree, run elsewhere
eval "$(luarocks --lua-version 5.4 --tree "$TMP/tree" path)"
want=$(sed -n 's/^version = "\([^-]*\)-.*"/\1/p' "$TMP/src/$spec")
out=$(cd /tmp && lua5.4 -e '
  local l = require "lodestar"
  local core = package.searchpath("lodestar.core", package.cpath)
  local g = l.grid.from_ascii("....\n.##.\n....")
  local p = assert(l.find_path(g, 0, 0, 3, 2))
  print(l._VERSION .. " " .. (#p > 0 and "path" or "none") .. " " .. core)' 2>&1)
case "$out" in
  "$want path $TMP/tree/"*) ok ;;
  *) ko "require \"lodestar\" from the rock tree: '$out' (wanted version $want, module under $TMP/tree)" ;;
esac
echo "rock: $pass passed, $fail failed"
[ "$fail" = 0 ]
