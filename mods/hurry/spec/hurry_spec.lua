-- SPDX-License-Identifier: MIT
-- The hurry mod: weighted A* expands fewer nodes, and stays within w x optimal.
local lodestar = require "lodestar"
local mods = require "lodestar.mods"

local function run(grid, opts, sx, sy, gx, gy)
  local o, algo = {}, "astar"
  for k, v in pairs(opts or {}) do
    if k == "algorithm" then algo = v else o[k] = v end
  end
  local s = lodestar.search[algo](grid, o)
  s:start(sx, sy, gx, gy)
  assert.equal("found", (s:run()))
  return s:path(), s:stats().expansions
end

describe("mod hurry", function()
  local m, grid

  before_each(function()
    m = mods.new{root = "mods", only = {"hurry"}}
    assert.equal("loaded", m:poll()[1].result)
    grid = lodestar.grid.load("tests/data/den011d.map")
  end)
  after_each(function() m:close() end)

  it("the hurry profile is weighted A* with w = 2", function()
    assert.same({algorithm = "wastar", weight = 2}, m:profile("hurry.hurry"))
    assert.same({algorithm = "greedy"}, m:profile("hurry.dash"))
  end)

  it("expands fewer nodes than A* and costs at most 2 x optimal", function()
    local f = assert(io.open("tests/data/den011d.map.scen"))
    f:read("*l")
    local fewer, n = 0, 0
    for line in f:lines() do
      n = n + 1
      if n % 40 == 0 then -- 19 queries spread over the buckets
        local sx, sy, gx, gy, opt = line:match("^%S+%s+%S+%s+%S+%s+%S+%s+(%d+)%s+(%d+)%s+(%d+)%s+(%d+)%s+(%S+)")
        sx, sy, gx, gy, opt = tonumber(sx), tonumber(sy), tonumber(gx), tonumber(gy), tonumber(opt)
        local p1, e1 = run(grid, nil, sx, sy, gx, gy)
        local p2, e2 = run(grid, m:profile("hurry.hurry"), sx, sy, gx, gy)
        assert.near(opt, p1.cost, 1e-3) -- the scen file keeps 4 decimals
        assert.is_true(p2.cost <= 2 * p1.cost + 1e-9)
        assert.is_true(p2.cost >= p1.cost - 1e-9)
        if e2 < e1 then fewer = fewer + 1 end
      end
    end
    f:close()
    assert.is_true(fewer >= 15, ("weighted A* expanded fewer nodes on only %d of 19 queries"):format(fewer))
  end)

  it("the inflated heuristic is 2 x octile", function()
    local h = m:heuristic("hurry.inflated")
    assert.near(2 * (4 + (math.sqrt(2) - 1) * 3), h(0, 0, 3, 4), 1e-12)
  end)
end)
