#!/bin/bash
# SPDX-License-Identifier: MIT
# install_test.sh PREFIX — checks what `make install PREFIX=...` put there:
# the installed `lodestar` loads the Lua package from PREFIX (not from this
# source tree), runs a short demo with it, and without it exits 2 with
# Lua's "module 'lodestar' not found" message; `lodestar demo` without --map,
# run outside the source tree, uses the default map installed in
# PREFIX/share/lodestar; the licence is installed in PREFIX/share/doc/lodestar;
# programs build with the installed pkg-config files (lodestar, lodestar-io).
# Prints "N passed, N failed"; exit 1 on any failure.
set -u
PREFIX=$1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL install: $*" >&2; }
SRC=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d /tmp/lds_install.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cp "$SRC/tests/data/den011d.map" "$TMP/"
cp -R "$SRC/mods" "$TMP/mods" # the example mods: user content, run by the installed runtime
LDS="$PREFIX/bin/lodestar"
PKG="$PREFIX/share/lua/5.4/lodestar"
[ -x "$LDS" ] && ok || ko "$LDS not installed"
[ -f "$PKG/init.lua" ] && ok || ko "$PKG/init.lua not installed"
# run from an unrelated folder: nothing may come from the source tree's scripts/
(cd "$TMP" && "$LDS" demo --map den011d.map --mods mods --frames 30 >"$TMP/out" 2>"$TMP/err")
rc=$?
if [ "$rc" = 0 ] && grep -q "accounting" "$TMP/out"; then ok; else ko "demo exit $rc: $(head -c 300 "$TMP/err")"; fi
# without the installed package the installed command must fail (so it was
# really loading it from PREFIX), exit 2
mv "$PKG" "$PKG.off"
(cd "$TMP" && "$LDS" demo --map den011d.map --mods mods --frames 30 >"$TMP/out" 2>"$TMP/err")
rc=$?
mv "$PKG.off" "$PKG"
if [ "$rc" = 2 ] && grep -q "module 'lodestar' not found" "$TMP/err"; then ok; else
  ko "without $PKG: exit $rc, stderr: $(head -c 300 "$TMP/err")"; fi
# the demo's default map: tests/data/den011d.map is relative to the source
# tree, so from elsewhere the installed command takes PREFIX's copy
MAP="$PREFIX/share/lodestar/den011d.map"
[ -f "$MAP" ] && cmp -s "$MAP" "$SRC/tests/data/den011d.map" && ok || ko "$MAP not installed"
mkdir "$TMP/elsewhere"
(cd "$TMP/elsewhere" && "$LDS" demo --frames 30 --agents 20 --deterministic >"$TMP/out" 2>"$TMP/err")
rc=$?
if [ "$rc" = 0 ] && grep -q "^demo: $MAP (247x167), 20 agents" "$TMP/out" && grep -q "log_hash" "$TMP/out"; then ok; else
  ko "demo without --map outside the tree: exit $rc, stdout: $(head -c 200 "$TMP/out"), stderr: $(head -c 300 "$TMP/err")"; fi
# the MIT licence travels with every installed copy
LIC="$PREFIX/share/doc/lodestar/LICENSE"
[ -f "$LIC" ] && cmp -s "$LIC" "$SRC/LICENSE" && grep -q "^MIT License" "$LIC" && ok || ko "$LIC not installed"
# the libraries through their pkg-config files: the core alone with no
# zlib (lodestar.pc), the io library with zlib over it (lodestar-io.pc)
[ -f "$PREFIX/lib/liblodestar_io.a" ] && [ -f "$PREFIX/include/lodestar/lds_io.h" ] && ok || \
  ko "liblodestar_io.a or lds_io.h not installed"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
libs=$(pkg-config --libs lodestar 2>&1)
case "$libs" in *-lz*) ko "pkg-config --libs lodestar names zlib: $libs" ;; *) ok ;; esac
if cc -std=c11 $(pkg-config --cflags lodestar) -o "$TMP/core_only" "$SRC/tests/c/core_only.c" $libs -lm \
   2>"$TMP/err" && [ "$(LD_LIBRARY_PATH="$PREFIX/lib" "$TMP/core_only")" = "9 cells, cost 8.000" ]; then ok; else
  ko "core_only.c with pkg-config lodestar: $(head -c 300 "$TMP/err")"; fi
if cc -std=c11 $(pkg-config --cflags lodestar-io) -o "$TMP/io_only" "$SRC/tests/c/io_only.c" \
   $(pkg-config --libs lodestar-io) -lm 2>"$TMP/err" && \
   [ "$(LD_LIBRARY_PATH="$PREFIX/lib" "$TMP/io_only" "$MAP")" = "247x167" ]; then ok; else
  ko "io_only.c with pkg-config lodestar-io: $(head -c 300 "$TMP/err")"; fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
