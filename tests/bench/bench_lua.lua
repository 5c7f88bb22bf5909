-- SPDX-License-Identifier: MIT
-- bench_lua.lua — cost of the designer rules, measured on the DAO queries of
-- a Moving AI scenario: a baked layer, layer weights and an edge callback,
-- each as a ratio to the plain search driven the same way from Lua; and the
-- time to bake a 1024x1024 layer from Lua.
--
-- usage: lua5.4|luajit tests/bench/bench_lua.lua [SCEN] [MAP] [REPS]
-- Times are CPU seconds (os.clock) of the whole query set, median of REPS.
-- The baked layers hold 0 on every passable DAO cell (the rules look for
-- terrain the DAO maps do not use), so every variant expands exactly the
-- same nodes and finds the same paths (the search sees that every effective
-- cost is 1 and runs the uniform loop); a second comparison times the
-- weighted loop on varied costs against the same costs as base costs.
local lodestar = require "lodestar"

local scen = arg[1] or "tests/data/den011d.map.scen"
local map = arg[2] or "tests/data/den011d.map"
local reps = tonumber(arg[3] or "5")
local engine = (type(jit) == "table" and jit.version) or _VERSION

local queries = {}
for line in io.lines(scen) do
  local f = {}
  for tok in line:gmatch("[^\t]+") do f[#f + 1] = tok end
  if #f == 9 then
    queries[#queries + 1] = {tonumber(f[5]), tonumber(f[6]), tonumber(f[7]), tonumber(f[8])}
  end
end
local grid = assert(lodestar.grid.load(map))

local function median(t)
  table.sort(t)
  return t[math.floor((#t + 1) / 2)]
end

-- runs the query set (every stride-th query) with opts; returns CPU seconds,
-- C time inside step (µs) and total expansions
local function run_set(opts, stride)
  local s = lodestar.search.astar(grid, opts)
  local exp, cus = 0, 0
  local t0 = os.clock()
  for i = 1, #queries, stride do
    local q = queries[i]
    s:start(q[1], q[2], q[3], q[4])
    local st = s:run()
    if st ~= "found" then error("query " .. i .. ": " .. st) end
    local stats = s:stats()
    exp = exp + stats.expansions
    cus = cus + stats.elapsed_us
  end
  local dt = os.clock() - t0
  s:free()
  return dt, cus, exp
end

-- Runs the variants round-robin, reps times, so a machine shared with other
-- jobs slows them alike; returns per variant the median CPU time, median
-- wall time inside step, and the expansions (identical across repetitions).
local function measure_all(variants, stride)
  local res = {}
  for k = 1, #variants do res[k] = {t = {}, c = {}} end
  for _ = 1, reps do
    for k, v in ipairs(variants) do
      local dt, cus, e = run_set(v[2], stride)
      local r = res[k]
      r.t[#r.t + 1], r.c[#r.c + 1] = dt, cus
      assert(r.exp == nil or r.exp == e, "expansions differ between repetitions")
      r.exp = e
    end
  end
  for k = 1, #variants do res[k].time, res[k].ctime = median(res[k].t), median(res[k].c) end
  return res
end

grid:bake("swamp", lodestar.rule.terrain({T = 4, W = false}, 0))
grid:bake("danger", lodestar.rule.terrain({S = 5}, 0))
grid:bake("road", function() return 0 end)

local n = #queries
print(("bench_lua (%s): %s, %d queries, median of %d interleaved runs, CPU time (os.clock)")
  :format(engine, scen, n, reps))
local variants = {
  {"plain", nil},
  {"baked", {weights = {swamp = 1}}},
  {"weights", {weights = {danger = 3, road = -0.5, swamp = 1}}},
}
local res = measure_all(variants, 1)
local plain = res[1]
for k, v in ipairs(variants) do
  local r = res[k]
  assert(r.exp == plain.exp, v[1] .. ": expansions differ from plain")
  print(("  %-10s   %9.1f ms  %.2fx   (wall time inside step %.1f ms, %d expansions)")
    :format(v[1], r.time * 1e3, r.time / plain.time, r.ctime / 1e3, r.exp))
end
-- The layers above are 0 on every passable cell, so those queries run the
-- uniform-cost loop like plain. To time the weighted loop itself, compare a
-- layer of varied costs (1..4) given by weight against the same costs written
-- into the grid's base costs: same effective costs, same expansions.
do
  local noise = function(x, y) return ((x * 7 + y * 13) % 4) end
  grid:bake("noise", function(x, y) return noise(x, y) end)
  local costed = grid:clone()
  local w, h = costed:size()
  for y = 0, h - 1 do
    for x = 0, w - 1 do costed:set_cost(x, y, 1 + noise(x, y)) end
  end
  local saved = grid
  local function run_on(g, opts)
    grid = g
    return opts
  end
  local r = {}
  for _ = 1, reps do
    for k, v in ipairs{{costed, nil}, {saved, {weights = {noise = 1}}}} do
      local opts = run_on(v[1], v[2])
      local dt, _, e = run_set(opts, 1)
      r[k] = r[k] or {t = {}}
      r[k].t[#r[k].t + 1] = dt
      assert(r[k].exp == nil or r[k].exp == e)
      r[k].exp = e
    end
  end
  grid = saved
  assert(r[1].exp == r[2].exp, "costed: expansions differ between base costs and weights")
  local tb, tw = median(r[1].t), median(r[2].t)
  print(("  costs 1..4   base %9.1f ms, as weighted layer %9.1f ms  %.2fx   (%d expansions each)")
    :format(tb * 1e3, tw * 1e3, tw / tb, r[1].exp))
end

-- the edge callback is slow: every 4th query, against plain on the same set
local stride = 4
local cbres = measure_all({{"plain", nil},
  {"callback", {cost = function(_, _, _, _, base) return base end}}}, stride)
print(("  callback     %9.1f ms  %.2fx   (every %dth query: %d queries, %d expansions; plain %.1f ms)")
  :format(cbres[2].time * 1e3, cbres[2].time / cbres[1].time, stride,
    math.floor((n + stride - 1) / stride), cbres[2].exp, cbres[1].time * 1e3))

-- baking a 1024x1024 layer from Lua
local big = lodestar.grid.new(1024, 1024)
local bt = {}
for r = 1, reps do
  local t0 = os.clock()
  big:bake("danger", function(x, y, _, cost) return (x + y) % 7 == 0 and cost * 2 or 0 end)
  bt[r] = os.clock() - t0
end
local b = median(bt)
print(("  bake 1024x1024 %7.1f ms  (%.1f M cells/s)"):format(b * 1e3, 1024 * 1024 / b / 1e6))
