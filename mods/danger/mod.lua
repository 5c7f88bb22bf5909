-- SPDX-License-Identifier: MIT
-- danger: a danger map around threats (towers, monsters), and two agent
-- classes that weigh it differently.
--
-- The host reports threats with  manager:emit("threats", list)  where list is
-- {{x =, y =, radius =, peak =}, ...} (radius in cells, peak the danger at
-- the threat's cell; defaults 4 and 10). The layer falls linearly from peak
-- to 0 at `radius` cells (Chebyshev distance); overlapping threats add up.
local DEFAULT_RADIUS, DEFAULT_PEAK = 4, 10

mod.state.threats = mod.state.threats or {}

local function danger(x, y)
  local v = 0
  local threats = mod.state.threats
  for i = 1, #threats do
    local t = threats[i]
    local d = math.max(math.abs(x - t.x), math.abs(y - t.y))
    if d < t.radius then v = v + t.peak * (1 - d / t.radius) end
  end
  return v
end

return {
  name = "danger",
  version = "1.0.0",
  description = "Danger around threats; cautious and reckless agent classes",
  depends = { "terrain" },
  layers = { danger = danger },
  profiles = {
    -- cautious units pay 1 extra per unit of danger, and avoid swamp
    cautious = { weights = { danger = 1, ["terrain.swamp"] = 2 } },
    -- reckless units barely care
    reckless = { weights = { danger = 0.05 } },
  },
  on = {
    threats = function(list)
      local out = {}
      for i, t in ipairs(list) do
        assert(type(t.x) == "number" and type(t.y) == "number", "threat " .. i .. ": x and y expected")
        out[i] = { x = t.x, y = t.y, radius = t.radius or DEFAULT_RADIUS, peak = t.peak or DEFAULT_PEAK }
        assert(out[i].radius > 0 and out[i].peak >= 0, "threat " .. i .. ": radius > 0 and peak >= 0 expected")
      end
      mod.state.threats = out
      mod.rebake("danger")
    end,
  },
  selftest = function()
    local saved = mod.state.threats
    mod.state.threats = { { x = 0, y = 0, radius = 2, peak = 10 } }
    local ok = danger(0, 0) == 10 and danger(1, 1) == 5 and danger(2, 0) == 0
    mod.state.threats = saved
    return ok, "danger falls from peak to 0 over the radius"
  end,
}
