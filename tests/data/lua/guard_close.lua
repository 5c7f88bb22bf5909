-- SPDX-License-Identifier: MIT
-- Run by tests/spec/08-states_spec.lua in a fresh interpreter: lodestar
-- objects whose searches were made while the mods' memory guard wrapped the
-- state's allocator (bindings/lua/lds_guard.c), left for lua_close to
-- finalize, in an order that finalizes the guard first. Exits 0 and prints
-- "closing" when the state closes cleanly: the guard's allocator keeps
-- forwarding after the guard's own finalizer.
--   lua5.4 tests/data/lua/guard_close.lua BUILD lua54   (luajit ... luajit)
local build, engine = ...
package.cpath = build .. "/" .. engine .. "/?.so;" .. package.cpath
package.path = "scripts/?.lua;scripts/?/init.lua;" .. package.path
local lodestar = require "lodestar"
local limit = assert(debug.getregistry()["lodestar.memory_limit"])
local keep = {}
for i = 1, 20 do keep[i] = lodestar.grid.new(16, 16) end -- made before the guard
limit(1e9) -- the guard wraps the state's allocator from here on
for i = 1, 20 do assert(lodestar.find_path(keep[i], 0, 0, 15, 15)) end -- their searches after it
limit(false)
print("closing")
