-- SPDX-License-Identifier: MIT
-- examples/bigmap/barracks.lua — the path cache from Lua 5.4 or LuaJIT
-- (examples/bigmap/README.md, docs/big-maps.md "The path cache"): AGENTS
-- soldiers (default 1,000) make TRIPS trips each (default 4) from one of 10
-- barracks to one of 10 destinations while 8 doors open and close, and
--
--   1. each trip is asked of a lodestar.PathCache directly
--      (cache:find_path), one frame after another;
--   2. the same trips go through a deterministic lodestar.Scheduler whose
--      grid has a path cache (sched:set_path_cache), 4,000 expansions a
--      frame.
--
-- Every delivered path is checked, untimed, against a fresh
-- lodestar.find_path (A*) on the grid as it is at delivery: the same
-- status, the same cost (1e-9 relative), legal moves, the right endpoints.
-- Printed per part: paths delivered, searches per delivered path (searches
-- started plus cache answers that had to grow a tree, over paths), the
-- cache's hit rate and bytes, and wrong paths.
--
--   . build/env.sh && lua5.4 examples/bigmap/barracks.lua [MAP [AGENTS [TRIPS]]]
--
-- Default map tests/data/den011d.map (247 x 167); a big one works the same
-- (../shared/data/movingai/maps/Berlin_0_256.map). Barracks: the cells of
-- the map's largest component within 6 cells of 10 centres; destinations,
-- barracks centres and doors (2 x 2 blocks of cells) are spread over that
-- component deterministically. An agent asks again 1 + length/16 frames
-- after its path arrived (it walks); every 10 frames a door toggles (the rate of
-- tests/bench/path_cache_bench.c); agent i first asks at frame i % 10. Cells
-- are 0-based (x column, y row), costs in cost units. Returns (and prints)
-- a summary table; raises on a wrong path.
local lodestar = require "lodestar"

local map, agents, trips = ...
local grid = assert(lodestar.grid.load(map or "tests/data/den011d.map"))
agents = tonumber(agents) or 1000
trips = tonumber(trips) or 4
local W, H = grid:size()
local function idiv(a, b) return math.floor(a / b) end -- LuaJIT has no //

-- Park-Miller: the same numbers on both engines (exact in doubles)
local seed = 12345
local function rnd(n)
  seed = (seed * 16807) % 2147483647
  return idiv(seed, 1024) % n
end

-- The largest component's cells (grid:component builds the index once).
local size, big = {}, nil
for y = 0, H - 1 do
  for x = 0, W - 1 do
    local c = grid:component(x, y)
    if c then
      size[c] = (size[c] or 0) + 1
      if not big or size[c] > size[big] then big = c end
    end
  end
