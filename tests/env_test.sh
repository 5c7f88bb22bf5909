#!/bin/sh
# SPDX-License-Identifier: MIT
# env_test.sh BUILD — the shell files `make` writes: after `. BUILD/env.sh`
# both lua5.4 and luajit load `require "lodestar"` (each its own core.so);
# after `. BUILD/env-luajit.sh`, luajit does; a core.so of the other engine
# on LUA_CPATH fails with a message naming the right env file.
# Prints "env: N passed, N failed".
set -u
B=${1:-build}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL env: $*" >&2; }
probe='local l = require "lodestar"; io.write(l._VERSION, " ", package.searchpath("lodestar.core", package.cpath))'
have_jit=no
[ -f "$B/luajit/lodestar/core.so" ] && command -v luajit >/dev/null 2>&1 && have_jit=yes
out=$(cd /tmp && . "$OLDPWD/$B/env.sh" && lua5.4 -e "$probe" 2>&1)
case "$out" in *"/$B/lua54/lodestar/core.so") ok ;; *) ko "lua5.4 after env.sh: $out" ;; esac
if [ "$have_jit" = yes ]; then
  out=$(cd /tmp && . "$OLDPWD/$B/env.sh" && luajit -e "$probe" 2>&1)
  case "$out" in *"/$B/luajit/lodestar/core.so") ok ;; *) ko "luajit after env.sh: $out" ;; esac
  out=$(cd /tmp && . "$OLDPWD/$B/env-luajit.sh" && luajit -e "$probe" 2>&1)
  case "$out" in *"/$B/luajit/lodestar/core.so") ok ;; *) ko "luajit after env-luajit.sh: $out" ;; esac
  # the Lua 5.4 module under LuaJIT: the message says what to source
  out=$(cd /tmp && . "$OLDPWD/$B/env.sh" && LUA_CPATH="$OLDPWD/$B/lua54/?.so;;" luajit -e "$probe" 2>&1)
  case "$out" in *"built for another Lua than this LuaJIT"*"build/env-luajit.sh"*) ok ;;
    *) ko "luajit with the Lua 5.4 module: $out" ;; esac
  # and the LuaJIT module under Lua 5.4
  out=$(cd /tmp && . "$OLDPWD/$B/env.sh" && LUA_CPATH_5_4="$OLDPWD/$B/luajit/?.so;;" lua5.4 -e "$probe" 2>&1)
  case "$out" in *"built for another Lua than this Lua 5.4"*"build/env.sh"*) ok ;;
    *) ko "lua5.4 with the LuaJIT module: $out" ;; esac
else
  echo "env: LuaJIT module or luajit missing: LuaJIT checks skipped"
fi
echo "env: $pass passed, $fail failed"
[ "$fail" = 0 ]
