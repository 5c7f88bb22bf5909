-- SPDX-License-Identifier: MIT
-- lodestar.navmesh and lodestar.hierarchy used the way a stranger's mod or
-- a careless host would: wrong types, nan/inf and huge coordinates, freed
-- objects, a hierarchy whose grid lost a layer or was freed, find_path
-- called again from a post-processing hook, a mesh path that is a
-- directory. Each case gives a clear error naming the argument, or a
-- correct answer; never a crash, a hang or a silently wrong path. Runs
-- under Lua 5.4 and LuaJIT (make test-lua).
local lodestar = require "lodestar"

local NAV = "navmesh 1 4 1 4\nv 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\np 4 0 3 2 1 -1 -1 -1 -1 0\n"
local nan, inf = 0 / 0, math.huge

local function err(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return (tostring(e):gsub("^[^:]*:%d+: ", ""))
end

describe("lodestar.navmesh error paths", function()
  local m
  before_each(function() m = assert(lodestar.navmesh.parse(NAV)) end)

  it("nan, inf and wrong types in points name the argument", function()
    assert.equal("bad argument #1 to 'find_path' (point: x must be a finite number (got nan))",
      err(function() return m:find_path({nan, 0, 1}, {5, 0, 5}) end))
    assert.equal("bad argument #2 to 'find_path' (point: x must be a finite number (got inf))",
      err(function() return m:find_path({1, 0, 1}, {inf, 0, 5}) end))
    assert.equal("bad argument #1 to 'find_path' (point {x, y, z} expected, got string)",
      err(function() return m:find_path("x", {5, 0, 5}) end))
    assert.equal("bad argument #1 to 'check_path' (points[2]: x must be a finite number (got nan))",
      err(function() return m:check_path({{1, 0, 1}, {nan, 0, 1}}) end))
    assert.equal("bad argument #1 to 'check_path' (list of points expected, got number)",
      err(function() return m:check_path(5) end))
  end)

  it("a nan height tolerance is refused everywhere (it would read as 'any height')", function()
    assert.equal("bad argument #2 to 'locate' (height_tol nan out of range (expected a number; "
      .. "< 0: any height))", err(function() return m:locate({1, 0, 1}, nan) end))
    assert.equal("bad argument #3 to 'nearest' (height_tol nan out of range (expected a number; "
      .. "< 0: any height))", err(function() return m:nearest({1, 0, 1}, 1, nan) end))
    assert.equal("bad argument #2 to 'check_path' (height_tol nan out of range (expected a "
      .. "number; < 0: any height))", err(function() return m:check_path({{1, 0, 1}, {2, 0, 2}}, nan) end))
    assert.equal(1, m:locate({1, 0, 1}, -1))
  end)

  it("a point far off the mesh is named as find_path's argument", function()
    assert.same({nil, "lodestar.Navmesh:find_path: argument p0: start (1e+300, 0, 1) is not on the mesh "
      .. "(no polygon within 2)", "arg"}, {m:find_path({1e300, 0, 1}, {5, 0, 5})})
    assert.same({nil, "lodestar.Navmesh:find_path: argument p1: goal (5, 0, 1e+300) is not on the mesh "
      .. "(no polygon within 1e+299)", "arg"},
      {m:find_path({1, 0, 1}, {5, 0, 1e300}, {snap_radius = 1e299})})
    assert.is_nil(m:nearest({1e300, 0, 1}, 1e299))
  end)

  it("a point far off the mesh snaps within a radius as far (no overflow)", function()
    -- 1e300 away, within 1e308: the distance is compared unsquared (at
    -- that distance every point of the square is as near in doubles)
    local p = assert(m:find_path({1, 0, 1}, {5, 0, 1e300}, {snap_radius = 1e308}))
    local e = p[#p]
    assert.is_true(e.x >= 0 and e.x <= 10 and e.z >= 0 and e.z <= 10 and e.y == 0)
    local poly, q = m:nearest({1e300, 0, 1}, 1e308)
    assert.equal(1, poly)
    assert.is_true(q.x >= 0 and q.x <= 10 and q.z >= 0 and q.z <= 10)
  end)

  it("area costs whose product with the length overflows fail instead of cost inf", function()
    for _, algo in ipairs{"funnel", "optimal"} do
      local p, msg, st = m:find_path({1, 0, 1}, {9, 0, 9}, {area_costs = {[0] = 1e308}, algorithm = algo})
      assert.is_nil(p)
      assert.equal("arg", st)
      assert.matches("opts.area_costs: the path's cost overflows", msg, 1, true)
    end
    local p = m:find_path({1, 0, 1}, {9, 0, 9}, {area_costs = {[0] = 1e300}})
    assert.near(1e300 * 8 * math.sqrt(2), p.cost, 1e288)
  end)

  it("a cost overflow over several polygons fails alike in every mode and from the scheduler", function()
    -- an L of three squares: the path turns, so no mode finds it in one polygon
    local L3 = assert(lodestar.navmesh.new{verts = {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}, {2, 0, 1},
      {2, 0, 0}, {1, 0, 2}, {2, 0, 2}}, polys = {{1, 2, 3, 4}, {4, 3, 5, 6}, {3, 7, 8, 5}}})
    local a, b = {0.1, 0, 0.1}, {1.9, 0, 1.9} -- 2.5456 long: times 1e308 past the doubles
    for _, o in ipairs{{}, {thorough = false}, {algorithm = "optimal"}, {partial = true}} do
      o.area_costs = {[0] = 1e308}
      local p, msg, st = L3:find_path(a, b, o)
      assert.is_nil(p)
      assert.equal("arg", st)
      assert.matches("opts.area_costs: the path's cost overflows (2.5455", msg, 1, true)
    end
    local sc = lodestar.scheduler.new{deterministic = true}
    sc:add_mesh(L3)
    local r = sc:request{mesh = L3, from = a, to = b, area_costs = {[0] = 1e308}}
    for _ = 1, 10 do sc:step(100) end
    local p, msg, st = r:path()
    assert.is_nil(p)
    assert.equal("arg", st)
    assert.matches("params.area_costs: the path's cost overflows (2.54558", msg, 1, true)
  end)

  it("find_path again from the post-processing hook gives both right paths", function()
    local r = m:find_path({1, 0, 1}, {5, 0, 5}, {postprocess = function(p, mesh)
      return {outer = p, inner = mesh:find_path({2, 0, 2}, {9, 0, 9})}
    end})
    assert.same({1, 0, 1}, {r.outer[1].x, r.outer[1].y, r.outer[1].z})
    assert.same({5, 0, 5}, {r.outer[#r.outer].x, r.outer[#r.outer].y, r.outer[#r.outer].z})
    assert.near(4 * math.sqrt(2), r.outer.length, 1e-12)
    assert.same({9, 0, 9}, {r.inner[#r.inner].x, r.inner[#r.inner].y, r.inner[#r.inner].z})
    assert.near(7 * math.sqrt(2), r.inner.length, 1e-12)
    -- recursion through the hook, 50 deep: each level's path is its own
    local depth, opts = 0, nil
    opts = {postprocess = function(p, mesh)
      depth = depth + 1
      if depth < 50 then return mesh:find_path({1, 0, 1}, {9, 0, 9}, opts) end
      return p
    end}
    assert.near(8 * math.sqrt(2), m:find_path({1, 0, 1}, {9, 0, 9}, opts).length, 1e-12)
    assert.equal(50, depth)
    assert.equal("lodestar.Navmesh:find_path: opts.postprocess returned nil (expected the path or "
      .. "what replaces it)", err(function()
        return m:find_path({1, 0, 1}, {9, 0, 9}, {postprocess = function() return nil end})
      end))
  end)

  it("a mesh freed (also from its own hook) refuses every method", function()
    local p = m:find_path({1, 0, 1}, {5, 0, 5}, {postprocess = function(q, mesh) mesh:free() return q end})
    assert.equal(2, #p)
    for _, f in ipairs{function() return m:find_path({1, 0, 1}, {5, 0, 5}) end,
        function() return m:locate({1, 0, 1}) end, function() return m:poly_count() end,
        function() return m:check_path({{1, 0, 1}}) end} do
      assert.equal("attempt to use a freed lodestar.Navmesh", err(f))
    end
    assert.equal("lodestar.Navmesh (freed)", tostring(m))
    m:free() -- idempotent
  end)

  it("indices: integers in range, never a crash", function()
    assert.equal("bad argument #1 to 'vertex' (vertex 0 out of range (expected 1..4))",
      err(function() return m:vertex(0) end))
    assert.equal("bad argument #1 to 'poly' (polygon -1 out of range (expected 1..1))",
      err(function() return m:poly(-1) end))
    assert.matches("bad argument #1 to 'vertex'", err(function() return m:vertex(nan) end), 1, true)
    assert.matches("bad argument #1 to 'vertex'", err(function() return m:vertex(1e300) end), 1, true)
  end)

  it("a directory or a missing file as the mesh path", function()
    assert.same({nil, "lds_navmesh_load: cannot read /tmp (Is a directory)", "io"},
      {lodestar.navmesh.load("/tmp")})
    local _, msg, st = lodestar.navmesh.load("/nonexistent/x.nav")
    assert.equal("io", st)
    assert.matches("cannot open /nonexistent/x.nav", msg, 1, true)
    assert.matches("bad argument #1 to '[%w.]*load' %(string expected, got nil%)",
      err(lodestar.navmesh.load, nil))
  end)

  it("bad constructor tables name the field", function()
    assert.matches("verts%[1%]: x must be a finite number %(got nan%)",
      err(lodestar.navmesh.new, {verts = {{nan, 0, 0}, {1, 0, 0}, {0, 0, 1}}, polys = {{1, 2, 3}}}))
    assert.matches("polys%[1%]%[3%] must be a vertex id in 1..3",
      err(lodestar.navmesh.new, {verts = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}, polys = {{1, 2, 2 ^ 40}}}))
    assert.matches("areas%[1%] must be an integer in 0..255",
      err(lodestar.navmesh.new, {verts = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}, polys = {{1, 3, 2}}, areas = {nan}}))
  end)
end)

describe("lodestar.hierarchy error paths", function()
  it("coordinates and modes name the argument", function()
    local h = lodestar.hierarchy(lodestar.grid.new(64, 64), {cluster_size = 8})
    assert.equal("bad argument #1 to 'find_path' (sx nan is not an integer cell (expected 0..63))",
      err(function() return h:find_path(nan, 0, 5, 5) end))
    assert.equal("bad argument #2 to 'find_path' (sy inf out of range (expected 0..63))",
      err(function() return h:find_path(0, inf, 5, 5) end))
    assert.equal("bad argument #3 to 'find_path' (gx 1.1529215046068e+18 out of range (expected 0..63))",
      err(function() return h:find_path(0, 0, 2 ^ 60, 5) end))
    assert.equal("bad argument #1 to 'find_path' (number expected, got string)",
      err(function() return h:find_path("a", 0, 5, 5) end))
    assert.matches("bad argument #5 to 'find_path' %(invalid option 'exact'", err(function()
      return h:find_path(0, 0, 5, 5, "exact") end))
    assert.equal("bad argument #1 to 'step' (max_expansions must be >= 0 (0 = no limit))",
      err(function() return h:step(-5) end))
    assert.equal("bad argument #2 to 'hierarchy' (opts.cluster_size: nan out of range (expected "
      .. "an integer 4..64))", err(lodestar.hierarchy, lodestar.grid.new(8, 8), {cluster_size = nan}))
    assert.equal("bad argument #2 to 'hierarchy' (opts.weights: weight of layer 'mud' is inf "
      .. "(expected finite))", err(function()
        local g = lodestar.grid.new(8, 8)
        g:layer_add("mud")
        return lodestar.hierarchy(g, {weights = {mud = inf}})
      end))
    local p = h:find_path(0, 0, 63, 63)
    assert.near(63 * math.sqrt(2), p.cost, 1e-9)
  end)

  it("a hierarchy whose grid lost a weighted layer refuses to answer", function()
    local g = lodestar.grid.new(16, 16)
    g:layer_add("mud")
    g:layer_set("mud", 5, 5, 1)
    local h = lodestar.hierarchy(g, {weights = {mud = 3}})
    assert.near(10, h:find_path(0, 4, 10, 4).cost, 1e-9)
    g:layer_remove("mud")
    g:layer_add("other") -- same index as 'mud' had: must not be read as mud
    g:layer_set("other", 5, 4, 100)
    local why = "layer 'mud' (weight 3 in this hierarchy) was removed from the grid; build a new "
      .. "hierarchy without it"
    local p, m, st = h:find_path(0, 4, 10, 4)
    assert.is_nil(p)
    assert.equal("lodestar.Hierarchy:find_path: the hierarchy could not be repaired: " .. why, m)
    assert.equal("state", st)
    assert.equal("lodestar.Hierarchy:start: the hierarchy could not be repaired: " .. why,
      err(function() return h:start(0, 4, 10, 4) end))
    assert.equal("lodestar.Hierarchy:repair: " .. why, err(function() return h:repair() end))
  end)

  it("freed or collected: clear errors, or answers on the grid it holds", function()
    local g = lodestar.grid.new(32, 32)
    local h = lodestar.hierarchy(g)
    h:start(0, 0, 31, 31)
    h:free()
    assert.equal("attempt to use a freed lodestar.Hierarchy", err(function() return h:step() end))
    assert.equal("attempt to use a freed lodestar.Hierarchy", err(function() return h:find_path(0, 0, 1, 1) end))
    assert.equal("lodestar.Hierarchy (freed)", tostring(h))
    h:free()
    -- the grid freed first: the hierarchy keeps it alive and answers on it
    local g2 = lodestar.grid.new(32, 32)
    local h2 = lodestar.hierarchy(g2)
    g2:free()
    assert.near(31 * math.sqrt(2), h2:find_path(0, 0, 31, 31).cost, 1e-9)
    assert.equal("lodestar.Grid (freed)", tostring(h2:grid()))
    -- a grid only the hierarchy references survives collection
    local h3 = lodestar.hierarchy(lodestar.grid.new(16, 16))
    collectgarbage()
    collectgarbage()
    assert.near(15 * math.sqrt(2), h3:find_path(0, 0, 15, 15).cost, 1e-9)
  end)

  it("find_path again from a scheduler request's callback, then freeing it", function()
    local g = lodestar.grid.new(32, 32)
    local h = lodestar.hierarchy(g)
    local sched = lodestar.scheduler.new()
    sched:add_grid(g)
    local inner
    local req = sched:request{from = {0, 0}, to = {31, 31}, hierarchy = h, on_done = function()
      inner = h:find_path(0, 0, 5, 5)
      h:free()
    end}
    sched:step()
    assert.equal("found", req:status())
    assert.near(5 * math.sqrt(2), inner.cost, 1e-9)
    assert.near(31 * math.sqrt(2), req:path().cost, 1e-9)
    assert.matches("attempt to use a freed lodestar.Hierarchy", err(function()
      return sched:request{from = {0, 0}, to = {1, 1}, hierarchy = h}
    end), 1, true)
    sched:free()
  end)

  it("h:step before any start says why", function()
    local h = lodestar.hierarchy(lodestar.grid.new(16, 16))
    local st, m = h:step()
    assert.equal("state", st)
    assert.equal("lds_hpa_query_step: no query started (call lds_hpa_query_start first)", m)
  end)
end)

