-- SPDX-License-Identifier: MIT
-- A weighted hierarchy (lodestar.hierarchy with weights = {...}) and the
-- requests that run through it: its paths remember its weights (so
-- reverse, sub and prune_los cost them as it did), a layer removal (which
-- shifts the layer indices its weights are kept by) is refused rather than
-- answered with the wrong layers, and a hierarchy request refuses the
-- options it would ignore (weights through set_options, partial). After a
-- hierarchy request ends without a path, req:partial_path() has none.
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errmsg

-- 20 x 20, a layer "mud" of 50 on columns 8..11 but for a gap at row 0
local function mud_grid()
  local g = lodestar.grid.new(20, 20)
  g:layer_add("mud")
  for y = 1, 19 do
    for x = 8, 11 do g:layer_set("mud", x, y, 50) end
  end
  return g
end

describe("a weighted hierarchy", function()
  it("gives paths that remember its weights", function()
    local g = mud_grid()
    local h = lodestar.hierarchy(g, {weights = {mud = 1}, cluster_size = 8})
    local p = assert(h:find_path(0, 8, 19, 8, "optimal"))
    local ref = assert(lodestar.find_path(g, 0, 8, 19, 8, {weights = {mud = 1}}))
    assert.is_true(math.abs(p.cost - ref.cost) < 1e-9)
    assert.are.equal(1, p.weights.mud)
    -- pruned and reversed with the mud counted: never cheaper than the optimum
    assert.is_true(p:prune_los(g).cost >= ref.cost - 1e-9)
    assert.is_true(math.abs(p:reverse(g).cost - ref.cost) < 1e-9)
  end)

  it("keeps its weights on their layers when a layer it does not weight is removed", function()
    local g = lodestar.grid.new(40, 40)
    g:layer_add("a")
    g:layer_add("mud")
    g:layer_add("c")
    for x = 0, 39 do g:layer_set("mud", x, 20, 100) end
    for x = 0, 39 do g:layer_set("c", x, 10, 1000) end
    local h = lodestar.hierarchy(g, {weights = {mud = 1}, cluster_size = 8})
    local ref = assert(lodestar.find_path(g, 0, 0, 39, 39, {weights = {mud = 1}}))
    assert.near(ref.cost, assert(h:find_path(0, 0, 39, 39, "optimal")).cost, 1e-9)
    -- 'a' (index 0, below mud) goes: mud moves to index 0, 'c' to 1; the
    -- hierarchy still weights mud, not 'c' (which would cost 1000 a cell)
    g:layer_remove("a")
    assert.near(ref.cost, assert(h:find_path(0, 0, 39, 39, "optimal")).cost, 1e-9)
    assert.near(ref.cost, assert(h:find_path(0, 0, 39, 39)).cost, 0.05 * ref.cost)
    -- edits after the removal are repaired on the right layer
    g:layer_set("mud", 0, 20, 0)
    local ref2 = assert(lodestar.find_path(g, 0, 0, 39, 39, {weights = {mud = 1}}))
    assert.is_true(ref2.cost < ref.cost - 50)
    assert.near(ref2.cost, assert(h:find_path(0, 0, 39, 39, "optimal")).cost, 1e-9)
    g:layer_remove("c")
    assert.near(ref2.cost, assert(h:find_path(0, 0, 39, 39, "optimal")).cost, 1e-9)
  end)

  it("answers nil, message naming the layer, 'state' once a weighted layer was removed", function()
    local g = lodestar.grid.new(40, 40)
    g:layer_add("a")
    g:layer_add("mud")
    for x = 0, 39 do g:layer_set("mud", x, 20, 100) end
    local h = lodestar.hierarchy(g, {weights = {mud = 1}, cluster_size = 8})
    assert(h:find_path(0, 0, 39, 39, "optimal"))
    g:layer_remove("mud")
    local p, m, st = h:find_path(0, 0, 39, 39, "optimal")
    assert.is_nil(p)
    assert.equal("lodestar.Hierarchy:find_path: the hierarchy could not be repaired: layer 'mud' "
      .. "(weight 1 in this hierarchy) was removed from the grid; build a new hierarchy without it", m)
    assert.equal("state", st)
  end)
end)

describe("a hierarchy request", function()
  it("refuses weights through set_options and partial", function()
    local g = mud_grid()
    local h = lodestar.hierarchy(g, {weights = {mud = 1}, cluster_size = 8})
    local s = lodestar.scheduler.new()
    s:add_grid(g)
    local r = s:request{from = {0, 8}, to = {19, 8}, hierarchy = h, hierarchy_mode = "optimal"}
    local e = errmsg(function() r:set_options{weights = {mud = 2}} end)
    assert.truthy(e:find("opts.weights: not with opts.hierarchy", 1, true))
    e = errmsg(function() return s:request{from = {0, 0}, to = {19, 19}, hierarchy = h, partial = true} end)
    assert.truthy(e:find("partial", 1, true))
    s:step(0)
    local p = assert(r:path())
    local ref = assert(lodestar.find_path(g, 0, 8, 19, 8, {weights = {mud = 1}}))
    assert.is_true(math.abs(p.cost - ref.cost) < 1e-9)
    assert.are.equal(1, p.weights.mud)
  end)

  it("has no partial path after it ends no_path", function()
    local g = lodestar.grid.new(64, 64)
    -- the goal (60, 60) walled in
    for x = 58, 62 do
      g:set_blocked(x, 58, true)
      g:set_blocked(x, 62, true)
    end
    for y = 58, 62 do
      g:set_blocked(58, y, true)
      g:set_blocked(62, y, true)
    end
    local h = lodestar.hierarchy(g, {cluster_size = 8})
    local s = lodestar.scheduler.new()
    s:add_grid(g)
    local r = s:request{from = {1, 1}, to = {60, 60}, hierarchy = h}
    s:step(0)
    assert.are.equal("no_path", r:status())
    local p, why = r:partial_path()
    assert.is_nil(p)
    assert.are.equal("none", why)
  end)
end)
