-- SPDX-License-Identifier: MIT
-- hurry: profiles that trade path quality for search time.
--
-- hurry.hurry : weighted A* (w = 2): expands far fewer nodes on open maps;
--               the path costs at most 2 x the optimal cost.
-- hurry.dash  : greedy best-first: fastest, no bound on the cost.
-- heuristic hurry.inflated(ax, ay, bx, by): 2 x the octile distance, the
--   same trade for hosts that search graphs with a Lua heuristic.
local W = 2

local function octile(ax, ay, bx, by)
  local dx, dy = math.abs(ax - bx), math.abs(ay - by)
  return math.max(dx, dy) + (math.sqrt(2) - 1) * math.min(dx, dy)
end

return {
  name = "hurry",
  version = "1.0.0",
  description = "Weighted A* and greedy profiles for agents in a hurry",
  profiles = {
    hurry = { algorithm = "wastar", weight = W },
    dash = { algorithm = "greedy" },
  },
  heuristics = {
    inflated = function(ax, ay, bx, by) return W * octile(ax, ay, bx, by) end,
  },
  selftest = function()
    return math.abs(octile(0, 0, 3, 4) - (4 + (math.sqrt(2) - 1) * 3)) < 1e-12, "octile distance"
  end,
}
