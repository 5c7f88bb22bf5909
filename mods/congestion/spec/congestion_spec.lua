-- SPDX-License-Identifier: MIT
-- The congestion mod: heat from agent positions, decay, re-bake of the
-- changed rectangle only.
local lodestar = require "lodestar"
local mods = require "lodestar.mods"

describe("mod congestion", function()
  local grid, m

  before_each(function()
    grid = lodestar.grid.new(10, 3)
    m = mods.new{root = "mods", only = {"congestion"}, grids = {world = grid}}
    assert.equal("loaded", m:poll()[1].result)
  end)
  after_each(function() m:close() end)

  it("agents heat their cells; repeated reports add up to a cap", function()
    local ev = m:emit("agents", "world", {{x = 4, y = 1}, {x = 4, y = 1}, {x = 5, y = 1}})
    assert.equal("rebaked", ev[1].result)
    assert.same({"congestion.flow"}, ev[1].changes.profiles)
    assert.equal(2, grid:layer_get("congestion.heat", 4, 1))
    assert.equal(1, grid:layer_get("congestion.heat", 5, 1))
    assert.equal(0, grid:layer_get("congestion.heat", 6, 1))
    for _ = 1, 20 do m:emit("agents", "world", {{x = 4, y = 1}}) end
    assert.equal(10, grid:layer_get("congestion.heat", 4, 1))
  end)

  it("heat decays with ticks and is forgotten", function()
    m:emit("agents", "world", {{x = 4, y = 1}, {x = 4, y = 1}})
    m:emit("tick", 1)
    assert.near(1.8, grid:layer_get("congestion.heat", 4, 1), 1e-6)
    m:emit("tick", 10)
    assert.near(2 * 0.9 ^ 11, grid:layer_get("congestion.heat", 4, 1), 1e-6)
    m:emit("tick", 50)
    assert.equal(0, grid:layer_get("congestion.heat", 4, 1))
    assert.same({}, m:state("congestion").heat.world)
  end)

  it("only the changed rectangle is re-baked", function()
    grid:layer_set("congestion.heat", 0, 0, 99) -- outside the agents' rectangle
    m:emit("agents", "world", {{x = 4, y = 1}, {x = 6, y = 2}})
    assert.equal(99, grid:layer_get("congestion.heat", 0, 0))
    assert.equal(1, grid:layer_get("congestion.heat", 6, 2))
  end)

  it("the flow profile steers around a crowd", function()
    local crowd = {}
    for x = 3, 6 do crowd[#crowd + 1] = {x = x, y = 1} end
    for _ = 1, 5 do m:emit("agents", "world", crowd) end
    local plain = lodestar.find_path(grid, 0, 1, 9, 1)
    local flow = lodestar.find_path(grid, 0, 1, 9, 1, m:profile("congestion.flow"))
    local function crosses(p)
      for _, x, y in p:cells() do if y == 1 and x >= 3 and x <= 6 then return true end end
      return false
    end
    assert.is_true(crosses(plain))
    assert.is_false(crosses(flow))
  end)

  it("heat survives a hot reload of the mod", function()
    local lfs = require "lfs"
    local root = os.tmpname()
    os.remove(root)
    assert(lfs.mkdir(root))
    assert(lfs.mkdir(root .. "/congestion"))
    local src = assert(io.open("mods/congestion/mod.lua")):read("*a")
    local function write(text)
      local f = assert(io.open(root .. "/congestion/mod.lua", "wb"))
      f:write(text)
      f:close()
    end
    write(src)
    local g = lodestar.grid.new(5, 5)
    local m2 = mods.new{root = root, grids = {world = g}}
    m2:poll()
    m2:emit("agents", "world", {{x = 2, y = 2}, {x = 2, y = 2}})
    write((src:gsub('version = "1.0.0"', 'version = "1.0.1"')))
    local ev = m2:poll()
    assert.equal("reloaded", ev[1].result)
    assert.equal(2, g:layer_get("congestion.heat", 2, 2)) -- re-baked from the kept state
    m2:emit("tick", 1)
    assert.near(1.8, g:layer_get("congestion.heat", 2, 2), 1e-6)
    m2:close()
    os.remove(root .. "/congestion/mod.lua")
    lfs.rmdir(root .. "/congestion")
    lfs.rmdir(root)
  end)
end)
