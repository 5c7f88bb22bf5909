#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# licence_test.sh — the licence travels with the code: LICENSE is the MIT
# licence, and every tracked source file (C, Lua, shell, make, the CI
# script and the tool configurations) names it in an SPDX line within its
# first three lines. Run from the repository root; prints "N passed, N failed".
set -u
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
if [ -f LICENSE ] && head -n 1 LICENSE | grep -q '^MIT License$' &&
   grep -q 'Permission is hereby granted, free of charge' LICENSE; then ok; else bad "LICENSE is not the MIT licence"; fi
while IFS= read -r -d '' f; do
  case "$f" in
    *.c|*.h|*.lua|*.sh|*.rockspec|Makefile|*/Makefile|.busted|.luacheckrc|.ci/run) ;;
    *) continue ;;
  esac
  [ -f "$f" ] || continue
  if head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT'; then ok; else bad "$f: no 'SPDX-License-Identifier: MIT' in its first 3 lines"; fi
done < <(git ls-files -z)
echo "licence: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
