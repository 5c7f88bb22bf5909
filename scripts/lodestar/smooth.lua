-- SPDX-License-Identifier: MIT
--- lodestar.smooth — path smoothing in Lua, the worked example of a
-- post-processor: a Catmull-Rom spline through the cells of a path,
-- resampled to points at a fixed spacing.
--
-- Coordinates are cell coordinates (0-based); the point {x = 2, y = 3} is
-- the centre of cell (2,3), whose square spans 1.5..2.5 by 2.5..3.5, and
-- {x = 2.5, y = 3} lies on the border between cells (2,3) and (3,3). The
-- result is a list of points, not a lodestar.Path (a Path holds cells), so
-- put smoothing last in a lodestar.postprocess chain.
--
-- Wall-safe smoothing: given the grid (opts.grid of catmull_rom; the grid
-- a chain hands to smooth.postprocessor's step) or a mod's read-only grid
-- view (what manager:postprocess hands a post-processor), each span between two
-- consecutive input cells is checked, and one whose sampled curve would
-- touch a blocked cell is replaced by the straight segment between its two
-- cells. See docs/lua-api.md, "Post-processing", for the guarantee.
--
-- Cost-safe smoothing: with a lodestar.Grid (or a view with polyline_cost),
-- a span is also straight when its curve would cost more than the sub-path
-- it stands for (path:replaced_costs() of a pruned path, else its straight
-- segment), measured exactly under the path's layer weights (path.weights),
-- so the smoothed line never costs more than the path before pruning; the
-- returned list's field `cost` is its exact cost (grid:polyline_cost).
--
-- Argument errors raise "bad argument #n to 'f' (...)" at the caller's
-- line, like the C functions of lodestar.core; an unknown key in an option
-- table is an error naming it and the accepted keys.
--
-- [Paper: Catmull & Rom, "A class of local interpolating splines",
--  Computer Aided Geometric Design 1974]
local M = {}

--- Most points one call may return (catmull_rom, resample, a
-- postprocessor step): a bigger result is an argument error naming the
-- spacing or sample count, so no call can build millions of points.
M.MAX_POINTS = 1000000

-- == argument checks ========================================================
-- Errors point at the line that called the public function: level 2 from
-- the public function itself, 3 from a check it calls (argerror adds one
-- for itself).

local function argerror(level, fname, n, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), level + 1)
end

-- __name of a userdata's metatable ("lodestar.Grid"), else the type name.
local function type_name(v)
  local t = type(v)
  if t == "userdata" then
    local mt = getmetatable(v)
    if type(mt) == "table" and type(rawget(mt, "__name")) == "string" then return mt.__name end
  end
  return t
end

-- The points of a lodestar.Path (its cells) or of a list of {x=, y=}: a
-- fresh list of {x=, y=} (finite numbers).
local function points_arg(v, fname, n)
  local tn = type_name(v)
  if tn == "lodestar.Path" then
    local ok, cells = pcall(v.totable, v)
    if not ok then error(cells, 3) end -- a freed path
    if type(cells[1]) == "number" then argerror(3, fname, n, "a grid path expected, got a graph path") end
    return cells
  end
  if tn ~= "table" then
    argerror(3, fname, n, "lodestar.Path or list of {x=, y=} expected, got " .. tn)
  end
  local pts = {}
  for i = 1, #v do
    local p = v[i]
    local x, y = type(p) == "table" and p.x, type(p) == "table" and p.y
    -- `not (a < b)`, not `a >= b`: a NaN fails the check too (luacheck 581 would rewrite it)
    if type(x) ~= "number" or type(y) ~= "number" or not (math.abs(x) < math.huge) -- luacheck: ignore 581
        or not (math.abs(y) < math.huge) then -- luacheck: ignore 581 (NaN-safe)
      argerror(3, fname, n, ("point %d: x and y must be finite numbers"):format(i))
    end
    if type(p.z) == "number" then
      -- a navmesh path ({x, y, z}, y up): smoothing its x and y would bend
      -- it in height and drop z, so it is refused rather than silently wrong
      argerror(3, fname, n, ("point %d has a z: smooth takes grid points {x=, y=} in cells, "
        .. "not navmesh points {x=, y=, z=}"):format(i))
    end
    pts[i] = {x = x, y = y}
  end
  return pts
