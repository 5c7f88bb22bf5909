-- SPDX-License-Identifier: MIT
-- Connectivity from Lua: grid:component(x, y [, layers]) and
-- grid:connected(a, b [, layers]) against a flood fill written here, after
-- random edits; queries across components end with no path and 0
-- expansions once the grid has its index (docs/big-maps.md).
local lodestar = require "lodestar"

-- component labels by a plain flood fill over 4-neighbours (the grid keeps
-- the default no_corner_cutting rule, under which diagonals join nothing new)
local function flood(g)
  local w, h = g:width(), g:height()
  local lab, id = {}, 0
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if not g:blocked(x, y) and not lab[y * w + x] then
        id = id + 1
        local stack = {{x, y}}
        lab[y * w + x] = id
        while #stack > 0 do
          local c = table.remove(stack)
          for _, d in ipairs({{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) do
            local nx, ny = c[1] + d[1], c[2] + d[2]
            if nx >= 0 and ny >= 0 and nx < w and ny < h and not g:blocked(nx, ny)
                and not lab[ny * w + nx] then
              lab[ny * w + nx] = id
              stack[#stack + 1] = {nx, ny}
            end
          end
        end
      end
    end
  end
  return lab
end

local function same_partition(g)
  local w, h = g:width(), g:height()
  local lab, fwd, bwd = flood(g), {}, {}
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      local a, b = lab[y * w + x], g:component(x, y)
      if (a == nil) ~= (b == nil) then return false end
      if a then
        fwd[a] = fwd[a] or b
        bwd[b] = bwd[b] or a
        if fwd[a] ~= b or bwd[b] ~= a then return false end
      end
    end
  end
  return true
end

describe("grid:component and grid:connected", function()
  it("follow random edits like a fresh flood fill", function()
    local g = lodestar.grid.new(70, 40)
    local seed = 7
    local function rnd(n)
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    end
    for x = 0, 69 do g:set_blocked(x, 20, x % 23 ~= 4) end
    assert.is_true(same_partition(g))
    for _ = 1, 80 do
      local x, y = rnd(70), rnd(40)
      g:set_blocked(x, y, not g:blocked(x, y))
      assert.is_true(same_partition(g))
    end
  end)

  it("tell points apart, take {x, y}, {x=, y=} or four numbers, and give nil on walls", function()
    local g = lodestar.grid.new(10, 5)
    for y = 0, 4 do g:set_blocked(5, y, true) end
    assert.is_nil(g:component(5, 0))
    assert.are_not.equal(g:component(0, 0), g:component(9, 4))
    assert.is_false(g:connected({0, 0}, {9, 4}))
    assert.is_true(g:connected({x = 0, y = 0}, {x = 4, y = 4}))
    assert.is_true(g:connected(0, 0, 4, 4))
    g:set_blocked(5, 2, false)
    assert.is_true(g:connected(0, 0, 9, 4))
    assert.are.equal(g:component(0, 0), g:component(9, 4))
  end)

  it("answer no_path without expanding a node across components", function()
    local g = lodestar.grid.new(40, 20)
    for y = 0, 19 do g:set_blocked(20, y, true) end
    assert.is_false(g:connected(0, 0, 39, 19)) -- builds the index
    for _, algo in ipairs({"astar", "dijkstra", "jps"}) do
      local s = lodestar.search[algo](g)
      s:start(0, 0, 39, 19)
      assert.are.equal("no_path", (s:run()))
      assert.are.equal(0, s:stats().expansions)
    end
    local p, msg = lodestar.find_path(g, 0, 0, 39, 19)
    assert.is_nil(p)
    assert.are.equal("no_path", msg)
  end)

  it("honour a blocking layer set by name", function()
    local g = lodestar.grid.new(12, 4)
    g:layer_add("lava")
    for y = 0, 3 do g:layer_set("lava", 6, y, math.huge) end
    assert.is_true(g:connected(0, 0, 11, 3))
    assert.is_false(g:connected(0, 0, 11, 3, {"lava"}))
    assert.is_nil(g:component(6, 1, {"lava"}))
    assert.is_not_nil(g:component(6, 1))
  end)

  it("reject bad arguments", function()
    local g = lodestar.grid.new(4, 4)
    assert.has_error(function() g:component(4, 0) end,
      "bad argument #1 to 'component' (x 4 out of range (expected 0..3))")
    assert.has_error(function() g:component(0, 0, {"nope"}) end,
      "bad argument #3 to 'component' (no layer 'nope')")
    assert.has_error(function() g:connected({0}, {1, 1}) end,
      "bad argument #1 to 'connected' (point has no numbers x, y)")
  end)

  it("takes layers as a list of names only: a map or a number is an error naming the argument", function()
    local g = lodestar.grid.new(8, 8)
    g:layer_add("lava")
    for y = 0, 7 do g:layer_set("lava", 4, y, math.huge) end
    assert.is_false(g:connected(0, 0, 7, 7, {"lava"}))
    local ok, e = pcall(g.connected, g, 0, 0, 7, 7, {lava = true})
    assert.is_false(ok)
    assert.equal("bad argument #5 to 'connected' (layers: expected a list of layer names such as "
      .. "{\"lava\"}, got a table with key 'lava')", e)
    ok, e = pcall(g.component, g, 0, 0, {lava = true})
    assert.is_false(ok)
    assert.equal("bad argument #3 to 'component' (layers: expected a list of layer names such as "
      .. "{\"lava\"}, got a table with key 'lava')", e)
    ok, e = pcall(g.component, g, 0, 0, {1})
    assert.is_false(ok)
    assert.equal("bad argument #3 to 'component' (layers[1] is not a layer name (a string))", e)
  end)

  it("agrees with the searches on a start that is +inf on a layer, and on layer corners", function()
    local g = lodestar.grid.new(4, 1)
    g:layer_add("lava")
    g:layer_set("lava", 0, 0, math.huge)
    local w = {weights = {lava = 1}}
    assert.near(3, assert(lodestar.find_path(g, 0, 0, 3, 0, w)).cost, 1e-9)
    assert.is_true(g:connected(0, 0, 3, 0, {"lava"}))
    assert.is_nil(g:component(0, 0, {"lava"}))
    assert.is_false(g:connected(3, 0, 0, 0, {"lava"})) -- a +inf goal is never entered
    assert.is_nil(lodestar.find_path(g, 3, 0, 0, 0, w))
    -- the same cell: found at once, with the index built too
    assert.is_true(g:connected(0, 0, 0, 0, {"lava"}))
    assert.near(0, assert(lodestar.find_path(g, 0, 0, 0, 0, w)).cost, 1e-9)
    -- a +inf start with no move into the goal's component
    g:layer_set("lava", 1, 0, math.huge)
    assert.is_false(g:connected(0, 0, 3, 0, {"lava"}))
    assert.is_nil(lodestar.find_path(g, 0, 0, 3, 0, w))
    -- no_corner_cutting: +inf layer cells are no corners (grid-blocked ones are)
    local g2 = lodestar.grid.new(2, 2)
    g2:layer_add("lava")
    g2:layer_set("lava", 1, 0, math.huge)
    g2:layer_set("lava", 0, 1, math.huge)
    assert.truthy(lodestar.find_path(g2, 0, 0, 1, 1, w))
    assert.is_true(g2:connected(0, 0, 1, 1, {"lava"}))
    g2:set_blocked(1, 0, true)
    assert.is_nil(lodestar.find_path(g2, 0, 0, 1, 1, w))
    assert.is_false(g2:connected(0, 0, 1, 1, {"lava"}))
  end)
end)

