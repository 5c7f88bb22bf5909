-- SPDX-License-Identifier: MIT
-- examples/navmesh/level.lua — what a game does with navigation meshes,
-- on Lua 5.4 or LuaJIT (examples/navmesh/README.md):
--
--   1. build the exact mesh of a grid map (grid:to_navmesh) and compare the
--      mesh's optimal path with the grid's A*, Theta* and string pulling;
--   2. paint areas on it (mud, lava) with navmesh.new and give each agent
--      class its own area costs and blocked areas;
--   3. spread a query over frames with a per-frame expansion budget
--      (mesh:start / mesh:step / mesh:path);
--   4. post-process a mesh path with a find_path hook;
--   5. with the shared data (../shared/data/navmesh), load a 3-D level, locate
--      points and ask for a partial path between two unconnected pieces.
--
--   . build/env.sh && lua5.4 examples/navmesh/level.lua [SHARED_DIR]
--
-- Units: world units; for a grid's mesh one world unit is one cell, cell
-- (x, y) is the square [x, x+1] x [y, y+1] in the x-z plane, y = 0.
-- Returns (and prints) a summary table; raises on anything wrong.
local lodestar = require "lodestar"

local shared = ... or os.getenv("LDS_SHARED") or "../shared"
local summary = {}
local function say(fmt, ...) print(("%-10s " .. fmt):format(...)) end

-- 1. The grid's mesh, and four answers to one query ------------------------
local grid = assert(lodestar.grid.load("tests/data/arena.map"))
local mesh, info = grid:to_navmesh()
say("%d polygons, %d vertices, built in %d us", "mesh", info.polys, info.verts, info.build_us)
local sx, sy, gx, gy = 1, 13, 40, 40 -- cells
local centre = function(x, y) return {x + 0.5, 0, y + 0.5} end
local astar = assert(lodestar.find_path(grid, sx, sy, gx, gy))
local theta = assert(lodestar.find_path(grid, sx, sy, gx, gy, {algorithm = "theta"}))
local pulled = astar:string_pull(grid)
local best = assert(mesh:find_path(centre(sx, sy), centre(gx, gy), {algorithm = "optimal"}))
say("A* %.3f, Theta* %.3f, A* string-pulled %.3f, mesh optimal %.3f (cells)", "any-angle",
  astar.cost, theta.cost, pulled.length, best.length)
assert(best.length <= theta.cost + 1e-9 and best.length <= pulled.length + 1e-9,
  "the mesh's optimal path is the shortest any-angle path")
summary.optimal_length = best.length

-- 2. Areas and agent classes -----------------------------------------------
-- navmesh.new from tables: one square polygon per free cell (a mesh a level
-- editor might export), with an area per cell: the columns 20..27 are mud
-- (area 5), the pool x < 20, 30 <= y < 40 lava (area 7), the rest ground
-- (area 0). Neighbours are linked from the shared edges.
local MUD, LAVA = 5, 7
local verts, polys, areas, vid = {}, {}, {}, {}
local W, H = grid:size()
local function corner(x, z)
  local k = z * (W + 1) + x
  if not vid[k] then verts[#verts + 1] = {x, 0, z}; vid[k] = #verts end
  return vid[k]
end
for y = 0, H - 1 do
  for x = 0, W - 1 do
    if not grid:blocked(x, y) then
      polys[#polys + 1] = {corner(x, y), corner(x + 1, y), corner(x + 1, y + 1), corner(x, y + 1)}
      areas[#polys] = (x >= 20 and x < 28) and MUD or ((x < 20 and y >= 30 and y < 40) and LAVA or 0)
    end
  end
end
local level = assert(lodestar.navmesh.new{verts = verts, polys = polys, areas = areas})
say("%d cell polygons, %d pieces", "areas", level:poly_count(), level:piece_count())
local classes = { -- what each agent class pays per world unit in each area
  runner = {},                                            -- every area costs 1
  tank = {area_costs = {[MUD] = 4}},                      -- mud is slow
  hover = {area_costs = {[MUD] = 1}, blocked_areas = {LAVA}}, -- never over lava
}
local a, b = centre(sx, sy), centre(gx, gy)
for _, name in ipairs{"runner", "tank", "hover"} do
  local p = assert(level:find_path(a, b, classes[name]))
  local crosses = {}
  for _, poly in ipairs(p.corridor) do
    local _, _, area = level:poly(poly)
    crosses[area] = true
  end
  say("length %.3f, cost %.3f, crosses mud %s, lava %s", name, p.length, p.cost,
    tostring(crosses[MUD] == true), tostring(crosses[LAVA] == true))
  if name == "hover" then assert(not crosses[LAVA], "a blocked area is never crossed") end
  summary[name] = p.cost
end
assert(summary.tank >= summary.runner, "a dearer area never makes a path cheaper")

-- 3. One query over several frames -----------------------------------------
local frames = 0
assert(level:start(a, b, classes.tank))
while level:step(8) == "running" do frames = frames + 1 end -- 8 expansions a frame
local sliced = assert(level:path())
local whole = assert(level:find_path(a, b, classes.tank))
say("%d frames of 8 expansions, %d expansions, same path as find_path: %s", "sliced",
  frames, level:stats().expansions, tostring(sliced.length == whole.length))
assert(sliced.length == whole.length)
summary.sliced_frames = frames

-- 4. A post-processing hook: drop waypoints closer than 1 unit to the last one
local function thin(path)
  local out = {path[1]}
  for i = 2, #path - 1 do
    local q = out[#out]
    if (path[i].x - q.x) ^ 2 + (path[i].z - q.z) ^ 2 >= 1 then out[#out + 1] = path[i] end
  end
  out[#out + 1] = path[#path]
  return out
end
local thinned = assert(mesh:find_path(a, b, {postprocess = thin}))
say("%d waypoints after the hook", "hook", #thinned)
assert(mesh:check_path(thinned), "the hook's path still lies on the mesh")

-- 5. A 3-D level from the shared data --------------------------------------
local dungeon = lodestar.navmesh.load(shared .. "/data/navmesh/3d/dungeon.nav")
if dungeon then
  local p0 = {-12.5860491, 9.85033798, -18.0393162}   -- on the upper floor
  local p1 = {5.68531084, 10.1972942, -19.1696854}
  local island = {-2.65702248, 0.197294146, 0.680589437} -- on another piece
  local poly = assert(dungeon:locate(p0, 1), "p0 lies on the mesh")
  local _, _, _, piece = dungeon:poly(poly)
  local p = assert(dungeon:find_path(p0, p1))
  local none = select(2, dungeon:find_path(island, p1))
  local part = assert(dungeon:find_path(island, p1, {partial = true}))
  say("%d pieces; polygon %d (piece %d); path %.3f; other piece: %s, partial %.3f", "3-D level",
    dungeon:piece_count(), poly, piece, p.length, none, part.length)
  assert(none == "no_path" and part.partial)
  summary.dungeon_length = p.length
else
  say("no %s/data/navmesh: skipped", "3-D level", shared)
end
return summary
