-- SPDX-License-Identifier: MIT
-- What lodestar.navmesh refuses and how it says so: a missing point is "no
-- value", the module functions are named where Lua cannot see the call,
-- malformed tables of navmesh.new raise "bad argument #1 to 'new' (...)",
-- and a mesh has a polygon.
local lodestar = require "lodestar"
local support = require "support"
local errtext = support.errtext

local V = {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}}

local function square()
  return assert(lodestar.navmesh.new{verts = V, polys = {{1, 2, 3, 4}}})
end

describe("navmesh points", function()
  it("a missing point is 'no value', not the type of what the binding pushed", function()
    local m = square()
    assert.equal("bad argument #2 to 'find_path' (point {x, y, z} expected, got no value)",
      errtext(function() return m:find_path({0.5, 0, 0.5}) end))
    assert.equal("bad argument #2 to 'start' (point {x, y, z} expected, got no value)",
      errtext(function() return m:start({0.5, 0, 0.5}) end))
    assert.equal("bad argument #1 to 'locate' (point {x, y, z} expected, got no value)",
      errtext(function() return m:locate() end))
    assert.equal("bad argument #1 to 'nearest' (point {x, y, z} expected, got no value)",
      errtext(function() return m:nearest() end))
    assert.equal("bad argument #2 to 'find_path' (point {x, y, z} expected, got nil)",
      errtext(function() return m:find_path({0.5, 0, 0.5}, nil) end))
  end)
end)

describe("navmesh module functions", function()
  it("are named where Lua cannot see the call site", function()
    assert.equal("bad argument #1 to 'parse' (string expected, got nil)",
      errtext(lodestar.navmesh.parse, nil))
    assert.equal("bad argument #2 to 'parse' (string expected, got number)",
      errtext(lodestar.navmesh.parse, "v 0 0 0\n", 5))
    assert.equal("bad argument #1 to 'load' (string expected, got nil)",
      errtext(lodestar.navmesh.load, nil))
  end)

  it("navmesh.new's table errors are argument errors", function()
    local new = lodestar.navmesh.new
    assert.equal("bad argument #1 to 'new' (polys[1][4] must be a vertex id in 1..4 "
      .. "(got string))", errtext(new, {verts = V, polys = {{1, 2, 3, "4"}}}))
    assert.equal("bad argument #1 to 'new' (polys[1][4] must be a vertex id in 1..4 "
      .. "(got 5))", errtext(new, {verts = V, polys = {{1, 2, 3, 5}}}))
    assert.equal("bad argument #1 to 'new' (areas[1] must be an integer in 0..255 "
      .. "(got 256))", errtext(new, {verts = V, polys = {{1, 2, 3, 4}}, areas = {256}}))
    assert.equal("bad argument #1 to 'new' (polys: list of vertex id lists expected, "
      .. "got nil)", errtext(new, {verts = V}))
    assert.equal("bad argument #1 to 'new' (polys[1]: list of vertex ids expected, got "
      .. "number)", errtext(new, {verts = V, polys = {5}}))
    assert.equal("bad argument #1 to 'new' (areas: list of area ids expected, got "
      .. "number)", errtext(new, {verts = V, polys = {{1, 2, 3, 4}}, areas = 5}))
    -- the call site named: 'new', as for every module function
    assert.equal("bad argument #1 to 'new' (polys[1][1] must be a vertex id in 1..4 (got 0))",
      errtext(function() local m = lodestar.navmesh.new{verts = V, polys = {{0, 1, 2, 3}}}
        return m end))
  end)
end)

