-- SPDX-License-Identifier: MIT
--- lodestar.testing — the busted kit for designer rules.
--
--   local testing = require "lodestar.testing"   -- registers the assertions
--   local grid, S, G = testing.grid[[
--     S . . @ .
--     . 5 . @ G
--   ]]
--   local path = lodestar.find_path(grid, S.x, S.y, G.x, G.y)
--   assert.path_cost(path, 5.414, 1e-3)
--
-- testing.grid: one row per non-blank line; spaces and tabs are ignored, so
-- cells may be written spaced out. '.' free, '@' blocked (and any character
-- the Moving AI format blocks: O T W ...), '1'..'9' free with that cost,
-- 'S' start and 'G' goal (both free, cost 1), unless a legend says
-- otherwise: testing.grid(text, {legend = {["~"] = 5}}), as from_ascii.
-- Coordinates are 0-based.
--
-- Assertions (luassert, registered on require; each has a negated form
-- via assert.is_not.*):
--   assert.path_cost(path, expected [, tol = 1e-9])
--   assert.path_avoids(path, grid, pred)   pred(x, y, terrain) -> true for
--       cells to avoid, or a string of terrain characters to avoid
--   assert.is_optimal(grid, sx, sy, gx, gy [, opts])  find_path(opts)
--       costs the same as Dijkstra with the same weights/edge callback
--   assert.admissible(grid, heuristic [, opts])  heuristic(x, y, gx, gy) or a
--       heuristic name (scaled as a search with opts.weights / opts.h_scale
--       scales it: s:h_scale()); never above the true cost under opts'
--       weights / edge callback to each goal in opts.goals (default: up to 8
--       spread passable cells)
local lodestar = require "lodestar"
local say = require "say"
local luassert = require "luassert"

local M = {}
local table_unpack = table.unpack or unpack

--- Builds a grid from a picture; returns grid, start, goal ({x=, y=} or nil).
-- opts [opt]: from_ascii's ({legend =, strict =}).
function M.grid(text, opts)
  if type(text) ~= "string" then
    error("bad argument #1 to 'grid' (string expected, got " .. type(text) .. ")", 2)
  end
  local rows = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local row = line:gsub("[ \t\r]", "")
    if #row > 0 then rows[#rows + 1] = row end
  end
  local g, msg = lodestar.grid.from_ascii(table.concat(rows, "\n"), opts)
  if not g then error("testing.grid: " .. msg, 2) end
  local S, G
  for y, row in ipairs(rows) do
    local sx = row:find("S", 1, true)
    local gx = row:find("G", 1, true)
    if sx then S = {x = sx - 1, y = y - 1} end
    if gx then G = {x = gx - 1, y = y - 1} end
  end
  return g, S, G
end

-- Options for the reference Dijkstra: the cost model only.
local function cost_opts(opts)
  local o = {}
  if opts then o.weights, o.cost = opts.weights, opts.cost end
  return o
end

