-- SPDX-License-Identifier: MIT
-- LuaRocks package of lodestar: the Lua package `lodestar` (scripts/lodestar)
-- and its C module `lodestar.core` (core/, io/ and bindings/lua/ compiled
-- into one core.so). From a clone:  luarocks make   (see docs/embedding.md).
rockspec_format = "3.0"
package = "lodestar"
version = "0.2.0-1"
source = {
  url = "git+https://github.com/lodestar-pathfinding/lodestar.git",
  tag = "v0.2.0",
}
description = {
  summary = "Pathfinding runtime for games: A*, JPS, D* Lite in C, scripted in Lua",
  detailed = [[
Sliced, budgeted grid and graph searches (A*, Jump Point Search, D* Lite)
in C11, with terrain-cost layers, per-frame scheduling, path
post-processing and a sandbox for players' mods, for Lua 5.4 and LuaJIT.]],
  license = "MIT",
  labels = { "pathfinding", "games", "astar" },
}
dependencies = { "lua >= 5.1, < 5.5" }
external_dependencies = {
  ZLIB = { header = "zlib.h", library = "z" },
  PNG = { header = "png.h", library = "png" },
}
build = {
  type = "make",
  -- `make rock` builds build/rock/lodestar/core.so alone for the Lua that
  -- LuaRocks targets; `make rock-install` copies it and the package
  build_target = "rock",
  build_variables = {
    ROCK_CFLAGS = "$(CFLAGS)",
    ROCK_LIBFLAG = "$(LIBFLAG)",
    ROCK_LUA_INCDIR = "$(LUA_INCDIR)",
    ROCK_ZLIB_INCDIR = "$(ZLIB_INCDIR)",
    ROCK_ZLIB_LIBDIR = "$(ZLIB_LIBDIR)",
  },
  install_target = "rock-install",
  install_variables = {
    INST_LIBDIR = "$(LIBDIR)",
    INST_LUADIR = "$(LUADIR)",
  },
}