end

-- The walls of a lodestar.Grid (not freed) or of a grid view — a table
-- whose fields size() and get_blocked(x, y) are plain functions, as the
-- read-only view lodestar.mods hands post-processors (mods.lua grid_view)
-- — as {w =, h =, blocked = function(x, y), cost = function(points,
-- weights)}; nil for nil. cost (the exact polyline cost, grid:polyline_cost)
-- is there for a lodestar.Grid and for a view with a polyline_cost(points,
-- opts) function, else nil. `what` names the argument in the message.
local function grid_arg(g, fname, n, what)
  if g == nil then return nil end
  local tn = type_name(g)
  local size, blocked, cost
  if tn == "lodestar.Grid" then
    size = function() return g:size() end
    blocked = function(x, y) return g:blocked(x, y) end
    cost = function(pts, weights) return g:polyline_cost(pts, {weights = weights}) end
  elseif tn == "table" and type(g.size) == "function" and type(g.get_blocked) == "function" then
    size, blocked = g.size, g.get_blocked
    local polyline_cost = g.polyline_cost
    if type(polyline_cost) == "function" then
      cost = function(pts, weights) return polyline_cost(pts, {weights = weights}) end
    end
  else
    argerror(3, fname, n, ("%slodestar.Grid or grid view expected, got %s"):format(what, tn))
  end
  local ok, w, h = pcall(size)
  if not ok then error(w, 3) end -- a freed grid
  return {w = w, h = h, blocked = blocked, cost = cost}
end

-- What a lodestar.Path knows about its costs: the weights of its query
-- (path.weights) and, after prune_los, what each segment replaced
-- (path:replaced_costs()); {} for a list of points. opts_weights, when not
-- nil, overrides the weights.
local function cost_info(v, opts_weights)
  local info = {}
  if type_name(v) == "lodestar.Path" then
    info.weights = v.weights
    info.replaced = v:replaced_costs()
  end
  if opts_weights ~= nil then -- other weights: what pruning measured does not apply
    info.weights, info.replaced = opts_weights, nil
  end
  return info
end

local function is_count(v) return type(v) == "number" and v >= 1 and v == math.floor(v) and v < math.huge end

-- An option table: nil or a table whose keys are all in `keys` (a sorted
-- list), as the core checks its own ("unknown option 'k' (expected a, b)").
local function opts_arg(opts, fname, n, keys)
  if opts == nil then return {} end
  if type(opts) ~= "table" then argerror(3, fname, n, "table expected, got " .. type_name(opts)) end
  for k in pairs(opts) do
    if type(k) ~= "string" then argerror(3, fname, n, "opts keys must be strings") end
    local known = false
    for i = 1, #keys do if keys[i] == k then known = true end end
    if not known then
      argerror(3, fname, n, ("unknown option '%s' (expected %s)"):format(k, table.concat(keys, ", ")))
    end
  end
  return opts
end

-- == the spline ===============================================================

-- Uniform Catmull-Rom between p1 and p2 at t in [0, 1].
local function cr(p0, p1, p2, p3, t)
  local t2, t3 = t * t, t * t * t
  local function f(a, b, c, d)
    return 0.5 * ((2 * b) + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3)
  end
  return f(p0.x, p1.x, p2.x, p3.x), f(p0.y, p1.y, p2.y, p3.y)
end

-- Widening of the cell squares in segment_clear [Units: cells]: a segment
-- within EPS of a blocked square counts as touching it, so rounding in the
-- points resample later computes on the segment cannot land in that cell.
local EPS = 1e-9

