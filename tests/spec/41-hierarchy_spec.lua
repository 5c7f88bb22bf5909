-- SPDX-License-Identifier: MIT
-- lodestar.hierarchy: the cluster hierarchy (core/lds_hpa.h) from Lua. The
-- optimal mode is compared with lodestar.find_path (A*), the fast mode is
-- checked legal, never cheaper than A* and within 25 % of it, the prefix
-- of a sliced query is a prefix of its path, and a repaired hierarchy
-- answers like a new one.
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errmsg

local function maze(w, h, seed)
  local g = lodestar.grid.new(w, h)
  local s = seed
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      s = (s * 1103515245 + 12345) % 2147483648
      if s % 100 < 22 then g:set_blocked(x, y, true) end
    end
  end
  return g, s
end

local function cells(p)
  local t = {}
  for _, x, y in p:cells() do t[#t + 1] = x .. "," .. y end
  return t
end

describe("lodestar.hierarchy", function()
  it("optimal mode equals A*; fast mode is legal and close", function()
    local g = maze(80, 60, 7)
    local h = lodestar.hierarchy(g, {cluster_size = 10})
    local s = 99
    local checked = 0
    for _ = 1, 40 do
      local q = {}
      for k = 1, 4 do
        s = (s * 1103515245 + 12345) % 2147483648
        q[k] = s % (k % 2 == 1 and 80 or 60)
      end
      local sx, sy, gx, gy = q[1], q[2], q[3], q[4]
      if not g:blocked(sx, sy) and not g:blocked(gx, gy) then
        local a = lodestar.find_path(g, sx, sy, gx, gy)
        local o, why = h:find_path(sx, sy, gx, gy, "optimal")
        local f = h:find_path(sx, sy, gx, gy)
        if a then
          assert.is_near(a.cost, o.cost, 1e-9 * a.cost + 1e-12)
          assert.is_true(f.cost >= a.cost - 1e-9 and f.cost <= 1.25 * a.cost + 1e-9)
          local c = cells(f)
          assert.equal(sx .. "," .. sy, c[1])
          assert.equal(gx .. "," .. gy, c[#c])
          checked = checked + 1
        else
          assert.is_nil(o)
          assert.equal("no_path", why)
        end
      end
    end
    assert.is_true(checked >= 15)
  end)

  it("a sliced query's prefix is final", function()
    -- longer than the smoothing's horizon (8 cluster sides), so cells
    -- become final before the goal is reached
    local g = lodestar.grid.new(360, 90)
    for y = 5, 80 do g:set_blocked(40, y, true) end
    for y = 10, 89 do g:set_blocked(80, y, true) end
    local h = lodestar.hierarchy(g)
    h:start(0, 45, 359, 45)
    local longest
    while h:step(25) == "running" do
      local p = h:prefix()
      assert.is_true(p.partial)
      if not longest or #p > #longest then longest = p end
    end
    assert.equal("found", h:status())
    local full = h:path()
    assert.is_false(full.partial)
    assert.is_true(#longest > 1 and #longest < #full)
    local a, b = cells(longest), cells(full)
    for i = 1, #a do assert.equal(b[i], a[i]) end
    assert.is_near(h:cost(), full.cost, 1e-12)
  end)

  it("repairs after edits like a fresh build", function()
    local g = maze(64, 64, 3)
    local h = lodestar.hierarchy(g, {cluster_size = 8})
    g:set_blocked(10, 10, not g:blocked(10, 10))
    g:set_cost(20, 20, 3)
    local us = h:repair()
    assert.is_true(us >= 0)
    assert.equal(1, h:info().repairs)
    local fresh = lodestar.hierarchy(g, {cluster_size = 8})
    assert.equal(fresh:info().entrances, h:info().entrances)
    assert.equal(fresh:info().intra_edges, h:info().intra_edges)
  end)

  it("leaves a second-level cluster stale after a border door, refresh rebuilds it", function()
    local g = lodestar.grid.new(64, 64)
    local h = lodestar.hierarchy(g, {cluster_size = 8, level2 = 2})
    assert.equal(0, h:info().level2_stale)
    assert.equal(0, h:refresh())
    -- a wall along the border column x = 16 | 15 with one gap (a door):
    -- the clusters on both sides get new entrance lists
    for y = 0, 63 do g:set_blocked(16, y, y ~= 5) end
    h:repair()
    local stale = h:info().level2_stale
    assert.is_true(stale > 0)
    -- through the stale cluster's first level: within the fast bound of the optimum
    local o = h:find_path(2, 2, 60, 60, "optimal")
    local p = h:find_path(2, 2, 60, 60)
    assert.is_true(p.cost >= o.cost - 1e-9 and p.cost <= 1.25 * o.cost)
    assert.is_true(h:refresh() >= 0)
    assert.equal(stale - 1, h:info().level2_stale)
    while h:info().level2_stale > 0 do h:refresh() end
    local fresh = lodestar.hierarchy(g, {cluster_size = 8, level2 = 2})
    assert.equal(fresh:info().level2_entrances, h:info().level2_entrances)
    local q = h:find_path(2, 2, 60, 60)
    assert.is_true(q.cost >= o.cost - 1e-9 and q.cost <= 1.25 * o.cost)
  end)

  it("honours layer weights", function()
    local g = lodestar.grid.new(40, 10)
    g:layer_add("mud")
    for y = 0, 8 do g:layer_set("mud", 20, y, 50) end
    local h = lodestar.hierarchy(g, {weights = {mud = 1}})
    local a = lodestar.find_path(g, 0, 0, 39, 0, {weights = {mud = 1}})
    local o = h:find_path(0, 0, 39, 0, "optimal")
    assert.is_near(a.cost, o.cost, 1e-9)
  end)

  it("opts.band_radius: the band follows a winding cheap road line smoothing misses", function()
    -- cost 4 everywhere but a road of cost 1 on rows 4 and 6 by turns of 8
    -- columns, joined through row 5 (core/lds_hpa_band.c; tests/c/test_hpa_band.c)
    local g = lodestar.grid.new(64, 24)
    for y = 0, 23 do
      for x = 0, 63 do
        local road = math.floor(x / 8) % 2 == 1 and 6 or 4
        local on = y == road or (x % 8 == 0 and x > 0 and y == 5)
        g:set_cost(x, y, on and 1 or 4)
      end
    end
    local opt = lodestar.find_path(g, 0, 4, 63, 4)
    local hb = lodestar.hierarchy(g)
    local hl = lodestar.hierarchy(g, {band_radius = 0})
    assert.equal(2, hb:info().band_radius)
    assert.equal(0, hl:info().band_radius)
    local pb = assert(hb:find_path(0, 4, 63, 4))
    local pl = assert(hl:find_path(0, 4, 63, 4))
    assert.is_near(opt.cost, pb.cost, 1e-9)
    assert.is_true(pl.cost > opt.cost + 1)
    assert.matches("band_radius", errmsg(lodestar.hierarchy, g, {band_radius = 9}))
    assert.matches("band_radius", errmsg(lodestar.hierarchy, g, {band_radius = -1}))
    assert.matches("band_radius", errmsg(lodestar.hierarchy, g, {band_radius = "wide"}))
  end)

  it("rejects bad input with clear messages", function()
    local g = lodestar.grid.new(10, 10)
    assert.matches("cluster_size", errmsg(lodestar.hierarchy, g, {cluster_size = 2}))
    assert.matches("unknown option 'zz'", errmsg(lodestar.hierarchy, g, {zz = 1}))
    local h = lodestar.hierarchy(g, {lower_bounds = false})
    assert.matches("lower_bounds", errmsg(h.find_path, h, 0, 0, 5, 5, "optimal"))
    assert.matches("invalid option 'best'", errmsg(h.find_path, h, 0, 0, 5, 5, "best"))
    h:free()
    assert.matches("freed", errmsg(h.info, h))
  end)
end)
