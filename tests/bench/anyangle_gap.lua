-- SPDX-License-Identifier: MIT
-- The any-angle gap on uniform maps: for each query of a
-- shared/data/navmesh/2d/MAP.queries file (cell centres, with the exact
-- Euclidean optimum opt_len), the cost of A*'s octile path, of that path
-- string-pulled through its cell corridor (path:string_pull), of Theta* and
-- of Lazy Theta*, each divided by opt_len. Prints one table row per map
-- (mean, p99 and max of the ratio, and how many equal the optimum within
-- 1e-6) and the median time per query of each method.
--   lua5.4 tests/bench/anyangle_gap.lua [SHARED_DIR] [MAP ...]
-- (run from the repository root after `make`; LDS_BUILD, default build)
local build = os.getenv("LDS_BUILD") or "build"
package.path = "scripts/?.lua;scripts/?/init.lua;" .. package.path
package.cpath = build .. "/lua54/?.so;" .. package.cpath
local lodestar = require "lodestar"

local shared = arg[1] or "../shared"
local maps = {}
for i = 2, #arg do maps[#maps + 1] = arg[i] end
if #maps == 0 then maps = {"arena", "den011d", "brc202d", "AR0011SR", "maze512-32-0", "32room_000"} end

local function stats(r)
  table.sort(r)
  local s, eq = 0, 0
  for _, v in ipairs(r) do
    s = s + v
    if v <= 1 + 1e-6 then eq = eq + 1 end
  end
  return s / #r, r[math.max(1, math.ceil(#r * 0.99))], r[#r], eq
end

local function median(t)
  table.sort(t)
  return t[math.max(1, math.ceil(#t / 2))]
end

print("| map | queries | method | mean | p99 | max | = opt | median us |")
print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
for _, name in ipairs(maps) do
  local g = assert(lodestar.grid.load(shared .. "/data/movingai/maps/" .. name .. ".map"))
  local ratios = {astar = {}, pulled = {}, theta = {}, lazytheta = {}}
  local times = {astar = {}, pulled = {}, theta = {}, lazytheta = {}}
  local n = 0
  for line in io.lines(shared .. "/data/navmesh/2d/" .. name .. ".queries") do
    local v = {}
    for w in line:gmatch("%S+") do v[#v + 1] = tonumber(w) end
    local sx, sy, gx, gy, opt = math.floor(v[1]), math.floor(v[3]), math.floor(v[4]),
      math.floor(v[6]), v[9]
    n = n + 1
    local t0 = os.clock()
    local p = assert(lodestar.find_path(g, sx, sy, gx, gy))
    local t1 = os.clock()
    local pts = p:string_pull(g)
    local t2 = os.clock()
    ratios.astar[n] = p.cost / opt
    ratios.pulled[n] = pts.length / opt
    times.astar[n] = (t1 - t0) * 1e6
    times.pulled[n] = (t2 - t0) * 1e6
    for _, algo in ipairs{"theta", "lazytheta"} do
      local a0 = os.clock()
      local q = assert(lodestar.find_path(g, sx, sy, gx, gy, {algorithm = algo}))
      times[algo][n] = (os.clock() - a0) * 1e6
      ratios[algo][n] = q.cost / opt
    end
  end
  for _, m in ipairs{"astar", "pulled", "theta", "lazytheta"} do
    local mean, p99, max, eq = stats(ratios[m])
    print(("| %s | %d | %s | %.4f | %.4f | %.4f | %d | %.0f |"):format(name, n,
      m == "pulled" and "astar + string_pull" or m, mean, p99, max, eq, median(times[m])))
  end
end
