-- SPDX-License-Identifier: MIT
-- The spec of docs/designer-guide.md, section 6, verbatim: the guide stays true.
local lodestar = require "lodestar"
local testing  = require "lodestar.testing"   -- adds the assert.* below

describe("marsh rule", function()
  local rule = lodestar.rule.terrain{ ["1"] = 4 }

  local function map()
    local grid, S, G = testing.grid[[
      S . . . . . . .
      . . . 1 1 1 . .
      . @ @ 1 1 1 @ .
      . . . 1 1 1 . G
    ]]
    grid:bake("marsh", rule)
    return grid, S, G
  end

  it("keeps careful agents out of the marsh", function()
    local grid, S, G = map()
    local path = lodestar.find_path(grid, S.x, S.y, G.x, G.y, { weights = { marsh = 1 } })
    assert.path_avoids(path, grid, "1")         -- terrain characters to avoid
  end)

  it("costs what we worked out by hand", function()
    local grid, S, G = map()
    local path = lodestar.find_path(grid, S.x, S.y, G.x, G.y, { weights = { marsh = 1 } })
    -- 5 steps along the top, one diagonal, 1 east, 2 down
    assert.path_cost(path, 8 + math.sqrt(2))
  end)

  it("A* stays optimal with the rule in force", function()
    local grid, S, G = map()
    assert.is_optimal(grid, S.x, S.y, G.x, G.y, { weights = { marsh = 3 } })
  end)

  it("the default heuristic never overestimates on this map", function()
    local grid = map()
    assert.admissible(grid, "octile")
  end)

  it("a broken rule leaves the old layer alone", function()
    local grid = map()
    assert.has_error(function()
      grid:bake("marsh", function(x) if x == 5 then error("oops") end return 0 end)
    end)
    assert.equal(4, grid:layer_get("marsh", 3, 1))
  end)
end)
