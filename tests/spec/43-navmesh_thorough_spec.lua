-- SPDX-License-Identifier: MIT
-- mesh:find_path's `thorough` option (docs/navmesh.md, "funnel"): true (the
-- default) and false both give legal paths from the start to the goal, the
-- thorough one never longer on these queries of the shared arena mesh; a
-- value other than a boolean is an error naming the option.
local lodestar = require "lodestar"
require "lodestar.testing"

local SHARED = os.getenv("LDS_SHARED") or "../shared"
local ARENA = SHARED .. "/data/navmesh/2d/arena.nav"

describe("navmesh find_path thorough", function()
  it("runs both ways on the arena queries", function()
    local m = assert(lodestar.navmesh.load(ARENA))
    local n, longer = 0, 0
    for line in io.lines(SHARED .. "/data/navmesh/2d/arena.queries") do
      local v = {}
      for x in line:gmatch("%S+") do v[#v + 1] = tonumber(x) end
      local s, g = {v[1], v[2], v[3]}, {v[4], v[5], v[6]}
      local a = assert(m:find_path(s, g))
      local b = assert(m:find_path(s, g, {thorough = false}))
      local c = assert(m:find_path(s, g, {thorough = true}))
      assert.equal(a.length, c.length)
      assert.is_true(m:check_path(b))
      if a.length > b.length * (1 + 1e-9) then longer = longer + 1 end
      n = n + 1
    end
    assert.equal(160, n)
    assert.equal(0, longer)
  end)

  it("rejects a thorough that is not a boolean", function()
    local m = assert(lodestar.navmesh.load(ARENA))
    local ok, err = pcall(m.find_path, m, {10.5, 0, 10.5}, {20.5, 0, 20.5}, {thorough = 1})
    assert.is_false(ok)
    assert.matches("bad argument #3 to 'find_path' (opts.thorough: boolean expected, got number)", err, 1, true)
  end)
end)
