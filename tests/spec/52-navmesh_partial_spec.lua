-- SPDX-License-Identifier: MIT
-- Partial paths on meshes (docs/navmesh.md "Partial paths", docs/lua-api.md
-- "Navigation mesh"), from Lua, both modes: with partial = true a goal the
-- start cannot reach (another piece, behind a blocked area, on a blocked
-- area) gives the path to the point of the reached region nearest the
-- goal, the same point in both modes, the optimal one as long as the
-- exact optimal path there; mesh:partial_path() gives a legal best-so-far
-- path from the start while a sliced query runs and the path once found;
-- a scheduler request's req:partial_path() the same while it runs.
-- Degenerate inputs: start == goal, start off the mesh, a blocked start, a
-- budget of 1 expansion. Lua 5.4 and LuaJIT.
local lodestar = require "lodestar"
local testing = require "lodestar.testing"

-- Two rooms with no door between them: x 0..3 and x 4..7, z 0..3.
local function two_rooms()
  local g = assert(testing.grid[[
    . . . # . . .
    . . . # . . .
    . . . # . . .
  ]])
  return (g:to_navmesh())
end

-- The room x 2..7, z 2..4 walled in, the walls x 1..8, z 1..5, inside a
-- 10 x 6 floor.
local function walled()
  local g = assert(testing.grid[[
    . . . . . . . . . .
    . # # # # # # # . .
    . # . . . . . # . .
    . # . . . . . # . .
    . # # # # # # # . .
    . . . . . . . . . .
  ]])
  return (g:to_navmesh())
end

-- A | C | B in a row (4 x 4 each), C of area 1; an island I further on.
local function rooms()
  return assert(lodestar.navmesh.new{
    verts = {{0, 0, 0}, {4, 0, 0}, {8, 0, 0}, {12, 0, 0}, {0, 0, 4}, {4, 0, 4}, {8, 0, 4},
      {12, 0, 4}, {16, 0, 0}, {20, 0, 0}, {16, 0, 4}, {20, 0, 4}},
    polys = {{1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 8, 4}, {9, 11, 12, 10}},
    areas = {0, 1, 0, 0},
  })
end

