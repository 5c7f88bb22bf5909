-- SPDX-License-Identifier: MIT
-- bigmap_memory.lua — the memory of the big-map objects on one grid
-- (docs/big-maps.md, "Memory on a 4096² map"): the grid, its connectivity
-- index, a scheduler's add_grid, a path cache per tree, the hierarchy and
-- its query object, each as the library reports it (mem_used, mem_bytes,
-- bytes, info().bytes) and as the growth of the process's resident size
-- (Linux: /proc/self/statm; the pages the object touched), in MB (10^6
-- bytes).
--
--   lua5.4 tests/bench/bigmap_memory.lua MAP [WHAT [SEED]]
--
-- with LUA_PATH="scripts/?.lua;scripts/?/init.lua;;" and
-- LUA_CPATH="build/lua54/?.so". WHAT: grid, components, scheduler, cache,
-- hierarchy, or all (the default: each of them in a process of its own,
-- as freed memory may stay resident and hide the next object's growth).
-- Queries: pairs of passable cells at least a quarter of the map apart in
-- one component, drawn from SEED (default 1): the same rows every run.
-- Exit status 0; 2 on bad arguments.
local lodestar = require "lodestar"

local map, what, seed = arg[1], arg[2] or "all", tonumber(arg[3] or "1")
local kinds = {"grid", "components", "scheduler", "cache", "hierarchy"}
local known = {all = true}
for _, k in ipairs(kinds) do known[k] = true end
if not map or not known[what] or not seed then
  io.stderr:write("usage: bigmap_memory.lua MAP [grid|components|scheduler|cache|hierarchy|all [SEED]]\n")
  os.exit(2)
end

local function row(name, reported, seen, note)
  print(("%-46s %10s %10.1f  %s"):format(name, reported and ("%.1f"):format(reported / 1e6) or "-",
    seen / 1e6, note or ""))
end

if what == "all" then
  local lua = arg[-1] or "lua5.4"
  print(("%-46s %10s %10s  %s"):format("object", "library MB", "RSS MB", "note"))
  for _, k in ipairs(kinds) do
    local p = assert(io.popen(("%s %q %q %q %d"):format(lua, arg[0], map, k, seed)))
    io.write(p:read("a"))
    assert(p:close(), "bigmap_memory.lua " .. k .. " failed")
  end
  os.exit(0)
end

local function resident()
  collectgarbage("collect")
  collectgarbage("collect")
  local f = assert(io.open("/proc/self/statm", "r"))
  local pages = f:read("a"):match("^%d+%s+(%d+)")
  f:close()
  return tonumber(pages) * 4096 -- pages of 4 KiB
end

local before = resident()
local g = assert(lodestar.grid.load(map))
local W, H = g:width(), g:height()
if what == "grid" then
  row(("grid %dx%d (lodestar.grid.load)"):format(W, H), g:mem_used(), resident() - before)
  os.exit(0)
end

local rng = seed
local function rnd(n)
  rng = (rng * 1103515245 + 12345) % 2147483648
  return rng % n
end
local function free_cell()
  local x, y
  repeat x, y = rnd(W), rnd(H) until not g:blocked(x, y)
  return x, y
end
local function far_pair()
  while true do
    local sx, sy = free_cell()
    local gx, gy = free_cell()
    if math.abs(gx - sx) + math.abs(gy - sy) >= (W + H) / 4 and g:connected({sx, sy}, {gx, gy}) then
      return sx, sy, gx, gy
    end
  end
end

before = resident()
local sx, sy, gx, gy = far_pair() -- g:connected builds the connectivity index
if what == "components" then
  row("connectivity index (g:component, g:connected)", nil, resident() - before)
  os.exit(0)
end

before = resident()
if what == "scheduler" then
  local s = lodestar.scheduler.new{deterministic = true}
  local m0 = s:stats().mem_bytes
  s:add_grid(g)
  row("scheduler:add_grid(grid) (2 searches, the default)", s:stats().mem_bytes - m0, resident() - before)
  local done = false
  s:request{from = {sx, sy}, to = {gx, gy}, on_done = function() done = true end}
  while not done do s:step(1000) end
  row("  ... after one A* request across the map", s:stats().mem_bytes - m0, resident() - before)
elseif what == "cache" then
  local cache = lodestar.path_cache(g, {max_entries = 4})
  assert(cache:find_path(sx, sy, gx, gy))
  row("path cache, 1 tree (one query across the map)", cache:stats().bytes, resident() - before)
  local ax, ay, bx, by = far_pair()
  assert(cache:find_path(ax, ay, bx, by))
  row("path cache, 2 trees (another goal)", cache:stats().bytes, resident() - before)
else
  local h = lodestar.hierarchy(g)
  local info = h:info()
  row("hierarchy (lodestar.hierarchy(grid), defaults)", info.bytes, resident() - before,
    ("%.1f bytes/cell; landmarks %.1f MB, level2 %.1f MB; build_us %.1f s (wall-clock)"):format(
      info.bytes_per_cell, info.landmark_bytes / 1e6, info.level2_bytes / 1e6, info.build_us / 1e6))
  local mid = resident()
  assert(h:find_path(sx, sy, gx, gy, "fast"))
  row("  + its query object after a fast query", nil, resident() - mid)
  mid = resident()
  assert(h:find_path(sx, sy, gx, gy, "optimal"))
  row("  + an optimal query (the query's lds_Search)", nil, resident() - mid)
end