describe("navmesh.new's lists", function()
  local new = lodestar.navmesh.new

  it("refuses polys that are not a list", function()
    assert.equal("bad argument #1 to 'new' (polys: key 'a' is not a list index "
      .. "(expected a list from key 1))", errtext(new, {verts = V, polys = {a = {1, 2, 3}}}))
    assert.equal("bad argument #1 to 'new' (polys[1]: key 'x' is not a list index "
      .. "(expected a list, keys 1..3))", errtext(new, {verts = V, polys = {{1, 2, 3, x = 4}}}))
  end)

  it("refuses more areas than polygons", function()
    assert.equal("bad argument #1 to 'new' (areas: 2 entries for 1 polygons (expected "
      .. "at most one per polygon))", errtext(new, {verts = V, polys = {{1, 2, 3, 4}}, areas = {1, 2}}))
    local m = assert(new{verts = V, polys = {{1, 2, 3}, {1, 3, 4}}, areas = {7}})
    assert.equal(7, select(3, m:poly(1)))
    assert.equal(0, select(3, m:poly(2)))  -- fewer areas: the rest 0
  end)

  it("an empty vertex list is named as such", function()
    assert.equal("bad argument #1 to 'new' (polys[1][1]: the mesh has no vertices (verts is "
      .. "empty; got 1))", errtext(new, {verts = {}, polys = {{1, 2, 3}}}))
  end)

  it("mesh:step names max_expansions for a number that is not a count", function()
    local m = assert(new{verts = V, polys = {{1, 2, 3, 4}}})
    assert.equal("bad argument #1 to 'step' (max_expansions must be an integer >= 0 (0 = no "
      .. "limit; got nan))", errtext(m.step, m, 0 / 0))
    assert.equal("bad argument #1 to 'step' (max_expansions 1e+300 out of range (expected an "
      .. "integer 0..2^53))", errtext(m.step, m, 1e300))
    assert.equal("bad argument #1 to 'step' (max_expansions must be an integer >= 0 (0 = no "
      .. "limit; got 2.5))", errtext(m.step, m, 2.5))
  end)

  if _VERSION == "Lua 5.4" then
    it("closes with <close> (Lua 5.4)", function()
      local chunk = assert(load([[
        local new, V = ...
        local keep
        do
          local m <close> = assert(new{verts = V, polys = {{1, 2, 3, 4}}})
          keep = m
        end
        return tostring(keep)
      ]]))
      assert.equal("lodestar.Navmesh (freed)", chunk(new, V))
    end)
  end

  it("a mesh without polygons is an error, from tables, .nav and OBJ", function()
    assert.same({nil, "lds_navmesh_new: no polygons (expected at least one)", "arg"},
      {new{verts = V, polys = {}}})
    assert.same({nil, "h.nav:1: NPOLYS 0 (expected at least one polygon)", "format"},
      {lodestar.navmesh.parse("navmesh 1 0 0 6\n", "h.nav")})
    assert.same({nil, "o.obj:2: no faces (expected at least one 'f' line)", "format"},
      {lodestar.navmesh.parse("# c\no navmesh\n", "o.obj")})
  end)

  it("names coordinates past the supported range", function()
    local H = 1e300
    local m, msg, st = new{verts = {{-H, 0, -H}, {-H, 0, H}, {H, 0, H}, {H, 0, -H}},
                           polys = {{1, 2, 3, 4}}}
    assert.is_nil(m)
    assert.equal("lds_navmesh_new: vertex 0: coordinate 0 is -1e+300 (expected -1e+150..1e+150, "
      .. "the supported range)", msg)
    assert.equal("arg", st)
  end)
end)

describe("mesh:check_path heights", function()
  it("checks every point's height, not only the first", function()
    local m = square()
    assert.same({false, "point 1 (0.5, 10, 0.5) is 10 above the surface of polygon 0 (height 0 "
      .. "there; expected within height_tol 0.5)"}, {m:check_path({{0.5, 0, 0.5}, {0.5, 10, 0.5}}, 0.5)})
    assert.is_false((m:check_path({{0.5, 0, 0.5}, {0.5, 10, 0.5}}, 0)))
    assert.is_false((m:check_path({{0.5, 0, 0.5}, {0.5, 10, 0.5}})))  -- default 4
    assert.same({true, 10}, {m:check_path({{0.5, 0, 0.5}, {0.5, 10, 0.5}}, -1)})
    -- rounding is allowed at every point alike, the first included
    assert.is_true((m:check_path({{0.5, 1e-12, 0.5}, {0.7, 1e-12, 0.5}}, 0)))
  end)
end)