local function last(p) return p[#p] end

describe("navmesh partial paths", function()
  for _, alg in ipairs{"funnel", "optimal"} do
    it(alg .. ": the goal in another piece, behind and on a blocked area", function()
      local m = two_rooms()
      local a, b = {0.5, 0, 1.5}, {6.5, 0, 1.5}
      assert.same({nil, "no_path"}, {m:find_path(a, b, {algorithm = alg})})
      local p = assert(m:find_path(a, b, {algorithm = alg, partial = true}))
      assert.is_true(p.partial)
      assert.equal(3, last(p).x)
      assert.equal(1.5, last(p).z)
      assert.navmesh_length(p, 2.5, 1e-12)
      assert.navmesh_path(m, p, a)

      local r = rooms()
      local s = {1, 0, 2}
      -- the island: B's nearest point (12, 2)
      p = assert(r:find_path(s, {17, 0, 2}, {algorithm = alg, partial = true}))
      assert.is_true(p.partial)
      assert.same({12, 2}, {last(p).x, last(p).z})
      assert.navmesh_length(p, 11, 1e-12)
      -- C blocked: behind it (10, 2) and on it (6, 3), A's edge x = 4
      local opts = {algorithm = alg, partial = true, blocked_areas = {1}}
      p = assert(r:find_path(s, {10, 0, 2}, opts))
      assert.same({4, 2}, {last(p).x, last(p).z})
      p = assert(r:find_path(s, {6, 0, 3}, opts))
      assert.same({4, 3}, {last(p).x, last(p).z})
      assert.navmesh_length(p, math.sqrt(10), 1e-12)
      -- without partial: no path
      assert.same({nil, "no_path"}, {r:find_path(s, {6, 0, 3}, {algorithm = alg,
        blocked_areas = {1}})})
    end)

    it(alg .. ": the optimal mode's partial path is as long as the optimum to its end", function()
      local m = walled()
      local a, b = {0.5, 0, 5.5}, {4.5, 0, 3.5} -- b walled in
      local p = assert(m:find_path(a, b, {algorithm = alg, partial = true}))
      assert.is_true(p.partial)
      local e = last(p)
      -- the nearest reachable point: the wall's outer side, z = 5 under b
      assert.same({4.5, 5}, {e.x, e.z})
      local opt = assert(m:find_path(a, {e.x, e.y, e.z}, {algorithm = "optimal"}))
      if alg == "optimal" then
        assert.navmesh_length(p, opt.length, 1e-12)
      else
        assert.is_true(p.length >= opt.length * (1 - 1e-12))
      end
      assert.navmesh_path(m, p, a)
    end)

    it(alg .. ": mesh:partial_path while running, 1 expansion a slice", function()
      local g = assert(testing.grid[[
        . . . . . . . . . . . .
        . . . # . . . . . . . .
        . . . # . . . . # . . .
        . . . # . . . . # . . .
        . . . # . . . . # . . .
        . . . . . . . . # . . .
      ]])
      local m = g:to_navmesh()
      local a, b = {0.5, 0, 3.5}, {11.5, 0, 2.5}
      assert.same({nil, "state"}, {m:partial_path()})
      assert.is_true(m:start(a, b, {algorithm = alg}))
      local seen, st = 0
      repeat
        st = m:step(1)
        if st == "running" then
          local p = assert(m:partial_path())
          seen = seen + 1
          assert.navmesh_path(m, p, a)
          assert.equal(alg, p.algorithm)
          -- a best path so far has no cost and no corridor (nil, not NaN)
          assert.is_nil(p.cost)
          assert.is_nil(p.corridor)
          local e = last(p)
          assert.equal(not (e.x == b[1] and e.z == b[3]), p.partial)
        end
      until st ~= "running"
      assert.equal("found", st)
      assert.is_true(seen >= 2)
      local p, q = assert(m:path()), assert(m:partial_path())
      assert.equal(#p, #q)
      assert.is_false(q.partial)
      for i = 1, #p do assert.same({p[i].x, p[i].z}, {q[i].x, q[i].z}) end
    end)

    it(alg .. ": degenerate inputs", function()
      local r = rooms()
      local s = {1, 0, 2}
      local p = assert(r:find_path(s, s, {algorithm = alg, partial = true}))
      assert.equal(1, #p)
      assert.is_false(p.partial)
      local ok, e = r:find_path({50, 0, 50}, s, {algorithm = alg, partial = true})
      assert.is_nil(ok)
      assert.matches("start %(50, 0, 50%) is not on the mesh", e)
      -- a blocked start: no path, no best-so-far
      assert.same({nil, "no_path"}, {r:find_path({6, 0, 2}, s, {algorithm = alg,
        partial = true, blocked_areas = {1}})})
      r:start({6, 0, 2}, s, {algorithm = alg, partial = true, blocked_areas = {1}})
      assert.equal("no_path", r:step(1))
      assert.same({nil, "no_path"}, {r:partial_path()})
      -- ended at its start without partial: the start polygon's nearest point
      r:start(s, {17, 0, 2}, {algorithm = alg})
      assert.equal("no_path", r:step(1))
      assert.same({nil, "no_path"}, {r:path()})
      p = assert(r:partial_path())
      assert.is_true(p.partial)
      assert.same({4, 2}, {last(p).x, last(p).z})
    end)

    it(alg .. ": a scheduler request's req:partial_path while it runs", function()
      local m = walled()
      local a, b = {9.5, 0, 0.5}, {4.5, 0, 3.5} -- b walled in
      local ref = assert(m:find_path(a, b, {algorithm = alg, partial = true}))
      local sched = lodestar.scheduler.new{deterministic = true}
      sched:add_mesh(m, 1)
      local req = sched:request{mesh = m, from = a, to = b, algorithm = alg, partial = true}
      assert.same({nil, "none"}, {req:partial_path()})
      local seen = 0
      while req:status() == "running" do
        sched:step{max_expansions = 1}
        if req:status() == "running" then
          local p = req:partial_path()
          if p then
            seen = seen + 1
            assert.navmesh_path(m, p, a)
            assert.is_true(p.partial)
            assert.is_nil(p.cost)
            assert.is_nil(p.corridor)
          end
        end
      end
      assert.is_true(seen >= 1)
      assert.equal("no_path", req:status())
      assert.same({nil, "none"}, {req:partial_path()}) -- ended: req:path() has it
      local p = assert(req:path())
      assert.is_true(p.partial)
      assert.equal(ref.length, p.length)
      assert.same({last(ref).x, last(ref).z}, {last(p).x, last(p).z})
    end)
  end
end)
