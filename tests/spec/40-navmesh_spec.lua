-- SPDX-License-Identifier: MIT
-- lodestar.navmesh (docs/navmesh.md, docs/lua-api.md): meshes from tables,
-- text and files; locate and nearest; find_path in both modes, area costs,
-- blocked areas, partial paths, post-processing; the test kit's navmesh
-- assertions; bad input gives clear errors.
local lodestar = require "lodestar"
require "lodestar.testing"

local SHARED = os.getenv("LDS_SHARED") or "../shared"
local ARENA = SHARED .. "/data/navmesh/2d/arena.nav"

-- Two unit squares side by side in x-z, the second of area 5, and a third
-- square behind them (an L shape) of area 0.
local function squares()
  return assert(lodestar.navmesh.new{
    verts = {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}, {2, 0, 0}, {2, 0, 1}, {1, 0, 2}, {2, 0, 2}},
    polys = {{1, 2, 3, 4}, {4, 3, 6, 5}, {3, 7, 8, 6}},
    areas = {0, 5, 0},
  })
end

describe("lodestar.navmesh", function()
  it("builds a mesh from tables and links the neighbours", function()
    local m = squares()
    assert.equal(3, m:poly_count())
    assert.equal(8, m:vertex_count())
    assert.equal(1, m:piece_count())
    local verts, nbs, area = m:poly(2)
    assert.same({4, 3, 6, 5}, verts)
    assert.same({1, 3, false, false}, nbs)
    assert.equal(5, area)
    assert.matches("3 polygons", tostring(m))
  end)

  it("locates points, on edges and outside", function()
    local m = squares()
    assert.equal(1, m:locate({0.5, 0, 0.5}))
    assert.equal(2, m:locate({1.5, 0, 0.5}))
    assert.equal(1, m:locate({1, 0, 0.5})) -- on the shared edge: the lower id
    assert.is_nil(m:locate({0.5, 0, 1.5}))  -- the empty corner of the L
    local p, q = m:nearest({0.5, 0, 1.5}, 1)
    assert.is_number(p)
    assert.is_true(math.abs(q.z - 1) < 1e-12 or math.abs(q.x - 1) < 1e-12)
    assert.is_nil(m:nearest({9, 0, 9}, 1))
  end)

  it("finds the straight path, around the corner, and costs areas", function()
    local m = squares()
    local p = assert(m:find_path({0.5, 0, 0.5}, {1.5, 0, 0.5}))
    assert.navmesh_path(m, p, {0.5, 0, 0.5}, {1.5, 0, 0.5})
    assert.navmesh_length(p, 1)
    assert.equal(2, #p)
    -- around the inner corner (1, 1): start -> corner -> goal
    local start, goal = {0.2, 0, 0.5}, {1.5, 0, 1.8}
    local opt = assert(m:find_path(start, goal, {algorithm = "optimal"}))
    local want = math.sqrt(0.8 ^ 2 + 0.5 ^ 2) + math.sqrt(0.5 ^ 2 + 0.8 ^ 2)
    assert.navmesh_path(m, opt, start, goal)
    assert.navmesh_length(opt, want, 1e-9)
    local fun = assert(m:find_path(start, goal))
    assert.navmesh_length(fun, want, 1e-9)
    assert.equal(3, #fun)
    -- area 5 costs 3: the cost counts the piece inside it three times
    local c = assert(m:find_path({0.5, 0, 0.5}, {1.5, 0, 0.5}, {area_costs = {[5] = 3}}))
    assert.is_true(math.abs(c.cost - (0.5 + 1.5)) < 1e-6)
    -- blocked: no way through area 5, and the goal in it cannot be reached
    local none, why = m:find_path({0.5, 0, 0.5}, {1.5, 0, 0.5}, {blocked_areas = {5}})
    assert.is_nil(none)
    assert.equal("no_path", why)
    local part = assert(m:find_path({0.5, 0, 0.5}, {1.5, 0, 0.5},
      {blocked_areas = {5}, partial = true}))
    assert.is_true(part.partial)
    assert.navmesh_path(m, part, {0.5, 0, 0.5})
  end)

  it("start == goal, and goal on a vertex", function()
    local m = squares()
    local p = assert(m:find_path({0.5, 0, 0.5}, {0.5, 0, 0.5}))
    assert.equal(1, #p)
    assert.equal(0, p.length)
    for _, algo in ipairs{"funnel", "optimal"} do
      local q = assert(m:find_path({0.5, 0, 0.5}, {2, 0, 2}, {algorithm = algo}))
      assert.navmesh_path(m, q, {0.5, 0, 0.5}, {2, 0, 2})
      assert.navmesh_length(q, math.sqrt(0.5 ^ 2 + 0.5 ^ 2) + math.sqrt(1 + 1), 1e-9)
    end
  end)

  it("runs postprocess on the path", function()
    local m = squares()
    local n = m:find_path({0.5, 0, 0.5}, {1.5, 0, 0.5}, {postprocess = function(path, mesh)
      assert.equal(m, mesh)
      return #path
    end})
    assert.equal(2, n)
  end)

  it("gives clear errors for bad input", function()
    local m = squares()
    local ok, err = pcall(m.find_path, m, {0.5, 0, 0.5}, {1.5, 0, 0.5}, {algorithm = "x"})
    assert.is_false(ok)
    assert.matches("funnel", err)
    local p, msg, st = m:find_path({0.5, 0, 0.5}, {50, 0, 50})
    assert.is_nil(p)
    assert.matches("goal .* is not on the mesh", msg)
    assert.equal("arg", st)
    ok, err = pcall(m.find_path, m, {0.5, "a", 0.5}, {1.5, 0, 0.5})
    assert.is_false(ok)
    assert.matches("y must be a finite number", err)
    p, msg = m:find_path({0.5, 0, 0.5}, {1.5, 0, 0.5}, {algorithm = "optimal", area_costs = {[5] = 2}})
    assert.is_nil(p)
    assert.matches("optimal needs one cost", msg)
    local bad, e2 = lodestar.navmesh.new{verts = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, polys = {{1, 2, 3}}}
    assert.is_nil(bad)
    assert.matches("degenerate", e2)
    bad, e2 = lodestar.navmesh.new{verts = {{0, 0, 0}, {2, 0, 0}, {1, 0, 0.2}, {2, 0, 2}, {0, 0, 2}},
      polys = {{1, 2, 3, 4, 5}}}
    assert.is_nil(bad)
    assert.matches("not convex", e2)
    bad, e2 = lodestar.navmesh.parse("navmesh 1 3 1 3\nv 0 0 0\nv 1 0 0\nv 0 0 1\np 3 0 1 5 -1 -1 -1 63\n", "t.nav")
    assert.is_nil(bad)
    assert.equal("t.nav:5: polygon 0, vertex 3 of 3: '5' is not a vertex id (expected an integer "
      .. "in 0..2)", e2)
    bad, e2 = lodestar.navmesh.load("/nonexistent/x.nav")
    assert.is_nil(bad)
    assert.matches("cannot open", e2)
    m:free()
    ok, err = pcall(m.locate, m, {0, 0, 0})
    assert.is_false(ok)
    assert.matches("freed", err)
  end)

  it("parses OBJ text", function()
    local m = assert(lodestar.navmesh.parse("o x\nv 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\nf 1 2 3 4\n"))
    assert.equal(1, m:poly_count())
    assert.equal(1, m:locate({0.5, 0, 0.5}))
  end)

  it("finds the exact optimum of every arena query", function()
    local f = io.open(SHARED .. "/data/navmesh/2d/arena.queries")
    if not f then return pending("no " .. SHARED .. "/data/navmesh") end
    local m = assert(lodestar.navmesh.load(ARENA))
    local n = 0
    for line in f:lines() do
      local v = {}
      for x in line:gmatch("%S+") do v[#v + 1] = tonumber(x) end
      local s, g = {v[1], v[2], v[3]}, {v[4], v[5], v[6]}
      local p = assert(m:find_path(s, g, {algorithm = "optimal"}))
      assert.navmesh_path(m, p, s, g)
      assert.navmesh_length(p, v[9], 1e-6)
      local q = assert(m:find_path(s, g))
      assert.navmesh_path(m, q, s, g)
      assert.is_true(q.length >= p.length - 1e-9)
      n = n + 1
    end
    f:close()
    assert.equal(160, n)
  end)
  it("charges a path along the edge of a dear square at the cheap side", function()
    local m = squares()
    for _, thorough in ipairs{true, false} do
      local p = assert(m:find_path({1, 0, 0.1}, {1, 0, 0.9}, {area_costs = {[5] = 5}, thorough = thorough}))
      assert.near(0.8, p.length, 1e-12)
      assert.near(0.8, p.cost, 1e-9) -- the edge of square 1 (cost 1), not of square 2 (cost 5)
    end
  end)

  it("find_path while a sliced query runs leaves it as it is; both share the mesh's tables", function()
    local m = assert(lodestar.navmesh.load(SHARED .. "/data/navmesh/2d/den011d.nav"))
    local a, b = {103.5, 0, 39.5}, {104.5, 0, 99.5}
    local ref = assert(m:find_path(a, b))
    assert(m:start(b, a))
    local steps = 0
    while m:step(3) == "running" do
      steps = steps + 1
      local mid = assert(m:find_path(a, b, {algorithm = steps % 2 == 0 and "optimal" or "funnel"}))
      assert.is_true(mid.length <= ref.length + 1e-9)
    end
    assert.is_true(steps > 2)
    local back = assert(m:path())
    local fresh = assert(lodestar.navmesh.load(SHARED .. "/data/navmesh/2d/den011d.nav"))
    local want = assert(fresh:find_path(b, a))
    assert.equal(#want, #back)
    for i = 1, #want do
      assert.same({want[i].x, want[i].y, want[i].z}, {back[i].x, back[i].y, back[i].z})
    end
    assert.equal(want.length, back.length)
  end)
end)
