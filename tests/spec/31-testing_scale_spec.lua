-- SPDX-License-Identifier: MIT
-- assert.admissible judges the heuristic the search uses: a heuristic name
-- is scaled as a search with the same weights / h_scale scales it (the
-- smallest effective cell cost, or the user's h_scale), asked from the core.
-- Checked against an independent Dijkstra written here.
local lodestar = require "lodestar"
local testing = require "lodestar.testing"

local function failure(f)
  local ok, e = pcall(f)
  assert.is_false(ok)
  return (tostring(type(e) == "table" and e.message or e):gsub("^[^:]*:%d+: ", ""))
end

local SQRT2 = math.sqrt(2)

-- Effective cost of every cell (nil for blocked) under the weights.
local function eff_costs(g, weights)
  local w, h = g:size()
  local eff = {}
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if not g:get_blocked(x, y) then
        local c = g:get_cost(x, y)
        for name, k in pairs(weights or {}) do c = c + k * g:layer_get(name, x, y) end
        eff[y * w + x] = c
      end
    end
  end
  return eff
end

-- Costs from every cell to (gx, gy) on an 8-connected no_corner_cutting
-- grid: a move costs its length (1 or sqrt 2) times the effective cost of
-- the cell it enters. Plain O(n^2) Dijkstra on the reversed moves.
local function costs_to(g, eff, gx, gy)
  local w, h = g:size()
  local dist, done = {[gy * w + gx] = 0}, {}
  while true do
    local u, du
    for k, d in pairs(dist) do
      if not done[k] and (du == nil or d < du) then u, du = k, d end
    end
    if not u then return dist end
    done[u] = true
    local ux, uy = u % w, math.floor(u / w)
    for dy = -1, 1 do
      for dx = -1, 1 do
        local vx, vy = ux + dx, uy + dy
        if (dx ~= 0 or dy ~= 0) and vx >= 0 and vy >= 0 and vx < w and vy < h
          and eff[vy * w + vx] then
          -- the move v -> u, legal when both side cells are free for a diagonal
          local legal = dx == 0 or dy == 0 or (eff[uy * w + vx] and eff[vy * w + ux])
          if legal then
            local c = du + (dx ~= 0 and dy ~= 0 and SQRT2 or 1) * eff[u]
            local v = vy * w + vx
            if dist[v] == nil or c < dist[v] then dist[v] = c end
          end
        end
      end
    end
  end
end

-- Smallest true-cost / octile-distance ratio over every free cell and goal:
-- octile * k is admissible for these goals iff k <= this ratio.
local function best_ratio(g, eff, goals)
  local w = g:size()
  local r = math.huge
  for _, goal in ipairs(goals) do
    for k, c in pairs(costs_to(g, eff, goal.x, goal.y)) do
      local d = lodestar.heuristic_distance("octile", goal.x - k % w, goal.y - math.floor(k / w))
      if d > 0 then r = math.min(r, c / d) end
    end
  end
  return r
end

describe("assert.admissible under layer weights", function()
  it("scales a named heuristic as the weighted search does", function()
    -- 17 moves of base cost 1; one road cell makes the true cost 16.935
    local g = lodestar.grid.new(18, 1)
    g:layer_add("road")
    g:layer_set("road", 5, 0, 1)
    local w = {road = -0.065}
    assert.near(16.935, testing.true_cost(g, 17, 0, 0, 0, {weights = w}), 1e-12)
    assert.is_optimal(g, 17, 0, 0, 0, {weights = w})
    local s = lodestar.search.astar(g, {weights = w})
    s:start(0, 0, 17, 0)
    assert.near(0.935, s:h_scale(), 1e-12)
    -- the old kit scaled by g:min_cost() = 1: h(17,0 -> 0,0) = 17 > 16.935
    assert.admissible(g, "octile", {weights = w})
    assert.admissible(g, "octile", {weights = w, goals = {{x = 0, y = 0}}})
    -- without the weights the base costs count, and octile * 1 is exact
    assert.admissible(g, "octile")
  end)

  it("fails a deliberately inadmissible h_scale", function()
    local g = lodestar.grid.new(18, 1)
    g:layer_add("road")
    g:layer_set("road", 5, 0, 1)
    local w = {road = -0.065}
    local goals = {{x = 0, y = 0}}
    assert.admissible(g, "octile", {weights = w, goals = goals, h_scale = 0.935})
    assert.is_not.admissible(g, "octile", {weights = w, goals = goals, h_scale = 1})
    assert.are.equal("heuristic overestimates: h(6,0 -> 0,0) = 6 > true cost 5.935",
      failure(function() assert.admissible(g, "octile", {weights = w, goals = goals, h_scale = 1}) end))
    -- h_scale applies without weights too: 2 per cell overestimates cost 1 cells
    assert.is_not.admissible(g, "octile", {h_scale = 2})
    assert.admissible(g, "octile", {h_scale = 0.5})
  end)

  it("passes on random weighted grids iff the heuristic is admissible", function()
    local seed = 12345
    local function rand() -- deterministic on both engines (LCG, 2^31)
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    end
    for _ = 1, 30 do
      local gw, gh = 3 + math.floor(rand() * 5), 2 + math.floor(rand() * 4)
      local g = lodestar.grid.new(gw, gh)
      g:layer_add("road")
      g:layer_add("mud")
      for y = 0, gh - 1 do
        for x = 0, gw - 1 do
          if rand() < 0.15 and not (x == 0 and y == 0) then g:set_blocked(x, y, true) end
          g:set_cost(x, y, 0.5 + math.floor(rand() * 6) * 0.5)
          g:layer_set("road", x, y, rand() < 0.4 and 1 or 0)
          g:layer_set("mud", x, y, math.floor(rand() * 4))
        end
      end
      local w = {road = -0.4 * rand(), mud = rand() * 2}
      local goals = {{x = 0, y = 0}}
      local eff = eff_costs(g, w)
      local m = math.huge
      for _, c in pairs(eff) do m = math.min(m, c) end
      local r = best_ratio(g, eff, goals)
      -- the search's own scale: the smallest effective cost, never above r
      assert.truthy(m <= r * (1 + 1e-12))
      assert.admissible(g, "octile", {weights = w, goals = goals})
      -- the kit's verdict follows the independent ratio on both sides of it
      if r < math.huge then
        assert.admissible(g, "octile", {weights = w, goals = goals, h_scale = r * (1 - 1e-6)})
        assert.is_not.admissible(g, "octile", {weights = w, goals = goals, h_scale = r * (1 + 1e-6)})
      end
    end
  end)
end)
