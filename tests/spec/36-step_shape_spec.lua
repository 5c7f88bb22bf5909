-- SPDX-License-Identifier: MIT
-- One slicing shape from Lua: s:step and d:step take the same budget (nil or
-- 0 = no limit, an integer = max expansions, or {max_expansions =,
-- budget_us =}); d:compute is the deprecated alias of d:step; s:stats and
-- d:stats share the lds_Stats keys (expansions, pushes, peak_open,
-- elapsed_us).
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errmsg

-- 32x32 grid with a wall at x = 16 from y = 0 to 27: paths bend.
local function wall_grid()
  local g = lodestar.grid.new(32, 32)
  for y = 0, 27 do g:set_blocked(16, y, true) end
  return g
end

describe("one slicing shape", function()
  it("s:step takes a budget table like d:step, and slices the same as an integer", function()
    local g = wall_grid()
    local a = lodestar.search.astar(g, {start = {2, 2}, goal = {30, 2}})
    local b = lodestar.search.astar(g, {start = {2, 2}, goal = {30, 2}})
    assert.equal("running", a:step(3))
    assert.equal("running", b:step{max_expansions = 3})
    assert.equal(3, a:stats().expansions)
    assert.equal(3, b:stats().expansions)
    assert.equal(a:stats().pushes, b:stats().pushes)
    assert.equal("found", a:step())
    assert.equal("found", b:step{})
    assert.equal(a:stats().expansions, b:stats().expansions)
    assert.equal(a:stats().peak_open, b:stats().peak_open)
    assert.matches("unknown budget field 'budget'", errmsg(b.step, b, {budget = 5}))
    assert.matches("max_expansions must be an integer >= 0", errmsg(b.step, b, {max_expansions = -1}))
  end)

  it("d:step slices as d:compute, and d:stats has peak_open = peak_queue", function()
    local g = wall_grid()
    local d1 = lodestar.search.dstar_lite(g, {start = {2, 2}, goal = {30, 2}})
    local d2 = lodestar.search.dstar_lite(g, {start = {2, 2}, goal = {30, 2}})
    assert.equal("running", d1:step{max_expansions = 5})
    assert.equal("running", d2:compute(5))
    assert.equal(d1:stats().expansions, d2:stats().expansions)
    assert.equal("found", d1:step())
    assert.equal("found", d2:compute())
    assert.equal(d1:cost(), d2:cost())
    local st = d1:stats()
    assert.is_true(st.expansions > 0)
    assert.equal(st.peak_queue, st.peak_open)
  end)
end)
