-- SPDX-License-Identifier: MIT
-- Designer rules: baked layers, per-query weights, edge callbacks.
local lodestar = require "lodestar"
local testing = require "lodestar.testing"
local support = require "support"

local errmsg = support.errmsg

describe("baked layers", function()
  it("calls fn(x, y, terrain, base_cost) once per cell and stores the numbers", function()
    local g = testing.grid[[
      . . T
      . 3 T
    ]]
    local seen = {}
    local n = g:bake("danger", function(x, y, t, c)
      seen[#seen + 1] = ("%d,%d,%s,%g"):format(x, y, t, c)
      return t == "T" and 5 or 0
    end)
    assert.equal(6, n)
    assert.same({"0,0,.,1", "1,0,.,1", "2,0,T,1", "0,1,.,1", "1,1,3,3", "2,1,T,1"}, seen)
    assert.equal(5, g:layer_get("danger", 2, 1))
    assert.equal(0, g:layer_get("danger", 1, 1))
    assert.same({"danger"}, g:layer_list())
  end)

  it("false blocks the cell for queries weighting the layer", function()
    local g = lodestar.grid.new(3, 3)
    g:bake("walls", function(x, y)
      if x == 1 and y < 2 then return false end
      return 0
    end)
    assert.equal(math.huge, g:layer_get("walls", 1, 0))
    local plain = lodestar.find_path(g, 0, 0, 2, 0)
    local weighted = lodestar.find_path(g, 0, 0, 2, 0, {weights = {walls = 1}})
    assert.equal(2, plain.cost)
    assert.near(2 + 2 * math.sqrt(2), weighted.cost, 1e-12) -- around the bottom of the wall
    assert.is_true(lodestar.find_path(g, 0, 0, 2, 0, {weights = {walls = 0}}).cost == 2)
  end)

  it("re-bakes only a rectangle after an edit", function()
    local g = lodestar.grid.new(4, 4)
    g:bake("d", function() return 1 end)
    local v0 = g:version()
    local calls = 0
    assert.equal(4, g:bake("d", function() calls = calls + 1; return 7 end, {1, 1, 2, 2}))
    assert.equal(4, calls)
    assert.equal(7, g:layer_get("d", 2, 2))
    assert.equal(1, g:layer_get("d", 3, 3))
    assert.equal(1, g:layer_get("d", 0, 1))
    assert.is_true(g:version() > v0)
    assert.matches("(rect {1, 1, 4, 2} out of range (expected 0 <= x0 <= x1 < 4, 0 <= y0 <= y1 < 4))",
      errmsg(g.bake, g, "d", function() return 0 end, {1, 1, 4, 2}), 1, true)
  end)

  it("an error in fn keeps the old layer intact", function()
    local g = lodestar.grid.new(3, 3)
    g:bake("d", function(x) return x end)
    local e = errmsg(g.bake, g, "d", function(_, y) if y == 2 then error("rule broke") end return 9 end)
    assert.matches("rule broke (bake: rule for layer 'd' at (0,2))", e, 1, true)
    assert.equal(2, g:layer_get("d", 2, 2))
    assert.equal(1, g:layer_get("d", 1, 0)) -- rows before the error were not written either
    assert.equal("bake: rule for layer 'd' returned nan at (0,0) (expected a number, or false to block)",
      errmsg(g.bake, g, "d", function() return 0 / 0 end))
    assert.equal("bake: rule for layer 'd' returned string at (0,0) (expected a number, or false to block)",
      errmsg(g.bake, g, "d", function() return "1" end))
    assert.equal("bake: rule for layer 'new' returned nil at (0,0) (expected a number, or false to block)",
      errmsg(g.bake, g, "new", function() end))
    assert.same({"d"}, g:layer_list()) -- a failed bake adds no layer
    assert.matches("(function expected, got no value)", errmsg(g.bake, g, "d"), 1, true)
  end)

  it("the grid cannot be freed or re-layered from inside a rule", function()
    local g = lodestar.grid.new(2, 2)
    assert.matches("cannot free while a bake rule or an edge callback on it runs",
      errmsg(g.bake, g, "d", function() g:free() return 0 end), 1, true)
    assert.matches("cannot add a layer while a bake rule or an edge callback on it runs",
      errmsg(g.bake, g, "d", function() g:layer_add("x") return 0 end), 1, true)
    assert.equal(2, (g:size())) -- still usable
  end)
end)

describe("weights", function()
  local function road_grid()
    local g = lodestar.grid.new(5, 3)
    g:bake("danger", function(x, y) return (x == 2 and y == 0) and 2 or 0 end)
    g:bake("road", function(_, y) return y == 2 and 1 or 0 end)
    return g
  end

  it("effective cost = base + sum(weight * layer)", function()
    local g = road_grid()
    local p = lodestar.find_path(g, 0, 0, 4, 0, {weights = {danger = 3}})
    -- straight through (2,0) would cost 4 + 3*2 = 10; around it 2 + 2*sqrt2
    assert.near(2 + 2 * math.sqrt(2), p.cost, 1e-12)
    local cheap = lodestar.find_path(g, 0, 2, 4, 2, {weights = {road = -0.5}})
    assert.near(4 * 0.5, cheap.cost, 1e-12)
    assert.is_optimal(g, 0, 0, 4, 2, {weights = {danger = 3, road = -0.5}})
  end)

  it("a weighted cost <= 0 is an error naming the cell and the layer", function()
    local g = road_grid()
    assert.equal("bad argument #6 to 'find_path' (opts.weights: cell (0,2) has cost 0 under the layer weights "
      .. "(base 1, layer 'road' value 1 x weight -1; expected finite, > 0))",
      errmsg(lodestar.find_path, g, 0, 0, 4, 0, {weights = {road = -1}}))
  end)

  it("rejects NaN, infinite, non-number weights and unknown layers", function()
    local g = road_grid()
    assert.matches("(opts.weights: weight of layer 'road' is nan (expected finite))",
      errmsg(lodestar.find_path, g, 0, 0, 1, 1, {weights = {road = 0 / 0}}), 1, true)
    assert.matches("(opts.weights: weight of layer 'road' is inf (expected finite))",
      errmsg(lodestar.find_path, g, 0, 0, 1, 1, {weights = {road = math.huge}}), 1, true)
    assert.matches("(opts.weights: weight of layer 'road': number expected, got string)",
      errmsg(lodestar.find_path, g, 0, 0, 1, 1, {weights = {road = "1"}}), 1, true)
    assert.matches("(opts.weights: the grid has no layer 'mud')",
      errmsg(lodestar.find_path, g, 0, 0, 1, 1, {weights = {mud = 1}}), 1, true)
  end)

  it("weights follow layers by name when earlier layers are removed", function()
    local g = road_grid()
    local s = lodestar.search.astar(g, {weights = {road = -0.5}})
    g:layer_remove("danger")
    s:start(0, 2, 4, 2)
    assert.equal("found", s:run())
    assert.near(2, s:cost(), 1e-12)
  end)
end)

describe("edge callbacks", function()
  it("cost(x0, y0, x1, y1, base) replaces each move's cost", function()
    local g = lodestar.grid.new(4, 1)
    local calls = {}
    local p = lodestar.find_path(g, 0, 0, 3, 0, {cost = function(x0, y0, x1, y1, base)
      calls[#calls + 1] = ("%d,%d>%d,%d:%g"):format(x0, y0, x1, y1, base)
      return base * (x1 + 1)
    end})
    assert.equal(2 + 3 + 4, p.cost)
    -- every move the search considers, in the documented order (N, E, S, W...),
    -- moves back into the closed set included
    assert.same({"0,0>1,0:1", "1,0>2,0:1", "1,0>0,0:1", "2,0>3,0:1", "2,0>1,0:1"}, calls)
    assert.is_optimal(g, 0, 0, 3, 0, {cost = function(_, _, x1, _, b) return b * (x1 + 1) end})
  end)

  it("false forbids a move", function()
    local g = lodestar.grid.new(3, 2)
    local p = lodestar.find_path(g, 0, 0, 2, 0, {cost = function(_, _, x1, y1, b)
      if x1 == 1 and y1 == 0 then return false end
      return b
    end})
    assert.near(2 * math.sqrt(2), p.cost, 1e-12)
  end)

  it("an error ends the search with status callback and the Lua message", function()
    local g = lodestar.grid.new(5, 5)
    local s = lodestar.search.astar(g, {start = {0, 0}, goal = {4, 4}, cost = function(_, _, x1, y1)
      if x1 == 2 and y1 == 2 then error("no entry", 0) end
      return 1
    end})
    local st, msg = s:run()
    assert.equal("callback", st)
    assert.equal("edge callback failed at (1,1)->(2,2): no entry", msg)
    assert.equal("callback", s:status())
    assert.equal(msg, s:errmsg())
    assert.equal("callback", s:step()) -- a finished search keeps its status
    local p, m, code = lodestar.find_path(g, 0, 0, 4, 4, {cost = function() error({}) end})
    assert.is_nil(p)
    assert.equal("edge callback failed at (0,0)->(1,0): (error object is a table value)", m)
    assert.equal("callback", code)
  end)

  it("bad results end the search naming the edge", function()
    local g = lodestar.grid.new(3, 3)
    local _, m1 = lodestar.find_path(g, 0, 0, 2, 2, {cost = function() return 0 end})
    assert.equal("lds_search_step: edge callback returned 0 for (0,0)->(1,0) "
      .. "(expected finite, > 0, or inf to forbid)", m1)
    local _, m2 = lodestar.find_path(g, 0, 0, 2, 2, {cost = function() return 0 / 0 end})
    assert.equal("lds_search_step: edge callback returned nan for (0,0)->(1,0) "
      .. "(expected finite, > 0, or inf to forbid)",
      (m2:gsub("%-nan", "nan")))
    local _, m3 = lodestar.find_path(g, 0, 0, 2, 2, {cost = function() return "2" end})
    assert.equal("edge callback failed at (0,0)->(1,0): returned string "
      .. "(expected a number, or false to forbid the move)", m3)
  end)

  it("works from coroutines: steps in different threads, a yield inside fails cleanly", function()
    local g = lodestar.grid.new(30, 30)
    for y = 0, 28 do g:set_blocked(15, y, true) end
    local function cost(_, _, _, _, b) return b end
    local ref = lodestar.find_path(g, 0, 0, 29, 0, {cost = cost})
    local s = lodestar.search.astar(g, {start = {0, 0}, goal = {29, 0}, cost = cost})
    local co = coroutine.wrap(function()
      while s:step(5) == "running" do coroutine.yield("more") end
      return "done"
    end)
    local turns = 0
    repeat -- alternate: a step in the coroutine, a step in the main thread
      turns = turns + 1
      local r = co()
      if r == "more" then s:step(3) end
    until r == "done" or s:status() ~= "running"
    assert.is_true(turns > 10)
    assert.equal("found", s:status())
    assert.equal(ref.cost, s:cost())
    local y = lodestar.search.astar(g, {start = {0, 0}, goal = {29, 0},
      cost = function(_, _, _, _, b) coroutine.yield(); return b end})
    local st = coroutine.wrap(function() return y:run() end)()
    assert.equal("callback", st)
    assert.matches("yield", y:errmsg(), 1, true)
  end)

  it("a callback cannot step, restart or free its own search, nor free the grid", function()
    local g = lodestar.grid.new(3, 3)
    local s
    local what
    s = lodestar.search.astar(g, {cost = function(_, _, _, _, b)
      if what == "step" then s:step() elseif what == "free" then s:free()
      elseif what == "start" then s:start(0, 0, 1, 1) elseif what == "grid" then g:free() end
      return b
    end})
    for _, w in ipairs({"step", "free", "start", "grid"}) do
      what = w
      s:start(0, 0, 2, 2)
      local st, msg = s:run()
      assert.equal("callback", st)
      assert.matches("cannot", msg, 1, true)
    end
    what = nil
    s:start(0, 0, 2, 2)
    assert.equal("found", s:run())
  end)
end)
