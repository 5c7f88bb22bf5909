-- SPDX-License-Identifier: MIT
-- find_path on a grid reuses one search kept by the grid (bindings/lua/lua_search.c):
-- the paths are those of a fresh search, edits between calls are seen, a
-- find_path called from a cost callback of another gets a search of its own,
-- a failed call leaves the kept search usable, and freeing the grid frees it.
local lodestar = require "lodestar"

local function cells(p)
  local t = {}
  for i = 1, #p do
    local x, y = p:cell(i)
    t[#t + 1] = x .. "," .. y
  end
  return table.concat(t, " ")
end

-- a w x h grid with a seeded scatter of walls (its corners free)
local function scatter(w, h, seed)
  local g = lodestar.grid.new(w, h)
  local s = seed
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      s = (s * 16807) % 2147483647
      if s % 100 < 15 and not (x < 2 and y < 2) and not (x >= w - 2 and y >= h - 2) then g:set_blocked(x, y, true) end
    end
  end
  return g
end

-- the path of a fresh search object on g, or nil
local function fresh(g, sx, sy, gx, gy, algo, opts)
  local s = lodestar.search[algo](g, opts)
  s:start(sx, sy, gx, gy)
  if s:run() ~= "found" then return nil end
  local p = s:path()
  s:free()
  return p
end

describe("find_path reuses the grid's search", function()
  it("gives the paths of a fresh search, call after call, for every algorithm", function()
    local g = scatter(40, 30, 7)
    g:layer_add("mud")
    for x = 0, 39 do g:layer_set("mud", x, 12, 3) end
    local algos = {"astar", "jps", "dijkstra", "wastar", "greedy", "jps+"}
    local s, found = 11, 0
    for q = 1, 120 do
      s = (s * 69069 + 1) % 4294967296
      local f = math.floor
      local sx, sy, gx, gy = s % 40, f(s / 40) % 30, f(s / 1200) % 40, f(s / 48000) % 30
      local algo = algos[q % #algos + 1]
      local opts = q % 5 == 0 and {weights = {mud = 2}} or nil
      local a = lodestar.find_path(g, sx, sy, gx, gy, opts and {algorithm = algo, weights = opts.weights}
                                   or {algorithm = algo})
      local b = fresh(g, sx, sy, gx, gy, algo, opts)
      assert.equal(b == nil, a == nil, algo)
      if a then
        found = found + 1
        assert.equal(b.cost, a.cost, algo)
        assert.equal(cells(b), cells(a), algo)
      end
    end
    assert.is_true(found > 40)
  end)

  it("sees the edits made between two calls", function()
    local g = lodestar.grid.new(10, 3)
    local p1 = lodestar.find_path(g, 0, 1, 9, 1)
    assert.equal(9, p1.cost)
    for y = 0, 1 do g:set_blocked(5, y, true) end
    local p2 = lodestar.find_path(g, 0, 1, 9, 1)
    assert.is_true(p2.cost > 9)
    assert.equal(9, p1.cost) -- the first path is the caller's, untouched
    g:set_blocked(5, 2, true)
    local none, why = lodestar.find_path(g, 0, 1, 9, 1)
    assert.is_nil(none)
    assert.equal("no_path", why)
  end)

  it("a find_path inside a cost callback does not disturb the outer one", function()
    local g = scatter(30, 30, 3)
    local plain = lodestar.find_path(g, 0, 0, 29, 29)
    -- the same callback without the nested call (a callback runs the general loop,
    -- whose ties can differ from the plain query's: the same cost)
    local ref = lodestar.find_path(g, 0, 0, 29, 29, {cost = function(_, _, _, _, base) return base end})
    local plain_jps = lodestar.find_path(g, 0, 0, 29, 29, {algorithm = "jps"})
    local inner, calls = {}, 0
    local outer = lodestar.find_path(g, 0, 0, 29, 29, {cost = function(_, _, _, _, base)
      calls = calls + 1
      if calls % 10 == 1 then
        local p = lodestar.find_path(g, 0, 0, 29, 29, {algorithm = "jps"})
        inner[#inner + 1] = p and cells(p) or "none"
      end
      return base
    end})
    assert.is_true(#inner > 3)
    assert.equal(cells(ref), cells(outer))
    assert.equal(ref.cost, outer.cost)
    assert.is_true(math.abs(plain.cost - outer.cost) < 1e-9)
    for _, c in ipairs(inner) do assert.equal(cells(plain_jps), c) end
    -- and the kept search still gives the right path afterwards
    assert.equal(cells(plain), cells(lodestar.find_path(g, 0, 0, 29, 29)))
  end)

  it("stays usable after a call that failed or raised", function()
    local g = scatter(20, 20, 5)
    local plain = lodestar.find_path(g, 0, 0, 19, 19)
    local p, msg = lodestar.find_path(g, 0, 0, 19, 19, {cost = function() error("boom") end})
    assert.is_nil(p)
    assert.matches("boom", msg)
    assert.has_error(function() lodestar.find_path(g, 0, 0, 19, 19, {weight = -1}) end)
    assert.has_error(function() lodestar.find_path(g, 0, 0, 99, 19) end)
    assert.equal(cells(plain), cells(lodestar.find_path(g, 0, 0, 19, 19)))
  end)

  it("is freed with the grid; a freed grid is refused", function()
    local g = scatter(20, 20, 5)
    local p = lodestar.find_path(g, 0, 0, 19, 19)
    g:free()
    assert.has_error(function() lodestar.find_path(g, 0, 0, 19, 19) end)
    assert.is_true(#p > 1) -- a delivered path outlives grid and search
    -- a grid collected with its kept search (valgrind-lua checks for leaks)
    local h = scatter(20, 20, 5)
    assert.is_not_nil(lodestar.find_path(h, 0, 0, 19, 19))
    h = nil -- luacheck: ignore 311
    collectgarbage()
    collectgarbage()
  end)
end)
