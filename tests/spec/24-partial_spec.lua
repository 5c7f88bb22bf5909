-- SPDX-License-Identifier: MIT
-- Partial paths from Lua: find_path(..., {partial = true}), s:partial_path(),
-- s:path() and s:jump_points() on blocked goals, walled-in goals and
-- blocked starts, for every algorithm; graphs. The partial path ends at the
-- reachable cell closest to the goal (Euclidean distance, then the cheaper
-- path, then the upper row, then the left column; docs/search.md).
local lodestar = require "lodestar"

local SQRT2 = math.sqrt(2)
-- any-angle searches: waypoint paths, costs at most A*'s (docs/any-angle.md)
local ANY_ANGLE = {theta = true, lazytheta = true}

local function walled(w, h, rows)
  local g = lodestar.grid.new(w, h)
  for y, row in ipairs(rows) do
    for x = 1, #row do
      if row:sub(x, x) == "#" then g:set_blocked(x - 1, y - 1, true) end
    end
  end
  return g
end

local function last(p)
  local x, y = p:cell(-1)
  return {x, y}
end

describe("partial paths", function()
  it("find_path: a goal on a blocked cell gives the path to the closest reachable cell", function()
    local g = walled(6, 3, {"...#..", "...#..", "......"})
    for _, algo in ipairs(lodestar.algorithms) do
      local p = lodestar.find_path(g, 0, 0, 3, 0, {partial = true, algorithm = algo})
      assert.is_true(p.partial, algo)
      assert.same({2, 0}, last(p), algo)
      assert.equal(ANY_ANGLE[algo] and 2 or 3, #p, algo)
      assert.equal(2, p.cost, algo)
    end
    -- without partial: no_path, as before
    local none, why = lodestar.find_path(g, 0, 0, 3, 0)
    assert.is_nil(none)
    assert.equal("no_path", why)
  end)

  it("s:partial_path() after a start on a blocked goal", function()
    local g = walled(6, 3, {"...#..", "...#..", "......"})
    local s = lodestar.search.astar(g, {start = {0, 0}, goal = {3, 0}, partial = true})
    assert.equal("no_path", s:run())
    assert.equal("lds_search_start: goal (3,0) is blocked", s:errmsg())
    local pp = s:partial_path()
    assert.is_true(pp.partial)
    assert.same({2, 0}, last(pp))
    assert.equal(2, pp.cost)
    assert.same({2, 0}, last(s:path()))
    assert.equal(16, s:stats().expansions) -- every reachable cell
    -- without partial: no_path at once; the best so far is the start
    local q = lodestar.search.astar(g, {start = {0, 0}, goal = {3, 0}})
    assert.equal("no_path", q:run())
    assert.equal(0, q:stats().expansions)
    local sp = q:partial_path()
    assert.equal(1, #sp)
    assert.is_true(sp.partial)
    local p, msg, code = q:path()
    assert.is_nil(p)
    assert.equal("lds_search_path: no path (status no_path)", msg)
    assert.equal("state", code)
  end)

  it("a blocked start has no partial path", function()
    local g = walled(6, 3, {"...#..", "...#..", "......"})
    local none, why = lodestar.find_path(g, 3, 1, 0, 0, {partial = true})
    assert.is_nil(none)
    assert.equal("no_path", why)
    for _, algo in ipairs({"astar", "jps"}) do
      local s = lodestar.search[algo](g, {start = {3, 1}, goal = {0, 0}, partial = true})
      assert.equal("no_path", s:run())
      local p, msg, code = s:partial_path()
      assert.is_nil(p)
      assert.equal("lds_search_partial_path: no path (start (3,1) is blocked)", msg)
      assert.equal("state", code)
      p, msg = s:path()
      assert.is_nil(p)
      assert.equal("lds_search_path: no path (start (3,1) is blocked)", msg)
      p, msg = s:jump_points()
      assert.is_nil(p)
      assert.equal("lds_search_path: no path (start (3,1) is blocked)", msg)
    end
  end)

  it("a goal out of bounds stays an argument error", function()
    local g = lodestar.grid.new(4, 4)
    assert.has_error(function() lodestar.find_path(g, 0, 0, 4, 0, {partial = true}) end)
  end)

  it("JPS and JPS+ end where A* does: on cells their jumps pass", function()
    -- a wall across the map: no jump point to expand; the end is beside the wall
    local g = lodestar.grid.new(10, 5)
    for y = 0, 4 do g:set_blocked(5, y, true) end
    for _, algo in ipairs(lodestar.algorithms) do
      local p = lodestar.find_path(g, 0, 4, 9, 1, {partial = true, algorithm = algo})
      assert.same({4, 1}, last(p), algo)
      if ANY_ANGLE[algo] then
        assert.near(5, p.cost, 1e-12, algo) -- one straight step (0,4) -> (4,1)
      elseif algo ~= "wastar" and algo ~= "greedy" then
        assert.near(1 + 3 * SQRT2, p.cost, 1e-12, algo)
      end
    end
    local s = lodestar.search.jps(g, {start = {0, 4}, goal = {9, 1}, partial = true})
    assert.equal("no_path", s:run())
    assert.equal("jps", s:algorithm_used())
    local jp = s:jump_points()
    assert.same({{x = 0, y = 4}, {x = 3, y = 1}, {x = 4, y = 1}}, jp:totable())
    -- a walled-in goal: (3,2), at distance 2, cost 1 + 2 sqrt 2
    g = walled(7, 5, {".......", "....###", "....#.#", "....###", "......."})
    for _, algo in ipairs(lodestar.algorithms) do
      local p = lodestar.find_path(g, 0, 0, 5, 2, {partial = true, algorithm = algo})
      assert.same({3, 2}, last(p), algo)
      if ANY_ANGLE[algo] then
        assert.near(math.sqrt(13), p.cost, 1e-12, algo) -- one straight step (0,0) -> (3,2)
      elseif algo ~= "wastar" and algo ~= "greedy" then
        assert.near(1 + 2 * SQRT2, p.cost, 1e-12, algo)
      end
    end
  end)

  it("ties: equal distance and cost, the upper-left cell", function()
    local g = walled(5, 3, {"..#..", "..#..", "....."})
    for _, algo in ipairs(lodestar.algorithms) do
      local p = lodestar.find_path(g, 2, 2, 2, 0, {partial = true, algorithm = algo})
      assert.same({1, 0}, last(p), algo)
      assert.equal(3, p.cost, algo)
    end
  end)

  it("random walled-in and blocked goals: every algorithm ends at A*'s distance and cost", function()
    local seed = 24
    local function rand(n) -- deterministic LCG
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    end
    local checked = 0
    for _ = 1, 120 do
      local w, h = 24, 16
      local g = lodestar.grid.new(w, h)
      for y = 0, h - 1 do
        for x = 0, w - 1 do
          if rand(100) < 25 then g:set_blocked(x, y, true) end
        end
      end
      local sx, sy, gx, gy = rand(w), rand(h), rand(w), rand(h)
      g:set_blocked(sx, sy, false)
      local blocked = rand(2) == 0
      g:set_blocked(gx, gy, blocked)
      if not blocked then
        for dy = -1, 1 do
          for dx = -1, 1 do
            local x, y = gx + dx, gy + dy
            if (dx ~= 0 or dy ~= 0) and x >= 0 and y >= 0 and x < w and y < h
              and (x ~= sx or y ~= sy) then
              g:set_blocked(x, y, true)
            end
          end
        end
      end
      local ref = lodestar.find_path(g, sx, sy, gx, gy, {partial = true})
      if ref and ref.partial then
        checked = checked + 1
        local rx, ry = ref:cell(-1)
        local rd = (rx - gx) ^ 2 + (ry - gy) ^ 2
        for _, algo in ipairs(lodestar.algorithms) do
          local p = lodestar.find_path(g, sx, sy, gx, gy, {partial = true, algorithm = algo})
          local x, y = p:cell(-1)
          assert.equal(rd, (x - gx) ^ 2 + (y - gy) ^ 2, algo)
          if ANY_ANGLE[algo] then
            -- the same distance; the end may differ on a tie (the cheaper path wins)
            assert.is_true(p.cost <= ref.cost + 1e-9, algo)
          elseif algo ~= "wastar" and algo ~= "greedy" then
            assert.same({rx, ry}, {x, y}, algo)
            assert.near(ref.cost, p.cost, 1e-9, algo)
          elseif algo == "wastar" then
            assert.is_true(p.cost <= 1.5 * ref.cost + 1e-9, algo)
          end
        end
      end
    end
    assert.is_true(checked > 60)
  end)

  it("graphs: the node closest in coordinates, whatever the heuristic", function()
    local g = lodestar.graph.new("xy")
    g:add_node(0, 0)    -- 1
    g:add_node(3, 4)    -- 2
    g:add_node(6, 8)    -- 3
    g:add_node(10, 0)   -- 4
    g:add_node(100, 100) -- 5, unreachable
    g:add_edge(1, 2, 5)
    g:add_edge(2, 3, 5)
    g:add_edge(1, 4, 10)
    g:freeze()
    for _, algo in ipairs({"astar", "dijkstra", "wastar", "greedy"}) do
      local p = lodestar.find_path(g, 1, 5, {partial = true, algorithm = algo})
      assert.is_true(p.partial, algo)
      assert.same({1, 2, 3}, p:totable(), algo)
      assert.equal(10, p.cost, algo)
    end
  end)
end)
