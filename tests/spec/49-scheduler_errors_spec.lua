-- SPDX-License-Identifier: MIT
-- A scheduler request whose layer weights make a cell cost <= 0 (or whose
-- weight is not finite) fails alone, with a message in the scheduler's
-- words: the call (lodestar.Scheduler:request) and the option at fault
-- (opts.weights, then the cell, the layer and the weight), never the
-- search object's internal function name (core/lds_scheduler.c,
-- bindings/lua/lua_scheduler.c). Runs under Lua 5.4 and LuaJIT.
local lodestar = require "lodestar"

local function road_grid()
  local g = lodestar.grid.new(5, 3)
  g:bake("road", function(_, y) return y == 2 and 1 or 0 end)
  return g
end

local WANT = "lodestar.Scheduler:request: opts.weights: cell (0,2) has cost 0 under the layer "
  .. "weights (base 1, layer 'road' value 1 x weight -1; expected finite, > 0)"

describe("lodestar.scheduler request errors", function()
  it("weights that make a cell cost <= 0 name the request's opts.weights", function()
    local g = road_grid()
    local sched = lodestar.scheduler.new()
    sched:add_grid(g)
    local done = {}
    local bad = sched:request{grid = g, from = {0, 0}, to = {4, 0}, weights = {road = -1},
      on_done = function(req) done[#done + 1] = req:status() end}
    local good = sched:request{grid = g, from = {0, 0}, to = {4, 0},
      on_done = function(req) done[#done + 1] = req:status() end}
    sched:step()
    assert.equal("arg", bad:status())
    assert.equal(WANT, bad:errmsg())
    assert.same({nil, WANT, "arg"}, {bad:path()})
    assert.equal(WANT, bad:info().error)
    assert.is_nil(WANT:find("lds_", 1, true))
    assert.equal("found", good:status())
    assert.equal("", good:errmsg())
    table.sort(done)
    assert.same({"arg", "found"}, done)
    sched:free()
  end)

  it("a profile's weights fail the same way", function()
    local g = road_grid()
    local sched = lodestar.scheduler.new()
    sched:add_grid(g)
    sched:profile("car", {weights = {road = -1}})
    local req = sched:request{from = {0, 0}, to = {4, 0}, profile = "car"}
    sched:step()
    assert.equal(WANT, req:errmsg())
    sched:free()
  end)

  it("weights stay on their layers when a layer is removed; a removed weighted layer is named", function()
    local g = lodestar.grid.new(16, 16)
    g:layer_add("aaa"); g:layer_add("mud"); g:layer_add("ccc")
    for y = 0, 15 do g:layer_set("mud", 5, y, 3); g:layer_set("ccc", 7, y, 1000) end
    local sched = lodestar.scheduler.new{deterministic = true}
    sched:add_grid(g)
    sched:profile("tank", {weights = {mud = 1}})
    local queued = sched:request{from = {0, 4}, to = {10, 4}, profile = "tank"}
    local own = sched:request{from = {0, 4}, to = {10, 4}, weights = {mud = 1}}
    -- 'aaa' (below mud) goes while both wait: mud is now index 0, 'ccc' 1
    g:layer_remove("aaa")
    sched:step(0)
    assert.near(13, assert(queued:path()).cost, 1e-9)
    assert.near(13, assert(own:path()).cost, 1e-9)
    local tank = sched:request{from = {0, 4}, to = {10, 4}, profile = "tank"}
    local mine = sched:request{from = {0, 4}, to = {10, 4}, weights = {mud = 1}}
    sched:step(2) -- started, not finished
    g:layer_remove("mud")
    sched:step(0)
    assert.equal("state", tank:status())
    assert.equal("lodestar.Scheduler:request: opts.weights: layer 'mud' (weight " .. tostring(1.0)
      .. ", set by profile 'tank') was removed from the grid since the request was submitted",
      tank:errmsg())
    local p, m, st = tank:path()
    assert.is_nil(p)
    assert.equal(tank:errmsg(), m)
    assert.equal("state", st)
    assert.equal("lodestar.Scheduler:request: opts.weights: layer 'mud' (weight " .. tostring(1.0)
      .. ", set by the request) was removed from the grid since the request was submitted",
      mine:errmsg())
    -- the flag, not only the text: req:info().layer_removed
    assert.is_true(tank:info().layer_removed)
    assert.is_true(mine:info().layer_removed)
    assert.is_false(queued:info().layer_removed)
    assert.equal("found", queued:info().status)
    sched:free()
  end)
end)
