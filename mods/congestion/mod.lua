-- SPDX-License-Identifier: MIT
-- congestion: cells crowded by agents cost more for a while.
--
-- The host feeds agent positions and time:
--   manager:emit("agents", grid_name, {{x =, y =}, ...})  -- once per frame (or less)
--   manager:emit("tick", frames)                          -- decay, frames >= 1
-- Each reported position adds 1 to its cell's heat (capped at MAX_HEAT);
-- each tick multiplies every heat by DECAY^frames and forgets heat below
-- FORGET. Only the rectangle that changed is re-baked.
local DECAY, FORGET, MAX_HEAT = 0.9, 0.05, 10

mod.state.heat = mod.state.heat or {} -- grid name -> {[y * 65536 + x] = heat}

local function heat_of(gname)
  local h = mod.state.heat[gname]
  if not h then h = {}; mod.state.heat[gname] = h end
  return h
end

-- Re-bakes the bounding rectangle of `keys` on grid `gname`.
local function rebake_keys(gname, keys)
  local x0, y0, x1, y1
  for k in pairs(keys) do
    local x, y = k % 65536, math.floor(k / 65536)
    x0 = x0 and math.min(x0, x) or x
    x1 = x1 and math.max(x1, x) or x
    y0 = y0 and math.min(y0, y) or y
    y1 = y1 and math.max(y1, y) or y
  end
  if x0 then mod.rebake("heat", gname, {x0, y0, x1, y1}) end
end

return {
  name = "congestion",
  version = "1.0.0",
  description = "Costs that rise where agents crowd and decay over time",
  layers = {
    -- one rule per grid, bound to that grid's heat table
    heat = { make = function(view)
      local h = heat_of(view.name)
      return function(x, y) return h[y * 65536 + x] or 0 end
    end },
  },
  profiles = {
    flow = { weights = { heat = 0.5 } },
  },
  on = {
    agents = function(gname, positions)
      local h, touched = heat_of(gname), {}
      for _, p in ipairs(positions) do
        local k = p.y * 65536 + p.x
        h[k] = math.min(MAX_HEAT, (h[k] or 0) + 1)
        touched[k] = true
      end
      rebake_keys(gname, touched)
    end,
    tick = function(frames)
      local f = DECAY ^ (frames or 1)
      for gname, h in pairs(mod.state.heat) do
        local touched = {}
        for k, v in pairs(h) do
          v = v * f
          if v < FORGET then v = nil end
          h[k] = v
          touched[k] = true
        end
        rebake_keys(gname, touched)
      end
    end,
  },
  selftest = function()
    return DECAY > 0 and DECAY < 1 and FORGET > 0, "DECAY in (0, 1) and FORGET > 0"
  end,
}