-- True when the segment (ax,ay)-(bx,by) touches only free cells of `walls`
-- (grid_arg: w x h, blocked(x, y)): every cell whose closed square [c-0.5, c+0.5]^2, widened by EPS,
-- the segment meets, corners included — so it never cuts a blocked corner,
-- under any diagonal rule. Cells outside the grid count as blocked. Walks
-- the columns the segment spans and, in each, the rows of its part there.
local function segment_clear(walls, ax, ay, bx, by)
  local w, h, blocked = walls.w, walls.h, walls.blocked
  local dx, dy = bx - ax, by - ay
  local cx0 = math.ceil(math.min(ax, bx) - 0.5 - EPS)
  local cx1 = math.floor(math.max(ax, bx) + 0.5 + EPS)
  for cx = cx0, cx1 do
    local t0, t1 = 0, 1 -- the part of the segment inside column cx
    if dx ~= 0 then
      local ta, tb = (cx - 0.5 - EPS - ax) / dx, (cx + 0.5 + EPS - ax) / dx
      if ta > tb then ta, tb = tb, ta end
      if ta > t0 then t0 = ta end
      if tb < t1 then t1 = tb end
    end
    if t0 <= t1 then
      local ya, yb = ay + dy * t0, ay + dy * t1
      if ya > yb then ya, yb = yb, ya end
      for cy = math.ceil(ya - 0.5 - EPS), math.floor(yb + 0.5 + EPS) do
        if cx < 0 or cy < 0 or cx >= w or cy >= h or blocked(cx, cy) then return false end
      end
    end
  end
  return true
end

-- True when every segment of the polyline pts touches only free cells.
local function polyline_clear(walls, pts)
  for k = 2, #pts do
    local a, b = pts[k - 1], pts[k]
    if not segment_clear(walls, a.x, a.y, b.x, b.y) then return false end
  end
  return true
end

-- The most span i (pts[i] -> pts[i+1]) may cost: what the sub-path it
-- stands for cost (info.replaced[i], after prune_los), else its straight
-- segment's cost.
local function span_budget(walls, info, pts, i)
  local r = info.replaced and info.replaced[i]
  if r then return r end
  return walls.cost({pts[i], pts[i + 1]}, info.weights)
end

-- The points of span i of the spline through pts: pts[i] and `samples` - 1
-- points of the curve towards pts[i + 1] (not included).
local function curve_span(pts, i, samples)
  local p0 = pts[i - 1] or pts[i] -- end points repeated
  local p1, p2 = pts[i], pts[i + 1]
  local p3 = pts[i + 2] or pts[i + 1]
  local span = {}
  for k = 0, samples - 1 do
    local x, y = cr(p0, p1, p2, p3, k / samples)
    span[k + 1] = {x = x, y = y}
  end
  return span
end

-- The same number of points on the straight segment pts[i] -> pts[i + 1].
local function straight_span(pts, i, samples)
  local p1, p2 = pts[i], pts[i + 1]
  local span = {}
  for k = 0, samples - 1 do
    local t = k / samples
    span[k + 1] = {x = p1.x + (p2.x - p1.x) * t, y = p1.y + (p2.y - p1.y) * t}
  end
  return span
end

