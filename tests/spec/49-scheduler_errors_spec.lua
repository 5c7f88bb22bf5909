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
end)
