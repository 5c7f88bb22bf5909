-- SPDX-License-Identifier: MIT
-- swamp: the example's mod. A layer "wet" (1 on swamp cells '~', else 0)
-- and the two agent classes: scouts hate the swamp, porters do not mind it.
-- Edit SCOUT_WET while the game runs: the game polls the mod folder and
-- hot-reloads it, and the scouts' pending requests restart with the new
-- weight (docs/mods.md).
local SCOUT_WET = 8

return {
  name = "swamp",
  version = "1",
  description = "swamp cells as a layer; scouts and porters weigh it differently",
  layers = {
    wet = { make = function(view)
      local t = view.terrain
      return function(x, y) return t(x, y) == "~" and 1 or 0 end
    end },
  },
  profiles = {
    scout = { weights = { wet = SCOUT_WET } },
    porter = { weights = { wet = 0 } },
  },
}
