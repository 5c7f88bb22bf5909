#!/bin/sh
# SPDX-License-Identifier: MIT
# link_test.sh BUILD: the core library does no file I/O and needs no zlib.
# - liblodestar.a has no undefined file or zlib symbol (fopen, fread, gz*...);
#   liblodestar.so needs no libz;
# - tests/c/core_only.c (grids, a map from a reader) links with the core and
#   -lm alone, static and shared, and finds its path;
# - tests/c/io_only.c links liblodestar_io.a over the shared core with -lz.
set -eu
B=${1:-build}
CC=${CC:-cc}
fails=0
checks=0
ko() { echo "FAIL link: $1"; fails=$((fails + 1)); }

bad=$(nm -u "$B/liblodestar.a" | awk '{print $NF}' | \
  grep -E '^(gz[a-z]+|fopen|fopen64|fdopen|freopen|fread|fwrite|fclose|fgets|fputs|fputc|fprintf|fscanf|fseek|ftell|fflush|ferror|feof|open|open64|read|write|close|stdin|stdout|stderr|printf|puts)$' | \
  sort -u | tr '\n' ' ') || true
[ -z "$bad" ] || ko "liblodestar.a calls file functions: $bad"
if ldd "$B/liblodestar.so" | grep -q 'libz\.'; then ko "liblodestar.so needs libz"; fi

want="9 cells, cost 8.000"
"$CC" -std=c11 -Icore -o "$B/core_only" tests/c/core_only.c "$B/liblodestar.a" -lm || ko "core_only.c does not link with liblodestar.a -lm"
out=$("$B/core_only" 2>&1) || true
[ "$out" = "$want" ] || ko "core_only (static): got '$out', expected '$want'"
"$CC" -std=c11 -Icore -o "$B/core_only_so" tests/c/core_only.c -L"$B" -llodestar -lm || ko "core_only.c does not link with -llodestar -lm"
out=$(LD_LIBRARY_PATH="$B" "$B/core_only_so" 2>&1) || true
[ "$out" = "$want" ] || ko "core_only (shared): got '$out', expected '$want'"

"$CC" -std=c11 -Icore -Iio -o "$B/io_only" tests/c/io_only.c "$B/liblodestar_io.a" -L"$B" -llodestar -lz -lm || ko "io_only.c does not link with liblodestar_io.a -llodestar -lz"
out=$(LD_LIBRARY_PATH="$B" "$B/io_only" tests/data/arena.map 2>&1) || true
[ "$out" = "49x49" ] || ko "io_only: got '$out', expected '49x49'"
out=$(LD_LIBRARY_PATH="$B" "$B/io_only" /nonexistent.map 2>&1) || true
[ "$out" = "lds_map_load: cannot open /nonexistent.map (No such file or directory)" ] || ko "io_only missing file: got '$out'"

checks=8
echo "link: $((checks - fails)) passed, $fails failed"
[ $fails -eq 0 ]
