-- SPDX-License-Identifier: MIT
-- The scheduler from Lua against a lone search: the 780 problems of
-- tests/data/den011d.map.scen run (a) with one lodestar.search.astar object
-- reused (s:start + s:run), (b) through lodestar.scheduler in 1000 µs
-- frames with an on_done per request, (c) with find_path (one search
-- allocated per call). Prints CPU ms (os.clock) and expansions per µs, and
-- checks the scheduler's costs equal find_path's. Run from the repository
-- root on either engine after `make lua`:
--   . build/env.sh && lua5.4 tests/bench/bench_sched_lua.lua
--   . build/env-luajit.sh && luajit tests/bench/bench_sched_lua.lua
local lodestar = require "lodestar"

local g = assert(lodestar.grid.load("tests/data/den011d.map"))
local probs = assert(lodestar.scenario.load("tests/data/den011d.map.scen"))
local clock = os.clock

local t0 = clock()
local s = lodestar.search.astar(g)
local lone_exp = 0
for _, p in ipairs(probs) do
  s:start(p.sx, p.sy, p.gx, p.gy)
  s:run()
  lone_exp = lone_exp + s:stats().expansions
end
local t_lone = clock() - t0

t0 = clock()
local sched = lodestar.scheduler.new()
sched:add_grid(g)
local costs, frames = {}, 0
for i, p in ipairs(probs) do
  sched:request{from = {p.sx, p.sy}, to = {p.gx, p.gy},
    on_done = function(r) costs[i] = r:path().cost; r:release() end}
end
local t_submit = clock() - t0
repeat
  local t = sched:step(1000)
  frames = frames + 1
until t.queued == 0 and t.active == 0
local t_sched = clock() - t0
local exp = sched:stats().expansions

t0 = clock()
local same = true
for i, p in ipairs(probs) do
  local path = lodestar.find_path(g, p.sx, p.sy, p.gx, p.gy)
  if not path or path.cost ~= costs[i] then same = false end
end
local t_fp = clock() - t0

print(("%s, %d queries on den011d:"):format(jit and jit.version or _VERSION, #probs))
print(("  one search reused   %8.1f ms  %6.2f expansions/us"):format(t_lone * 1e3, lone_exp / (t_lone * 1e6)))
print(("  lodestar.scheduler  %8.1f ms  %6.2f expansions/us  (%d frames of 1000 us; new + add_grid + requests %.1f ms)")
  :format(t_sched * 1e3, exp / (t_sched * 1e6), frames, t_submit * 1e3))
print(("  find_path           %8.1f ms"):format(t_fp * 1e3))
print(("  scheduler / lone search time: %.2f; costs equal find_path's: %s"):format(t_sched / t_lone,
  tostring(same)))
if not same then os.exit(1) end
