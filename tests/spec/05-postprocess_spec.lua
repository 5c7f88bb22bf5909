-- SPDX-License-Identifier: MIT
-- Line of sight, line-of-sight pruning, post-processing chains, smoothing.
local lodestar = require "lodestar"
local smooth = require "lodestar.smooth"
local support = require "support"

local errmsg = support.errmsg

-- deterministic pseudo-random numbers (no math.random: same on both engines)
local function lcg(seed)
  local s = seed
  return function(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return s % n
  end
end

describe("line of sight", function()
  it("follows Bresenham's cells on 8-connected grids", function()
    local g = lodestar.grid.new(6, 4)
    assert.is_true(g:line_of_sight(0, 0, 4, 2))
    assert.is_true(g:line_of_sight(2, 2, 2, 2))
    g:set_blocked(3, 1, true) -- on the line (1,0) (2,1) (3,1) (4,2)
    assert.is_false(g:line_of_sight(0, 0, 4, 2))
    g:set_blocked(3, 1, false)
    g:set_blocked(3, 0, true) -- beside the line: no effect
    assert.is_true(g:line_of_sight(0, 0, 4, 2))
    assert.is_false(g:line_of_sight(0, 0, 3, 0)) -- the end is blocked
  end)

  it("obeys the diagonal rule at every diagonal step", function()
    local g = lodestar.grid.new(6, 4)
    g:set_blocked(2, 0, true) -- a corner of the diagonal step (1,0)->(2,1)
    -- "never" walks 4-connected: (1,0) (1,1) (2,1) ... misses (2,0)
    local expect = {never = true, no_corner_cutting = false, allow_one_blocked = true, always = true}
    for _, rule in ipairs(lodestar.diagonal_rules) do
      g:set_diagonal(rule)
      assert.equal(expect[rule], g:line_of_sight(0, 0, 4, 2), rule)
    end
    g:set_blocked(1, 1, true) -- both corners blocked now
    g:set_diagonal("allow_one_blocked")
    assert.is_false(g:line_of_sight(0, 0, 4, 2))
    g:set_diagonal("always")
    assert.is_true(g:line_of_sight(0, 0, 4, 2))
  end)

  it("walks 4-connected cells with neighbourhood 4", function()
    local g = lodestar.grid.new(3, 2)
    g:set_neighbourhood(4)
    assert.is_true(g:line_of_sight(0, 0, 2, 1)) -- (1,0) (1,1) (2,1)
    g:set_blocked(1, 1, true)
    assert.is_false(g:line_of_sight(0, 0, 2, 1))
    g:set_blocked(1, 1, false)
    g:set_blocked(0, 1, true) -- not on the walk
    assert.is_true(g:line_of_sight(0, 0, 2, 1))
    assert.matches("(x 3 out of range (expected 0..2))", errmsg(g.line_of_sight, g, 0, 0, 3, 0), 1, true)
  end)
end)

describe("prune_los", function()
  it("keeps only the ends on an open grid, at the straight segment's length", function()
    local g = lodestar.grid.new(12, 8)
    local p = lodestar.find_path(g, 0, 0, 11, 5)
    local q = p:prune_los(g)
    assert.equal(2, #q)
    assert.same({11, 5}, {q:cell(2)})
    assert.near(6 + 5 * math.sqrt(2), p.cost, 1e-9) -- octile
    assert.near(math.sqrt(11 * 11 + 5 * 5), q.cost, 1e-9)
  end)

  it("keeps a corner around a wall", function()
    local g = lodestar.grid.new(8, 8)
    for y = 0, 5 do g:set_blocked(4, y, true) end
    local p = lodestar.find_path(g, 0, 0, 7, 0)
    local q = lodestar.prune_los(p, g)
    assert.is_true(#q >= 3 and #q < #p)
    assert.is_true(q.cost <= p.cost + 1e-9)
    -- every kept segment is a line walk: path.new accepts it at the same cost
    assert.near(q.cost, lodestar.path.new(g, q:totable()).cost, 1e-12)
  end)

  it("never costs more on uniform grids and stays legal (200 random queries)", function()
    local rnd = lcg(7)
    for round = 1, 20 do
      local g = lodestar.grid.new(24, 24)
      if round % 4 == 0 then g:set_diagonal("allow_one_blocked") end
      if round % 5 == 0 then g:set_neighbourhood(4) end
      for _ = 1, 120 do g:set_blocked(rnd(24), rnd(24), true) end
      for _ = 1, 10 do
        local sx, sy, gx, gy = rnd(24), rnd(24), rnd(24), rnd(24)
        local p = lodestar.find_path(g, sx, sy, gx, gy)
        if p then
          local q = p:prune_los(g)
          assert.is_true(q.cost <= p.cost + 1e-9, ("round %d: %g > %g"):format(round, q.cost, p.cost))
          assert.near(q.cost, lodestar.path.new(g, q:totable()).cost, 1e-9)
          assert.same({p:cell(1)}, {q:cell(1)})
          assert.same({p:cell(-1)}, {q:cell(-1)})
        end
      end
    end
  end)

  it("rejects a path that is not legal on the grid", function()
    local g = lodestar.grid.new(4, 4)
    local p = lodestar.find_path(g, 0, 0, 3, 0)
    g:set_blocked(1, 0, true)
    assert.matches("step 1 (0,0)->(1,0) has no line of sight", errmsg(p.prune_los, p, g), 1, true)
    local other = lodestar.grid.new(5, 5)
    assert.matches("path width 4 does not match the grid (width 5)", errmsg(p.prune_los, p, other), 1, true)
  end)
end)

describe("postprocess chain and smoothing", function()
  it("runs the steps in order", function()
    local g = lodestar.grid.new(10, 10)
    for y = 2, 9 do g:set_blocked(5, y, true) end
    local order = {}
    local chain = lodestar.postprocess{
      function(p, grid) order[#order + 1] = "a"; return p:prune_los(grid) end,
      function(p) order[#order + 1] = "b"; return smooth.catmull_rom(p, {samples = 4}) end,
    }
    local p = lodestar.find_path(g, 0, 9, 9, 9)
    local pts = chain(p, g)
    assert.same({"a", "b"}, order)
    assert.same({x = 0, y = 9}, pts[1])
    assert.same({x = 9, y = 9}, pts[#pts])
    local pruned = p:prune_los(g)
    assert.equal((#pruned - 1) * 4 + 1, #pts)
    for i = 1, #pruned do -- the spline passes through every waypoint
      local x, y = pruned:cell(i)
      assert.near(x, pts[(i - 1) * 4 + 1].x, 1e-12)
      assert.near(y, pts[(i - 1) * 4 + 1].y, 1e-12)
    end
  end)

  it("errors name the step", function()
    assert.equal("postprocess: step 2 returned nil",
      errmsg(lodestar.postprocess{function(p) return p end, function() end}, {}, nil))
    assert.matches("(step 1: function expected, got number)", errmsg(lodestar.postprocess, {1}), 1, true)
  end)

  it("an error inside a step points at the chain's caller and names the step", function()
    local HERE = "^[^:]*05%-postprocess_spec%.lua:%d+: " -- raised at this file's call of the chain
    local g = lodestar.grid.new(5, 5)
    local p = lodestar.find_path(g, 0, 0, 4, 0)
    local keep = function(x) return x end
    -- a C step (its own position was the chain's line in init.lua)
    local chain = lodestar.postprocess{keep, lodestar.prune_los}
    local e = errmsg(function() local r = chain(p, "grid"); return r end) -- no tail call: a caller
    assert.matches(HERE .. "postprocess step 2: bad argument #2 to 'prune_los' %(lodestar%.Grid "
      .. "expected, got string%)$", e)
    assert.not_matches("init%.lua", e)
    e = errmsg(function() local r = chain(p, lodestar.grid.new(6, 6)); return r end)
    assert.matches(HERE .. "postprocess step 2: bad argument #2 to 'prune_los' %(lds_grid_path_cost: "
      .. "path width 5 does not match the grid %(width 6%)%)$", e)
    -- a Lua step raising at level 2 (its caller: the chain's line)
    e = errmsg(function()
      local r = lodestar.postprocess{function() error("boom", 2) end}(p, g)
      return r
    end)
    assert.matches(HERE .. "postprocess step 1: boom$", e)
    -- a Lua step raising at its own line keeps that position after the step
    e = errmsg(function()
      local r = lodestar.postprocess{keep, keep, function() error("boom") end}(p, g)
      return r
    end)
    assert.matches(HERE .. "postprocess step 3: [^:]*05%-postprocess_spec%.lua:%d+: boom$", e)
    -- an error value that is not a string goes through unchanged
    local obj = {}
    local ok, v = pcall(lodestar.postprocess{function() error(obj) end}, p, g)
    assert.is_false(ok)
    assert.equal(obj, v)
  end)

  it("resample spaces points evenly along the polyline", function()
    local pts = smooth.resample({{x = 0, y = 0}, {x = 3, y = 0}, {x = 3, y = 2}}, 1)
    assert.same({{x = 0, y = 0}, {x = 1, y = 0}, {x = 2, y = 0}, {x = 3, y = 0}, {x = 3, y = 1}, {x = 3, y = 2}}, pts)
    assert.equal(5, smooth.length(pts))
    local pp = smooth.postprocessor(0.5)(lodestar.find_path(lodestar.grid.new(5, 1), 0, 0, 4, 0))
    assert.equal(9, #pp)
    assert.matches("spacing must be a number > 0", errmsg(smooth.resample, pts, 0), 1, true)
  end)
end)
