-- SPDX-License-Identifier: MIT
-- Post-processing keeps the designer's rules (issue 16): line-of-sight
-- pruning and smoothing never make a path dearer than the path it came from
-- under the same cell costs and layer weights, report that cost, and prune
-- to the farthest cell the last kept one sees. Costs are recomputed here by
-- an integration written apart from the library's (core/lds_los.c): every
-- segment is cut at all the cell borders it crosses (sorted crossing
-- parameters), each piece's cell found from its midpoint. Deterministic: no
-- math.random.
local lodestar = require "lodestar"
local smooth = require "lodestar.smooth"


-- deterministic pseudo-random numbers (same on both engines)
local function lcg(seed)
  local s = seed
  return function(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return math.floor(s / 65536) % n
  end
end

-- == the independent cost model (core/lds_postprocess.h, "Cost of a path") ==

-- Effective cost of cell (x, y): base + sum of weight x layer; math.huge
-- outside the grid, on a blocked cell or on a cell a weighted layer blocks.
local function eff(g, w, x, y)
  local gw, gh = g:size()
  if x < 0 or y < 0 or x >= gw or y >= gh or g:get_blocked(x, y) then return math.huge end
  local c = g:get_cost(x, y)
  for name, k in pairs(w or {}) do
    if k ~= 0 then c = c + k * g:layer_get(name, x, y) end
  end
  return c
end

-- The pieces of segment a -> b: {x =, y =, len =, c =} in order, pieces of
-- length below 1e-9 cells left out (the library's rounding margin at cell
-- corners). A piece lying on a cell border (an axis-parallel segment
-- at a half-integer coordinate) is charged the dearer of the two cells.
local function pieces(g, w, a, b)
  local dx, dy = b.x - a.x, b.y - a.y
  local len = math.sqrt(dx * dx + dy * dy)
  local ts = {0, 1}
  local function crossings(p0, d)
    if d == 0 then return end
    local lo, hi = math.min(p0, p0 + d), math.max(p0, p0 + d)
    for k = math.ceil(lo - 0.5), math.floor(hi - 0.5) do
      local t = (k + 0.5 - p0) / d
      if t > 0 and t < 1 then ts[#ts + 1] = t end
    end
  end
  crossings(a.x, dx)
  crossings(a.y, dy)
  table.sort(ts)
  local out = {}
  for i = 2, #ts do
    local t0, t1 = ts[i - 1], ts[i]
    if (t1 - t0) * len > 1e-9 then
      local tm = (t0 + t1) / 2
      local mx, my = a.x + dx * tm, a.y + dy * tm
      local cx, cy = math.floor(mx + 0.5), math.floor(my + 0.5)
      local c = eff(g, w, cx, cy)
      if dx == 0 and mx + 0.5 == math.floor(mx + 0.5) then c = math.max(c, eff(g, w, cx - 1, cy)) end
      if dy == 0 and my + 0.5 == math.floor(my + 0.5) then c = math.max(c, eff(g, w, cx, cy - 1)) end
      out[#out + 1] = {x = cx, y = cy, len = (t1 - t0) * len, c = c}
    end
  end
  return out
end

local function is_centre(g, p)
  local gw, gh = g:size()
  return p.x == math.floor(p.x) and p.y == math.floor(p.y) and p.x >= 0 and p.y >= 0
    and p.x < gw and p.y < gh
end

-- Cost of a polyline: length x cost through every cell, except that at each
-- vertex on a cell centre the stretch until the polyline first leaves that
-- cell is charged at the cost of the next such vertex (its own if none).
local function poly_cost(g, w, pts)
  local total, pending, vx, vy, inside = 0, nil, nil, nil, false
  for i = 1, #pts do
    local p = pts[i]
    if is_centre(g, p) then
      local c = eff(g, w, p.x, p.y)
      if pending and pending.len > 0 then total = total + pending.len * c end
      pending, vx, vy, inside = {len = 0, own = c}, p.x, p.y, true
    end
    if i < #pts then
      for _, pc in ipairs(pieces(g, w, p, pts[i + 1])) do
        if inside and pc.x == vx and pc.y == vy then
          pending.len = pending.len + pc.len
        else
          inside = false
          total = total + pc.len * pc.c
        end
      end
    end
  end
  if pending and pending.len > 0 then total = total + pending.len * pending.own end
  return total
end

-- Cost of the straight segment between the centres of cells a and b: its
-- length inside a is charged at b's cost (the move rule).
local function seg_cost(g, w, a, b)
  local total, first = 0, true
  local cb = eff(g, w, b.x, b.y)
  for _, pc in ipairs(pieces(g, w, a, b)) do
    total = total + pc.len * (first and cb or pc.c)
    first = false
  end
  return total
end

local function cells(path)
  local out = {}
  for i, x, y in path:cells() do out[i] = {x = x, y = y} end
  return out
end

-- Cost of a grid path as the sum of its segments (seg_cost).
local function path_cost(g, w, pts)
  local total = 0
  for i = 2, #pts do total = total + seg_cost(g, w, pts[i - 1], pts[i]) end
  return total
end

-- Length of the polyline inside cells whose layer `name` is > 0.
local function length_in_layer(g, pts, name)
  local len = 0
  for i = 2, #pts do
    for _, pc in ipairs(pieces(g, nil, pts[i - 1], pts[i])) do
      local gw, gh = g:size()
      if pc.x >= 0 and pc.y >= 0 and pc.x < gw and pc.y < gh and g:layer_get(name, pc.x, pc.y) > 0 then
        len = len + pc.len
      end
    end
  end
  return len
end

local function points_in_layer(g, pts, name)
  local n = 0
  for _, p in ipairs(pts) do
    if g:layer_get(name, math.floor(p.x + 0.5), math.floor(p.y + 0.5)) > 0 then n = n + 1 end
  end
  return n
end

local function near(a, b, rel)
  return math.abs(a - b) <= (rel or 1e-12) * math.max(1, math.abs(a), math.abs(b))
end

-- == the checks ===============================================================

describe("the independent cost model", function()
  it("agrees with the search on its own paths (the move rule)", function()
    local g = lodestar.grid.new(9, 6)
    g:layer_add("mud")
    for x = 0, 8 do g:set_cost(x, 2, 1 + x % 3) end
    g:layer_set("mud", 4, 3, 2)
    local p = lodestar.find_path(g, 0, 0, 8, 5, {weights = {mud = 1.5}})
    assert.is_true(near(p.cost, path_cost(g, {mud = 1.5}, cells(p)), 1e-12))
    assert.is_true(near(p.cost, poly_cost(g, {mud = 1.5}, cells(p)), 1e-12))
    assert.is_true(near(p.cost, g:polyline_cost(p), 1e-12)) -- the path's own weights
  end)

  it("costs a segment by the length through each cell (worked example)", function()
    -- (0,0) -> (2,1) crosses (0,0) (1,0) (1,1) (2,1), a quarter of sqrt 5 in each;
    -- the quarter in the start cell is charged at the end cell's cost
    local g = lodestar.grid.new(3, 2)
    g:set_cost(1, 0, 2)
    g:set_cost(1, 1, 3)
    g:set_cost(2, 1, 4)
    local expected = 0.25 * math.sqrt(5) * (4 + 2 + 3 + 4)
    assert.is_true(near(expected, seg_cost(g, nil, {x = 0, y = 0}, {x = 2, y = 1})))
    assert.is_true(near(expected, g:polyline_cost({{x = 0, y = 0}, {x = 2, y = 1}})))
    -- cut anywhere off the cell centres, or at centres on the line: the same cost
    assert.is_true(near(expected, g:polyline_cost({{x = 0, y = 0}, {x = 1, y = 0.5}, {x = 2, y = 1}})))
    assert.is_true(near(expected, g:polyline_cost({{0, 0}, {0.3, 0.15}, {1.7, 0.85}, {2, 1}})))
    local g2 = lodestar.grid.new(5, 3)
    g2:set_cost(2, 1, 7)
    g2:set_cost(4, 2, 3)
    assert.is_true(near(g2:polyline_cost({{0, 0}, {4, 2}}), g2:polyline_cost({{0, 0}, {2, 1}, {4, 2}})))
  end)
end)

describe("prune_los keeps the farthest cell it sees", function()
  it("on a 7x3 staircase under 'always' (0,0) sees (6,2)", function()
    local g = lodestar.grid.from_ascii[[
      ..@@@@@
      @@...@@
      @@@@@..
    ]]
    g:set_diagonal("always")
    local p = lodestar.find_path(g, 0, 0, 6, 2)
    assert.same({{x = 0, y = 0}, {x = 1, y = 0}, {x = 2, y = 1}, {x = 3, y = 1}, {x = 4, y = 1},
      {x = 5, y = 2}, {x = 6, y = 2}}, p:totable())
    assert.is_true(g:line_of_sight(0, 0, 6, 2))
    assert.is_false(g:line_of_sight(0, 0, 4, 1)) -- the first cell it cannot see
    local q = p:prune_los(g)
    assert.same({{x = 0, y = 0}, {x = 6, y = 2}}, q:totable())
    -- the segment passes the corners (1.5, 0.5) and (4.5, 1.5): no length in a wall
    assert.is_true(near(math.sqrt(40), q.cost))
    assert.is_true(near(q.cost, poly_cost(g, nil, cells(q))))
    assert.is_true(q.cost < p.cost)
  end)
end)

describe("post-processing keeps the weights of the query", function()
  -- a swamp in the middle of the map; the weighted path goes round it
  local function swamp_map()
    local g = lodestar.grid.new(21, 10)
    g:layer_add("swamp")
    for y = 2, 9 do for x = 4, 16 do g:layer_set("swamp", x, y, 4) end end
    return g
  end

  it("a path that avoids the swamp is pruned and smoothed without entering it", function()
    local g = swamp_map()
    local w = {swamp = 1}
    local p = lodestar.find_path(g, 0, 9, 20, 9, {weights = w})
    assert.equal(0, points_in_layer(g, cells(p), "swamp"))
    assert.same(w, p.weights)
    assert.is_true(near(p.cost, path_cost(g, w, cells(p))))
    -- prune_los with the path's own weights: no length in the swamp
    local q = p:prune_los(g)
    assert.equal(0, length_in_layer(g, cells(q), "swamp"))
    assert.is_true(#q < #p)
    assert.is_true(near(q.cost, path_cost(g, w, cells(q))))
    assert.is_true(near(q.cost, poly_cost(g, w, cells(q))))
    assert.is_true(q.cost <= p.cost)
    assert.same(w, q.weights)
    -- the chain of the designer guide, without repeating the weights
    local tidy = lodestar.postprocess{lodestar.prune_los, smooth.postprocessor(0.5)}
    local pts = tidy(p, g)
    assert.equal(0, points_in_layer(g, pts, "swamp"))
    assert.equal(0, length_in_layer(g, pts, "swamp"))
    assert.is_true(near(pts.cost, poly_cost(g, w, pts), 1e-12))
    assert.is_true(pts.cost <= p.cost * (1 + 1e-12))
    -- catmull_rom with the grid: the same rule
    local curve = smooth.catmull_rom(q, {grid = g})
    assert.equal(0, length_in_layer(g, curve, "swamp"))
    assert.is_true(near(curve.cost, poly_cost(g, w, curve), 1e-12))
    assert.is_true(curve.cost <= p.cost * (1 + 1e-12))
    -- measured without the weights the same prune would cut through the swamp
    local base = p:prune_los(g, {weights = {}})
    assert.is_true(length_in_layer(g, cells(base), "swamp") > 5)
    assert.is_true(near(base.cost, path_cost(g, nil, cells(base))))
  end)

  it("the designer guide's marsh chain keeps careful agents out of the marsh", function()
    local testing = require "lodestar.testing"
    local grid, S, G = testing.grid[[
      S . . . . . . .
      . . . 1 1 1 . .
      . @ @ 1 1 1 @ .
      . . . 1 1 1 . G
    ]]
    grid:bake("marsh", lodestar.rule.terrain{ ["1"] = 4 })
    local careful = lodestar.find_path(grid, S.x, S.y, G.x, G.y, { weights = { marsh = 1 } })
    local tidy = lodestar.postprocess{lodestar.prune_los, smooth.postprocessor(0.5)}
    local points = tidy(careful, grid)
    assert.equal(0, points_in_layer(grid, points, "marsh"))
    assert.equal(0, length_in_layer(grid, points, "marsh"))
    assert.is_true(points.cost <= careful.cost * (1 + 1e-12))
    assert.is_true(near(points.cost, poly_cost(grid, {marsh = 1}, points), 1e-12))
    -- the numbers the guide prints
    assert.same({marsh = 1}, careful.weights)
    assert.near(9.3052432651083, points.cost, 1e-12)
    local pruned = careful:prune_los(grid)
    assert.same({{x = 0, y = 0}, {x = 5, y = 0}, {x = 7, y = 1}, {x = 7, y = 3}}, pruned:totable())
    assert.near(5 + math.sqrt(5) + 2, pruned.cost, 1e-12)
  end)

  it("the messages docs/lua-api.md quotes", function()
    local f = assert(io.open("docs/lua-api.md", "r"))
    local text = f:read("a"):gsub("%s+", " ")
    f:close()
    local g = lodestar.grid.new(4, 4)
    g:layer_add("swamp")
    local p = lodestar.find_path(g, 0, 0, 3, 3, {weights = {swamp = 1}})
    local _, e = pcall(p.prune_los, p, g, {weight = 1})
    assert.truthy(text:find(e:match("%((unknown option.-%))%)$"), 1, true))
    g:layer_remove("swamp")
    _, e = pcall(p.prune_los, p, g)
    e = e:gsub("^[^:]*:%d+: ", "")
    assert.truthy(text:find(e, 1, true), e)
    _, e = pcall(g.polyline_cost, g, {{x = 0, y = 0}, {x = 1}})
    assert.truthy(text:find(e:match("%((point 2.-)%)$"), 1, true), e)
  end)

  it("paths of s:path(), D* Lite and sub remember the weights; opts.weights override", function()
    local g = swamp_map()
    local s = lodestar.search.astar(g, {start = {0, 9}, goal = {20, 9}, weights = {swamp = 2}})
    s:run()
    local p = s:path()
    assert.same({swamp = 2}, p.weights)
    p.weights.swamp = 99 -- a copy: the path's own stays
    assert.same({swamp = 2}, p.weights)
    assert.same({swamp = 2}, p:sub(2, 5).weights)
    local d = lodestar.search.dstar_lite(g, {start = {0, 9}, goal = {20, 9}, weights = {swamp = 1}})
    d:compute()
    local dp = d:path()
    assert.same({swamp = 1}, dp.weights)
    assert.is_true(near(dp.cost, g:polyline_cost(dp)))
    assert.equal(0, length_in_layer(g, cells(dp:prune_los(g)), "swamp"))
    local plain = lodestar.find_path(g, 0, 9, 20, 9)
    assert.is_nil(plain.weights)
    local q = plain:prune_los(g, {weights = {swamp = 1}})
    assert.same({swamp = 1}, q.weights)
    assert.is_true(near(q.cost, path_cost(g, {swamp = 1}, cells(q))))
    assert.is_true(q.cost <= g:polyline_cost(plain, {weights = {swamp = 1}}) * (1 + 1e-12))
    assert.matches("unknown option 'weight' %(expected weights%)",
      select(2, pcall(plain.prune_los, plain, g, {weight = 1})))
    assert.matches("the grid has no layer 'lava'",
      select(2, pcall(plain.prune_los, plain, g, {weights = {lava = 1}})))
  end)

  it("random grids, costs and weights: never dearer, reported = recomputed, legal, farthest", function()
    local rnd = lcg(16)
    local rules = {"no_corner_cutting", "allow_one_blocked", "always", "never"}
    local checked, pruned_cells, smoothed = 0, 0, 0
    for round = 1, 48 do
      local n = 14
      local g = lodestar.grid.new(n, n)
      g:set_diagonal(rules[round % 4 + 1])
      if round % 7 == 0 then g:set_neighbourhood(4) end
      g:layer_add("swamp")
      g:layer_add("road")
      for _ = 1, 30 do g:set_blocked(rnd(n), rnd(n), true) end
      for _ = 1, 40 do g:set_cost(rnd(n), rnd(n), ({0.5, 2, 3, 1.25})[rnd(4) + 1]) end
      for _ = 1, 60 do g:layer_set("swamp", rnd(n), rnd(n), rnd(5)) end
      for _ = 1, 40 do g:layer_set("road", rnd(n), rnd(n), 1) end
      local w = {swamp = ({0, 1, 2.5})[rnd(3) + 1], road = ({0, -0.25})[rnd(2) + 1]}
      for _ = 1, 6 do
        local sx, sy, gx, gy = rnd(n), rnd(n), rnd(n), rnd(n)
        local p = lodestar.find_path(g, sx, sy, gx, gy, {weights = w})
        if p and #p > 2 then
          local pc = cells(p)
          local tag = ("round %d (%d,%d)->(%d,%d)"):format(round, sx, sy, gx, gy)
          assert(near(p.cost, path_cost(g, w, pc), 1e-12), tag)
          local q = p:prune_los(g)
          local qc = cells(q)
          local recomputed = path_cost(g, w, qc)
          assert(near(q.cost, recomputed, 1e-12),
            tag .. (": reported %.17g, recomputed %.17g"):format(q.cost, recomputed))
          assert(near(q.cost, poly_cost(g, w, qc), 1e-12), tag)
          assert(q.cost <= p.cost * (1 + 1e-12), tag .. (": %.17g > %.17g"):format(q.cost, p.cost))
          -- every segment is seen and crosses no blocked cell; each kept cell is the
          -- farthest that is seen and whose segment costs no more than its sub-path
          local idx, k = {}, 1
          for i = 1, #pc do
            if qc[k] and pc[i].x == qc[k].x and pc[i].y == qc[k].y then idx[k] = i; k = k + 1 end
          end
          assert.equal(#qc, #idx)
          local step = {}
          for i = 2, #pc do step[i] = seg_cost(g, w, pc[i - 1], pc[i]) end
          for kk = 1, #idx - 1 do
            local a, b = qc[kk], qc[kk + 1]
            assert(g:line_of_sight(a.x, a.y, b.x, b.y), tag)
            assert(seg_cost(g, w, a, b) < math.huge, tag)
            for j = idx[kk + 1] + 1, #pc do
              local sub = 0
              for i = idx[kk] + 1, j do sub = sub + step[i] end
              local c = pc[j]
              local better = g:line_of_sight(a.x, a.y, c.x, c.y) and seg_cost(g, w, a, c) < sub * (1 - 1e-9)
              assert(not better, tag .. (": (%d,%d) sees (%d,%d) at a lower cost"):format(a.x, a.y, c.x, c.y))
            end
          end
          pruned_cells = pruned_cells + #p - #q
          -- smoothing after pruning
          local pts = smooth.postprocessor(0.5)(q, g)
          assert(near(pts.cost, poly_cost(g, w, pts), 1e-11), tag)
          assert(pts.cost <= p.cost * (1 + 1e-12), tag .. (": smoothed %.17g > %.17g"):format(pts.cost, p.cost))
          local curve = smooth.catmull_rom(q, {grid = g, samples = 5})
          assert(near(curve.cost, poly_cost(g, w, curve), 1e-11), tag)
          assert(curve.cost <= p.cost * (1 + 1e-12), tag)
          for i = 1, #q - 1 do -- spans where the curve was used, not the straight segment
            local a, b = qc[i], qc[i + 1]
            for kk = 1, 4 do
              local pt, t = curve[(i - 1) * 5 + 1 + kk], kk / 5
              if math.abs(pt.x - (a.x + (b.x - a.x) * t)) + math.abs(pt.y - (a.y + (b.y - a.y) * t)) > 1e-9 then
                smoothed = smoothed + 1
                break
              end
            end
          end
          checked = checked + 1
        end
      end
    end
    assert.is_true(checked > 150, "only " .. checked .. " paths")
    assert.is_true(pruned_cells > checked, "pruning removed too few cells")
    assert.is_true(smoothed > 0, "smoothing never curved")
  end)
end)