end
local cells = {}
for y = 0, H - 1 do
  for x = 0, W - 1 do
    if grid:component(x, y) == big then cells[#cells + 1] = {x, y} end
  end
end
local function spread(i, n) return cells[1 + idiv((i - 1) * #cells + idiv(#cells, 2), n)] end

local dest, spawn = {}, {}
for i = 1, 10 do dest[i] = spread(i, 10) end
for _ = 1, 10 do
  local c = cells[1 + rnd(#cells)]
  for _, s in ipairs(cells) do
    if math.abs(s[1] - c[1]) <= 6 and math.abs(s[2] - c[2]) <= 6 then spawn[#spawn + 1] = s end
  end
end
local is_dest = {}
for _, t in ipairs(dest) do is_dest[t[1] .. "," .. t[2]] = true end
local doors = {} -- 2 x 2 blocks at cells of the component, spread between the destinations
for i = 1, 8 do
  local c = spread(i + 0.5, 9)
  doors[i] = {x = c[1], y = c[2], closed = false, cells = {}}
end
-- Closes an open door (blocks the free cells of its block but a
-- destination) or opens a closed one (frees what it blocked).
local function toggle_door(d)
  d.closed = not d.closed
  if d.closed then
    for y = d.y, math.min(d.y + 1, H - 1) do
      for x = d.x, math.min(d.x + 1, W - 1) do
        if not grid:blocked(x, y) and not is_dest[x .. "," .. y] then
          grid:set_blocked(x, y, true)
          d.cells[#d.cells + 1] = {x, y}
        end
      end
    end
  else
    for _, c in ipairs(d.cells) do grid:set_blocked(c[1], c[2], false) end
    d.cells = {}
  end
end

-- Raises unless p is a legal path from s to t on the grid (8-connected,
-- no_corner_cutting) costing what a fresh A* costs; nil p must match no_path.
local function check(p, why, s, t)
  local ref = lodestar.find_path(grid, s[1], s[2], t[1], t[2])
  if not ref then
    assert(p == nil and why == "no_path", "a path where A* finds none")
    return false
  end
  assert(p, "no path where A* finds one: " .. tostring(why))
  assert(math.abs(p.cost - ref.cost) <= 1e-9 * ref.cost,
    ("cost %.12g, fresh A* %.12g"):format(p.cost, ref.cost))
  local px, py
  for i, x, y in p:cells() do
    assert(not grid:blocked(x, y), "a blocked cell on the path")
    if i > 1 then
      local dx, dy = x - px, y - py
      assert(math.abs(dx) <= 1 and math.abs(dy) <= 1 and (dx ~= 0 or dy ~= 0), "not a move")
      assert(dx == 0 or dy == 0 or (not grid:blocked(px + dx, py) and not grid:blocked(px, py + dy)),
        "a diagonal move cuts a corner")
    else
      assert(x == s[1] and y == s[2], "the path starts elsewhere")
    end
    px, py = x, y
  end
  assert(px == t[1] and py == t[2], "the path ends elsewhere")
  return true
end

-- One run: ask(i, s, t) queues or answers agent i's trip; step() runs a
-- frame and returns the deliveries {{agent =, path =, why =}, ...}.
local function run(ask, step)
  local ready, left, trip = {}, {}, {}
  for i = 1, agents do ready[i], left[i] = i % 10, trips end
  local frame, active, delivered, found = 0, agents, 0, 0
  for _, d in ipairs(doors) do if d.closed then toggle_door(d) end end
  seed = 777 -- both runs see the same trips and edits
  while active > 0 do
    for i = 1, agents do
      if ready[i] and ready[i] <= frame and left[i] > 0 then
        local s, t = spawn[1 + rnd(#spawn)], dest[1 + rnd(#dest)]
        if s[1] == t[1] and s[2] == t[2] then s = spawn[1 + (rnd(#spawn) + 1) % #spawn] end
        trip[i] = {s, t}
        ready[i] = nil
        left[i] = left[i] - 1
        ask(i, s, t)
      end
    end
    for _, got in ipairs(step()) do -- untimed: every path against a fresh A*
      local i = got.agent
      if check(got.path, got.why, trip[i][1], trip[i][2]) then found = found + 1 end
      delivered = delivered + 1
      ready[i] = frame + 1 + (got.path and idiv(#got.path, 16) or 0)
      if left[i] == 0 then active = active - 1 end
    end
    frame = frame + 1
    if frame % 10 == 0 then toggle_door(doors[1 + rnd(#doors)]) end
  end
  for _, d in ipairs(doors) do if d.closed then toggle_door(d) end end
  return delivered, found, frame
end

local summary = {}
local function report(name, delivered, found, frames, searches, st)
  local r = {paths = delivered, found = found, frames = frames, searches = searches,
    searches_per_path = searches / delivered, hit_rate = st.hits / math.max(1, st.answered),
    invalidated = st.invalidated, bytes = st.bytes, wrong = 0}
  summary[name] = r
  print(("%-9s %d paths (%d found) in %d frames: %.3f searches per path, hit rate %.1f %%, "
    .. "%d edits cut a tree, cache %d bytes, 0 wrong"):format(name, delivered, found, frames,
    r.searches_per_path, 100 * r.hit_rate, st.invalidated, st.bytes))
end

-- 1. The cache alone ---------------------------------------------------------
local cache = lodestar.path_cache(grid, {max_entries = 10})
local answers = {}
local d1, f1, n1 = run(function(i, s, t)
  local p, why = cache:find_path(s[1], s[2], t[1], t[2])
  answers[#answers + 1] = {agent = i, path = p, why = why}
end, function()
  local got = answers
  answers = {}
  return got
end)
local st = cache:stats()
report("cache", d1, f1, n1, st.misses + st.searches, st)
cache:free()

-- 2. The scheduler with a path cache on its grid ----------------------------
local sched = lodestar.scheduler.new{deterministic = true, searches_per_grid = 4,
  initial_capacity = agents}
sched:add_grid(grid)
sched:set_path_cache(grid, 10)
local d2, f2, n2 = run(function(i, s, t)
  sched:request{from = s, to = t, agent = i, on_done = function(req)
    local p, why = req:path()
    answers[#answers + 1] = {agent = i, path = p, why = why}
    req:release()
  end}
end, function()
  sched:step(1000) -- 1000 us = 4000 expansions a frame (deterministic)
  local got = answers
  answers = {}
  return got
end)
st = sched:path_cache_stats(grid)
report("scheduler", d2, f2, n2, sched:stats().started + st.misses, st)
sched:free()
return summary