-- The spline through pts (checked), `samples` points per span; with walls
-- (grid_arg), a span whose polyline (p1, its samples, p2) touches a blocked
-- cell, or (when walls.cost) costs more than span_budget, is sampled on the
-- straight segment p1-p2 instead (same number of points). info: cost_info.
local function spline(pts, samples, walls, info)
  local n, out = #pts, {}
  if n < 3 then
    for i = 1, n do out[i] = {x = pts[i].x, y = pts[i].y} end
    return out
  end
  for i = 1, n - 1 do
    local span = curve_span(pts, i, samples)
    if walls then
      local curve = {}
      for k = 1, samples do curve[k] = span[k] end
      curve[samples + 1] = pts[i + 1]
      local ok = polyline_clear(walls, curve)
      if ok and walls.cost then ok = walls.cost(curve, info.weights) <= span_budget(walls, info, pts, i) end
      -- the straight segment: legal for a path's cells or prune_los output,
      -- and it costs what the segment costs however it is cut
      if not ok then span = straight_span(pts, i, samples) end
    end
    for k = 1, samples do out[#out + 1] = span[k] end
  end
  out[#out + 1] = {x = pts[n].x, y = pts[n].y}
  return out
end

local CR_KEYS = {"grid", "samples", "weights"}

-- A count as written: integers in full below 1e18, else %.14g ("1e+300").
-- Never %d, which raises on Lua 5.4 and wraps on LuaJIT past 2^63.
local function count_text(v)
  if v == math.floor(v) and math.abs(v) < 1e18 then return ("%.0f"):format(v) end
  return ("%.14g"):format(v)
end

--- Catmull-Rom spline through the points (or the cells of a path).
-- @param path     lodestar.Path (grid path) or list of {x=, y=}
-- @param opts     [opt] {samples = 8, grid = nil, weights = nil}:
--                 samples  points per span [Limit: integer >= 1]
--                 grid     [opt] lodestar.Grid, or a mod's grid view (a
--                          table with functions size() and get_blocked(x, y),
--                          and optionally polyline_cost(points, opts), called
--                          without self): wall-safe and cost-safe smoothing —
--                          a span whose sampled curve would touch a blocked
--                          cell (or a cell outside the grid), corners
--                          included, or would cost more than the sub-path
--                          the span stands for (path:replaced_costs() of a
--                          pruned path, else the straight segment), is the
--                          straight segment between its two cells instead
--                          (see docs/lua-api.md for the guarantee)
--                 weights  [opt] name -> weight: the layer weights the costs
--                          are measured with; by default a Path's own
--                          (path.weights, the weights of its query)
-- @return list of {x=, y=}: starts at the first cell, ends at the last,
--         passes through every input cell; (cells - 1) * samples + 1
--         points. Fewer than 3 cells: a copy. When the costs are known (a
--         lodestar.Grid, or a view with polyline_cost) the list's field
--         `cost` is the polyline's exact cost under the weights.
-- Errors: bad path or points, opts not a table, an unknown key
-- ("unknown option 'sample' (expected grid, samples, weights)"), samples not
-- an integer >= 1, grid neither a lodestar.Grid nor a grid view, weights
-- naming a layer the grid lacks.
function M.catmull_rom(path, opts)
  local pts = points_arg(path, "catmull_rom", 1)
  opts = opts_arg(opts, "catmull_rom", 2, CR_KEYS)
  local samples = opts.samples
  if samples == nil then samples = 8 end
  if not is_count(samples) then
    argerror(2, "catmull_rom", 2, "opts.samples must be an integer >= 1")
  end
  if opts.weights ~= nil and type(opts.weights) ~= "table" then
    argerror(2, "catmull_rom", 2, "opts.weights must be a table (layer name -> weight)")
  end
  if #pts >= 3 and (#pts - 1) * samples + 1 > M.MAX_POINTS then
    argerror(2, "catmull_rom", 2, ("opts.samples %s gives %s points for %d cells (more than smooth.MAX_POINTS = %d)")
      :format(count_text(samples), count_text((#pts - 1) * samples + 1), #pts, M.MAX_POINTS))
  end
  local walls = grid_arg(opts.grid, "catmull_rom", 2, "opts.grid: ")
  local info = cost_info(path, opts.weights)
  local out = spline(pts, samples, walls, info)
  if walls and walls.cost then out.cost = walls.cost(out, info.weights) end
  return out
end

--- Length of a polyline (a list of {x=, y=}, or a grid Path's cells joined
-- by straight segments). [Units: cells]
function M.length(points)
  points = points_arg(points, "length", 1)
  local len = 0
  for i = 2, #points do
    local dx, dy = points[i].x - points[i - 1].x, points[i].y - points[i - 1].y
    len = len + math.sqrt(dx * dx + dy * dy)
  end
  return len
end

-- Points resample would return for points (checked) at spacing: raises
-- an argument error of function fname, argument n, past MAX_POINTS.
local function check_resample(points, spacing, fname, n, level)
  local len = 0
  for i = 2, #points do
    local dx, dy = points[i].x - points[i - 1].x, points[i].y - points[i - 1].y
    len = len + math.sqrt(dx * dx + dy * dy)
  end
  local count = len / spacing + #points + 1 -- a bound: each segment adds at most one point more
  if count > M.MAX_POINTS then
    argerror(level + 1, fname, n, ("spacing %g gives more than %d points over a length of %g cells "
      .. "(smooth.MAX_POINTS; expected spacing >= %g)"):format(spacing, M.MAX_POINTS, len,
      len / (M.MAX_POINTS - #points - 1)))
  end
end

-- resample on checked points
local function resample(points, spacing)
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

--- Resamples a polyline to points `spacing` cells apart along its length
-- (the last point is always kept). Every point lies on the polyline.
-- [Units: cells] [Limit: spacing > 0]
function M.resample(points, spacing)
  points = points_arg(points, "resample", 1)
  if type(spacing) ~= "number" or not (spacing > 0) then -- luacheck: ignore 581 (NaN-safe)
    argerror(2, "resample", 2, "spacing must be a number > 0")
  end
  check_resample(points, spacing, "resample", 2, 2)
  return resample(points, spacing)
end

-- The spline through pts resampled span by span, every input point kept:
-- span i is its curve resampled every `spacing` (resample), used when that
-- polyline touches no wall and (walls.cost) costs no more than span_budget,
-- else the straight segment resampled. With walls.cost the list's `cost`
-- is the polyline's cost.
local function smooth_spans(pts, samples, spacing, walls, info)
  local n, out = #pts, {}
  if n == 0 then return out end
  out[1] = {x = pts[1].x, y = pts[1].y}
  for i = 1, n - 1 do
    local span
    if n >= 3 then
      span = curve_span(pts, i, samples)
      span[#span + 1] = pts[i + 1]
      span = resample(span, spacing)
      local ok = polyline_clear(walls, span)
      if ok and walls.cost then ok = walls.cost(span, info.weights) <= span_budget(walls, info, pts, i) end
      if not ok then span = nil end
    end
    span = span or resample({pts[i], pts[i + 1]}, spacing) -- straight: costs the segment's cost
    for k = 2, #span do out[#out + 1] = span[k] end
  end
  if walls.cost then out.cost = walls.cost(out, info.weights) end
  return out
end

--- Post-processor: Catmull-Rom through the path, resampled every `spacing`
-- cells: `lodestar.postprocess{ lodestar.prune_los, smooth.postprocessor(0.5) }`.
-- @param spacing  [opt] 0.5 [Units: cells] [Limit: > 0]
-- @param samples  [opt] 8, points per span of the spline [Limit: integer >= 1]
-- @return step `fn(path [, grid])` -> list of {x=, y=}. Without a grid: the
--   spline resampled along its whole length, points `spacing` apart. With a
--   grid (a chain passes its own) or a mod's grid view: span by span, every
--   input cell kept, points at most `spacing` apart; a span whose resampled
--   curve touches a wall, or costs more than the sub-path it stands for
--   (path:replaced_costs() after prune_los, else its straight segment,
--   under the path's weights), is the straight segment resampled; the
--   list's `cost` is the polyline's exact cost (a lodestar.Grid, or a view
--   with polyline_cost), never more than the path before pruning cost.
--   Both arguments are checked here, not at the first use.
function M.postprocessor(spacing, samples)
  if spacing == nil then spacing = 0.5 end
  if type(spacing) ~= "number" or not (spacing > 0) then -- luacheck: ignore 581 (NaN-safe)
    argerror(2, "postprocessor", 1, "spacing must be a number > 0")
  end
  if samples == nil then samples = 8 end
  if not is_count(samples) then argerror(2, "postprocessor", 2, "samples must be an integer >= 1") end
  return function(path, grid)
    local pts = points_arg(path, "postprocessor step", 1)
    local walls = grid_arg(grid, "postprocessor step", 2, "")
    if #pts >= 3 and (#pts - 1) * samples + 1 > M.MAX_POINTS then
      argerror(2, "postprocessor step", 1, ("samples %s gives %s points for %d cells (more than "
        .. "smooth.MAX_POINTS = %d)"):format(count_text(samples), count_text((#pts - 1) * samples + 1), #pts,
        M.MAX_POINTS))
    end
    -- the whole curve bounds the points of every span (a straight span is shorter)
    local curve = spline(pts, samples, nil)
    check_resample(curve, spacing, "postprocessor step", 1, 2)
    if not walls then return resample(curve, spacing) end
    return smooth_spans(pts, samples, spacing, walls, cost_info(path))
  end
end

return M
