-- SPDX-License-Identifier: MIT
-- mesh:locate without a height tolerance (any height) on a mesh with two
-- levels: the polygon nearest the point's height, not the lowest id
-- (core lds_navmesh_locate; tests/c/test_navmesh_locate.c).
local lodestar = require "lodestar"

describe("mesh:locate with levels", function()
  -- a floor [0,4]^2 at y = 0 (polygon 1) and a bridge [1,3] x [0,4] at y = 5 (polygon 2)
  local m = assert(lodestar.navmesh.new{
    verts = {{0, 0, 0}, {0, 0, 4}, {4, 0, 4}, {4, 0, 0}, {1, 5, 0}, {1, 5, 4}, {3, 5, 4}, {3, 5, 0}},
    polys = {{1, 2, 3, 4}, {5, 6, 7, 8}}})

  it("picks the level nearest in height", function()
    assert.equal(2, m:locate{2, 5.2, 2})
    assert.equal(1, m:locate{2, 0.1, 2})
    assert.equal(1, m:locate{0.5, 5, 2})   -- only the floor holds it
    assert.equal(2, m:locate({2, 5.2, 2}, 0.5))
    assert.is_nil(m:locate({2, 2.5, 2}, 0.5))
  end)

  it("finds paths on the level the points lie on", function()
    local p = assert(m:find_path({2, 5, 0.5}, {2, 5, 3.5}))
    assert.equal(5, p[1].y)
    local q = assert(m:find_path({0.5, 0, 0.5}, {3.5, 0, 3.5}))
    assert.equal(0, q[#q].y)
  end)
end)