--- A temporary mods folder for a spec of mods (the manager's `root`):
-- `local d = testing.mods_dir()`, then `mods.new{root = d.root}`.
-- d.root is its path; d.write(rel, text) writes a file, making its
-- folders; d.write_mod(name, text) writes NAME/mod.lua; d.mkdir(rel) makes
-- a folder; d.remove(rel) removes a file or a folder tree (a link is
-- removed, never followed); d.close() removes the whole folder. Files go
-- under os.tmpname()'s folder. Needs LuaFileSystem, as lodestar.mods does.
-- @return the folder table; errors (assert) when the file system refuses.
function M.mods_dir()
  local lfs = require "lfs"
  local function rmtree(path)
    local a = lfs.symlinkattributes(path)
    if not a then return end
    if a.mode == "directory" then
      for e in lfs.dir(path) do
        if e ~= "." and e ~= ".." then rmtree(path .. "/" .. e) end
      end
      assert(lfs.rmdir(path))
    else
      assert(os.remove(path))
    end
  end
  local function mkdirs(path)
    local acc = ""
    for part in path:gmatch("[^/]+") do
      acc = acc .. "/" .. part
      if not lfs.attributes(acc) then assert(lfs.mkdir(acc)) end
    end
  end
  local base = os.tmpname()
  os.remove(base)
  local root = base .. "-mods"
  mkdirs(root)
  local d = {root = root}
  function d.mkdir(rel) mkdirs(root .. "/" .. rel) end
  function d.write(rel, text)
    local path = root .. "/" .. rel
    mkdirs(path:match("^(.*)/[^/]*$"))
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
  end
  function d.write_mod(name, text) d.write(name .. "/mod.lua", text) end
  function d.remove(rel) rmtree(root .. "/" .. rel) end
  function d.close() rmtree(root) end
  return d
end

--- Exact cost from (sx,sy) to (gx,gy) by Dijkstra under opts' cost model;
-- nil when unreachable. Arguments as for find_path (its checks; the
-- message names 'true_cost' and the caller's line).
function M.true_cost(grid, sx, sy, gx, gy, opts)
  if opts ~= nil and type(opts) ~= "table" then
    error("bad argument #6 to 'true_cost' (table expected, got " .. type(opts) .. ")", 2)
  end
  local o = cost_opts(opts)
  o.algorithm = "dijkstra"
  -- under pcall the C error has no position; re-raised from here it gets the caller's
  local ok, p = pcall(lodestar.core.find_path, grid, sx, sy, gx, gy, o)
  if not ok then
    if type(p) == "string" then p = p:gsub("^bad argument (#%d+) to '[^']*'", "bad argument %1 to 'true_cost'") end
    error(p, 2)
  end
  return p and p.cost or nil
end

local function fail(arguments, msg)
  for k in pairs(arguments) do arguments[k] = nil end
  arguments[1], arguments.n, arguments.nofmt = msg, 1, {true}
end

-- numbers print the same on Lua 5.4 and LuaJIT (3, not 3.0)
local function num(v)
  if type(v) ~= "number" then return tostring(v) end
  return ("%.12g"):format(v)
end

local function path_cost(_, arguments)
  local path, expected, tol = arguments[1], arguments[2], arguments[3] or 1e-9
  local got = path and path.cost
  local ok = type(got) == "number" and type(expected) == "number" and math.abs(got - expected) <= tol
  fail(arguments, ("path cost %s, expected %s (tolerance %s)"):format(num(got), num(expected),
    num(tol)))
  return ok
end

local function path_avoids(_, arguments)
  local path, grid, pred = arguments[1], arguments[2], arguments[3]
  if type(pred) == "string" then
    local chars = pred
    pred = function(_, _, t) return chars:find(t, 1, true) ~= nil end
  end
  local bad
  for i, x, y in path:cells() do
    if pred(x, y, grid:terrain(x, y)) then
      bad = ("cell %d (%d,%d) terrain '%s'"):format(i, x, y, grid:terrain(x, y))
      break
    end
  end
  fail(arguments, bad and ("path enters a cell it should avoid: " .. bad)
    or "path avoids every such cell")
  return bad == nil
end

local function is_optimal(_, arguments)
  local grid, sx, sy, gx, gy, opts = table_unpack(arguments, 1, 6)
  local p = lodestar.core.find_path(grid, sx, sy, gx, gy, opts)
  local got = p and p.cost or nil
  local best = M.true_cost(grid, sx, sy, gx, gy, opts)
  local ok = (got == nil and best == nil) or
    (got ~= nil and best ~= nil and math.abs(got - best) <= 1e-9 * best) -- relative: costs have no scale
  fail(arguments, ("path (%d,%d)->(%d,%d) costs %s, Dijkstra finds %s"):format(sx, sy, gx, gy,
    num(got), num(best)))
  return ok
end

-- Up to n passable cells spread over the grid, deterministic.
local function spread_goals(grid, n)
  local cells = {}
  local w, h = grid:size()
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if not grid:blocked(x, y) then cells[#cells + 1] = {x = x, y = y} end
    end
  end
  if #cells <= n then return cells end
  local out = {}
  for i = 1, n do out[i] = cells[math.floor((i - 1) * #cells / n) + 1] end
  return out
end

-- The scale an A* search on grid with opts' weights, h_scale and edge
-- callback gives its heuristic (cost per cell of distance), asked from the
-- core (s:h_scale() after a start), so the kit judges the heuristic the
-- search uses: the smallest effective cell cost under the weights, or the
-- user's h_scale. goal: any cell of the grid.
local function search_h_scale(grid, opts, goal)
  local s = lodestar.search.astar(grid, {weights = opts.weights, h_scale = opts.h_scale,
    cost = opts.cost})
  s:start(goal.x, goal.y, goal.x, goal.y)
  local scale = s:h_scale()
  s:free()
  return scale
end

local function admissible(_, arguments)
  local grid, h, opts = arguments[1], arguments[2], arguments[3] or {}
  local goals = opts.goals or spread_goals(grid, opts.max_goals or 8)
  if type(h) == "string" and goals[1] then
    local name, scale = h, search_h_scale(grid, opts, goals[1])
    h = function(x, y, gx, gy)
      return lodestar.heuristic_distance(name, gx - x, gy - y) * scale
    end
  end
  local o = cost_opts(opts)
  local s = lodestar.search.dijkstra(grid, o)
  local w, hh = grid:size()
  local worst
  for _, goal in ipairs(goals) do
    for y = 0, hh - 1 do
      for x = 0, w - 1 do
        if not grid:blocked(x, y) then
          s:start(x, y, goal.x, goal.y)
          s:run()
          local c = s:cost()
          local hv = h(x, y, goal.x, goal.y)
          if c and hv > c + 1e-9 * math.max(1, c) then
            worst = ("h(%d,%d -> %d,%d) = %s > true cost %s"):format(x, y, goal.x, goal.y,
              num(hv), num(c))
            break
          end
        end
      end
      if worst then break end
    end
    if worst then break end
  end
  s:free()
  fail(arguments, worst and ("heuristic overestimates: " .. worst)
    or "heuristic never overestimates")
  return worst == nil
end


-- A tolerance argument: a finite number >= 0, else an error naming it.
local function check_tol(fname, name, v)
  if type(v) ~= "number" or v ~= v or v < 0 or v == math.huge then
    error(("assert.%s: %s must be a finite number >= 0 (got %s)"):format(fname, name,
      type(v) == "string" and ("%q"):format(v) or tostring(v)), 3)
  end
end

-- assert.navmesh_path(mesh, path [, p0, p1 [, tol]]): the path a
-- mesh:find_path returned lies on the mesh (mesh:check_path), its length
-- field is the recomputed length, and with p0/p1 it starts and ends within
-- tol (default 1e-6 world units) of them.
local function navmesh_path(_, arguments)
  local mesh, path, p0, p1, tol = arguments[1], arguments[2], arguments[3], arguments[4],
    arguments[5] or 1e-6
  check_tol("navmesh_path", "tol (argument 5)", tol)
  local function pt(p) return {p.x or p[1], p.y or p[2], p.z or p[3]} end
  local function dist(a, b)
    a, b = pt(a), pt(b)
    return math.sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2 + (a[3] - b[3]) ^ 2)
  end
  local function show(p)
    p = pt(p)
    return ("(%s, %s, %s)"):format(num(p[1]), num(p[2]), num(p[3]))
  end
  local msg
  local has_check = type(mesh) == "userdata" and
    select(2, pcall(function() return type(mesh.check_path) == "function" end)) == true
  if not has_check then
    msg = "not a lodestar.Navmesh: " .. tostring(mesh)
  elseif type(path) ~= "table" or #path < 1 then
    msg = "not a navmesh path: " .. tostring(path)
  else
    local ok, len = mesh:check_path(path)
    if not ok then
      msg = "path leaves the mesh: " .. tostring(len)
    elseif math.abs(len - path.length) > 1e-9 * (1 + len) then
      msg = ("path length %s, recomputed %s"):format(num(path.length), num(len))
    elseif p0 and dist(path[1], p0) > tol then
      msg = ("path does not start at the start point: starts at %s, expected %s (%s away; "
        .. "tolerance %s)"):format(show(path[1]), show(p0), num(dist(path[1], p0)), num(tol))
    elseif p1 and dist(path[#path], p1) > tol then
      msg = ("path does not end at the goal point: ends at %s, expected %s (%s away; "
        .. "tolerance %s)"):format(show(path[#path]), show(p1), num(dist(path[#path], p1)), num(tol))
    end
  end
  fail(arguments, msg or "path lies on the mesh with the right endpoints and length")
  return msg == nil
end

-- assert.navmesh_length(path, expected [, rel]): path.length equals expected
-- within a relative tolerance (default 1e-6).
local function navmesh_length(_, arguments)
  local path, expected, rel = arguments[1], arguments[2], arguments[3] or 1e-6
  check_tol("navmesh_length", "rel (argument 3)", rel)
  local got = type(path) == "table" and path.length or nil
  if type(got) ~= "number" then
    -- find_path's nil (no path, or an error): say so rather than "length nil"
    fail(arguments, "not a navmesh path: " .. tostring(path))
    return false
  end
  local ok = type(expected) == "number" and
    math.abs(got - expected) <= rel * math.max(1, math.abs(expected))
  fail(arguments, ("path length %s, expected %s (relative tolerance %s)"):format(num(got),
    num(expected), num(rel)))
  return ok
end

say:set("assertion.lodestar_msg.positive", "%s")
say:set("assertion.lodestar_msg.negative", "%s")
luassert:register("assertion", "path_cost", path_cost, "assertion.lodestar_msg.positive",
  "assertion.lodestar_msg.negative")
luassert:register("assertion", "path_avoids", path_avoids, "assertion.lodestar_msg.positive",
  "assertion.lodestar_msg.negative")
luassert:register("assertion", "is_optimal", is_optimal, "assertion.lodestar_msg.positive",
  "assertion.lodestar_msg.negative")
luassert:register("assertion", "admissible", admissible, "assertion.lodestar_msg.positive",
  "assertion.lodestar_msg.negative")
luassert:register("assertion", "navmesh_path", navmesh_path, "assertion.lodestar_msg.positive",
  "assertion.lodestar_msg.negative")
luassert:register("assertion", "navmesh_length", navmesh_length, "assertion.lodestar_msg.positive",
  "assertion.lodestar_msg.negative")

return M
