-- SPDX-License-Identifier: MIT
-- What a new user of meshes from Lua runs into: a bad point in a list names
-- its argument and element, lodestar.smooth refuses navmesh points instead
-- of bending them in height, the test kit's mesh assertions explain a nil
-- path, and busted's default task loads the module of its own engine.
local lodestar = require "lodestar"
require "lodestar.testing"

local function triangle()
  return assert(lodestar.navmesh.new{verts = {{0, 0, 0}, {4, 0, 0}, {0, 0, 4}}, polys = {{1, 2, 3}}})
end

describe("navmesh point lists", function()
  it("check_path names argument #1 and the point", function()
    local m = triangle()
    assert.has_error(function() m:check_path({{0.5, 0, 0.5}, {1, 0}}) end,
      "bad argument #1 to 'check_path' (points[2]: z must be a finite number (got nil))")
    assert.has_error(function() m:check_path({{0.5, 0, 0.5}, 5}) end,
      "bad argument #1 to 'check_path' (points[2]: point {x, y, z} expected, got number)")
    assert.same({true, 1}, {m:check_path({{0.5, 0, 0.5}, {1.5, 0, 0.5}})})
  end)

  it("navmesh.new names verts[i]", function()
    assert.has_error(function()
      lodestar.navmesh.new{verts = {{0, 0, 0}, {4, 0, 0}, {0, 0 / 0, 4}}, polys = {{1, 2, 3}}}
    end, "bad argument #1 to 'new' (verts[3]: y must be a finite number (got nan))")
  end)
end)

describe("lodestar.smooth and navmesh paths", function()
  it("refuses points with a z (y is height there)", function()
    local m = triangle()
    local p = assert(m:find_path({0.5, 0, 0.5}, {2.5, 0, 0.5}))
    assert.has_error(function() lodestar.smooth.catmull_rom(p) end,
      "bad argument #1 to 'catmull_rom' (point 1 has a z: smooth takes grid points {x=, y=} "
      .. "in cells, not navmesh points {x=, y=, z=})")
    assert.has_error(function() lodestar.smooth.resample(p, 0.5) end)
    assert.has_error(function() lodestar.smooth.length(p) end)
    -- grid points still work
    assert.equal(5, lodestar.smooth.length({{x = 0, y = 0}, {x = 3, y = 4}}))
  end)
end)

describe("test kit mesh assertions", function()
  local function msg(f)
    local ok, e = pcall(f)
    assert.is_false(ok)
    return tostring(e)
  end

  it("a nil path is 'not a navmesh path', not a length nil", function()
    assert.matches("not a navmesh path: nil", msg(function() assert.navmesh_length(nil, 3) end))
    assert.matches("not a navmesh path: nil",
      msg(function() assert.navmesh_path(triangle(), nil) end))
  end)

  it("a missing mesh is named", function()
    local m = triangle()
    local p = assert(m:find_path({0.5, 0, 0.5}, {2.5, 0, 0.5}))
    assert.navmesh_path(m, p)
    assert.matches("not a lodestar.Navmesh: nil", msg(function() assert.navmesh_path(nil, p) end))
    assert.matches("not a lodestar.Navmesh: x", msg(function() assert.navmesh_path("x", p) end))
  end)
end)

describe(".busted", function()
  it("the default task loads the module built for this engine", function()
    local cfg = dofile(".busted")
    local want = rawget(_G, "jit") and "build/luajit/?.so" or "build/lua54/?.so"
    assert.equal(want, cfg.default.cpath)
  end)
end)
