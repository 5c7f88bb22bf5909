-- SPDX-License-Identifier: MIT
-- The busted kit itself: testing.grid and the registered assertions.
local lodestar = require "lodestar"
local testing = require "lodestar.testing"

local function failure(f)
  local ok, e = pcall(f)
  assert.is_false(ok, "expected the assertion to fail")
  return type(e) == "table" and tostring(e.message or e) or tostring(e)
end

describe("lodestar.testing", function()
  it("grid reads a spaced picture and returns start and goal", function()
    local g, S, G = testing.grid[[
      S . . @ .
      . 5 . @ G
      . . . . .
    ]]
    assert.same({5, 3}, {g:size()})
    assert.same({x = 0, y = 0}, S)
    assert.same({x = 4, y = 1}, G)
    assert.is_true(g:get_blocked(3, 0))
    assert.equal(5, g:get_cost(1, 1))
    local none = {testing.grid(". .")}
    assert.is_nil(none[2])
    assert.matches("testing.grid: from_ascii: row 2 has 1 cells (expected 2 like row 1)",
      select(2, pcall(testing.grid, "..\n.")), 1, true)
  end)

  it("path_cost passes within the tolerance and explains a failure", function()
    local g = lodestar.grid.new(4, 1)
    local p = lodestar.find_path(g, 0, 0, 3, 0)
    assert.path_cost(p, 3)
    assert.path_cost(p, 3.0004, 1e-3)
    assert.is_not.path_cost(p, 4)
    assert.matches("path cost 3, expected 4 (tolerance 1e-09)",
      failure(function() assert.path_cost(p, 4) end), 1, true)
  end)

  it("path_avoids takes a predicate or terrain characters", function()
    local g, S, G = testing.grid[[
      S 1 1 1 G
      . . . . .
    ]]
    g:bake("water", lodestar.rule.terrain{["1"] = 10}) -- '1': free, cost 1, marked
    local p = lodestar.find_path(g, S.x, S.y, G.x, G.y, {weights = {water = 1}})
    assert.path_avoids(p, g, "1")
    assert.path_avoids(p, g, function(_, _, t) return t == "1" end)
    local direct = lodestar.find_path(g, S.x, S.y, G.x, G.y)
    assert.is_not.path_avoids(direct, g, "1")
    assert.matches("path enters a cell it should avoid: cell 2 (1,0) terrain '1'",
      failure(function() assert.path_avoids(direct, g, "1") end), 1, true)
  end)

  it("is_optimal compares with Dijkstra under the same cost model", function()
    local g, S, G = testing.grid[[
      S . 9 9 .
      . @ 9 @ .
      . . 2 . G
    ]]
    assert.is_optimal(g, S.x, S.y, G.x, G.y)
    assert.is_optimal(g, S.x, S.y, G.x, G.y, {algorithm = "astar", heuristic = "euclidean"})
    -- greedy best-first is not optimal here
    assert.is_not.is_optimal(g, S.x, S.y, G.x, G.y, {algorithm = "greedy"})
    assert.matches("path (0,0)->(4,2) costs",
      failure(function() assert.is_optimal(g, S.x, S.y, G.x, G.y, {algorithm = "greedy"}) end), 1, true)
    assert.near(testing.true_cost(g, 0, 0, 4, 2), lodestar.find_path(g, 0, 0, 4, 2).cost, 1e-12)
  end)

  it("admissible checks a heuristic against true costs", function()
    local g = testing.grid[[
      . . . @ .
      . 3 . @ .
      . . . . .
    ]]
    assert.admissible(g, "octile")
    assert.admissible(g, function(x, y, gx, gy) return math.max(math.abs(gx - x), math.abs(gy - y)) end)
    assert.is_not.admissible(g, "manhattan") -- counts a diagonal as 2
    assert.is_not.admissible(g, function(x, _, gx) return 3 * math.abs(gx - x) end,
      {goals = {{x = 4, y = 0}}})
    assert.matches("heuristic overestimates: h(",
      failure(function() assert.admissible(g, "manhattan") end), 1, true)
  end)
  it("navmesh assertions check their tolerance and show a wrong start", function()
    local m = assert(lodestar.navmesh.new{verts = {{0, 0, 0}, {0, 0, 2}, {2, 0, 2}, {2, 0, 0}},
      polys = {{1, 2, 3, 4}}})
    local p = assert(m:find_path({0.5, 0, 0.5}, {1.5, 0, 1.5}))
    assert.matches('assert.navmesh_length: rel (argument 3) must be a finite number >= 0 (got "x")',
      failure(function() assert.navmesh_length(p, p.length, "x") end), 1, true)
    assert.matches("assert.navmesh_path: tol (argument 5) must be a finite number >= 0 (got -1)",
      failure(function() assert.navmesh_path(m, p, {0.5, 0, 0.5}, {1.5, 0, 1.5}, -1) end), 1, true)
    assert.matches("path does not start at the start point: starts at (0.5, 0, 0.5), expected "
      .. "(0.5, 0, 0.8) (0.3 away; tolerance 1e-06)",
      failure(function() assert.navmesh_path(m, p, {0.5, 0, 0.8}) end), 1, true)
    assert.navmesh_path(m, p, {0.5, 0, 0.5}, {1.5, 0, 1.5}, 0)
  end)
end)
