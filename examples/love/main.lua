-- SPDX-License-Identifier: MIT
-- main.lua — a LÖVE 11 game on lodestar (LuaJIT build of lodestar.core):
-- a tile map, agents of two classes (scouts avoid the swamp, porters do not)
-- walking paths from lodestar.scheduler under a per-frame budget, doors
-- that a click opens or closes, the mod mods/swamp hot-reloaded while the
-- game runs, and a debug overlay (key D) drawn through lodestar's debug-draw
-- interface with love.graphics. README.md says how to run it and how a
-- shipped game carries the C module.
--
-- Scripted run (tests/love_test.sh): LODESTAR_LOVE_SCRIPT=1 plays a fixed
-- script of keys, clicks and a mod edit, then at frame SHOT_FRAME writes
-- screenshot.png and summary.json to LODESTAR_LOVE_OUT and quits.

-- == loading lodestar ========================================================

-- The C module: from the source tree (package.cpath set here), from beside a
-- fused game's executable, or out of a .love archive (copied to the save
-- directory, where LÖVE's own loader finds C modules).
local function load_lodestar()
  local src = love.filesystem.getSource()
  local root = os.getenv("LODESTAR_ROOT") or (src .. "/../..")
  package.path = root .. "/scripts/?.lua;" .. root .. "/scripts/?/init.lua;" .. package.path
  package.cpath = (os.getenv("LODESTAR_CPATH") or (root .. "/build/luajit/?.so")) .. ";" ..
    love.filesystem.getSourceBaseDirectory() .. "/?.so;" .. package.cpath
  local ok, lodestar = pcall(require, "lodestar")
  if ok then return lodestar end
  -- a .love archive carrying lib/lodestar/core.so: LÖVE cannot dlopen from
  -- inside the zip, so copy it out once
  local inside = "lib/lodestar/core.so"
  if love.filesystem.getInfo(inside) then
    love.filesystem.createDirectory("lodestar")
    love.filesystem.write("lodestar/core.so", love.filesystem.read(inside))
    return require "lodestar"
  end
  error(lodestar, 0)
end

local lodestar = load_lodestar()
local mods = require "lodestar.mods"

-- == the world ===============================================================

local TILE = 24
local HALF = TILE / 2
local MAP = {
  "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
  "@..........@...........@..............@",
  "@..........@...........@..............@",
  "@...~~~~...@....~~~~...@.....@@@@.....@",
  "@...~~~~~..D....~~~~~..D.....@..@.....@",
  "@...~~~~~..@....~~~~...@.....@..@.....@",
  "@....~~~...@...........@.....@@D@.....@",
  "@..........@@@@@D@@@@@@@..............@",
  "@..........@..........................@",
  "@@@@D@@@@@@@.....~~~~~~~~.....@@@@D@@@@",
  "@..........@.....~~~~~~~~.....@.......@",
  "@..........D.....~~~~~~~~.....D.......@",
  "@...@@@@...@.....~~~~~~~~.....@.......@",
  "@...@..@...@..................@...~~~.@",
  "@...@..@...@@@@@@@D@@@@@@@@@@@@...~~~.@",
  "@......................@..............@",
  "@.....~~~~~~...........@..............@",
  "@.....~~~~~~...........D.....~~~~.....@",
  "@.....~~~~~~...........@.....~~~~.....@",
  "@......................@..............@",
  "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
}
local W, H = #MAP[1], #MAP
local BUDGET_US = 400
local SHOT_FRAME = 300
local CLASSES = {
  {name = "scout", colour = {0.25, 0.55, 1.0}, count = 8, every = 3},
  {name = "porter", colour = {1.0, 0.6, 0.15}, count = 8, every = 5},
}
local PROBE_RGBA = 0xFF00FFFF -- the overlay's probe path, magenta

local grid, sched, manager, mods_root
local agents, doors = {}, {}
local frame, overlay, errors = 0, false, 0
local stats = {delivered = 0, no_path = 0, reloads = 0, door_toggles = 0, expansions = 0, max_frame_exp = 0}
local scripted = os.getenv("LODESTAR_LOVE_SCRIPT") == "1"
local out_dir = os.getenv("LODESTAR_LOVE_OUT") or "."
local rng = love.math.newRandomGenerator(7)
local probe -- {search, path} drawn by the overlay
local events_log = {}

local function free_cell()
  while true do
    local x, y = rng:random(1, W - 2), rng:random(1, H - 2)
    if not grid:get_blocked(x, y) and grid:terrain(x, y) ~= "D" then return x, y end
  end
end

-- (Re)defines the scheduler's profiles from the mod's: a redefinition
-- restarts the class's pending requests with the new weights.
local function set_profiles()
  for _, c in ipairs(CLASSES) do
    local opts = manager:profile("swamp." .. c.name)
    if opts then sched:profile(c.name, opts) end
  end
end

