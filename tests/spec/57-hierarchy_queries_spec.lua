-- SPDX-License-Identifier: MIT
-- lodestar.Hierarchy queries beside the rest of the grid's machinery: a
-- query to an island (start and goal in different components of the grid's
-- connectivity index, g:component) is no_path with 0 expansions in both
-- modes, as h:find_path, h:start/h:step and a scheduler request, and finds
-- the path once a door joins the island; h:find_path while a sliced query
-- is in progress leaves that query as it was; an optimal-mode sliced query
-- has no prefix until it is found.
local lodestar = require "lodestar"

local W, H, WALL, DOOR = 160, 96, 100, 41

-- a wall at x = WALL with its door (WALL, DOOR) closed, and a wall to go
-- round on the left part
local function island()
  local g = lodestar.grid.new(W, H)
  for y = 0, H - 1 do g:set_blocked(WALL, y, true) end
  for y = 10, 79 do g:set_blocked(40, y, true) end
  return g
end

local function cells(p)
  local t = {}
  for _, x, y in p:cells() do t[#t + 1] = x .. "," .. y end
  return t
end

describe("lodestar.Hierarchy queries", function()
  it("answer no_path to an island without searching, and find it once a door opens", function()
    local g = island()
    local h = lodestar.hierarchy(g)
    -- no index yet: the fast mode searches the start's side to learn it
    local p, why = h:find_path(5, 5, 150, 90)
    assert.is_nil(p)
    assert.equal("no_path", why)
    assert.is_true(h:stats().expansions > 0)
    assert.is_not_nil(g:component(5, 5)) -- builds the grid's index
    assert.are_not.equal(g:component(5, 5), g:component(150, 90))
    for _, mode in ipairs({"fast", "optimal"}) do
      p, why = h:find_path(5, 5, 150, 90, mode)
      assert.is_nil(p)
      assert.equal("no_path", why)
      assert.equal(0, h:stats().expansions)
      h:start(150, 90, 5, 5, mode)
      assert.equal("no_path", h:status())
      assert.equal("no_path", h:step(10))
      assert.equal(0, h:stats().expansions)
    end
    -- a scheduler request naming the hierarchy: no_path, 0 expansions
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local function request(mode)
      local got
      s:request{from = {5, 5}, to = {150, 90}, hierarchy = h, hierarchy_mode = mode,
                on_done = function(r)
                  local rp, rwhy = r:path()
                  got = {path = rp, why = rwhy, expansions = r:info().expansions}
                end}
      local ticks = 0
      while not got do
        s:step(10)
        ticks = ticks + 1
        assert.is_true(ticks < 100000)
      end
      return got
    end
    for _, mode in ipairs({"fast", "optimal"}) do
      local got = request(mode)
      assert.is_nil(got.path)
      assert.equal("no_path", got.why)
      assert.equal(0, got.expansions)
    end
    -- the door opens: the index joins the island, every query finds it
    g:set_blocked(WALL, DOOR, false)
    assert.equal(g:component(5, 5), g:component(150, 90))
    local ref = lodestar.find_path(g, 5, 5, 150, 90)
    local o = assert(h:find_path(5, 5, 150, 90, "optimal"))
    assert.is_near(ref.cost, o.cost, 1e-9 * ref.cost)
    local f = assert(h:find_path(5, 5, 150, 90, "fast"))
    assert.is_true(f.cost >= ref.cost - 1e-9 and f.cost <= 1.25 * ref.cost)
    local c = cells(f)
    assert.equal("5,5", c[1])
    assert.equal("150,90", c[#c])
    local through = false
    for _, cell in ipairs(c) do through = through or cell == WALL .. "," .. DOOR end
    assert.is_true(through)
    for _, mode in ipairs({"fast", "optimal"}) do
      local got = request(mode)
      assert.is_not_nil(got.path)
      assert.is_true(got.expansions > 0)
    end
    s:free()
    h:free()
  end)

  it("h:find_path leaves a sliced query in progress as it was", function()
    local g = island()
    g:set_blocked(WALL, DOOR, false)
    -- the landmark A* (not JPS) in the optimal mode: a search of many slices
    local h = lodestar.hierarchy(g, {optimal_jps = false})
    local whole = assert(h:find_path(5, 5, 150, 90))
    for _, mode in ipairs({"fast", "optimal"}) do
      local alone = assert(h:find_path(5, 5, 150, 90, mode))
      h:start(5, 5, 150, 90, mode)
      assert.equal("running", h:step(1))
      local before = h:stats().expansions
      -- a blocking query elsewhere, in the other mode too
      local other = assert(h:find_path(150, 5, 120, 80, "optimal"))
      assert.equal("150,5", cells(other)[1])
      assert.is_nil(h:find_path(5, 5, WALL, 0))
      assert.equal(before, h:stats().expansions)
      assert.equal("running", h:status())
      local st = h:step(5)
      while st == "running" do st = h:step(50) end
      assert.equal("found", st)
      local sliced = h:path()
      assert.same(cells(alone), cells(sliced))
      assert.equal(alone.cost, h:cost())
    end
    -- with no sliced query in progress find_path runs as before
    local again = assert(h:find_path(5, 5, 150, 90))
    assert.same(cells(whole), cells(again))
    assert.equal(again.cost, h:cost())
    assert.is_true(h:stats().expansions > 0)
    h:free()
  end)

  it("an optimal-mode sliced query has no prefix until it is found", function()
    local g = island()
    g:set_blocked(WALL, DOOR, false)
    local h = lodestar.hierarchy(g, {optimal_jps = false})
    h:start(5, 5, 150, 90, "optimal")
    local steps = 0
    while h:step(20) == "running" do
      steps = steps + 1
      local pre, why = h:prefix()
      assert.is_nil(pre)
      assert.equal("running", why)
    end
    assert.is_true(steps > 3)
    assert.equal("found", h:status())
    local pre = assert(h:prefix())
    assert.same(cells(h:path()), cells(pre))
    assert.is_false(pre.partial)
    -- the fast mode's prefix is real: it grows beyond the start while running
    h:start(5, 5, 150, 90, "fast")
    local longest = 0
    while h:step(20) == "running" do
      local p = h:prefix()
      if p and #cells(p) > longest then longest = #cells(p) end
    end
    assert.is_true(longest > 1)
    h:free()
  end)
end)
