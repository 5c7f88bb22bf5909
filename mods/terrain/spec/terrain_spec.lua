-- SPDX-License-Identifier: MIT
-- The terrain mod, loaded through the mod manager as a game would load it.
local lodestar = require "lodestar"
require "lodestar.testing" -- registers assert.path_cost, assert.path_avoids, assert.is_optimal
local mods = require "lodestar.mods"

describe("mod terrain", function()
  local grid, m

  before_each(function()
    -- S marks swamp here (from_ascii keeps it free); T and W are set as
    -- passable terrain characters the way a map editor would
    grid = lodestar.grid.from_ascii(table.concat({
      "......",
      ".SSSS.",
      "......",
      "...W..",
    }, "\n"))
    grid:set_terrain(5, 0, "T")
    m = mods.new{root = "mods", only = {"terrain"}, grids = {world = grid}}
    local ev = m:poll()
    assert.equal("loaded", ev[1].result, ev[1].error and ev[1].error.text)
  end)
  after_each(function() m:close() end)

  it("bakes swamp, forest and water layers", function()
    assert.equal(1, grid:layer_get("terrain.swamp", 2, 1))
    assert.equal(0, grid:layer_get("terrain.swamp", 0, 1))
    assert.equal(1, grid:layer_get("terrain.forest", 4, 1)) -- next to the tree at (5,0)
    assert.equal(1, grid:layer_get("terrain.forest", 5, 0))
    assert.equal(0, grid:layer_get("terrain.forest", 3, 0))
    assert.equal(math.huge, grid:layer_get("terrain.water", 3, 3))
    assert.equal(0.5, grid:layer_get("terrain.water", 2, 2))
    assert.equal(0, grid:layer_get("terrain.water", 0, 0))
  end)

  it("walkers go around the swamp, and their paths stay optimal", function()
    local opts = m:profile("terrain.walker")
    local straight = lodestar.find_path(grid, 0, 1, 5, 1)
    assert.path_cost(straight, 5)
    local p = lodestar.find_path(grid, 0, 1, 5, 1, opts)
    assert.path_avoids(p, grid, "S")
    assert.is_optimal(grid, 0, 1, 5, 1, opts)
    assert.is_true(p.cost > 5 and p.cost < 5 + 4 * 2)
  end)

  it("water blocks walkers and the shore costs extra", function()
    local p = lodestar.find_path(grid, 2, 3, 4, 3, m:profile("terrain.walker"))
    for _, x, y in p:cells() do assert.is_false(x == 3 and y == 3) end
  end)
end)
