-- SPDX-License-Identifier: MIT
-- bench_graph_lua.lua — graph searches through Lua on a DIMACS road graph:
-- A* with the built-in great-circle heuristic (C), with the same estimate
-- from a Lua function (custom heuristic, one pcall per pushed node), and
-- Dijkstra. Prints per-mode total time (median of REPEAT runs), expansions,
-- and ratios to the built-in A*. Timing lives here only, never in tests.
--   . build/env.sh && lua5.4 tests/bench/bench_graph_lua.lua [GRAPH] [REPEAT]
--   GRAPH defaults to ../shared/data/roads/monaco (needs .gr, .co, .queries)
local lodestar = require "lodestar"

local base = arg[1] or ((os.getenv("LDS_SHARED") or "../shared") .. "/data/roads/monaco")
local repeat_n = tonumber(arg[2] or "5")
local g = assert(lodestar.graph.load_dimacs(base .. ".gr", base .. ".co"))
local queries = {}
for line in assert(io.open(base .. ".queries")):lines() do
  local s, t = line:match("^(%d+)%s+(%d+)")
  if s then queries[#queries + 1] = {tonumber(s), tonumber(t)} end
end
local k = g:h_scale()
local modes = {
  {"astar_builtin", lodestar.search.astar(g)},
  {"astar_lua_h", lodestar.search.astar(g, {heuristic = function(n, goal)
    return k * g:distance(n, goal)
  end})},
  {"dijkstra", lodestar.search.dijkstra(g)},
}
local function run(s)
  local exp, t0 = 0, os.clock()
  for _, q in ipairs(queries) do
    s:start(q[1], q[2])
    assert(s:run() == "found")
    exp = exp + s:stats().expansions
  end
  return os.clock() - t0, exp
end
local results = {}
for _, m in ipairs(modes) do
  local times, exp = {}, 0
  for r = 1, repeat_n do times[r], exp = run(m[2]) end
  table.sort(times)
  results[#results + 1] = {m[1], times[math.floor((repeat_n + 1) / 2)], exp}
end
print(("bench_graph_lua: %s, %s, %d queries, median of %d runs (CPU time, os.clock)")
  :format(base:match("[^/]+$"), jit and jit.version or _VERSION, #queries, repeat_n))
print(("%-14s %10s %12s %8s"):format("mode", "total_ms", "expansions", "x_time"))
for _, r in ipairs(results) do
  print(("%-14s %10.2f %12d %8.2f"):format(r[1], r[2] * 1000, r[3], r[2] / results[1][2]))
end
