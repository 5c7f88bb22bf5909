-- SPDX-License-Identifier: MIT
-- lodestar.path_cache (core/lds_path_cache.h from Lua), the scheduler's
-- path cache (sched:set_path_cache), the hierarchy's level2 option and the
-- failure order of the hierarchy's paths. Every answer of a cache is
-- compared with a fresh lodestar.find_path on the grid as it is after a
-- random sequence of door, wall, cost and layer edits: same status, same
-- cost (1e-9 relative), and a legal path (moves under the grid's diagonal
-- rule, passable cells, its cost recomputed from its cells). Runs on Lua
-- 5.4 and LuaJIT (make test-lua).
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errtext

local function rng(seed)
  local s = seed
  return function(n)
    s = (s * 16807) % 2147483647 -- Park-Miller: exact in doubles too (LuaJIT)
    return math.floor(s / 1024) % n
  end
end

-- A 48 x 36 map of rooms: walls every 12 cells, each wall segment with a
-- 2-cell door; a "mud" layer over a band of cells. Returns the grid and the
-- list of doors ({cells = {{x, y}, ...}}).
local function rooms()
  local g = lodestar.grid.new(48, 36)
  local doors = {}
  for x = 12, 36, 12 do
    for y = 0, 35 do g:set_blocked(x, y, true) end
    for y0 = 4, 28, 12 do
      doors[#doors + 1] = {cells = {{x, y0}, {x, y0 + 1}}}
    end
  end
  for y = 12, 24, 12 do
    for x = 0, 47 do g:set_blocked(x, y, true) end
    for x0 = 5, 41, 12 do
      doors[#doors + 1] = {cells = {{x0, y}, {x0 + 1, y}}}
    end
  end
  for _, d in ipairs(doors) do
    for _, c in ipairs(d.cells) do g:set_blocked(c[1], c[2], false) end
    d.open = true
  end
  g:layer_add("mud")
  for y = 0, 35 do
    for x = 18, 30 do g:layer_set("mud", x, y, 2) end
  end
  return g, doors
end

local function set_door(g, d, open)
  for _, c in ipairs(d.cells) do g:set_blocked(c[1], c[2], not open) end
  d.open = open
end

-- The effective cost of entering (x, y) under weights ({name = w}).
local function cell_cost(g, x, y, weights)
  local c = g:cost(x, y)
  for name, w in pairs(weights or {}) do c = c + w * g:layer_get(name, x, y) end
  return c
end

-- Raises unless p is a legal path from (sx, sy) to (gx, gy) on g (8-connected,
-- no_corner_cutting) whose cost is the sum of its moves under weights.
local function check_legal(g, p, sx, sy, gx, gy, weights)
  local px, py
  local cost = 0
  for i, x, y in p:cells() do
    assert(not g:blocked(x, y), ("cell %d (%d,%d) is blocked"):format(i, x, y))
    if i == 1 then
      assert(x == sx and y == sy, "the path starts at the start")
    else
      local dx, dy = x - px, y - py
      assert(math.abs(dx) <= 1 and math.abs(dy) <= 1 and (dx ~= 0 or dy ~= 0),
        ("step %d (%d,%d)->(%d,%d) is not a move"):format(i - 1, px, py, x, y))
      if dx ~= 0 and dy ~= 0 then
        assert(not g:blocked(px + dx, py) and not g:blocked(px, py + dy),
          ("step %d cuts a corner"):format(i - 1))
      end
      cost = cost + ((dx ~= 0 and dy ~= 0) and math.sqrt(2) or 1) * cell_cost(g, x, y, weights)
    end
    px, py = x, y
  end
  assert(px == gx and py == gy, "the path ends at the goal")
  assert.is_true(math.abs(cost - p.cost) <= 1e-9 * math.max(1, cost),
    ("path cost %.12g, its moves cost %.12g"):format(p.cost, cost))
end

local function free_cell(g, r)
  local w, h = g:size()
  while true do
    local x, y = r(w), r(h)
    if not g:blocked(x, y) then return x, y end
  end
end

describe("lodestar.path_cache", function()
  it("answers like a fresh search after random door, wall, cost and layer edits", function()
    local g, doors = rooms()
    local cache = lodestar.path_cache(g, {max_entries = 6})
    local r = rng(4242)
    local goals = {}
    for i = 1, 4 do goals[i] = {free_cell(g, r)} end
    local profiles = {{}, {weights = {mud = 1}}, {algorithm = "jps"}, {algorithm = "dijkstra"},
      {algorithm = "jps+", weights = {mud = 0.5}}}
    local walls = {}
    local checked, no_path = 0, 0
    for step = 1, 600 do
      local e = r(10)
      if e < 5 then -- a door opens or closes (open three times in four)
        set_door(g, doors[r(#doors) + 1], r(4) ~= 0)
      elseif e < 7 then -- a wall cell comes or goes
        local x, y = r(48), r(36)
        if walls[x .. "," .. y] then
          g:set_blocked(x, y, false)
          walls[x .. "," .. y] = nil
        elseif not g:blocked(x, y) then
          g:set_blocked(x, y, true)
          walls[x .. "," .. y] = true
        end
      elseif e < 9 then
        g:set_cost(r(48), r(36), 1 + r(4))
      else
        g:layer_set("mud", r(48), r(36), r(5))
      end
      local goal = goals[r(#goals) + 1]
      local opts = profiles[r(#profiles) + 1]
      local sx, sy = free_cell(g, r)
      if not g:blocked(goal[1], goal[2]) and (sx ~= goal[1] or sy ~= goal[2]) then
        assert.is_true(cache:accepts(sx, sy, goal[1], goal[2], opts))
        local p, why = cache:find_path(sx, sy, goal[1], goal[2], opts)
        local ref = lodestar.find_path(g, sx, sy, goal[1], goal[2], {weights = opts.weights})
        if ref then
          assert(p, ("step %d: the cache says %s, A* finds a path"):format(step, tostring(why)))
          assert.is_true(math.abs(p.cost - ref.cost) <= 1e-9 * ref.cost,
            ("step %d: cached cost %.12g, fresh A* %.12g"):format(step, p.cost, ref.cost))
          check_legal(g, p, sx, sy, goal[1], goal[2], opts.weights)
          assert.same(opts.weights, p.weights)
          checked = checked + 1
        else
          assert.is_nil(p)
          assert.equal("no_path", why)
          no_path = no_path + 1
        end
      end
    end
    local st = cache:stats()
    assert.is_true(checked > 300 and no_path > 10, checked .. " paths, " .. no_path .. " no_path")
    assert.equal(checked + no_path, st.answered)
    assert.equal(st.answered, st.hits + st.misses)
    assert.equal(0, st.searches)
    assert.is_true(st.hits > 0 and st.misses > 0 and st.invalidated > 0 and st.truncated > 0)
    assert.is_true(st.entries <= 6 and st.max_entries == 6)
    -- 6 trees at most of 16 bytes per padded cell (50 x 38), plus open lists
    assert.is_true(st.bytes >= st.entries * 16 * 50 * 38 and st.bytes < 6 * 16 * 50 * 38 + 2 ^ 20)
  end)

  it("a repeated query is a hit; an edit the tree sees invalidates it; far edits do not", function()
    local g = lodestar.grid.new(40, 10)
    local cache = lodestar.path_cache(g)
    local p = assert(cache:find_path(0, 5, 39, 5))
    assert.near(39, p.cost, 1e-12)
    local st = cache:stats()
    assert.equal(1, st.misses)
    assert.equal(0, st.hits)
    assert(cache:find_path(0, 5, 39, 5))
    assert(cache:find_path(3, 2, 39, 5)) -- a start the tree settled: its stretch of the tree
    st = cache:stats()
    assert.equal(2, st.hits)
    assert.equal(0, st.expansions - st.expansions) -- counters are integers
    -- a wall across the map between start and goal: the cache must not keep the old path
    for y = 0, 9 do g:set_blocked(20, y, true) end
    assert.is_true(cache:stats().invalidated > 0)
    local none, why = cache:find_path(0, 5, 39, 5)
    assert.is_nil(none)
    assert.equal("no_path", why)
    g:set_blocked(20, 0, false) -- a door at the top row
    local q = assert(cache:find_path(0, 5, 39, 5))
    assert.near(assert(lodestar.find_path(g, 0, 5, 39, 5)).cost, q.cost, 1e-9)
    check_legal(g, q, 0, 5, 39, 5)
    cache:clear()
    assert.equal(0, cache:stats().entries)
  end)

  it("queries it cannot answer exactly go to a search, with find_path's results", function()
    local g, doors = rooms()
    local cache = lodestar.path_cache(g)
    local calls = 0
    local cost = function(_, _, _, _, base) calls = calls + 1 return base end
    local cases = {
      {{algorithm = "wastar", weight = 2}}, {{algorithm = "greedy"}}, {{h_scale = 1}},
      {{heuristic = "euclidean"}}, {{partial = true}}, {{cost = cost}}, {{algorithm = "theta"}},
    }
    for _, case in ipairs(cases) do
      local opts = case[1]
      assert.is_false(cache:accepts(1, 1, 46, 34, opts))
      local p = assert(cache:find_path(1, 1, 46, 34, opts))
      local ref = assert(lodestar.find_path(g, 1, 1, 46, 34, opts))
      assert.equal(ref.cost, p.cost)
      assert.same(ref:totable(), p:totable())
    end
    assert.is_true(calls > 0)
    -- same cell, blocked goal: a search answers (a one-cell path; no_path)
    assert.equal(1, #assert(cache:find_path(3, 3, 3, 3)))
    assert.is_false(cache:accepts(3, 3, 12, 0))
    local p, why = cache:find_path(3, 3, 12, 0)
    assert.is_nil(p)
    assert.equal("no_path", why)
    -- a partial path to a walled-in goal
    for _, d in ipairs(doors) do set_door(g, d, false) end
    local part = assert(cache:find_path(1, 1, 46, 34, {partial = true}))
    assert.is_true(part.partial)
    assert.equal(#cases + 3, cache:stats().searches)
    assert.equal(0, cache:stats().answered)
    -- a weighted cell cost <= 0: the search names the cell, as find_path does
    g:layer_set("mud", 2, 2, -1)
    local e = errmsg(function() return cache:find_path(1, 1, 3, 3, {weights = {mud = 1}}) end)
    assert.equal(errmsg(function() return lodestar.find_path(g, 1, 1, 3, 3, {weights = {mud = 1}}) end)
      :gsub("#6", "#5"), e)
    assert.matches("^bad argument #5 to 'find_path' %(opts.weights: cell %(2,2%)", e)
  end)

  it("weights follow layer names when a layer before them is removed", function()
    local g = lodestar.grid.new(30, 20)
    g:layer_add("sand")
    g:layer_add("mud")
    for y = 0, 19 do g:layer_set("mud", 15, y, 9) end
    g:layer_set("sand", 10, 10, 5)
    local cache = lodestar.path_cache(g)
    local before = assert(cache:find_path(0, 10, 29, 10, {weights = {mud = 1}}))
    assert.near(assert(lodestar.find_path(g, 0, 10, 29, 10, {weights = {mud = 1}})).cost,
      before.cost, 1e-9)
    g:layer_remove("sand") -- mud is now layer 1
    g:layer_set("mud", 15, 10, 0)
    local after = assert(cache:find_path(0, 10, 29, 10, {weights = {mud = 1}}))
    local ref = assert(lodestar.find_path(g, 0, 10, 29, 10, {weights = {mud = 1}}))
    assert.near(ref.cost, after.cost, 1e-9)
    check_legal(g, after, 0, 10, 29, 10, {mud = 1})
    assert.equal("bad argument #5 to 'find_path' (opts.weights: the grid has no layer 'sand')",
      errmsg(function() return cache:find_path(0, 10, 29, 10, {weights = {sand = 1}}) end))
  end)

  it("names the bad argument", function()
    local g = lodestar.grid.new(8, 6)
    local cache = lodestar.path_cache(g)
    local nan, inf = 0 / 0, math.huge
    assert.equal("bad argument #1 to 'path_cache' (lodestar.Grid expected, got table)",
      errmsg(lodestar.path_cache, {}))
    assert.equal("bad argument #1 to 'path_cache' (lodestar.Grid expected, got no value)",
      errmsg(lodestar.path_cache))
    assert.equal("bad argument #2 to 'path_cache' (opts.max_entries: 0 out of range (expected an integer 1..1024))",
      errmsg(lodestar.path_cache, g, {max_entries = 0}))
    assert.equal("bad argument #2 to 'path_cache' (opts.max_entries: 2.5 out of range (expected an integer 1..1024))",
      errmsg(lodestar.path_cache, g, {max_entries = 2.5}))
    assert.equal("bad argument #2 to 'path_cache' (opts.max_entries: 4294967297 out of"
      .. " range (expected an integer 1..1024))",
      errmsg(lodestar.path_cache, g, {max_entries = 2 ^ 32 + 1}))
    assert.equal("bad argument #2 to 'path_cache' (opts.max_entries: number expected, got string)",
      errmsg(lodestar.path_cache, g, {max_entries = "8"}))
    assert.equal("bad argument #2 to 'path_cache' (unknown option 'entries' (expected max_entries))",
      errmsg(lodestar.path_cache, g, {entries = 8}))
    assert.equal("bad argument #2 to 'path_cache' (table expected, got number)",
      errmsg(lodestar.path_cache, g, 8))
    assert.equal("bad argument #1 to 'find_path' (sx 8 out of range (expected 0..7))",
      errmsg(function() return cache:find_path(8, 0, 1, 1) end))
    assert.equal("bad argument #4 to 'find_path' (gy -1 out of range (expected 0..5))",
      errmsg(function() return cache:find_path(0, 0, 1, -1) end))
    assert.equal("bad argument #2 to 'find_path' (sy nan is not an integer cell (expected 0..5))",
      errmsg(function() return cache:find_path(0, nan, 1, 1) end))
    assert.equal("bad argument #3 to 'find_path' (gx inf out of range (expected 0..7))",
      errmsg(function() return cache:find_path(0, 0, inf, 1) end))
    assert.equal("bad argument #1 to 'find_path' (sx 4294967296 out of range (expected 0..7))",
      errmsg(function() return cache:find_path(2 ^ 32, 0, 1, 1) end))
    assert.equal("bad argument #1 to 'find_path' (number expected, got string)",
      errmsg(function() return cache:find_path("0", 0, 1, 1) end))
    assert.equal("bad argument #4 to 'find_path' (number expected, got nil)",
      errmsg(function() return cache:find_path(0, 0, 1) end))
    assert.equal("bad argument #5 to 'find_path' (table expected, got string)",
      errmsg(function() return cache:find_path(0, 0, 1, 1, "astar") end))
    assert.equal("bad argument #5 to 'find_path' (opts.algorithm: unknown algorithm 'bfs' (expected astar, "
      .. table.concat(lodestar.algorithms, ", "):gsub("^astar, ", "") .. "))",
      errmsg(function() return cache:find_path(0, 0, 1, 1, {algorithm = "bfs"}) end))
    assert.matches("^bad argument #5 to 'find_path' %(unknown option 'algo' %(expected algorithm, cost,",
      errmsg(function() return cache:find_path(0, 0, 1, 1, {algo = "astar"}) end))
    assert.equal("bad argument #5 to 'find_path' (opts.weight: 0.5 out of range (expected finite, >= 1))",
      errmsg(function() return cache:find_path(0, 0, 1, 1, {weight = 0.5}) end))
    assert.equal("bad argument #5 to 'find_path' (opts.weights: the grid has no layer 'mud')",
      errmsg(function() return cache:find_path(0, 0, 1, 1, {weights = {mud = 1}}) end))
    for _, o in ipairs{{start = {99, 0}, goal = {1, 1}}, {start = {0, 0}}} do
      assert.equal(errmsg(function() return lodestar.find_path(g, 0, 0, 1, 1, o) end):gsub("#6", "#5"),
        errmsg(function() return cache:find_path(0, 0, 1, 1, o) end))
    end
    assert.equal("bad argument #1 to 'accepts' (sx 9 out of range (expected 0..7))",
      errmsg(function() return cache:accepts(9, 0, 1, 1) end))
    assert.equal("calling 'find_path' on bad self (lodestar.PathCache expected, got table)",
      errmsg(cache.find_path, {}, 0, 0, 1, 1))
    assert.equal("calling 'stats' on bad self (lodestar.PathCache expected, got lodestar.Grid)",
      errmsg(cache.stats, g))
    assert.matches("^lodestar.PathCache 0 of 16 trees", tostring(cache))
  end)

  it("after grid:free(), after cache:free(), and when only the cache holds the grid", function()
    local g = lodestar.grid.new(20, 20)
    local cache = lodestar.path_cache(g, {max_entries = 2})
    assert(cache:find_path(0, 0, 19, 19))
    g:free()
    assert.equal("lodestar.PathCache:find_path: its grid was freed (grid:free()); make a new cache for a live grid",
      errmsg(function() return cache:find_path(0, 0, 19, 19) end))
    assert.equal("lodestar.PathCache:accepts: its grid was freed (grid:free()); make a new cache for a live grid",
      errmsg(function() return cache:accepts(0, 0, 19, 19) end))
    assert.equal(1, cache:stats().answered) -- the counters stay readable
    cache:free()
    cache:free() -- idempotent
    assert.equal("attempt to use a freed lodestar.PathCache",
      errmsg(function() return cache:find_path(0, 0, 1, 1) end))
    assert.equal("attempt to use a freed lodestar.PathCache", errmsg(function() return cache:stats() end))
    assert.equal("lodestar.PathCache (freed)", tostring(cache))

    -- the grid's only reference is the cache's: collection keeps it, edits reach the trees
    local c2 = lodestar.path_cache(lodestar.grid.new(30, 30))
    collectgarbage()
    collectgarbage()
    assert.near(29 * math.sqrt(2), assert(c2:find_path(0, 0, 29, 29)).cost, 1e-9)
    local g2 = c2:grid()
    for x = 0, 28 do g2:set_blocked(x, 15, true) end
    local p = assert(c2:find_path(0, 0, 29, 29))
    assert.near(assert(lodestar.find_path(g2, 0, 0, 29, 29)).cost, p.cost, 1e-9)
    check_legal(g2, p, 0, 0, 29, 29)
    g2 = nil -- luacheck: ignore 311
    c2 = nil -- luacheck: ignore 311
    collectgarbage() -- cache and grid go together, in either order
    collectgarbage()
  end)
end)

describe("sched:set_path_cache", function()
  it("serves requests from the grid's cache while doors toggle; every path checked", function()
    local g, doors = rooms()
    local sched = lodestar.scheduler.new{deterministic = true}
    sched:add_grid(g)
    assert.is_nil(sched:path_cache_stats(g))
    assert.equal(sched, sched:set_path_cache(g, 8))
    local r = rng(77)
    local goals = {}
    for i = 1, 4 do goals[i] = {free_cell(g, r)} end
    local n, delivered, wrong, found = 300, 0, 0, 0
    for i = 1, n do
      local sx, sy = free_cell(g, r)
      local goal = goals[i % 4 + 1]
      local weights = (i % 3 == 0) and {mud = 1} or nil
      sched:request{from = {sx, sy}, to = goal, weights = weights, on_done = function(req)
        delivered = delivered + 1
        local p = req:path()
        local ref = lodestar.find_path(g, sx, sy, goal[1], goal[2], {weights = weights})
        if (p == nil) ~= (ref == nil) then
          wrong = wrong + 1
        elseif p then
          found = found + 1
          if math.abs(p.cost - ref.cost) > 1e-9 * ref.cost then wrong = wrong + 1 end
          check_legal(g, p, sx, sy, goal[1], goal[2], weights)
        end
      end}
    end
    local frame = 0
    while delivered < n do
      frame = frame + 1
      if frame % 2 == 0 then set_door(g, doors[r(#doors) + 1], r(4) ~= 0) end
      sched:step(50)
      assert.is_true(frame < 10000)
    end
    assert.equal(0, wrong)
    assert.is_true(found > 50 and found < n, found .. " paths found")
    local st = sched:path_cache_stats(g)
        assert.is_true(st.hits > 50, "hits " .. st.hits)
    assert.is_true(st.invalidated > 0)
    assert.equal(st.answered, st.hits + st.misses)
    -- the cache answered every request it accepts: searches ran only for the others
    assert.equal(n, st.answered + sched:stats().started)
    assert.is_true(sched:stats().started <= 3)
    assert.is_true(sched:stats().mem_bytes >= st.bytes)
    assert.equal(sched, sched:set_path_cache(g, 0))
    assert.is_nil(sched:path_cache_stats(g))
  end)

  it("names the bad argument", function()
    local g = lodestar.grid.new(8, 8)
    local other = lodestar.grid.new(8, 8)
    local sched = lodestar.scheduler.new()
    sched:add_grid(g)
    assert.equal("bad argument #1 to 'set_path_cache' (grid was not added to this scheduler)",
      errmsg(function() return sched:set_path_cache(other, 4) end))
    assert.equal("bad argument #1 to 'set_path_cache' (lodestar.Grid expected, got nil)",
      errmsg(function() return sched:set_path_cache(nil, 4) end))
    assert.equal("bad argument #2 to 'set_path_cache' (max_entries 1025 out of range"
      .. " (expected an integer 0..1024; 0 removes the cache))",
      errmsg(function() return sched:set_path_cache(g, 1025) end))
    assert.equal("bad argument #2 to 'set_path_cache' (max_entries -1 out of range"
      .. " (expected an integer 0..1024; 0 removes the cache))",
      errmsg(function() return sched:set_path_cache(g, -1) end))
    assert.equal("bad argument #2 to 'set_path_cache' (number expected, got nil)",
      errmsg(function() return sched:set_path_cache(g) end))
    assert.equal("bad argument #1 to 'path_cache_stats' (grid was not added to this scheduler)",
      errmsg(function() return sched:path_cache_stats(other) end))
  end)
end)

describe("lodestar.hierarchy", function()
  local function maze(w, h, seed)
    local g = lodestar.grid.new(w, h)
    local r = rng(seed)
    for y = 0, h - 1 do
      for x = 0, w - 1 do
        if r(100) < 20 then g:set_blocked(x, y, true) end
      end
    end
    return g
  end

  it("opts.level2 builds the second level; fast paths stay legal and bounded by A*", function()
    local g = maze(96, 96, 5)
    local h2 = lodestar.hierarchy(g, {cluster_size = 8, level2 = 4})
    local h0 = lodestar.hierarchy(g, {cluster_size = 8, level2 = 0})
    local ha = lodestar.hierarchy(g, {cluster_size = 8, level2 = "auto"})
    local info = h2:info()
    assert.equal(4, info.level2)
    assert.is_true(info.level2_entrances > 0 and info.level2_bytes > 0)
    assert.is_true(info.bytes > h0:info().bytes)
    assert.equal(0, h0:info().level2)
    assert.equal(0, ha:info().level2) -- auto: no second level below 4096 x 4096 cells
    assert.equal(info.landmarks, h0:info().landmarks)
    local r = rng(9)
    local checked = 0
    for _ = 1, 60 do
      local sx, sy = free_cell(g, r)
      local gx, gy = free_cell(g, r)
      local ref = lodestar.find_path(g, sx, sy, gx, gy)
      local p, why = h2:find_path(sx, sy, gx, gy)
      if ref and (sx ~= gx or sy ~= gy) then
        assert(p, why)
        check_legal(g, p, sx, sy, gx, gy)
        assert.is_true(p.cost >= ref.cost - 1e-9)
        local o = assert(h2:find_path(sx, sy, gx, gy, "optimal"))
        assert.near(ref.cost, o.cost, 1e-9 * ref.cost)
        checked = checked + 1
      elseif not ref then
        assert.is_nil(p)
        assert.equal("no_path", why)
      end
    end
    assert.is_true(checked > 30)
  end)

  it("opts.fast_weight: legal fast paths at any weight, fewer expansions at a larger one", function()
    local g = maze(96, 96, 5)
    local h1 = lodestar.hierarchy(g, {cluster_size = 8, fast_weight = 1})
    local hd = lodestar.hierarchy(g, {cluster_size = 8})
    local h2 = lodestar.hierarchy(g, {cluster_size = 8, fast_weight = 2})
    assert.equal(1, h1:info().fast_weight)
    assert.equal(1.02, hd:info().fast_weight)
    assert.equal(2, h2:info().fast_weight)
    local r = rng(11)
    local checked, e1, e2 = 0, 0, 0
    for _ = 1, 60 do
      local sx, sy = free_cell(g, r)
      local gx, gy = free_cell(g, r)
      local ref = lodestar.find_path(g, sx, sy, gx, gy)
      if ref and (sx ~= gx or sy ~= gy) then
        for _, h in ipairs({h1, hd, h2}) do
          local p = assert(h:find_path(sx, sy, gx, gy))
          check_legal(g, p, sx, sy, gx, gy)
          assert.is_true(p.cost >= ref.cost - 1e-9)
        end
        h1:find_path(sx, sy, gx, gy)
        e1 = e1 + h1:stats().expansions
        h2:find_path(sx, sy, gx, gy)
        e2 = e2 + h2:stats().expansions
        checked = checked + 1
      end
    end
    assert.is_true(checked > 30)
    assert.is_true(e2 < e1) -- the weight does cut the search
  end)

  it("names opts.fast_weight in its errors", function()
    local g = lodestar.grid.new(16, 16)
    assert.equal("bad argument #2 to 'hierarchy' (opts.fast_weight: 0.5 out of range (expected a number 1..10))",
      errmsg(lodestar.hierarchy, g, {fast_weight = 0.5}))
    assert.equal("bad argument #2 to 'hierarchy' (opts.fast_weight: 11 out of range (expected a number 1..10))",
      errmsg(lodestar.hierarchy, g, {fast_weight = 11}))
    assert.equal("bad argument #2 to 'hierarchy' (opts.fast_weight: nan out of range (expected a number 1..10))",
      errmsg(lodestar.hierarchy, g, {fast_weight = 0 / 0}))
    assert.equal("bad argument #2 to 'hierarchy' (opts.fast_weight: number expected, got string)",
      errmsg(lodestar.hierarchy, g, {fast_weight = "fast"}))
  end)

  it("names opts.level2 in its errors", function()
    local g = lodestar.grid.new(16, 16)
    assert.equal("bad argument #2 to 'hierarchy' (opts.level2: 1 out of range (expected"
      .. " 'auto', 0 for none or an integer 2..31: level2^2 x 4 x cluster_size 16 below 65535))",
      errmsg(lodestar.hierarchy, g, {level2 = 1}))
    assert.equal("bad argument #2 to 'hierarchy' (opts.level2: 16 out of range"
      .. " (expected 'auto', 0 for none or an integer 2..15: level2^2 x 4 x cluster_size 64 below 65535))",
      errmsg(lodestar.hierarchy, g, {level2 = 16, cluster_size = 64}))
    assert.equal("bad argument #2 to 'hierarchy' (opts.level2: 2.5 out of range"
      .. " (expected 'auto', 0 for none or an integer 2..31: level2^2 x 4 x cluster_size 16 below 65535))",
      errmsg(lodestar.hierarchy, g, {level2 = 2.5}))
    assert.equal("bad argument #2 to 'hierarchy' (opts.level2: -1 out of range"
      .. " (expected 'auto', 0 for none or an integer 2..31: level2^2 x 4 x cluster_size 16 below 65535))",
      errmsg(lodestar.hierarchy, g, {level2 = -1}))
    assert.equal("bad argument #2 to 'hierarchy' (opts.level2: invalid option 'on'"
      .. " (expected 'auto', 0 for none or an integer 2..31))",
      errmsg(lodestar.hierarchy, g, {level2 = "on"}))
    assert.equal("bad argument #2 to 'hierarchy' (opts.level2: number or 'auto' expected, got boolean)",
      errmsg(lodestar.hierarchy, g, {level2 = true}))
    assert.equal(15, lodestar.hierarchy(lodestar.grid.new(128, 128), {level2 = 15, cluster_size = 64}):info().level2)
  end)

  it("fails as the rest of the module: nil, message, status", function()
    local g = maze(64, 64, 3)
    local h = lodestar.hierarchy(g)
    local p, msg, status = h:path()
    assert.is_nil(p)
    assert.equal("state", status)
    assert.matches("no path", msg)
    p, msg, status = h:prefix()
    assert.is_nil(p)
    assert.equal("state", status)
    assert.equal("string", type(msg))
    -- a query the grid changed under: "stale", and its path the same way
    local sx, sy = free_cell(g, rng(1))
    local gx, gy = 63, 63
    while g:blocked(gx, gy) do gx = gx - 1 end
    h:start(sx, sy, gx, gy)
    assert.equal("running", h:step(1))
    g:set_cost(10, 10, 2)
    local st, why = h:step()
    assert.equal("stale", st)
    assert.matches("changed", why)
    p, msg, status = h:path()
    assert.is_nil(p)
    assert.equal(why, msg)
    assert.equal("stale", status)
    -- no path: two values, as lodestar.find_path
    local walled = lodestar.grid.new(40, 40)
    for y = 0, 39 do walled:set_blocked(20, y, true) end
    local hw = lodestar.hierarchy(walled)
    assert.same({n = 2, nil, "no_path"}, table.pack and table.pack(hw:find_path(0, 0, 39, 39))
      or {n = select("#", hw:find_path(0, 0, 39, 39)), hw:find_path(0, 0, 39, 39)})
  end)
end)

describe("messages docs/lua-api.md quotes", function()
  local f = assert(io.open("docs/lua-api.md", "r"))
  local text = f:read("*a"):gsub("%s+", " ")
  f:close()
  local function quoted(msg)
    assert(text:find(msg, 1, true), "not quoted verbatim in docs/lua-api.md: " .. msg)
  end
  it("are the ones the path cache, the scheduler's cache and opts.level2 raise", function()
    local g = lodestar.grid.new(8, 8)
    local other = lodestar.grid.new(8, 8)
    local cache = lodestar.path_cache(g)
    local sched = lodestar.scheduler.new()
    sched:add_grid(g)
    quoted(errmsg(function() return cache:find_path(8, 0, 1, 1) end))
    quoted(errmsg(function() return cache:find_path(0, 0, 1, 1, {weights = {mud = 1}}) end))
    quoted(errmsg(cache.find_path, {}, 0, 0, 1, 1))
    quoted(errmsg(lodestar.path_cache, g, {max_entries = 0}))
    quoted(errmsg(function() return sched:set_path_cache(other, 4) end))
    quoted(errmsg(function() return sched:set_path_cache(g, 1025) end))
    quoted(errmsg(lodestar.hierarchy, lodestar.grid.new(16, 16), {level2 = 1}))
    quoted(errmsg(lodestar.hierarchy, g, {level2 = "on"}):match("%(opts.level2.*%)$"))
    quoted(errmsg(lodestar.hierarchy, g, {level2 = true}):match("%(opts.level2.*%)$"))
    g:free()
    quoted(errmsg(function() return cache:find_path(0, 0, 1, 1) end))
    cache:free()
    quoted(errmsg(function() return cache:stats() end))
  end)
end)
