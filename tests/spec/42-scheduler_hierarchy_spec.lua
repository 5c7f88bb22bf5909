-- SPDX-License-Identifier: MIT
-- Hierarchy requests in lodestar.scheduler (request option hierarchy = h,
-- hierarchy_mode = "fast" | "optimal"; core/lds_scheduler_hier.c): they run
-- interleaved with A* requests under small budgets while walls are toggled
-- between steps; every delivered path starts and ends where asked, moves
-- between neighbours over passable cells, and in the optimal mode (and for
-- A*) costs what a fresh lodestar.find_path costs on the grid as it is; a
-- fast request delivers its refined prefix (on_partial) before the path,
-- and the path begins with it. Bad options are refused with their name.
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errmsg

local function maze(w, h, seed)
  local g = lodestar.grid.new(w, h)
  local s = seed
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      s = (s * 1103515245 + 12345) % 2147483648
      if s % 100 < 18 then g:set_blocked(x, y, true) end
    end
  end
  return g
end

local function legal(g, p, sx, sy, gx, gy)
  local px, py
  for i, x, y in p:cells() do
    if g:blocked(x, y) then return false, "blocked cell " .. i end
    if i == 1 and (x ~= sx or y ~= sy) then return false, "start" end
    if px and (math.abs(x - px) > 1 or math.abs(y - py) > 1 or (x == px and y == py)) then
      return false, "jump at " .. i
    end
    px, py = x, y
  end
  if px ~= gx or py ~= gy then return false, "goal" end
  return true
end

describe("lodestar.scheduler with hierarchy requests", function()
  it("runs fast and optimal hierarchy requests beside A* under edits", function()
    local g = maze(96, 80, 3)
    local h = lodestar.hierarchy(g, {cluster_size = 4, landmarks = 4})
    local s = lodestar.scheduler.new{deterministic = true, searches_per_grid = 3}
    s:add_grid(g)
    local rng = 77
    local function rnd(n)
      rng = (rng * 1103515245 + 12345) % 2147483648
      return rng % n
    end
    local function free_cell()
      local x, y
      repeat x, y = rnd(96), rnd(80) until not g:blocked(x, y)
      return x, y
    end
    local reqs, done, partials, prefix_ok, ends = {}, 0, 0, 0, {}
    for i = 1, 18 do
      local sx, sy = free_cell()
      local gx, gy
      repeat gx, gy = free_cell() until math.abs(gx - sx) + math.abs(gy - sy) >= 70
      local kind = ({"astar", "fast", "optimal"})[i % 3 + 1]
      local spec = {from = {sx, sy}, to = {gx, gy}, agent = i}
      if kind ~= "astar" then
        spec.hierarchy = h
        spec.hierarchy_mode = kind
      end
      local rec = {kind = kind}
      ends[sx .. "," .. sy], ends[gx .. "," .. gy] = true, true
      spec.on_partial = function(r)
        local p = r:partial_path()
        assert.equal("fast", rec.kind)
        local x, y = p:cell(1)
        assert.same({sx, sy}, {x, y})
        rec.prefix = {}
        for _, cx, cy in p:cells() do rec.prefix[#rec.prefix + 1] = cx .. "," .. cy end
        rec.prefix_restarts = r:info().restarts
        partials = partials + 1
      end
      spec.on_done = function(r)
        done = done + 1
        local p, why = r:path()
        local ref = lodestar.find_path(g, sx, sy, gx, gy)
        if not p then
          assert.equal("no_path", why)
          assert.is_nil(ref)
          return
        end
        assert.is_true(legal(g, p, sx, sy, gx, gy))
        if rec.kind == "fast" then
          assert.is_true(p.cost >= ref.cost - 1e-9 and p.cost <= 1.25 * ref.cost + 1e-9)
          if rec.prefix and rec.prefix_restarts == r:info().restarts then
            local i2 = 0
            for _, cx, cy in p:cells() do
              i2 = i2 + 1
              if i2 > #rec.prefix then break end
              assert.equal(rec.prefix[i2], cx .. "," .. cy)
            end
            prefix_ok = prefix_ok + 1
          end
        else
          assert.is_near(ref.cost, p.cost, 1e-9 * ref.cost)
        end
      end
      reqs[#reqs + 1] = s:request(spec)
    end
    local ticks = 0
    while done < #reqs do
      s:step(10) -- 40 expansions a tick (expansions_per_us 4)
      ticks = ticks + 1
      assert.is_true(ticks < 100000)
      if ticks % 30 == 0 then
        local x, y = rnd(96), rnd(80)
        if not ends[x .. "," .. y] then g:set_blocked(x, y, not g:blocked(x, y)) end
      end
    end
    assert.equal(#reqs, done)
    assert.is_true(partials > 0, "fast requests deliver their refined prefix")
    assert.is_true(prefix_ok > 0)
    s:free()
    h:free()
  end)

  it("refuses bad hierarchy options with their name", function()
    local g = maze(20, 20, 5)
    local other = lodestar.grid.new(8, 8)
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local h, ho = lodestar.hierarchy(g), lodestar.hierarchy(other)
    assert.matches("hierarchy", errmsg(s.request, s, {from = {0, 0}, to = {1, 1}, hierarchy = g}))
    assert.matches("another grid", errmsg(s.request, s, {from = {0, 0}, to = {1, 1}, hierarchy = ho}))
    assert.matches("hierarchy_mode", errmsg(s.request, s,
      {from = {0, 0}, to = {1, 1}, hierarchy = h, hierarchy_mode = "best"}))
    assert.matches("hierarchy_mode", errmsg(s.request, s,
      {from = {0, 0}, to = {1, 1}, hierarchy_mode = "fast"}))
    assert.matches("quick", errmsg(s.request, s, {from = {0, 0}, to = {1, 1}, hierarchy = h, quick = 5}))
    assert.matches("landmarks", errmsg(lodestar.hierarchy, g, {landmarks = 0}))
  end)

  it("keeps a collected hierarchy alive while the scheduler holds its queries", function()
    local g = maze(40, 30, 9)
    g:set_blocked(1, 1, false)
    g:set_blocked(38, 28, false)
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local r = s:request{from = {1, 1}, to = {38, 28}, hierarchy = lodestar.hierarchy(g),
      hierarchy_mode = "optimal"}
    collectgarbage()
    collectgarbage()
    for _ = 1, 1000 do
      if r:status() ~= "running" then break end
      s:step(200)
    end
    local ref = lodestar.find_path(g, 1, 1, 38, 28)
    if ref then assert.is_near(ref.cost, r:path().cost, 1e-9 * ref.cost) end
    s:free()
    collectgarbage()
  end)
end)
