-- Bake rules of the terrain mod: pure functions of the terrain characters.
local M = {}

--- Swamp: 1 on 'S' cells, else 0.
function M.swamp(_, _, t)
  if t == "S" then return 1 end
  return 0
end

-- True when a cell within `r` (Chebyshev) of (x, y) has terrain `ch`.
local function near(view, ch, x, y, r)
  local w, h = view.size()
  for yy = math.max(0, y - r), math.min(h - 1, y + r) do
    for xx = math.max(0, x - r), math.min(w - 1, x + r) do
      if view.terrain(xx, yy) == ch then return true end
    end
  end
  return false
end

--- Rule: 1 on cells with terrain `ch` or within `r` cells of one, else 0.
function M.near(ch, r, view)
  return function(x, y, t)
    if t == ch or near(view, ch, x, y, r) then return 1 end
    return 0
  end
end

--- Rule: false on water 'W' (blocked under a positive weight), 0.5 on the
-- shore (next to water), 0 elsewhere.
function M.water(view)
  return function(x, y, t)
    if t == "W" then return false end
    if near(view, "W", x, y, 1) then return 0.5 end
    return 0
  end
end

return M
