-- SPDX-License-Identifier: MIT
-- lodestar.Navmesh methods called on the wrong object and with ids that are
-- not integers: the error names the type or the value as written, with
-- the same text in parentheses on Lua 5.4 and LuaJIT (docs/lua-api.md
-- "Conventions"). Runs under both engines (make test-lua).
local lodestar = require "lodestar"

local NAV = "navmesh 1 4 1 4\nv 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\np 4 0 3 2 1 -1 -1 -1 -1 0\n"

local function err(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return tostring(e)
end

local function paren(s) return s:match("%((.*)%)$") end

describe("lodestar.Navmesh self and ids", function()
  local m
  before_each(function() m = assert(lodestar.navmesh.parse(NAV)) end)

  it("a method on a grid names both types", function()
    local g = lodestar.grid.new(4, 4)
    assert.equal("lodestar.Navmesh expected, got lodestar.Grid",
      paren(err(function() return m.find_path(g, {1, 0, 1}, {5, 0, 5}) end)))
    assert.equal("lodestar.Navmesh expected, got lodestar.Grid",
      paren(err(function() local r = m.locate(g, {1, 0, 1}); return r end)))
    assert.equal("lodestar.Navmesh expected, got table",
      paren(err(function() local r = m.poly({}, 1); return r end)))
  end)

  it("polygon and vertex ids that are not integers are reported as written", function()
    assert.equal("polygon 2.5 is not an integer (expected 1..1)", paren(err(m.poly, m, 2.5)))
    assert.equal("polygon nan is not an integer (expected 1..1)", paren(err(m.poly, m, 0 / 0)))
    assert.equal("vertex nan is not an integer (expected 1..4)", paren(err(m.vertex, m, 0 / 0)))
    assert.equal("polygon 0 out of range (expected 1..1)", paren(err(m.poly, m, 0)))
    assert.equal("vertex 5 out of range (expected 1..4)", paren(err(m.vertex, m, 5)))
    local x, y, z = m:vertex(3)
    assert.same({10, 0, 10}, {x, y, z})
  end)
end)
