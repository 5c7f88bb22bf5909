-- SPDX-License-Identifier: MIT
-- grid:cost_view(weights): one view of the effective costs per weight set,
-- shared by find_path and the searches with those weights; built in slices,
-- kept up to date cell by cell, reported and dropped.
local lodestar = require "lodestar"

-- a 64x48 grid with two layers: "mud" a band of 3s, "road" a row of -0.5s
local function world()
  local g = lodestar.grid.new(64, 48)
  g:layer_add("mud")
  g:layer_add("road")
  for y = 0, 47 do
    for x = 20, 30 do g:layer_set("mud", x, y, 3) end
  end
  for x = 0, 63 do g:layer_set("road", x, 40, -0.5) end
  return g
end

describe("grid:cost_view", function()
  it("builds in slices and holds base + sum weight * layer", function()
    local g = world()
    local v = g:cost_view({mud = 2, road = 1})
    assert.is_false(v:ready())
    assert.is_nil(v:scale())
    local ready, cells = v:build(1)
    assert.is_true(cells >= 1 and cells <= 64 * 48)
    local total, steps = cells, 1
    while not ready do
      ready, cells = v:build(1)
      total, steps = total + cells, steps + 1
    end
    assert.equal(64 * 48, total)
    assert.is_true(v:ready())
    assert.equal(7, v:cost(25, 10))    -- 1 + 2 * 3
    assert.equal(0.5, v:cost(5, 40))   -- 1 + 1 * -0.5
    assert.equal(6.5, v:cost(25, 40))  -- 1 + 6 - 0.5
    assert.equal(1, v:cost(5, 5))
    assert.equal(0.5, v:scale())       -- the cheapest cell
    assert.same({mud = 2, road = 1}, v:weights())
    assert.is_true(v:bytes() >= 66 * 50 * 8)
  end)

  it("is shared: the same weights give the same view, find_path uses it", function()
    local g = world()
    local v = g:cost_view({mud = 2})
    assert.equal(1, #g:cost_views())
    local p = lodestar.find_path(g, 0, 0, 63, 0, {weights = {mud = 2}})
    assert.equal(1, #g:cost_views()) -- no new view
    assert.is_true(v:ready())        -- find_path built it
    local info = g:cost_views()[1]
    assert.same({mud = 2}, info.weights)
    assert.equal(v:bytes(), info.bytes)
    assert.is_true(info.ready)
    assert.equal(1, info.scale)
    -- the same path as on a grid with those costs baked in
    local b = lodestar.grid.new(64, 48)
    for y = 0, 47 do for x = 20, 30 do b:set_cost(x, y, 7) end end
    local q = lodestar.find_path(b, 0, 0, 63, 0)
    assert.equal(q.cost, p.cost)
    assert.same(q:totable(), p:totable())
    lodestar.find_path(g, 0, 0, 63, 0, {weights = {mud = 1}})
    assert.equal(2, #g:cost_views()) -- one per weight set
  end)

  it("follows edits cell by cell", function()
    local g = world()
    local v = g:cost_view({mud = 2})
    v:build()
    g:set_blocked(25, 10, true)
    assert.is_true(v:ready())
    assert.equal(math.huge, v:cost(25, 10))
    g:set_blocked(25, 10, false)
    assert.equal(7, v:cost(25, 10))
    g:layer_set("mud", 1, 1, 0.5)
    assert.equal(2, v:cost(1, 1))
    g:set_cost(2, 2, 0.25)
    assert.is_true(v:ready())
    assert.equal(0.25, v:scale()) -- a new minimum is known at once
    g:set_cost(2, 2, 1)           -- the only cheapest cell raised: a rescan
    assert.is_false(v:ready())
    assert.is_true((v:build()))
    assert.equal(1, v:scale())
  end)

  it("is dropped, and the grid forgets it", function()
    local g = world()
    local v = g:cost_view({road = 1})
    v:build()
    assert.equal(1, #g:cost_views())
    v:drop()
    assert.equal(0, #g:cost_views())
    assert.error_matches(function() v:ready() end, "attempt to use a dropped lodestar.CostView")
    v:drop() -- twice is harmless
    assert.matches("dropped", tostring(v))
    -- a view outlives grid:free(); the grid goes with the last one
    local w = g:cost_view({mud = 1})
    g:free()
    assert.is_true((w:build()))
    w:drop()
  end)

  it("rejects bad weights with a message naming them", function()
    local g = world()
    assert.error_matches(function() g:cost_view({rock = 1}) end, "the grid has no layer 'rock'")
    assert.error_matches(function() g:cost_view({mud = 0 / 0}) end,
      "weight of layer 'mud' is nan %(expected finite%)")
    assert.error_matches(function() g:cost_view({mud = "x"}) end,
      "weight of layer 'mud': number expected, got string")
    assert.error_matches(function() g:cost_view({mud = 0}) end, "every weight is 0")
    assert.error_matches(function() g:cost_view(3) end, "table expected, got number")
    local v = g:cost_view({mud = 1})
    assert.error_matches(function() v:build(-1) end, "budget %-1 out of range")
    assert.error_matches(function() v:cost(64, 0) end, "x 64 out of range")
    -- a layer removed: a view that weights layer 2 of 2 cannot be rebuilt
    v = g:cost_view({road = 1})
    g:layer_remove("mud")
    local ok, msg, st = v:build()
    assert.is_nil(ok)
    assert.matches("a layer was removed", msg)
    assert.equal("arg", st)
  end)
end)

describe("cost view messages quoted in docs/lua-api.md", function()
  it("are the ones the code raises", function()
    local f = assert(io.open("docs/lua-api.md", "r"))
    local text = f:read("a"):gsub("%s+", " ")
    f:close()
    local function detail(fn, ...)
      local ok, e = pcall(fn, ...)
      assert.is_false(ok)
      local d = tostring(e):match("bad argument #%d+ to '[^']*' (%(.*%))$")
        or tostring(e):gsub("^[^:]*:%d+: ", "")
      assert(text:find(d, 1, true), "not quoted verbatim: " .. d)
    end
    local g = world()
    detail(g.cost_view, g, {rock = 1})
    detail(g.cost_view, g, {mud = 0 / 0})
    detail(g.cost_view, g, {mud = "x"})
    detail(g.cost_view, g, {mud = 0})
    local v = g:cost_view({mud = 1})
    detail(v.build, v, -1)
    v:drop()
    detail(v.ready, v)
  end)
end)