local function poll_mods()
  for _, ev in ipairs(manager:poll()) do
    events_log[#events_log + 1] = ev.text or (ev.mod .. " " .. ev.result)
    if ev.result == "reloaded" then stats.reloads = stats.reloads + 1 end
    if ev.result == "failed" then print("mod failed: " .. tostring(ev.text)) end
  end
  set_profiles()
end

local function request(a)
  a.gx, a.gy = free_cell()
  a.state = "waiting"
  a.req = sched:request{from = {a.x, a.y}, to = {a.gx, a.gy}, profile = a.class.name, agent = a.id,
    on_done = function(req)
      local p = req:path()
      if p then
        a.path, a.step, a.state = p, 1, "walking"
        stats.delivered = stats.delivered + 1
      else
        a.state, a.wait = "idle", 10
        stats.no_path = stats.no_path + 1
      end
      req:release()
      a.req = nil
    end}
end

function love.load()
  love.graphics.setLineStyle("rough")
  grid = assert(lodestar.grid.from_rows(MAP, {legend = {D = "free", ["~"] = "free"}}))
  for y = 0, H - 1 do
    for x = 0, W - 1 do
      if grid:terrain(x, y) == "D" then doors[#doors + 1] = {x = x, y = y} end
    end
  end
  mods_root = os.getenv("LODESTAR_LOVE_MODS") or (love.filesystem.getSource() .. "/mods")
  manager = mods.new{root = mods_root, grids = {world = grid}}
  sched = lodestar.scheduler.new{deterministic = scripted}
  sched:add_grid(grid)
  poll_mods()
  local id = 0
  for _, c in ipairs(CLASSES) do
    for _ = 1, c.count do
      id = id + 1
      local x, y = free_cell()
      agents[id] = {id = id, class = c, x = x, y = y, x0 = x, y0 = y, state = "idle", wait = id * 2}
    end
  end
end

local function toggle_door(cx, cy)
  for _, d in ipairs(doors) do
    if d.x == cx and d.y == cy then
      grid:set_blocked(cx, cy, not grid:get_blocked(cx, cy))
      stats.door_toggles = stats.door_toggles + 1
      return true
    end
  end
  return false
end

-- The probe: agent 1's current query run as one search, for the overlay.
local function update_probe()
  local a = agents[1]
  if probe then probe.search:free() end
  local opts = manager:profile("swamp." .. a.class.name) or {}
  local s = lodestar.search.astar(grid, opts)
  s:start(a.x, a.y, a.gx or a.x, a.gy or a.y)
  s:run()
  probe = {search = s, path = s:path()}
end

-- == the scripted run =========================================================

local function write_mod(scout_wet)
  local f = assert(io.open(mods_root .. "/swamp/mod.lua", "rb"))
  local src = f:read("*a")
  f:close()
  src = src:gsub("local SCOUT_WET = %d+", "local SCOUT_WET = " .. scout_wet)
  f = assert(io.open(mods_root .. "/swamp/mod.lua", "wb"))
  f:write(src)
  f:close()
end

local function json(v)
  local t = type(v)
  if t == "table" then
    local parts = {}
    if #v > 0 or next(v) == nil then
      for i = 1, #v do parts[i] = json(v[i]) end
      return "[" .. table.concat(parts, ",") .. "]"
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    for i, k in ipairs(keys) do parts[i] = ("%q:%s"):format(k, json(v[k])) end
    return "{" .. table.concat(parts, ",") .. "}"
  elseif t == "string" then
    return ("%q"):format(v):gsub("\\\n", "\\n")
  elseif t == "boolean" then
    return tostring(v)
  end
  return ("%.6g"):format(v)
end

local function write_summary()
  local moved = 0
  for _, a in ipairs(agents) do
    if a.x ~= a.x0 or a.y ~= a.y0 then moved = moved + 1 end
  end
  -- pixels of the probe path's cell centres, where no agent stands
  local pixels = {}
  if probe and probe.path then
    local occupied = {}
    for _, a in ipairs(agents) do occupied[a.y * W + a.x] = true end
    for _, x, y in probe.path:cells() do
      if not occupied[y * W + x] then pixels[#pixels + 1] = {x * TILE + HALF, y * TILE + HALF} end
    end
  end
  local doors_closed = {}
  for _, d in ipairs(doors) do
    if grid:get_blocked(d.x, d.y) then doors_closed[#doors_closed + 1] = {d.x * TILE + HALF, d.y * TILE + HALF} end
  end
  local f = assert(io.open(out_dir .. "/summary.json", "wb"))
  f:write(json{ok = errors == 0, frame = frame, agents = #agents, moved = moved, delivered = stats.delivered,
    no_path = stats.no_path, reloads = stats.reloads, door_toggles = stats.door_toggles, overlay = overlay,
    expansions = stats.expansions, max_frame_expansions = stats.max_frame_exp, budget_us = BUDGET_US,
    probe_pixels = pixels, closed_door_pixels = doors_closed, probe_rgb = "#ff00ff", tile = TILE,
    scout_weight = (manager:profile("swamp.scout") or {weights = {}}).weights["swamp.wet"] or -1,
    events = events_log}, "\n")
  f:close()
end

local SCRIPT = {
  [20] = function() love.keypressed("d") end,                        -- overlay on
  [40] = function() love.mousepressed(11 * TILE + 5, 4 * TILE + 5, 1) end, -- close the door at (11, 4)
  [60] = function() love.mousepressed(23 * TILE + 5, 17 * TILE + 5, 1) end, -- and (23, 17)
  [100] = function() write_mod(1) end,                               -- the designer edits the mod
}

-- == the frame ================================================================

function love.update()
  frame = frame + 1
  if scripted and SCRIPT[frame] then SCRIPT[frame]() end
  if frame % 15 == 0 then poll_mods() end
  for _, a in ipairs(agents) do
    if a.state == "idle" then
      a.wait = a.wait - 1
      if a.wait <= 0 then request(a) end
    elseif a.state == "walking" and frame % a.class.every == 0 then
      local n = #a.path
      if a.step >= n then
        a.state, a.wait, a.path = "idle", 20, nil
      else
        local x, y = a.path:cell(a.step + 1)
        if grid:get_blocked(x, y) then -- a door closed on the way: ask again
          a.path = nil
          request(a)
        else
          a.x, a.y, a.step = x, y, a.step + 1
        end
      end
    end
  end
  local tick = sched:step(BUDGET_US)
  stats.expansions = stats.expansions + tick.expansions
  if tick.expansions > stats.max_frame_exp then stats.max_frame_exp = tick.expansions end
  if overlay and (frame % 30 == 0 or not probe) and agents[1].gx then update_probe() end
  if scripted and frame == SHOT_FRAME then
    if not probe then update_probe() end
    love.graphics.captureScreenshot(function(img)
      local f = assert(io.open(out_dir .. "/screenshot.png", "wb"))
      f:write(img:encode("png"):getString())
      f:close()
      write_summary()
      love.event.quit(0)
    end)
  end
end

-- The renderer lodestar draws through: cells as tiles, lines of `size`
-- cells, points as dots (docs/debugging.md, "From Lua").
local dd = {}
function dd:begin(prim, size) self.prim, self.size, self.n = prim, size, 0 end
function dd:vertex(x, y, r, g, b, a)
  love.graphics.setColor(r, g, b, self.prim == "cells" and a * 0.55 or a)
  if self.prim == "cells" then
    love.graphics.rectangle("fill", x * TILE, y * TILE, TILE, TILE)
  elseif self.prim == "points" then
    love.graphics.circle("fill", x * TILE, y * TILE, self.size * TILE / 2)
  else
    self.n = self.n + 1
    if self.n % 2 == 1 then
      self.x0, self.y0 = x, y
    else
      love.graphics.setLineWidth(self.size * TILE)
      love.graphics.line(self.x0 * TILE, self.y0 * TILE, x * TILE, y * TILE)
    end
  end
end
function dd.finish() love.graphics.setLineWidth(1) end
function dd.text(_, x, y, s, r, g, b, a)
  love.graphics.setColor(r, g, b, a)
  love.graphics.print(s, x * TILE, y * TILE)
end

local TERRAIN = {["@"] = {0.1, 0.11, 0.13}, ["."] = {0.85, 0.84, 0.8}, ["~"] = {0.45, 0.6, 0.45},
  D = {0.6, 0.45, 0.25}}

function love.draw()
  for y = 0, H - 1 do
    for x = 0, W - 1 do
      local t = grid:terrain(x, y)
      local c = TERRAIN[t] or TERRAIN["."]
      if t == "D" and grid:get_blocked(x, y) then c = {0.35, 0.1, 0.1} end
      love.graphics.setColor(c)
      love.graphics.rectangle("fill", x * TILE, y * TILE, TILE, TILE)
    end
  end
  for _, a in ipairs(agents) do
    love.graphics.setColor(a.class.colour)
    love.graphics.circle("fill", a.x * TILE + TILE / 2, a.y * TILE + TILE / 2, TILE * 0.4)
  end
  if overlay then
    if probe then probe.search:draw(dd) end
    for _, a in ipairs(agents) do
      if a.path then
        local c = a.class.colour
        a.path:draw(dd, {c[1], c[2], c[3], 0.8}, 0.15)
      end
    end
    if probe and probe.path then probe.path:draw(dd, PROBE_RGBA, 0.3) end
  end
  love.graphics.setColor(1, 1, 1)
  love.graphics.print(("frame %d  budget %d us  expansions %d  delivered %d  reloads %d  doors %d"
    .. "  [D] overlay %s  click a door"):format(frame, BUDGET_US, stats.expansions, stats.delivered,
      stats.reloads, stats.door_toggles,
      overlay and "on" or "off"), 6, H * TILE + 4)
end

function love.keypressed(key)
  if key == "d" then
    overlay = not overlay
    if overlay and agents[1].gx then update_probe() end
  elseif key == "escape" then
    love.event.quit(0)
  end
end

function love.mousepressed(px, py, button)
  if button == 1 then toggle_door(math.floor(px / TILE), math.floor(py / TILE)) end
end

-- An error in a scripted run is written where the test looks, and the game
-- exits with status 3 (LÖVE's own handler would wait for a click).
if scripted then
  function love.errorhandler(msg)
    local f = io.open(out_dir .. "/error.txt", "wb")
    if f then
      f:write(debug.traceback(tostring(msg), 2))
      f:close()
    end
    os.exit(3)
  end
end
