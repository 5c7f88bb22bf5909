-- SPDX-License-Identifier: MIT
-- Deferred edits of flapping cells from Lua (docs/scheduler.md "Flapping
-- cells wait"; core/lds_scheduler_defer.c): a door toggled every 3 steps
-- across a request that needs many steps pauses it (req:info().paused,
-- deferrals, the tick's paused and deferrals, sched:edit_stats()), it is
-- never forced and delivers find_path's cost on the grid at delivery.
-- Runs under Lua 5.4 and LuaJIT (make test-lua).
local lodestar = require "lodestar"

local W, DOOR_X, DOOR_Y0, DOOR_N = 96, 48, 44, 8

-- costs 1 and 2, a wall across x = 48 with a door of 8 cells and a gap at
-- the bottom (the C test's grid, tests/c/test_scheduler_defer.c)
local function door_grid()
  local g = lodestar.grid.new(W, W)
  for y = 0, W - 1 do
    for x = 0, W - 1 do
      if (x * 7 + y * 3) % 5 == 0 then g:set_cost(x, y, 2) end
    end
    if y < W - 2 and (y < DOOR_Y0 or y >= DOOR_Y0 + DOOR_N) then g:set_blocked(DOOR_X, y, true) end
  end
  return g
end

local function set_door(g, closed)
  for y = DOOR_Y0, DOOR_Y0 + DOOR_N - 1 do g:set_blocked(DOOR_X, y, closed) end
end

describe("lodestar.scheduler flapping cells", function()
  it("a door toggled every 3 steps pauses the request; never forced, optimal at delivery", function()
    local g = door_grid()
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local req = s:request{from = {2, 48}, to = {93, 48}}
    local closed, forced, over, seen_paused, tick_paused, tick_deferrals = false, 0, 0, false, 0, 0
    local frame = 0
    while req:status() == "running" and frame < 2000 do
      if frame % 3 == 0 then
        closed = not closed
        set_door(g, closed)
      end
      local info = req:info()
      if info.paused then seen_paused = true end
      local tick = s:step{max_expansions = 60}
      forced = forced + tick.forced
      if tick.expansions > 60 then over = over + 1 end
      if info.paused then assert.equal(0, tick.expansions) end -- not stepped while paused
      tick_paused = tick_paused + tick.paused
      tick_deferrals = tick_deferrals + tick.deferrals
      frame = frame + 1
    end
    assert.equal("found", req:status())
    assert.equal(0, forced)
    assert.equal(0, over)
    assert.is_true(seen_paused)
    assert.is_true(tick_paused > 0)
    local info = req:info()
    assert.is_true(info.deferrals > 1)
    assert.equal(0, info.restarts)
    assert.is_false(info.paused)
    local es = s:edit_stats()
    assert.equal(info.deferrals, es.deferred)
    assert.equal(es.deferred, tick_deferrals)
    assert.is_true(es.resumed > 0)
    assert.equal(0, es.defer_timeouts)
    local ref = assert(lodestar.find_path(g, 2, 48, 93, 48))
    assert.is_true(math.abs(req:path().cost - ref.cost) <= 1e-9 * ref.cost)
  end)
end)
