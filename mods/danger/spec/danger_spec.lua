-- SPDX-License-Identifier: MIT
-- The danger mod: a threat makes cautious units detour, reckless ones not.
local lodestar = require "lodestar"
require "lodestar.testing" -- registers assert.is_optimal
local mods = require "lodestar.mods"

describe("mod danger", function()
  local grid, m

  before_each(function()
    grid = lodestar.grid.new(21, 9)
    m = mods.new{root = "mods", only = {"terrain", "danger"}, grids = {world = grid}}
    local ev = m:poll()
    assert.equal(2, #ev)
    assert.equal("terrain:loaded danger:loaded", ev[1].mod .. ":" .. ev[1].result .. " "
      .. ev[2].mod .. ":" .. ev[2].result)
  end)
  after_each(function() m:close() end)

  it("bakes zero danger until threats are reported", function()
    assert.same({0, 0}, {grid:layer_range("danger.danger")})
  end)

  it("a threat raises the danger around it, falling off with distance", function()
    local ev = m:emit("threats", {{x = 10, y = 4, radius = 4, peak = 10}})
    assert.equal("rebaked", ev[1].result)
    assert.same({"danger.cautious", "danger.reckless"}, ev[1].changes.profiles)
    assert.equal(10, grid:layer_get("danger.danger", 10, 4))
    assert.equal(5, grid:layer_get("danger.danger", 12, 2))
    assert.equal(0, grid:layer_get("danger.danger", 14, 4))
  end)

  it("cautious units detour around the threat, reckless units walk through", function()
    m:emit("threats", {{x = 10, y = 4, radius = 4, peak = 10}})
    local cautious = lodestar.find_path(grid, 0, 4, 20, 4, m:profile("danger.cautious"))
    local reckless = lodestar.find_path(grid, 0, 4, 20, 4, m:profile("danger.reckless"))
    local function max_danger(p)
      local worst = 0
      for _, x, y in p:cells() do worst = math.max(worst, grid:layer_get("danger.danger", x, y)) end
      return worst
    end
    assert.equal(10, max_danger(reckless)) -- straight through the tower's cell
    assert.equal(21, #reckless) -- the straight row
    assert.is_true(max_danger(cautious) <= 2.5, "cautious path max danger " .. max_danger(cautious))
    local off_row = 0
    for _, _, y in cautious:cells() do if y ~= 4 then off_row = off_row + 1 end end
    assert.is_true(off_row >= 5, "cautious path leaves row 4 on " .. off_row .. " cells")
    assert.is_optimal(grid, 0, 4, 20, 4, m:profile("danger.cautious"))
  end)

  it("a bad threat list is reported and keeps the old layer", function()
    m:emit("threats", {{x = 10, y = 4}})
    local ev = m:emit("threats", {{x = 1}})
    assert.equal("failed", ev[1].result)
    assert.matches("threat 1: x and y expected", ev[1].error.text, 1, true)
    assert.equal(10, grid:layer_get("danger.danger", 10, 4))
  end)
end)
