--- lodestar.smooth — path smoothing in Lua, the worked example of a
-- post-processor: a Catmull-Rom spline through the cells of a path,
-- resampled to points at a fixed spacing.
--
-- Coordinates are cell coordinates (0-based); a point {x = 2.5, y = 3}
-- lies between cells. The result is a list of points, not a lodestar.Path
-- (a Path holds cells), so put smoothing last in a lodestar.postprocess chain.
--
-- [Paper: Catmull & Rom, "A class of local interpolating splines",
--  Computer Aided Geometric Design 1974]
local M = {}

local function points_of(path)
  if type(path) == "table" then return path end
  local pts = {}
  for i, x, y in path:cells() do pts[i] = {x = x, y = y} end
  return pts
end

-- Uniform Catmull-Rom between p1 and p2 at t in [0, 1].
local function cr(p0, p1, p2, p3, t)
  local t2, t3 = t * t, t * t * t
  local function f(a, b, c, d)
    return 0.5 * ((2 * b) + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3)
  end
  return f(p0.x, p1.x, p2.x, p3.x), f(p0.y, p1.y, p2.y, p3.y)
end

--- Catmull-Rom spline through the points (or the cells of a path).
-- @param path     lodestar.Path or list of {x=, y=}
-- @param opts     [opt] {samples = 8}: points per segment [Limit: >= 1]
-- @return list of {x=, y=}: starts at the first cell, ends at the last,
--         passes through every input cell. Fewer than 3 cells: a copy.
function M.catmull_rom(path, opts)
  local pts = points_of(path)
  local samples = (opts and opts.samples) or 8
  if type(samples) ~= "number" or samples < 1 or samples ~= math.floor(samples) then
    error("bad argument #2 to 'catmull_rom' (opts.samples must be an integer >= 1)", 2)
  end
  local n, out = #pts, {}
  if n < 3 then
    for i = 1, n do out[i] = {x = pts[i].x, y = pts[i].y} end
    return out
  end
  for i = 1, n - 1 do
    local p0 = pts[i - 1] or pts[i] -- end points repeated
    local p1, p2 = pts[i], pts[i + 1]
    local p3 = pts[i + 2] or pts[i + 1]
    for k = 0, samples - 1 do
      local x, y = cr(p0, p1, p2, p3, k / samples)
      out[#out + 1] = {x = x, y = y}
    end
  end
  out[#out + 1] = {x = pts[n].x, y = pts[n].y}
  return out
end

--- Length of a polyline. [Units: cells]
function M.length(points)
  local len = 0
  for i = 2, #points do
    local dx, dy = points[i].x - points[i - 1].x, points[i].y - points[i - 1].y
    len = len + math.sqrt(dx * dx + dy * dy)
  end
  return len
end

--- Resamples a polyline to points `spacing` cells apart along its length
-- (the last point is always kept). [Units: cells] [Limit: spacing > 0]
function M.resample(points, spacing)
  if type(spacing) ~= "number" or not (spacing > 0) then
    error("bad argument #2 to 'resample' (spacing must be a number > 0)", 2)
  end
  local out = {}
  if #points == 0 then return out end
  out[1] = {x = points[1].x, y = points[1].y}
  local carry = 0 -- distance walked since the last emitted point
  for i = 2, #points do
    local a, b = points[i - 1], points[i]
    local dx, dy = b.x - a.x, b.y - a.y
    local seg = math.sqrt(dx * dx + dy * dy)
    local pos = spacing - carry
    while pos <= seg do
      local t = pos / seg
      out[#out + 1] = {x = a.x + dx * t, y = a.y + dy * t}
      pos = pos + spacing
    end
    carry = seg - (pos - spacing)
  end
  local last = points[#points]
  local tail = out[#out]
  if tail.x ~= last.x or tail.y ~= last.y then out[#out + 1] = {x = last.x, y = last.y} end
  return out
end

--- Post-processor: Catmull-Rom through the path, resampled every `spacing`
-- cells. `lodestar.postprocess{ lodestar.prune_los, smooth.postprocessor(0.5) }`
function M.postprocessor(spacing, samples)
  return function(path)
    return M.resample(M.catmull_rom(path, {samples = samples or 8}), spacing or 0.5)
  end
end

return M
