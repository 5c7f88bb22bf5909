-- SPDX-License-Identifier: MIT
-- terrain: costs from the map's terrain characters.
--
-- Three layers, each 0 on ordinary ground (profiles choose how much they matter):
--   terrain.swamp   1 on swamp cells ('S', passable in Moving AI maps)
--   terrain.forest  1 on forest cells ('T' made passable by the host) and on
--                   cells next to a tree (undergrowth at the edge of woods)
--   terrain.water   false (blocked for positive weights) on water ('W'),
--                   0.5 on the shore (cells next to water)
local rules = require "rules"

return {
  name = "terrain",
  version = "1.0.0",
  description = "Swamp, forest and water costs from terrain characters",
  layers = {
    swamp = rules.swamp,
    forest = { make = function(view) return rules.near("T", 1, view) end },
    water = { make = function(view) return rules.water(view) end },
  },
  profiles = {
    -- foot soldiers: swamp costs 2 more per cell, undergrowth 1, shore 0.5
    walker = { weights = { swamp = 2, forest = 1, water = 1 } },
    -- rangers move through woods freely, still dislike swamp
    ranger = { weights = { swamp = 1, water = 1 } },
  },
  selftest = function()
    assert(rules.swamp(0, 0, "S") == 1 and rules.swamp(0, 0, ".") == 0, "swamp rule")
    local g = lodestar.grid.from_ascii("...\n...\n")
    g:set_terrain(2, 1, "T")
    local fake = { size = function() return g:size() end,
                   terrain = function(x, y) return g:terrain(x, y) end }
    local f = rules.near("T", 1, fake)
    assert(f(1, 0) == 1 and f(0, 0) == 0 and f(2, 1) == 1, "forest rule")
    return true
  end,
}
