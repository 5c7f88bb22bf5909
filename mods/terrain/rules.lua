-- SPDX-License-Identifier: MIT
-- Bake rules of the terrain mod: pure functions of the terrain characters.
local M = {}

--- Swamp: 1 on 'S' cells, else 0.
function M.swamp(_, _, t)
  if t == "S" then return 1 end
  return 0
end

-- Set of cells within `r` cells (Chebyshev) of a cell with terrain `ch`,
-- keyed y * w + x: one pass over the grid, then a square around each hit.
local function dilate(view, ch, r)
  local w, h = view.size()
  local terrain = view.terrain
  local near = {}
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if terrain(x, y) == ch then
        for yy = math.max(0, y - r), math.min(h - 1, y + r) do
          for xx = math.max(0, x - r), math.min(w - 1, x + r) do near[yy * w + xx] = true end
        end
      end
    end
  end
  return near, w
end

--- Rule: 1 on cells with terrain `ch` or within `r` cells of one, else 0.
function M.near(ch, r, view)
  local near, w = dilate(view, ch, r)
  return function(x, y)
    if near[y * w + x] then return 1 end
    return 0
  end
end

--- Rule: false on water 'W' (blocked under a positive weight), 0.5 on the
-- shore (next to water), 0 elsewhere.
function M.water(view)
  local near, w = dilate(view, "W", 1)
  return function(x, y, t)
    if t == "W" then return false end
    if near[y * w + x] then return 0.5 end
    return 0
  end
end

return M
