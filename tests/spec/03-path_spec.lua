-- SPDX-License-Identifier: MIT
-- lodestar.Path: length, cost, flags, iteration, copies, construction.
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errmsg

describe("path", function()
  local g = lodestar.grid.new(6, 3)
  g:set_cost(3, 0, 4)
  local p = lodestar.find_path(g, 0, 0, 5, 0)

  it("has #, cost, partial and 1-based cells with 0-based coordinates", function()
    assert.equal(6, #p)
    assert.near(3 + 2 * math.sqrt(2), p.cost, 1e-12)
    assert.is_false(p.partial)
    local xs = {}
    for i, x, y in p:cells() do xs[i] = x .. "," .. y end
    assert.same({"0,0", "1,0", "2,0", "3,1", "4,0", "5,0"}, xs)
    assert.same({2, 0}, {p:cell(3)})
    assert.same({5, 0}, {p:cell(-1)})
    assert.matches("^lodestar.Path 6 cells cost 5.8284271247462 %(", tostring(p))
  end)

  it("totable gives {x=, y=} records", function()
    local t = p:totable()
    assert.equal(6, #t)
    assert.same({x = 2, y = 0}, t[3])
  end)

  it("reverse and sub copy cells; cost is recomputed when a grid is given", function()
    local r = p:reverse()
    assert.same({5, 0}, {r:cell(1)})
    assert.is_nil(r.cost) -- unknown without a grid
    local rg = p:reverse(g)
    assert.near(5.82842712474619, rg.cost, 1e-12) -- symmetric here
    local s = p:sub(2, 4)
    assert.equal(3, #s)
    assert.same({1, 0}, {s:cell(1)})
    assert.is_nil(s.cost)
    assert.near(1 + math.sqrt(2), p:sub(2, 4, g).cost, 1e-12)
    assert.equal(2, #p:sub(-2))
    assert.matches("(index 7 out of range (path has 6 cells))", errmsg(p.sub, p, 1, 7), 1, true)
    assert.matches("(end index before start index)", errmsg(p.sub, p, 4, 2), 1, true)
  end)

  it("path.new builds a path from cells and checks every step", function()
    local q = lodestar.path.new(g, {{x = 0, y = 0}, {1, 1}, {x = 2, y = 1}})
    assert.equal(3, #q)
    assert.near(math.sqrt(2) + 1, q.cost, 1e-12)
    -- a step that sees its end (line of sight) is allowed
    assert.equal(5, lodestar.path.new(g, {{0, 2}, {5, 2}}).cost)
    g:set_blocked(2, 2, true)
    assert.matches("step 1 (0,2)->(5,2) has no line of sight",
      errmsg(lodestar.path.new, g, {{0, 2}, {5, 2}}), 1, true)
    g:set_blocked(2, 2, false)
    assert.matches("(cell 2 (9,9) is outside the 6x3 grid)",
      errmsg(lodestar.path.new, g, {{0, 0}, {9, 9}}), 1, true)
    assert.is_true(lodestar.path.new(g, {{0, 0}}, true).partial)
  end)

  it("free is idempotent and later use raises", function()
    local q = p:sub(1, 2)
    q:free(); q:free()
    assert.equal("lodestar.Path (freed)", tostring(q))
    assert.matches("attempt to use a freed lodestar.Path", errmsg(function() return #q end), 1, true)
    assert.matches("(lodestar.Path expected, got table)", errmsg(p.cells, {}), 1, true)
  end)
end)
