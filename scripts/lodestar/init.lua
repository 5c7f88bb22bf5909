-- SPDX-License-Identifier: MIT
--- lodestar — pathfinding for games, the Lua package.
--
-- `require "lodestar"` returns the C module `lodestar.core` extended with
-- pure-Lua conveniences: post-processing chains, rule helpers, lazy access
-- to `lodestar.smooth` and `lodestar.testing`. Everything in `lodestar.core`
-- is reachable from here under the same name (see docs/lua-api.md).
--
-- Conventions: cell coordinates are 0-based ((0,0) top-left, x = column,
-- y = row), exactly as in the C core and the Moving AI files; indices into a
-- path (path:cell(i), path:sub(i, j), the i of path:cells()) are 1-based like
-- any Lua sequence.
-- The C module. A core.so built for another Lua (the Lua 5.4 one under
-- LuaJIT, or the reverse: LUA_CPATH set for one engine, the other started)
-- fails to load with "undefined symbol: lua_..."; say what to do instead.
local core
do
  local ok, err = pcall(require, "lodestar.core")
  if not ok then
    err = tostring(err)
    if err:find("undefined symbol: _?lua", 1, false) then
      local engine = (type(jit) == "table" and "LuaJIT") or _VERSION
      error(("lodestar: the C module lodestar.core found on package.cpath was built for "
        .. "another Lua than this %s. For luajit use the LuaJIT build: `. build/env-luajit.sh` "
        .. "(or LUA_CPATH=build/luajit/?.so), for lua5.4 `. build/env.sh` (or "
        .. "LUA_CPATH=build/lua54/?.so); an installed copy lives in lib/lua/5.1 (LuaJIT) "
        .. "and lib/lua/5.4. Loader said: %s"):format(engine, err), 2)
    end
    error(err, 2)
  end
  core = err
end

local M = {}
for k, v in pairs(core) do M[k] = v end
M.core = core
M._NAME = "lodestar"

-- The position prefix of an error located at this file's lines (the chain's
-- call of a step), as a pattern.
local CHAIN_POS = "^" .. debug.getinfo(1, "S").short_src:gsub("%p", "%%%0") .. ":%d+: "

--- Chains post-processors into one.
-- @param steps  list of functions `fn(value, grid) -> value`; the first gets
--               a lodestar.Path, each later one what the previous returned
--               (a Path, or a list of {x=, y=} points after smoothing)
-- @return a function `(path, grid) -> value` that runs the steps in order.
-- Errors: a step that is not a function (raised at once); a step that
-- returns nil ("postprocess: step 2 returned nil"); an error raised inside a
-- step is raised again at the chain's caller as "postprocess step 2: msg"
-- (the position this file would give it is dropped: a C step such as
-- lodestar.prune_los, or error(msg, 2), names the chain's line here); an
-- error value that is not a string is raised again unchanged.
function M.postprocess(steps)
  if type(steps) ~= "table" then
    error("bad argument #1 to 'postprocess' (table expected, got " .. type(steps) .. ")", 2)
  end
  for i = 1, #steps do
    if type(steps[i]) ~= "function" then
      error(("bad argument #1 to 'postprocess' (step %d: function expected, got %s)")
        :format(i, type(steps[i])), 2)
    end
  end
  return function(value, grid)
    for i = 1, #steps do
      local ok, out = pcall(steps[i], value, grid)
      if not ok then
        if type(out) ~= "string" then error(out, 0) end
        error(("postprocess step %d: %s"):format(i, (out:gsub(CHAIN_POS, "", 1))), 2)
      end
      if out == nil then error(("postprocess: step %d returned nil"):format(i), 2) end
      value = out
    end
    return value
  end
end

-- lodestar.prune_los(path, grid), the post-processor form of
-- path:prune_los(grid), comes from lodestar.core: a C function, so its
-- errors point at the caller's line and name the grid as argument #2.

--- Rule helper for grid:bake: maps terrain characters to layer values.
-- `lodestar.rule.terrain{ T = 5, W = false }` returns fn(x, y, terrain, cost)
-- giving 5 on 'T', blocking 'W' (false), and `default` (0) elsewhere.
-- Errors (raised here, not at the bake): map not a table, a value or the
-- default that is not a number or false.
M.rule = {}
function M.rule.terrain(map, default)
  if type(map) ~= "table" then
    error("bad argument #1 to 'terrain' (table expected, got " .. type(map) .. ")", 2)
  end
  for k, v in pairs(map) do
    if type(v) ~= "number" and v ~= false then
      error(("bad argument #1 to 'terrain' (value of '%s': number or false expected, got %s)")
        :format(tostring(k), type(v)), 2)
    end
  end
  if default == nil then default = 0 end
  if type(default) ~= "number" and default ~= false then
    error("bad argument #2 to 'terrain' (number or false expected, got " .. type(default) .. ")", 2)
  end
  return function(_, _, terrain)
    local v = map[terrain]
    if v == nil then return default end
    return v
  end
end

--- Rule helper: value falling off with distance from a list of sources.
-- `lodestar.rule.near(sources, radius, peak)`: peak at a source, 0 from
-- `radius` cells on (Chebyshev distance), linear in between.
-- [Units: cells] [Limit: radius > 0; peak a finite number, default 1]
-- Errors (raised here, not at the bake): sources not a list of {x=, y=}
-- with numbers, radius or peak out of range.
function M.rule.near(sources, radius, peak)
  if type(sources) ~= "table" then
    error("bad argument #1 to 'near' (table expected, got " .. type(sources) .. ")", 2)
  end
  for i = 1, #sources do -- checked now; the rule reads the list live (sources may move)
    local s = sources[i]
    if type(s) ~= "table" or type(s.x) ~= "number" or type(s.y) ~= "number" then
      error(("bad argument #1 to 'near' (source %d: {x=, y=} with numbers expected)"):format(i), 2)
    end
  end
  -- `not (a > b)`, not `a <= b`: a NaN fails the check too (luacheck 581 would rewrite it)
  if type(radius) ~= "number" or not (radius > 0) then -- luacheck: ignore 581 (NaN-safe)
    error("bad argument #2 to 'near' (radius must be a number > 0)", 2)
  end
  if peak == nil then peak = 1 end
  if type(peak) ~= "number" or not (math.abs(peak) < math.huge) then -- luacheck: ignore 581 (NaN-safe)
    error("bad argument #3 to 'near' (peak must be a finite number)", 2)
  end
  return function(x, y)
    local best = 0
    for i = 1, #sources do
      local s = sources[i]
      local d = math.max(math.abs(x - s.x), math.abs(y - s.y))
      if d < radius then
        local v = peak * (1 - d / radius)
        if v > best then best = v end
      end
    end
    return best
  end
end

-- lodestar.smooth and lodestar.testing load on first use
setmetatable(M, {__index = function(t, k)
  if k == "smooth" or k == "testing" then
    local mod = require("lodestar." .. k)
    rawset(t, k, mod)
    return mod
  end
end})

return M
