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
# `pkg-config --libs lodestar` alone links, and the program runs without
# LD_LIBRARY_PATH (the rpath of a prefix outside /usr) against the shared
# library of this prefix, found by its soname
if cc -std=c11 $(pkg-config --cflags lodestar) -o "$TMP/core_pc" "$SRC/tests/c/core_only.c" \
   $(pkg-config --libs lodestar) 2>"$TMP/err" && [ "$(env -u LD_LIBRARY_PATH "$TMP/core_pc")" = "9 cells, cost 8.000" ] && \
   ldd "$TMP/core_pc" | grep -q "liblodestar.so.0 => $PREFIX/lib/liblodestar.so.0"; then ok; else
  ko "core_only.c with \$(pkg-config --libs lodestar) alone: $(head -c 300 "$TMP/err") $(ldd "$TMP/core_pc" 2>&1 | grep lodestar)"; fi
# one version everywhere: lds_version(), the command, pkg-config, the soname
ver=$("$LDS" --version | awk '{print $2}')
case "$ver" in [0-9]*.[0-9]*.[0-9]*) ok ;; *) ko "lodestar --version: '$ver'" ;; esac
for pc in lodestar lodestar-io lodestar-runtime; do
  v=$(pkg-config --modversion $pc 2>&1)
  [ "$v" = "$ver" ] && ok || ko "pkg-config --modversion $pc: '$v', lodestar --version: '$ver'"
done
[ -f "$PREFIX/lib/liblodestar.so.$ver" ] && [ "$(readlink "$PREFIX/lib/liblodestar.so.0")" = "liblodestar.so.$ver" ] && \
  readelf -d "$PREFIX/lib/liblodestar.so.$ver" | grep -q 'SONAME.*\[liblodestar.so.0\]' && ok || \
  ko "liblodestar.so.$ver with soname liblodestar.so.0 not installed"
# the embedding runtime through lodestar-runtime.pc: the example host builds and runs
if cc -std=c11 $(pkg-config --cflags lodestar-runtime) -o "$TMP/host" "$SRC/examples/host/example.c" \
   $(pkg-config --libs lodestar-runtime) 2>"$TMP/err" && \
   (cd "$SRC" && "$TMP/host" >"$TMP/out" 2>"$TMP/err2") && grep -q "^done: 3 C requests" "$TMP/out"; then ok; else
  ko "examples/host/example.c with pkg-config lodestar-runtime: $(head -c 300 "$TMP/err") $(head -c 300 "$TMP/err2" 2>/dev/null)"; fi
# CMake: find_package(lodestar) from the prefix, a program on lodestar::lodestar
# and one on lodestar::io
if command -v cmake >/dev/null 2>&1; then
  mkdir -p "$TMP/cm"
  cp "$SRC/tests/c/core_only.c" "$SRC/tests/c/io_only.c" "$TMP/cm/"
  cat >"$TMP/cm/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.10)
project(uses_lodestar C)
find_package(lodestar $ver REQUIRED)
add_executable(core_only core_only.c)
target_link_libraries(core_only PRIVATE lodestar::lodestar)
add_executable(io_only io_only.c)
target_link_libraries(io_only PRIVATE lodestar::io)
CMAKE
  if cmake -S "$TMP/cm" -B "$TMP/cm/b" -DCMAKE_PREFIX_PATH="$PREFIX" >"$TMP/cmake.log" 2>&1 && \
     cmake --build "$TMP/cm/b" >>"$TMP/cmake.log" 2>&1 && \
     [ "$("$TMP/cm/b/core_only")" = "9 cells, cost 8.000" ] && [ "$("$TMP/cm/b/io_only" "$MAP")" = "247x167" ]; then ok; else
    ko "find_package(lodestar): $(tail -c 600 "$TMP/cmake.log")"; fi
  # an incompatible version is refused
  sed -i "s/find_package(lodestar $ver REQUIRED)/find_package(lodestar 99.0 REQUIRED)/" "$TMP/cm/CMakeLists.txt"
  if cmake -S "$TMP/cm" -B "$TMP/cm/b2" -DCMAKE_PREFIX_PATH="$PREFIX" >"$TMP/cmake2.log" 2>&1; then
    ko "find_package(lodestar 99.0) accepted version $ver"; else ok; fi
else
  echo "install: cmake not installed: find_package(lodestar) not checked (make deps installs it)"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
