-- SPDX-License-Identifier: MIT
-- The smoothing mod: curves through the path, ends kept, even spacing.
local lodestar = require "lodestar"
local testing = require "lodestar.testing"
local mods = require "lodestar.mods"

describe("mod smoothing", function()
  local m, grid, path

  before_each(function()
    m = mods.new{root = "mods", only = {"smoothing"}}
    assert.equal("loaded", m:poll()[1].result)
    grid = testing.grid[[
      . . . . . .
      . @ @ @ @ .
      . . . . @ .
      . . . . . .
    ]]
    path = lodestar.find_path(grid, 0, 2, 5, 0)
  end)
  after_each(function() m:close() end)

  local function check_curve(pts, first, last)
    assert.same({x = first[1], y = first[2]}, pts[1])
    assert.same({x = last[1], y = last[2]}, pts[#pts])
    for i = 2, #pts - 1 do -- evenly spaced (the last gap may be shorter)
      local d = math.sqrt((pts[i].x - pts[i - 1].x) ^ 2 + (pts[i].y - pts[i - 1].y) ^ 2)
      assert.is_true(d <= 0.5 + 1e-9, ("gap %d is %g"):format(i, d))
    end
  end

  it("catmull: a curve through every cell, points 0.5 cells apart", function()
    local pts, err = m:postprocess("smoothing.catmull", path, grid)
    assert.is_nil(err)
    check_curve(pts, {0, 2}, {5, 0})
    assert.is_true(#pts >= 2 * (#path - 1))
  end)

  it("pruned: line-of-sight pruning first; in the open it is a straight line", function()
    check_curve(m:postprocess("smoothing.pruned", path, grid), {0, 2}, {5, 0})
    local open = lodestar.grid.new(6, 3)
    local p = lodestar.find_path(open, 0, 0, 5, 2)
    local a = m:postprocess("smoothing.catmull", p, open)
    local b = m:postprocess("smoothing.pruned", p, open)
    check_curve(b, {0, 0}, {5, 2})
    assert.near(math.sqrt(29), lodestar.smooth.length(b), 1e-9)
    assert.is_true(lodestar.smooth.length(a) > math.sqrt(29) + 0.01)
    for _, pt in ipairs(b) do assert.near(pt.x * 2 / 5, pt.y, 1e-9) end
  end)

  it("wall-safe: with the grid, no point of either curve lies in a wall", function()
    -- the turn at (7,1) -> (7,3) makes a free Catmull-Rom curve bulge into
    -- the wall column 8; the post-processor gets the grid as a read-only
    -- view, which lodestar.smooth takes as opts.grid
    local g = lodestar.grid.from_ascii[[
      @@@@@@@@@
      @.......@
      @@@@@@@.@
      @.......@
      @@@@@@@@@
    ]]
    local function in_wall(pts)
      local w, h = g:size()
      local n = 0
      for _, pt in ipairs(pts) do
        local cx, cy = math.floor(pt.x + 0.5), math.floor(pt.y + 0.5)
        if cx < 0 or cy < 0 or cx >= w or cy >= h or g:get_blocked(cx, cy) then n = n + 1 end
      end
      return n
    end
    local p = lodestar.find_path(g, 1, 1, 1, 3)
    local pruned = lodestar.prune_los(p, g)
    assert.is_true(in_wall(lodestar.smooth.postprocessor(0.5)(pruned)) > 0) -- the test can fail
    for _, name in ipairs{"smoothing.pruned", "smoothing.catmull"} do
      local pts, err = m:postprocess(name, p, g)
      assert.is_nil(err)
      check_curve(pts, {1, 1}, {1, 3})
      assert.equal(0, in_wall(pts), name)
    end
    -- the same points as lodestar.smooth with the grid itself
    assert.same(lodestar.smooth.postprocessor(0.5)(pruned, g), m:postprocess("smoothing.pruned", p, g))
  end)

  it("an error in a post-processor returns the path unchanged, with the message", function()
    local out, err = m:postprocess("smoothing.pruned", path) -- no grid
    assert.equal(path, out)
    assert.matches("mods/smoothing/mod.lua:%d+: smoothing.pruned needs the grid", err)
  end)
end)
