-- SPDX-License-Identifier: MIT
-- smoothing: Catmull-Rom post-processors for the paths agents walk.
--
-- manager:postprocess("smoothing.catmull", path, grid)  -> {{x =, y =}, ...}
-- manager:postprocess("smoothing.pruned", path, grid)   -> same, after
--   line-of-sight pruning (straight wherever cells see each other)
-- Points are in cell coordinates (the centre of cell (x, y) is (x, y)),
-- SPACING cells apart along the curve; the first and last cells are kept.
-- Wall-safe and cost-safe when given the grid: the post-processor gets its
-- read-only view, which lodestar.smooth's post-processor takes as its grid
-- (a span whose curve would touch a blocked cell, or cost more than the
-- sub-path it stands for under the path's weights, is straight instead).
local SPACING, SAMPLES = 0.5, 8
local smooth = lodestar.smooth
local step = smooth.postprocessor(SPACING, SAMPLES)

local function catmull(path, view) return step(path, view) end

return {
  name = "smoothing",
  version = "1.0.0",
  description = "Catmull-Rom smoothing of paths (uses lodestar.smooth)",
  postprocessors = {
    catmull = function(path, view) return catmull(path, view) end,
    pruned = function(path, view)
      assert(view, "smoothing.pruned needs the grid (line of sight)")
      return catmull(view.prune_los(path), view)
    end,
  },
  selftest = function()
    local pts = catmull({ { x = 0, y = 0 }, { x = 1, y = 0 }, { x = 2, y = 1 } })
    local last = pts[#pts]
    return pts[1].x == 0 and last.x == 2 and last.y == 1, "curve keeps its ends"
  end,
}
