-- SPDX-License-Identifier: MIT
-- The mesh's sliced query (mesh:start, mesh:step, mesh:path, mesh:status,
-- mesh:stats): the same path as find_path in both modes, the expansion
-- budget kept by every slice, errors and partial paths, on Lua 5.4 and
-- LuaJIT (docs/lua-api.md, "Navigation mesh").
local testing = require "lodestar.testing"

-- A 12 x 9 room with two walls: paths bend round them.
local function room()
  local g = assert(testing.grid[[
    . . . . . . . . . . . .
    . . . # . . . . . . . .
    . . . # . . . . # . . .
    . . . # . . . . # . . .
    . . . # . . . . # . . .
    . . . # . . . . # . . .
    . . . . . . . . # . . .
    . . . . . . . . # . . .
    . . . . . . . . . . . .
  ]])
  return (g:to_navmesh())
end

local A, B = {0.5, 0, 4.5}, {11.5, 0, 3.5}

local function run(m, budget)
  local slices, st = 0
  repeat
    local before = m:stats().expansions
    st = m:step(budget)
    slices = slices + 1
    assert.is_true(m:stats().expansions - before <= budget, "a slice over its budget")
  until st ~= "running"
  return st, slices
end

describe("mesh sliced query", function()
  for _, alg in ipairs{"funnel", "optimal"} do
    it(alg .. ": the path of find_path, in slices of at most the budget", function()
      local m = room()
      local ref = assert(m:find_path(A, B, {algorithm = alg}))
      assert.is_true(m:start(A, B, {algorithm = alg}))
      assert.equal("running", m:status())
      local st, slices = run(m, 1)
      assert.equal("found", st)
      assert.equal("found", m:status())
      assert.is_true(slices > 1)
      local p = assert(m:path())
      assert.equal(#ref, #p)
      assert.equal(ref.length, p.length)
      assert.equal(alg, p.algorithm)
      for i = 1, #p do
        assert.equal(ref[i].x, p[i].x)
        assert.equal(ref[i].z, p[i].z)
      end
      assert.navmesh_path(m, p, A, B)
      assert.is_true(m:stats().expansions >= slices - 1)
    end)
  end

  it("a find_path between slices leaves the sliced query alone", function()
    local m = room()
    local ref = assert(m:find_path(A, B))
    m:start(A, B)
    m:step(1)
    assert(m:find_path({0.5, 0, 0.5}, {1.5, 0, 0.5}))
    assert.equal("found", (run(m, 1)))
    assert.equal(ref.length, m:path().length)
  end)

  it("area costs and blocked areas as find_path takes them", function()
    local m = room()
    local ref = assert(m:find_path(A, B, {area_costs = {[0] = 3}}))
    m:start(A, B, {area_costs = {[0] = 3}})
    run(m, 2)
    assert.equal(ref.cost, m:path().cost)
    m:start(A, B, {blocked_areas = {0}})
    assert.equal("no_path", (run(m, 2)))
    assert.same({nil, "no_path"}, {m:path()})
  end)

  it("partial: the path to the point nearest the goal after no_path", function()
    -- two rooms with no door: the goal is in the other piece
    local g = assert(testing.grid[[
      . . . # . . .
      . . . # . . .
      . . . # . . .
    ]])
    local m = g:to_navmesh()
    local a, b = {0.5, 0, 1.5}, {6.5, 0, 1.5}
    local ref = assert(m:find_path(a, b, {partial = true}))
    m:start(a, b, {partial = true})
    assert.equal("no_path", (run(m, 1)))
    local p = assert(m:path())
    assert.is_true(p.partial)
    assert.equal(ref.length, p.length)
  end)

  it("errors: before a start, bad points, a start off the mesh, postprocess", function()
    local m = room()
    assert.equal("state", m:status())
    local st, msg = m:step(10)
    assert.equal("state", st)
    assert.matches("no query started", msg)
    assert.same({nil, "state"}, {m:path()})
    local ok, e = m:start(A, {50, 0, 50})
    assert.is_nil(ok)
    assert.matches("goal %(50, 0, 50%) is not on the mesh", e)
    assert.equal("arg", m:status())
    assert.equal("arg", (m:step(10)))
    assert.has_error(function() m:start({0 / 0, 0, 0}, B) end,
      "bad argument #1 to 'start' (point: x must be a finite number (got nan))")
    assert.has_error(function() m:start(A, B, {postprocess = function(p) return p end}) end,
      "bad argument #3 to 'start' (opts.postprocess: not with mesh:start (call it on the path "
      .. "mesh:path() returns))")
    assert.has_error(function() m:step(-1) end)
    m:free()
    assert.has_error(function() m:step(10) end, "attempt to use a freed lodestar.Navmesh")
  end)
end)
