-- SPDX-License-Identifier: MIT
-- examples/bigmap/doors.lua — big-map tools from Lua 5.4 or LuaJIT
-- (examples/bigmap/README.md): a wall with a door across a map, then
--
--   1. connectivity: grid:connected / grid:component as the door opens and
--      closes, and the instant no_path every search then gets;
--   2. the cluster hierarchy for two agent classes (a mud layer weighted
--      for one), fast and optimal mode against A*, repaired after edits;
--   3. a sliced hierarchy query whose refined prefix an agent walks
--      before the whole path is known;
--   4. hierarchy requests through the scheduler while the door flaps, each
--      delivered path checked against a fresh A* on the grid as it is.
--
--   . build/env.sh && lua5.4 examples/bigmap/doors.lua [MAP]
--
-- Default map tests/data/den011d.map (247 x 167); a big one works the same
-- (../shared/data/movingai/maps/Berlin_0_1024.map). Cells are 0-based
-- (x column, y row); costs in cost units. Returns (and prints) a summary
-- table; raises on anything wrong.
local lodestar = require "lodestar"

local map = ... or "tests/data/den011d.map"
local grid = assert(lodestar.grid.load(map))
local W, H = grid:size()
local summary = {}
local function say(fmt, ...) print(("%-11s " .. fmt):format(...)) end

-- The free cell nearest (x0, y0), scanning rings outwards.
local function free_near(x0, y0)
  for r = 0, math.max(W, H) do
    for dy = -r, r do
      for dx = -r, r do
        local x, y = x0 + dx, y0 + dy
        if x >= 0 and y >= 0 and x < W and y < H and not grid:blocked(x, y) then return x, y end
      end
    end
  end
end

-- A wall down the middle column with a 3-cell door on the row of a free
-- cell in that column (so the door joins the two halves when open).
local function idiv(a, b) return math.floor(a / b) end -- LuaJIT has no //
local wx = idiv(W, 2)
local _, dy0 = free_near(wx, idiv(H, 2))
while grid:blocked(wx, dy0) do dy0 = dy0 + 1 end
for y = 0, H - 1 do grid:set_blocked(wx, y, true) end
local door = {}
for y = dy0, math.min(dy0 + 2, H - 1) do door[#door + 1] = y end
local function set_door(open) for _, y in ipairs(door) do grid:set_blocked(wx, y, not open) end end
set_door(true)
local ax, ay = free_near(idiv(wx, 4), idiv(H, 2))
local bx, by = free_near(wx + idiv((W - wx) * 3, 4), idiv(H, 2))
assert(grid:connected(ax, ay, bx, by), "the two sides meet through the door")

-- 1. Connectivity ------------------------------------------------------------
set_door(false)
local search = lodestar.search.astar(grid)
search:start(ax, ay, bx, by)
local status = search:step()
say("door closed: connected %s, components %d / %d, A* %s after %d expansions", "components",
  tostring(grid:connected(ax, ay, bx, by)), grid:component(ax, ay), grid:component(bx, by),
  status, search:stats().expansions)
assert(status == "no_path" and search:stats().expansions == 0)
set_door(true)
assert(grid:connected({ax, ay}, {bx, by}))

-- 2. The hierarchy for two classes -----------------------------------------
grid:layer_add("mud") -- a mud strip left of the wall: the tank pays 3 more there
for y = 0, H - 1 do
  for x = math.max(0, wx - 10), wx - 1 do
    if not grid:blocked(x, y) then grid:layer_set("mud", x, y, 3) end
  end
end
local classes = {walker = {}, tank = {mud = 1}}
local hier = {}
for _, name in ipairs{"walker", "tank"} do
  local h = lodestar.hierarchy(grid, {cluster_size = 16, weights = classes[name]})
  hier[name] = h
  local ref = assert(lodestar.find_path(grid, ax, ay, bx, by, {weights = classes[name]}))
  local fast = assert(h:find_path(ax, ay, bx, by))
  local best = assert(h:find_path(ax, ay, bx, by, "optimal"))
  say("A* %.3f, fast %.3f (x%.4f), optimal %.3f; %d entrances, %.1f bytes/cell", name,
    ref.cost, fast.cost, fast.cost / ref.cost, best.cost, h:info().entrances,
    h:info().bytes_per_cell)
  assert(math.abs(best.cost - ref.cost) <= 1e-9 * ref.cost, "the optimal mode is optimal")
  assert(fast.cost >= ref.cost - 1e-9)
  summary[name] = best.cost
end
-- edits: the door closes, the hierarchy repairs the touched clusters only
set_door(false)
local us = hier.walker:repair()
say("door closed: repaired %d clusters in %d us; fast %s", "repair",
  hier.walker:info().last_repair_clusters, us, select(2, hier.walker:find_path(ax, ay, bx, by)))
set_door(true)

-- 3. A sliced query and its prefix -----------------------------------------
local h = hier.walker
h:start(ax, ay, bx, by) -- fast mode
local slices, walkable = 0, 0
while true do
  local st = h:step(100) -- 100 expansions a frame
  slices = slices + 1
  local prefix = h:prefix()
  if prefix and st == "running" then walkable = math.max(walkable, #prefix) end
  if st ~= "running" then assert(st == "found"); break end
end
say("%d slices of 100 expansions; up to %d cells walkable before the path was done; %d in all",
  "sliced", slices, walkable, #h:path())
summary.slices = slices

-- 4. Hierarchy requests in the scheduler, the door flapping ----------------
local sched = lodestar.scheduler.new{deterministic = true}
sched:add_grid(grid)
local delivered, wrong, n = 0, 0, 12
for i = 1, n do
  local gx, gy = free_near(bx, (by + 7 * i) % H)
  sched:request{from = {ax, ay}, to = {gx, gy}, hierarchy = hier.walker,
    hierarchy_mode = (i % 2 == 0) and "optimal" or "fast",
    on_done = function(req)
      delivered = delivered + 1
      local p = req:path()
      local ref = lodestar.find_path(grid, ax, ay, gx, gy) -- the grid as it is now
      if (p == nil) ~= (ref == nil) or (p and p.cost < ref.cost - 1e-9) then wrong = wrong + 1 end
      if p and i % 2 == 0 and math.abs(p.cost - ref.cost) > 1e-9 * ref.cost then wrong = wrong + 1 end
    end}
end
local frame = 0
while delivered < n do
  frame = frame + 1
  if frame % 3 == 0 then set_door(grid:blocked(wx, door[1])) end
  sched:step(20) -- 20 us = 80 expansions a frame (deterministic)
end
say("%d paths in %d frames, door toggled %d times, %d wrong", "scheduler", delivered, frame,
  idiv(frame, 3), wrong)
assert(wrong == 0)
summary.wrong = wrong
return summary
