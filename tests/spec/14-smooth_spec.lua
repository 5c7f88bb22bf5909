-- SPDX-License-Identifier: MIT
-- Wall-safe smoothing (docs/lua-api.md, Post-processing; designer guide §5):
-- with the grid, a Catmull-Rom span that would touch a blocked cell is the
-- straight segment between its two cells instead, so no smoothed point lies
-- in a wall. Checked by hand on a hairpin, on every query of the den011d
-- scenario, and on random grids. Deterministic: no math.random.
local lodestar = require "lodestar"
local smooth = require "lodestar.smooth"

local SCEN = "tests/data/den011d.map.scen"
local MAP = "tests/data/den011d.map"

-- The cell a point lies in: integer coordinates are cell centres, a cell's
-- square is [c - 0.5, c + 0.5) on each axis. Outside the grid counts as a wall.
local function in_wall(grid, p)
  local w, h = grid:size()
  local cx, cy = math.floor(p.x + 0.5), math.floor(p.y + 0.5)
  return cx < 0 or cy < 0 or cx >= w or cy >= h or grid:get_blocked(cx, cy)
end

local function count_in_wall(grid, pts)
  local n = 0
  for i = 1, #pts do if in_wall(grid, pts[i]) then n = n + 1 end end
  return n
end

-- deterministic pseudo-random numbers (same on both engines)
local function lcg(seed)
  local s = seed
  return function(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return math.floor(s / 65536) % n
  end
end

describe("wall-safe smoothing", function()
  local hairpin = [[
    @@@@@@@@@
    @.......@
    @@@@@@@.@
    @.......@
    @@@@@@@@@
  ]]

  -- a view with walls only (no polyline_cost): wall-safe, no cost check
  local function walls_only(g)
    return {size = function() return g:size() end,
      get_blocked = function(x, y) return g:get_blocked(x, y) end}
  end

  it("replaces the span that overshoots into a wall by the straight segment", function()
    local g = lodestar.grid.from_ascii(hairpin)
    local pruned = lodestar.prune_los(lodestar.find_path(g, 1, 1, 1, 3), g)
    assert.same({{x = 1, y = 1}, {x = 7, y = 1}, {x = 7, y = 3}, {x = 1, y = 3}}, pruned:totable())
    local free = smooth.catmull_rom(pruned, {samples = 4})
    -- the turn (7,1) -> (7,3) bulges to x = 7.75, into the wall column 8
    assert.same({x = 7.75, y = 2}, free[7])
    assert.equal(3, count_in_wall(g, free))
    local safe = smooth.catmull_rom(pruned, {samples = 4, grid = walls_only(g)})
    assert.same({
      {x = 1, y = 1}, {x = 2.21875, y = 0.953125}, {x = 4, y = 0.875}, {x = 5.78125, y = 0.859375},
      {x = 7, y = 1}, {x = 7, y = 1.5}, {x = 7, y = 2}, {x = 7, y = 2.5}, -- straight
      {x = 7, y = 3}, {x = 5.78125, y = 3.140625}, {x = 4, y = 3.125}, {x = 2.21875, y = 3.046875},
      {x = 1, y = 3}}, safe)
    -- with the grid itself the costs count too: pruning saved nothing here (the
    -- corridors are straight), so a curve, longer than its segment, would cost
    -- more than the path it came from: every span is straight, cost 14
    local costed = smooth.catmull_rom(pruned, {samples = 4, grid = g})
    assert.same({
      {x = 1, y = 1}, {x = 2.5, y = 1}, {x = 4, y = 1}, {x = 5.5, y = 1},
      {x = 7, y = 1}, {x = 7, y = 1.5}, {x = 7, y = 2}, {x = 7, y = 2.5},
      {x = 7, y = 3}, {x = 5.5, y = 3}, {x = 4, y = 3}, {x = 2.5, y = 3}, {x = 1, y = 3}},
      {(table.unpack or unpack)(costed)}) -- the points, without the cost field
    assert.near(14, costed.cost, 1e-12)
    -- the chain hands its grid to the postprocessor's step; the step alone has none
    local step = smooth.postprocessor(0.5)
    local tidy = lodestar.postprocess{lodestar.prune_los, step}
    assert.is_true(count_in_wall(g, step(pruned)) > 0)
    assert.equal(0, count_in_wall(g, step(pruned, g)))
    assert.equal(0, count_in_wall(g, step(pruned, walls_only(g))))
    assert.equal(0, count_in_wall(g, tidy(lodestar.find_path(g, 1, 1, 1, 3), g)))
  end)

  it("takes a grid view (size() and get_blocked(x, y) as plain functions) as a grid", function()
    -- what lodestar.mods hands a post-processor: a read-only table, not a
    -- lodestar.Grid; with polyline_cost(points, opts) it is costed like the grid
    local g = lodestar.grid.from_ascii(hairpin)
    local view = walls_only(g)
    view.polyline_cost = function(points, opts) return g:polyline_cost(points, opts) end
    local pruned = lodestar.prune_los(lodestar.find_path(g, 1, 1, 1, 3), g)
    assert.same(smooth.catmull_rom(pruned, {samples = 4, grid = g}),
      smooth.catmull_rom(pruned, {samples = 4, grid = view}))
    local step = smooth.postprocessor(0.5)
    assert.same(step(pruned, g), step(pruned, view))
    assert.equal(0, count_in_wall(g, step(pruned, view)))
    assert.is_nil(step(pruned, walls_only(g)).cost) -- no costs known
  end)

  it("den011d: no smoothed point in a wall for any scenario query, with the grid #slow", function()
    local g = assert(lodestar.grid.load(MAP))
    assert.equal("no_corner_cutting", g:diagonal())
    local step = smooth.postprocessor(0.5)
    local tidy = lodestar.postprocess{lodestar.prune_los, step} -- designer guide §5
    local queries, bad_free, bad_safe, bad_curve, bad_queries = 0, 0, 0, 0, 0
    local example
    for line in io.lines(SCEN) do
      local sx, sy, gx, gy = line:match("^%d+\t[^\t]+\t%d+\t%d+\t(%d+)\t(%d+)\t(%d+)\t(%d+)")
      if sx then
        sx, sy, gx, gy = tonumber(sx), tonumber(sy), tonumber(gx), tonumber(gy)
        queries = queries + 1
        local path = assert(lodestar.find_path(g, sx, sy, gx, gy))
        local pruned = lodestar.prune_los(path, g)
        -- without the grid: the test must be able to fail
        local free = step(pruned)
        local n = count_in_wall(g, free)
        bad_free = bad_free + n
        if n > 0 then bad_queries = bad_queries + 1 end
        if sx == 11 and sy == 23 and gx == 190 and gy == 145 then example = n end
        -- with the grid: the chain, and catmull_rom's own option
        local safe = tidy(path, g)
        bad_safe = bad_safe + count_in_wall(g, safe)
        bad_curve = bad_curve + count_in_wall(g, smooth.catmull_rom(pruned, {grid = g}))
      end
    end
    assert.equal(780, queries)
    assert.is_true(bad_free > 0 and bad_queries > 0, "no violation found without the grid")
    assert.is_true(example > 0, "query (11,23)->(190,145) has no point in a wall without the grid")
    assert.equal(0, bad_safe, ("%d points in walls with the grid"):format(bad_safe))
    assert.equal(0, bad_curve)
  end)

  it("random grids: the whole polyline stays in free cells (no_corner_cutting)", function()
    local rnd = lcg(11)
    local checked, fell_back = 0, 0
    for round = 1, 30 do
      local g = lodestar.grid.new(20, 20)
      for _ = 1, 110 do g:set_blocked(rnd(20), rnd(20), true) end
      for _ = 1, 8 do
        local sx, sy, gx, gy = rnd(20), rnd(20), rnd(20), rnd(20)
        local path = lodestar.find_path(g, sx, sy, gx, gy)
        if path and #path > 2 then
          local pruned = lodestar.prune_los(path, g)
          local safe = smooth.catmull_rom(pruned, {samples = 6, grid = g})
          local free = smooth.catmull_rom(pruned, {samples = 6})
          assert.equal(#free, #safe)
          for i = 1, #safe do
            if safe[i].x ~= free[i].x or safe[i].y ~= free[i].y then fell_back = fell_back + 1 end
          end
          -- 32 points on every segment of the output polyline, ends included
          for i = 2, #safe do
            local a, b = safe[i - 1], safe[i]
            for k = 0, 32 do
              local t = k / 32
              local p = {x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t}
              checked = checked + 1
              assert(not in_wall(g, p), ("round %d: (%d,%d)->(%d,%d): point (%.17g, %.17g) in a wall")
                :format(round, sx, sy, gx, gy, p.x, p.y))
            end
          end
        end
      end
    end
    assert.is_true(checked > 10000)
    assert.is_true(fell_back > 0) -- the random walls do bend some curves
  end)
end)
