-- SPDX-License-Identifier: MIT
--- lodestar.mods — the mod manager: load mods from folders, run each in its
-- own sandbox under a CPU guard, and hot-reload them while the game runs.
--
--   local mods = require "lodestar.mods"
--   local m = mods.new{ root = "mods", grids = {world = grid}, log = print }
--   -- every frame (or every N frames):
--   for _, ev in ipairs(m:poll()) do print(ev.text) end
--   local opts = m:profile("danger.cautious")        -- find_path options
--   local pts  = m:postprocess("smoothing.catmull", path, grid)
--
-- A mod is a folder `ROOT/NAME/` holding `mod.lua`, which returns a manifest
-- (schema in docs/mods.md and in `validate` below), and any Lua files it
-- requires. The manager is pure Lua, so it can itself be reloaded by a host.
--
-- Everything the manager does is deterministic: mods are scanned, loaded,
-- baked and called in sorted (name) and dependency order.
local M = {}

local lodestar_default -- loaded on first use (require "lodestar")

local table_unpack = table.unpack or unpack
local setfenv = setfenv -- nil on Lua 5.4
local jit = rawget(_G, "jit")
local NAME_PAT = "^[a-z][a-z0-9_]*$"

--- Default instruction limit per call into mod code. [Units: VM instructions]
M.DEFAULT_LIMIT = 10000000
--- Extra instructions a bake may spend per cell it bakes: a bake of N cells
-- runs under instruction_limit + cell_limit * N. [Units: VM instructions]
M.DEFAULT_CELL_LIMIT = 2000
--- Hook granularity: the count hook fires every GRAIN instructions and adds
-- GRAIN to the running total. [Units: VM instructions]
M.GRAIN = 1000
--- Most resumes a mod's coroutines may nest (a resume inside a coroutine
-- that another resume runs, and so on): a deeper one returns false and a
-- message, as a failed resume. [Units: resumes]
M.MAX_RESUME_DEPTH = 100

--- Hook granularity in the coroutines of a mod (5.4: hooks and their counts
-- are per thread). Each resume is charged CO_GRAIN instructions, so a
-- coroutine that yields before its hook fires still pays for what it ran.
-- [Units: VM instructions]
M.CO_GRAIN = 100
--- Default time limit per call into mod code, read from the manager's clock
-- at every hook (every GRAIN instructions); a mod's (re)load in poll (its
-- mod.lua, validation, selftest and every bake) is one call. [Units: ms]
M.DEFAULT_TIME_LIMIT_MS = 500
--- Default limit of the growth of the Lua heap during one call into mod code
-- (live data, checked at every hook). [Units: KB]
M.DEFAULT_MEMORY_LIMIT_KB = 64 * 1024
--- Steps one pattern call of a mod may take (string.find, match, gmatch,
-- gsub and their method forms: lodestar.core.pattern); each step is charged
-- as one instruction. About 3 ms. [Units: matcher steps]
M.PATTERN_STEPS = 1000000
--- Longest string a mod's string.rep, gsub or table.concat may build. [Units: bytes]
M.MAX_STRING_BYTES = 16 * 1024 * 1024
--- Longest chunk a mod's load compiles (the parser runs without hooks:
-- 1 MB takes about 30 ms). [Units: bytes]
M.MAX_CHUNK_BYTES = 1024 * 1024

local MANIFEST_KEYS = {
  name = true, version = true, description = true, depends = true, layers = true,
  profiles = true, postprocessors = true, heuristics = true, on = true, selftest = true,
}
local PROFILE_KEYS = {weights = true, algorithm = true, heuristic = true, weight = true, h_scale = true}

--- The allow-list: everything a sandboxed mod can reach through its
-- `lodestar` table, as dotted names in the package (require "lodestar").
-- A mod's table is built from these names only (each mod its own copy), so
-- what is not listed is not there: no grid.load, graph.load_dimacs,
-- lodestar.core, lodestar.testing, nothing that takes a path or opens a
-- file. docs/mods.md ("What a mod can call") lists the same names and
-- tests/spec/21-mod_escape_spec.lua checks the two against each other and
-- against everything a mod can reach. Names the package lacks are skipped.
M.MOD_API = {
  -- functions
  "find_path", "heuristic_distance", "prune_los", "status_name", "postprocess",
  "grid.new", "grid.from_ascii", "grid.from_rows", "grid.parse",
  "graph.new", "graph.from_grid", "graph.parse_dimacs",
  "scenario.parse",
  "path.new",
  "navmesh.new", "navmesh.parse",
  "search.astar", "search.dijkstra", "search.wastar", "search.greedy", "search.jps", "search.jps+",
  "search.theta", "search.lazytheta",
  "search.dstar_lite",
  "rule.terrain", "rule.near",
  "smooth.catmull_rom", "smooth.length", "smooth.resample", "smooth.postprocessor", "smooth.MAX_POINTS",
  -- data (each mod gets its own copy of the lists)
  "algorithms", "heuristics", "diagonal_rules", "coords_kinds", "_VERSION", "_NAME",
}

--- Methods of the lodestar objects a mod can hold: the ones it creates
-- through M.MOD_API, and the Path a post-processor is handed. The methods
-- live in metatables shared with the host, so they cannot differ per mod;
-- this list is what the escape spec checks they are (none takes a path or
-- opens a file, none returns an object the mod did not already hold).
M.MOD_METHODS = {
  ["lodestar.Grid"] = {"bake", "bake_commit", "blocked", "clone", "component", "connected", "cost",
    "cost_view", "cost_views",
    "diagonal", "free",
    "get_blocked", "get_cost", "height",
    "layer_add", "layer_get", "layer_list", "layer_range", "layer_remove", "layer_set",
    "line_of_sight", "mem_used", "min_cost", "neighbourhood", "outline", "passable_count",
    "polyline_cost",
    "set_blocked",
    "set_cost", "set_diagonal", "set_neighbourhood", "set_terrain", "size", "terrain",
    "to_navmesh", "version", "width"},
  ["lodestar.Graph"] = {"add_edge", "add_node", "coord_kind", "coords", "coords_kind", "distance",
    "edge", "edge_count", "find_edge", "free", "freeze", "frozen", "h_scale", "in_neighbors",
    "in_neighbours", "mem_used", "neighbors", "neighbours", "node_count", "set_edge_cost",
    "set_edge_cost_id", "version"},
  ["lodestar.Search"] = {"algorithm", "algorithm_used", "cost", "errmsg", "free", "graph", "grid",
    "h_scale", "jump_points", "partial_path", "path", "run", "start", "stats", "status", "step"},
  ["lodestar.DStar"] = {"compute", "cost", "endpoints", "errmsg", "flags", "free", "grid",
    "move_start", "next", "path", "stats", "status", "step", "subscribed", "update", "update_rect"},
  ["lodestar.Navmesh"] = {"bounds", "check_path", "find_path", "free", "locate", "mem_used",
    "nearest", "partial_path", "path", "piece_count", "poly", "poly_count", "start", "stats",
    "status", "step", "vertex", "vertex_count"},
  ["lodestar.Path"] = {"cell", "cells", "free", "node", "nodes", "prune_los", "replaced_costs",
    "reverse", "set_weights", "string_pull", "sub", "totable", "cost", "partial", "weights"},
  -- grid:cost_view: the shared costs of a weight set, which the mod's own
  -- find_path calls with those weights use anyway (allocated with the grid's
  -- allocator, the Lua state's)
  ["lodestar.CostView"] = {"build", "bytes", "cost", "drop", "ready", "scale", "weights"},
}

--- Methods of the same objects that only the host may call: they call the
-- host's functions (the renderer table of a debug draw) or write files. They
-- are in the shared metatables too, so each one checks the sandbox flag
-- this manager raises around every call into a mod, and raises "... is for
-- the host only" when a mod calls it. Reviewed: a method is either here or
-- on M.MOD_METHODS (the escape spec checks the two cover every method).
M.HOST_METHODS = {
  ["lodestar.Grid"] = {"draw"},
  ["lodestar.Search"] = {"draw", "picture"},
  ["lodestar.Path"] = {"draw"},
}

-- == small helpers ===========================================================

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b) return tostring(a) < tostring(b) end)
  return ks
end

local function pack(...) return {n = select("#", ...), ...} end

local function read_file(path)
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local s = f:read("*a")
  f:close()
  return s
end

-- Text of an error value without running mod code (a table's __tostring
-- would run outside the CPU guard).
local function errtext(e)
  if type(e) == "string" then return e end
  if type(e) == "number" or type(e) == "boolean" or e == nil then return tostring(e) end
  return ("(error object is a %s value)"):format(type(e))
end

-- "file:line: message" → file, line, message (nil file when no position).
local function split_error(msg)
  msg = errtext(msg)
  local file, line, rest = msg:match("^(.-):(%d+): (.*)$")
  if file and not file:find("\n", 1, true) then return file, tonumber(line), rest end
  file, rest = msg:match("^([^\n:]-%.lua): (.*)$")
  if file then return file, nil, rest end
  return nil, nil, msg
end

-- Line in `src` where `key = ` first appears (1 when not found): lets the
-- validator name a line for manifest fields that are plain values.
local function key_line(src, key)
  if not src then return 1 end
  local line = 1
  for l in (src .. "\n"):gmatch("([^\n]*)\n") do
    if l:find("%f[%w_]" .. key:gsub("%p", "%%%0") .. "%f[^%w_]%s*=")
      or l:find("%[%s*[\"']" .. key:gsub("%p", "%%%0") .. "[\"']%s*%]%s*=") then
      return line
    end
    line = line + 1
  end
  return 1
end

local function fn_line(f)
  local info = debug.getinfo(f, "S")
  return info and info.linedefined and info.linedefined > 0 and info.linedefined or nil
end

local function now_ms(self) return self.clock() * 1000 end

-- Deterministic text of a plain value (profiles are compared through it).
local function serialize(v)
  if type(v) ~= "table" then return type(v) == "string" and ("%q"):format(v) or tostring(v) end
  local parts = {}
  for _, k in ipairs(sorted_keys(v)) do parts[#parts + 1] = serialize(k) .. "=" .. serialize(v[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- Read-only view of a table (recursively, memoised): mods get their
-- lodestar table and grid views through these. A proxy is an empty table, so
-- rawset on it changes that proxy only; every mod gets its own proxies over
-- its own tables (mod_lodestar, view_of), so nothing one mod does to them
-- reaches another mod or the host. pairs works through __pairs (Lua 5.4).
-- Tables that are keys of `plain` are handed out as they are (a mod's own
-- data lists: # and ipairs work on them on both engines).
local function readonly(t, memo, plain)
  memo = memo or {}
  if memo[t] then return memo[t] end
  local proxy = {}
  memo[t] = proxy
  local function get(k)
    local v = t[k]
    if type(v) == "table" and not (plain and plain[v]) then return readonly(v, memo, plain) end
    return v
  end
  setmetatable(proxy, {
    __index = function(_, k) return get(k) end,
    __newindex = function(_, k)
      error(("attempt to modify read-only field '%s'"):format(tostring(k)), 2)
    end,
    __pairs = function()
      return function(_, k)
        local nk = next(t, k)
        if nk == nil then return nil end
        return nk, get(nk)
      end, proxy, nil
    end,
    __metatable = false,
  })
  return proxy
end

-- While mod code runs, the shared string metatable's __index is the
-- manager's private string table (bounded_string), not the host's `string`:
-- ("").dump is nil, and what a mod does to its own `string` copy changes no
-- method of any string. enter_strings returns the host's __index, which
-- leave_strings puts back; outside mod calls the host sees its own table.
local function enter_strings(self)
  local smt = getmetatable("")
  if type(smt) ~= "table" then return nil end
  local host = rawget(smt, "__index")
  self._strings_entered = true
  self._host_strindex = host
  rawset(smt, "__index", self._strindex)
  return host
end

local function leave_strings(self, host)
  local smt = getmetatable("")
  if type(smt) ~= "table" then return end
  rawset(smt, "__index", host)
  self._strings_entered, self._host_strindex = nil, nil
end

-- == the CPU guard ===========================================================

-- The guard of one call into mod code (self._g while it runs): an
-- instruction budget, a deadline on the manager's clock and a memory budget,
-- shared by every coroutine the call runs. A trip raises at the running mod
-- function and marks the guard, so no pcall inside the mod can swallow it.
-- "file:line: " of the function `level` levels above the caller, or "".
local function where(level)
  local info = debug.getinfo(level + 1, "Sl")
  if info and info.currentline and info.currentline > 0 then
    return ("%s:%d: "):format(info.short_src, info.currentline)
  end
  return ""
end


local THIS_FILE = debug.getinfo(1, "S").short_src
local core_ok, core = pcall(require, "lodestar.core")
-- The allocator's limit (bindings/lua/lds_guard.c; in the registry, out of
-- the mods' reach): it refuses growth past the limit, since a single
-- `s = s .. s` is one instruction and the hook cannot see it.
local memory_limit = core_ok and debug.getregistry()["lodestar.memory_limit"] or nil

-- The sandbox flag (bindings/lua/lds_guard.c; in the registry): raised
-- while a mod runs, so the host-only methods (M.HOST_METHODS) refuse to run.
local sandbox = core_ok and debug.getregistry()["lodestar.sandbox"] or nil

local function memory_msg(kb) return ("memory limit exceeded (%g KB)"):format(kb) end

-- Error level of the first caller (from `level` up) that is neither in this
-- file nor a C function: the mod's line rather than a wrapper's.
local function outer_level(level)
  while true do
    local info = debug.getinfo(level + 1, "S")
    if not info then return 0 end
    if info.short_src ~= THIS_FILE and info.what ~= "C" then return level end
    level = level + 1
  end
end

-- Calls the library function f (named `name` for the mod) for a wrapper
-- here and returns its results. An error f raises would name the wrapper's
-- line in this file (Lua 5.4 keeps the wrapper's frame under a C function)
-- or no line at all; it is raised again at the mod's own line (the first
-- caller outside this file) with the mod's name for the function, as an
-- unwrapped call would read: "mymod/mod.lua:7: bad argument #2 to 'sort'
-- (function expected, got number)". A message that already has a position
-- (raised by the mod's own comparator or metamethod) keeps it; the CPU
-- guard's and the memory limit's errors go on unchanged.
local THIS_POS = "^" .. THIS_FILE:gsub("%p", "%%%0") .. ":%d+: "
local function relevel(self, name, ok, ...)
  if ok then return ... end
  local e = ...
  local g = self._g
  if g and not g.tripped and memory_limit and select(2, memory_limit()) > 0 then
    g.tripped, g.msg = true, memory_msg(g.mem_kb)
  end
  if g and g.tripped then error(g.full or g.msg, 0) end
  if type(e) ~= "string" then error(e, 0) end
  local bare = e:gsub(THIS_POS, "", 1)
  if bare == e and e:find("^[^%s:][^:\n]*:%d+: ") then error(e, 0) end -- the mod's own position
  bare = bare:gsub("^(bad argument #%d+ to )'[^']*'", "%1'" .. name .. "'", 1)
  error(bare, outer_level(1))
end
local function lib_call(self, name, f, ...) return relevel(self, name, pcall(f, ...)) end

-- Stops the call: the message names the function that was running (level
-- 3: trip <- hook <- it), or the first caller outside this file when the
-- hook fired in one of the wrappers here.
local function trip(g, msg)
  -- fired in the guard's exit (guarded's finish, after fn returned and its
  -- trips were caught): the guard ends there, nothing to stop
  if debug.getinfo(3, "f").func == g.finish then g.closed = true; return end
  g.tripped = true
  g.msg = msg
  local level = outer_level(3)
  g.full = (level > 0 and where(level) or "") .. msg
  error(g.full, 0)
end

-- Charges n instructions to the guard in force (coroutine resumes, pattern
-- steps) and trips when the budget is spent; the error names the first
-- caller outside this file (the mod's line, not a wrapper's).
local function charge(self, n)
  local g = self._g
  if not g then return end
  g.used = g.used + n
  if g.used >= g.limit then
    g.tripped = true
    g.msg = ("instruction limit exceeded (%d instructions)"):format(g.limit)
    local level = outer_level(2)
    g.full = (level > 0 and where(level) or "") .. g.msg
    error(g.full, 0)
  end
end

-- A count hook of a manager charging `grain` instructions each time it fires.
-- It reads the guard in force (self._g) so coroutines created by mods (5.4
-- hooks are per thread) count against the same budget; outside guards it
-- returns at once. Each firing also reads the manager's clock (time limit)
-- and the Lua heap size (memory limit).
local function make_hook(self, grain)
  local clock = self.clock
  return function()
    local g = self._g
    if not g or g.closed then return end
    g.used = g.used + grain
    if g.used >= g.limit then
      trip(g, ("instruction limit exceeded (%d instructions)"):format(g.limit))
    end
    -- the clock once every GRAIN instructions, in whichever threads they ran
    g.since_clock = g.since_clock + grain
    if g.since_clock < M.GRAIN then return end
    g.since_clock = 0
    if clock() >= g.deadline then
      trip(g, ("time limit exceeded (%g ms)"):format(g.time_ms))
    end
    if collectgarbage("count") > g.mem_max then
      collectgarbage("collect") -- garbage is not the mod's fault: count live data only
      if collectgarbage("count") > g.mem_max then trip(g, memory_msg(g.mem_kb)) end
    end
  end
end

-- Calls fn(...) under the guard: at most `limit` instructions and
-- self.time_limit_ms of the manager's clock (or what is left of the account
-- self._acct, the budget of one mod's whole load in poll), and
-- self.memory_limit_kb of Lua heap growth. Returns true, results... or
-- false, message, tripped. Nested calls (a rule baked from inside a guarded
-- selftest) share the outer budget.
local function guarded(self, limit, fn, ...)
  if self._g then
    local r = pack(pcall(fn, ...))
    if not r[1] then return false, r[2], self._g.tripped end
    return table_unpack(r, 1, r.n)
  end
  local grain = math.min(M.GRAIN, limit)
  local oh, om, oc = debug.gethook()
  local t0 = self.clock()
  local acct = self._acct
  local ms = acct and math.max(0, acct.ms_left) or self.time_limit_ms
  local mem0 = collectgarbage("count")
  local g = {used = 0, since_clock = 0, limit = limit, deadline = t0 + ms / 1000, time_ms = self.time_limit_ms,
    mem_kb = self.memory_limit_kb, mem_max = mem0 + self.memory_limit_kb}
  self._g = g
  local host_strings = enter_strings(self) -- ("x"):rep(n), s:find(p): the bounded versions too
  -- the limit is lifted before pack allocates (LuaJIT does not collect
  -- before it reports an allocation failure)
  local mem_before, lifted
  local function settle(...)
    local refused = memory_limit and select(2, memory_limit(mem_before)) or 0
    lifted = true
    return refused, pack(...)
  end
  -- No trip may escape this function (it would leave the hook, self._g and
  -- the guard's string methods behind, and every later hook would trip in
  -- host code). The hook fires every `grain` instructions, also in the
  -- guard's own instructions around fn: a trip from run (after sethook,
  -- before fn starts, or after fn returns) is caught by finish's pcall, and
  -- the hook does nothing once it fires in finish itself (g.finish, the
  -- instructions from that pcall's return to debug.sethook()) or once
  -- g.closed is set.
  local hook = grain == M.GRAIN and self._hook or make_hook(self, grain)
  local function run(...)
    debug.sethook(hook, "", grain)
    local refused, r = settle(pcall(fn, ...))
    g.closed = true
    return refused, r
  end
  local function finish(...)
    local ok, refused, r = pcall(run, ...)
    debug.sethook()
    return ok, refused, r
  end
  g.finish = finish
  if memory_limit then -- from the allocator's own count: it includes the core's objects
    local _, _, total = memory_limit()
    mem_before = memory_limit(total + self.memory_limit_kb * 1024)
  end
  local was_sandboxed = sandbox and sandbox(true)
  local ok, refused, r = finish(...)
  if sandbox then sandbox(was_sandboxed) end
  g.closed = true
  if not ok then -- tripped in the guard's own instructions: the call ends as that trip
    local mrefused = memory_limit and not lifted and select(2, memory_limit(mem_before)) or 0
    refused, r = mrefused, {false, refused, n = 2}
  end
  leave_strings(self, host_strings)
  if type(oh) == "function" then debug.sethook(oh, om, oc) end
  if refused > 0 and not g.tripped then g.tripped, g.msg = true, memory_msg(g.mem_kb) end
  self._g = nil
  if acct then acct.ms_left = acct.ms_left - (self.clock() - t0) * 1000 end
  if g.tripped then
    local msg = r[1] and g.msg or errtext(r[2])
    if not msg:find(g.msg, 1, true) then msg = msg .. " (" .. g.msg .. ")" end
    return false, msg, true
  end
  if not r[1] then return false, r[2], false end
  return table_unpack(r, 1, r.n)
end

-- LuaJIT: hooks do not fire inside compiled traces, so mod code never gets
-- compiled (jit.off on the chunk and, recursively, every function in it).
local function nojit(f)
  if jit and type(f) == "function" then jit.off(f, true) end
  return f
end

-- LuaJIT: the Lua functions of the lodestar package a mod can call (smooth,
-- rule helpers, chains, and the local functions they call, found through
-- their upvalues) are not compiled either, or their loops would run
-- without hooks: jit.off on each (for every caller: the host's calls of
-- lodestar.smooth run interpreted too once a mod manager exists).
local function nojit_package(root)
  if not jit then return end
  local seen = {}
  local function walk(v, depth)
    if seen[v] or depth > 8 then return end
    if type(v) == "function" then
      seen[v] = true
      if debug.getinfo(v, "S").what == "C" then return end
      jit.off(v, true)
      local i = 1
      while true do
        local name, up = debug.getupvalue(v, i)
        if not name then break end
        if type(up) == "function" or (type(up) == "table" and up ~= _G) then walk(up, depth + 1) end
        i = i + 1
      end
    elseif type(v) == "table" and v ~= _G and v ~= string and v ~= table and v ~= math then
      seen[v] = true
      for _, x in pairs(v) do
        if type(x) == "function" or type(x) == "table" then walk(x, depth + 1) end
      end
    end
  end
  walk(root, 0)
  local ok, smooth = pcall(require, "lodestar.smooth") -- lodestar.smooth loads on first use
  if ok then walk(smooth, 0) end
end

-- == sandbox =================================================================

local function copy(t)
  local c = {}
  if t then for k, v in pairs(t) do c[k] = v end end
  return c
end

-- Compiles text (never bytecode) with env as its globals, on 5.4 and 5.1.
local function compile(text, chunkname, env)
  if type(text) ~= "string" then return nil, "chunk must be a string" end
  if text:byte(1) == 27 then
    return nil, ("%s: attempt to load a binary chunk (mode is 't')"):format(chunkname:gsub("^[@=]", ""))
  end
  local f, err
  if setfenv then
    f, err = load(text, chunkname, "t")
    if f then setfenv(f, env) end
  else
    f, err = load(text, chunkname, "t", env)
  end
  return nojit(f), err
end

-- Reads DIR/REL (REL = "mod.lua" or "lib/util.lua") if it is a regular file
-- reached without following a symbolic link, its folders under DIR
-- included: a link inside a mod's folder could point at any file of the host
-- (/etc/shadow, /dev/stdin). Returns the text, or nil, "link" (a link or
-- something other than a regular file on the way), or nil, "PATH: No such
-- file or directory".
local function read_mod_file(lfs, dir, rel)
  local lattr = lfs.symlinkattributes or lfs.attributes
  local path, mode = dir, nil
  for part in rel:gmatch("[^/]+") do
    if mode and mode ~= "directory" then return nil, "link" end
    path = path .. "/" .. part
    mode = lattr(path, "mode")
    if not mode then return nil, path .. ": No such file or directory" end
  end
  if mode ~= "file" then return nil, "link" end
  return read_file(path)
end

-- require for mod NAME: resolves "a.b" to ROOT/NAME/a/b.lua only; refuses
-- names that would leave the folder ("..", "/", absolute paths) and files
-- that are links (read_mod_file).
local function make_require(rec, env, trusted, lfs)
  local loaded = {}
  return function(modname)
    if type(modname) ~= "string" then
      error(("bad argument #1 to 'require' (string expected, got %s)"):format(type(modname)), 2)
    end
    if loaded[modname] ~= nil then return loaded[modname] end
    local ok_name = modname:match("^[%w_]+[%w_%.]*$") and not modname:find("..", 1, true)
      and modname:sub(-1) ~= "."
    local rel = ok_name and (modname:gsub("%.", "/") .. ".lua")
    local src, why
    if rel then src, why = read_mod_file(lfs, rec.dir, rel) end
    if not src then
      if trusted then return require(modname) end
      if why == "link" then
        error(("require '%s': refused ('%s/%s' is a link or not a regular file; a mod loads "
          .. "only regular files inside its folder)"):format(modname, rec.display, rel), 2)
      end
      if not ok_name then
        error(("require '%s': refused (a mod may only require files inside its folder, "
          .. "by name like 'rules' or 'lib.util')"):format(modname), 2)
      end
      error(("require '%s': no file '%s/%s'"):format(modname, rec.display, rel), 2)
    end
    local f, err = compile(src, "@" .. rec.display .. "/" .. rel, env)
    if not f then error(err, 0) end
    local v = f(modname)
    if v == nil then v = true end
    loaded[modname] = v
    return v
  end
end

-- The `lodestar` table of a sandboxed mod: fresh tables holding the names
-- of M.MOD_API found in `lod` (functions as they are; data lists copied, so
-- a mod owns its copy), behind read-only proxies. Nothing else of `lod`, of
-- its sub-tables or of its metatable is reachable from it.
local function mod_lodestar(lod)
  local api, lists = {}, {}
  for _, name in ipairs(M.MOD_API) do
    local src, dst, last = lod, api, nil
    for part in name:gmatch("[^.]+") do
      if last then
        src = type(src) == "table" and src[last] or nil
        if type(rawget(dst, last)) ~= "table" then rawset(dst, last, {}) end
        dst = dst[last]
      end
      last = part
    end
    local v = type(src) == "table" and src[last] or nil
    local tv = type(v)
    if tv == "table" then -- a data list: its strings and numbers only
      local c = {}
      for i = 1, #v do
        local e = rawget(v, i)
        if type(e) == "string" or type(e) == "number" then c[#c + 1] = e end
      end
      v = c
      lists[c] = true
    elseif tv ~= "function" and tv ~= "string" and tv ~= "number" then
      v = nil
    end
    if v ~= nil then rawset(dst, last, v) end
  end
  return readonly(api, nil, lists)
end

-- The coroutine library of a mod. On 5.4 hooks and instruction counts are
-- per thread: every resume (of a coroutine made here or anywhere else)
-- hooks the thread with the manager's coroutine hook (count CO_GRAIN) and
-- charges CO_GRAIN, so a tree of short coroutines pays for its work against
-- the one budget of the call. LuaJIT's hook is global (no per-thread set-up).
local function guarded_coroutine(self)
  local co = copy(coroutine)
  local resume, sethook = coroutine.resume, debug.sethook
  local cohook = self._cohook
  local depth = 0
  local function unnest(...)
    depth = depth - 1
    return ...
  end
  co.resume = function(t, ...)
    charge(self, M.CO_GRAIN)
    if depth >= M.MAX_RESUME_DEPTH then
      -- LuaJIT has no limit of its own on resumes nested in resumes (each
      -- holds C stack) and would crash the host
      return false, ("coroutines nest deeper than %d resumes (lodestar.mods.MAX_RESUME_DEPTH)")
        :format(M.MAX_RESUME_DEPTH)
    end
    if not jit and type(t) == "thread" then sethook(t, cohook, "", M.CO_GRAIN) end
    depth = depth + 1
    return unnest(resume(t, ...))
  end
  local co_resume = co.resume
  co.create = function(f)
    charge(self, M.CO_GRAIN)
    return coroutine.create(f)
  end
  co.wrap = function(f)
    local t = co.create(f)
    return function(...)
      local r = pack(co_resume(t, ...))
      if not r[1] then error(r[2], 0) end
      return table_unpack(r, 2, r.n)
    end
  end
  return co
end

-- The string library mods see, as env.string and as the methods of every
-- string while a guarded call runs (guarded swaps the string metatable's
-- __index to it): find, match, gmatch and gsub from lodestar.core.pattern
-- (bounded steps, charged to the guard; results longer than
-- MAX_STRING_BYTES refused), rep with the same length limit, no dump.
local function bounded_string(self)
  local lib = copy(string)
  lib.dump = nil
  if core_ok and type(core) == "table" and type(core.pattern) == "function" then
    local pat = core.pattern{max_steps = M.PATTERN_STEPS, max_len = M.MAX_STRING_BYTES,
      charge = function(n) charge(self, n) end}
    lib.find, lib.match, lib.gmatch, lib.gsub = pat.find, pat.match, pat.gmatch, pat.gsub
  end
  local rep = string.rep
  lib.rep = function(s, n, sep)
    if type(n) == "number" and (type(s) == "string" or type(s) == "number")
        and (sep == nil or type(sep) == "string" or type(sep) == "number") and n >= 1 then
      local len = #tostring(s) * n + (sep and #tostring(sep) * (n - 1) or 0)
      if len > M.MAX_STRING_BYTES then
        error(("bad argument #2 to 'rep' (result of %.0f bytes is longer than the limit of %d bytes "
          .. "for a mod)"):format(len, M.MAX_STRING_BYTES), outer_level(1))
      end
      charge(self, math.floor(len / 64))
    end
    return lib_call(self, "rep", rep, s, n, sep)
  end
  return lib
end

-- Table functions whose work a mod's sizes decide (a __len may claim 2^40
-- elements) are charged to the guard before the C code runs, and
-- table.concat refuses results longer than MAX_STRING_BYTES.
local function bounded_table(self, lib)
  local concat, insert, remove, move, unpack = table.concat, table.insert, table.remove, table.move,
    table_unpack
  local function count(a, b) return (type(a) == "number" and type(b) == "number" and b >= a) and b - a + 1 or 0 end
  lib.concat = function(t, sep, i, j)
    if type(t) == "table" then
      local len, n = 0, 0
      local first, last = i or 1, j or #t
      sep = sep or ""
      if type(first) == "number" and type(last) == "number" then
        charge(self, count(first, last))
        for k = first, last do
          local v = t[k]
          len = len + (type(v) == "string" and #v or 24) + (type(sep) == "string" and #sep or 0)
          n = n + 1
          if len > M.MAX_STRING_BYTES then
            error(("bad argument #1 to 'concat' (result longer than the limit of %d bytes for a mod)")
              :format(M.MAX_STRING_BYTES), outer_level(1))
          end
        end
      end
    end
    return lib_call(self, "concat", concat, t, sep, i, j)
  end
  lib.insert = function(t, ...)
    if select("#", ...) >= 2 and type(t) == "table" then charge(self, count(..., #t)) end
    return lib_call(self, "insert", insert, t, ...)
  end
  lib.remove = function(t, pos)
    if type(t) == "table" then charge(self, count(pos or #t, #t)) end
    return lib_call(self, "remove", remove, t, pos)
  end
  if move then
    lib.move = function(a1, f, e, t, a2)
      charge(self, count(f, e))
      return lib_call(self, "move", move, a1, f, e, t, a2)
    end
  end
  local sort = table.sort
  lib.sort = function(t, cmp) -- n log n comparisons in C (a comparator is Lua, hooked)
    if type(t) == "table" then
      local n = #t
      if n > 1 then charge(self, math.floor(n * math.log(n) / math.log(2))) end
    end
    return lib_call(self, "sort", sort, t, cmp)
  end
  lib.unpack = function(t, i, j)
    if type(t) == "table" then charge(self, count(i or 1, j or #t)) end
    return lib_call(self, "unpack", unpack, t, i, j)
  end
  return lib
end

-- pcall and xpcall for mod code (sandboxed and trusted): they cannot
-- swallow the CPU guard, since once it tripped the error goes on; nor can a
-- message handler: Lua runs it where the error was raised, and for the
-- guard's error that is inside its hook, where Lua 5.4 fires no hooks (a
-- looping handler would never be stopped), so once the guard has tripped
-- the handler is not called. Returns pcall, xpcall.
local function guarded_pcalls(self)
  local function rethrow(r)
    local g = self._g
    if g and not g.tripped and memory_limit and select(2, memory_limit()) > 0 then
      g.tripped, g.msg = true, memory_msg(g.mem_kb)
    end
    if g and g.tripped then error(g.full or g.msg, 0) end
    return table_unpack(r, 1, r.n)
  end
  local function guarded_pcall(...) return rethrow(pack(pcall(...))) end
  local function guarded_xpcall(f, h, ...)
    if type(h) ~= "function" then
      error(("bad argument #2 to 'xpcall' (function expected, got %s)"):format(type(h)), 2)
    end
    local args = pack(...)
    local function handler(e)
      local g = self._g
      if g and g.tripped then return e end
      return h(e)
    end
    return rethrow(pack(xpcall(function() return f(table_unpack(args, 1, args.n)) end, handler)))
  end
  return guarded_pcall, guarded_xpcall
end

local function make_env(self, rec, trusted)
  local env
  local lod = self.lodestar
  if trusted then
    env = setmetatable({}, {__index = _G})
    env.lodestar = lod
    env.coroutine = guarded_coroutine(self)
    env.pcall, env.xpcall = guarded_pcalls(self)
  else
    env = {
      assert = assert, error = error, ipairs = ipairs, next = next, pairs = pairs,
      select = select, tonumber = tonumber, tostring = tostring, type = type,
      rawequal = rawequal, rawget = rawget, rawset = rawset, rawlen = rawlen,
      unpack = table_unpack, _VERSION = _VERSION,
      string = copy(self._strlib), table = copy(table), math = copy(math),
      utf8 = utf8 and copy(utf8), bit = rawget(_G, "bit") and copy(rawget(_G, "bit")),
      os = {clock = os.clock, time = os.time, date = os.date, difftime = os.difftime},
      lodestar = mod_lodestar(lod),
    }
    -- bounded pattern functions and sizes (the CPU guard sees their work)
    env.table = bounded_table(self, env.table)
    env.unpack = env.table.unpack
    -- getmetatable only on tables: the string metatable and the lodestar
    -- userdata metatables are shared by every mod and the host
    env.getmetatable = function(v)
      if type(v) == "table" then return getmetatable(v) end
      return nil
    end
    -- no finalizers: a __gc would run mod code at collection time, outside
    -- the CPU guard (Lua 5.4 honours __gc on tables)
    env.setmetatable = function(t, mt)
      if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
        error("setmetatable: __gc is not allowed in a mod (it would run outside the CPU guard)", 2)
      end
      return lib_call(self, "setmetatable", setmetatable, t, mt)
    end
    env.collectgarbage = function(opt)
      if opt == "count" then return collectgarbage("count") end
      error("collectgarbage: only 'count' is allowed in a mod", 2)
    end
    env.pcall, env.xpcall = guarded_pcalls(self)
    -- yield only from a coroutine the mod created: a yield from the mod's
    -- own call would suspend the host's thread (when the host runs the
    -- manager inside a coroutine) in the middle of the guarded call
    local co = guarded_coroutine(self)
    local own = setmetatable({}, {__mode = "k"})
    local create = co.create
    co.create = function(f)
      local t = create(f)
      own[t] = true
      return t
    end
    co.wrap = function(f)
      local t = co.create(f)
      local resume = co.resume
      return function(...)
        local r = pack(resume(t, ...))
        if not r[1] then error(r[2], 0) end
        return table_unpack(r, 2, r.n)
      end
    end
    co.yield = function(...)
      if not own[coroutine.running()] then
        error("coroutine.yield: a mod may yield only from a coroutine it created", 2)
      end
      return coroutine.yield(...)
    end
    env.coroutine = co
    env.load = function(chunk, chunkname, mode, fenv)
      if mode ~= nil and mode ~= "t" then
        return nil, ("load: mode '%s' refused (a mod may load text chunks only)"):format(tostring(mode))
      end
      if chunkname ~= nil and type(chunkname) ~= "string" then
        return nil, ("load: chunkname must be a string, got %s"):format(type(chunkname))
      end
      if type(chunk) == "string" and #chunk > M.MAX_CHUNK_BYTES then -- the parser runs unhooked
        return nil, ("load: chunk of %d bytes refused (longer than the limit of %d bytes for a mod)")
          :format(#chunk, M.MAX_CHUNK_BYTES)
      end
      return compile(chunk, chunkname or "=(load)", fenv or env)
    end
  end
  env._G = env
  env.mod = rec.api
  env.print = function(...)
    local parts = pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    rec.log(table.concat(parts, "\t", 1, parts.n))
  end
  env.require = make_require(rec, env, trusted, self.lfs)
  return env
end

-- == manifest validation =====================================================

-- Raises "DISPLAY/mod.lua:LINE: manifest: message".
local function bad(cand, key, fmt, ...)
  local line = type(key) == "number" and key or key_line(cand.src, key)
  error(("%s:%d: manifest: " .. fmt):format(cand.file, line, ...), 0)
end

local function check_names(cand, field, t, kind, check)
  if t == nil then return {} end
  if type(t) ~= "table" then bad(cand, field, "'%s' must be a table of %s, got %s", field, kind, type(t)) end
  for _, k in ipairs(sorted_keys(t)) do
    if type(k) ~= "string" or not k:match(NAME_PAT) then
      bad(cand, field, "%s name %s in '%s' must match [a-z][a-z0-9_]* (it is namespaced as '%s.NAME')",
        kind, ("%q"):format(tostring(k)), field, cand.name)
    end
    check(k, t[k])
  end
  return t
end

-- Checks a manifest against the schema (docs/mods.md) and normalises it.
-- Plain copy of a manifest (raw reads, no metatables, 4 levels: manifest,
-- section, item, weights): what the host later reads is data the mod can no
-- longer change or intercept with metamethods.
local function plain(t, depth)
  if type(t) ~= "table" or depth == 0 then return t end
  local c = {}
  local k, v = next(t)
  while k ~= nil do
    c[k] = plain(v, depth - 1)
    k, v = next(t, k)
  end
  return c
end

-- A copy of a value a mod hands back to the host, made inside the guarded
-- call with raw access only (next, no metamethods), so no mod code runs
-- when the host later reads it: tables become plain tables (depth levels
-- deep), strings, numbers, booleans and lodestar userdata stay as they are,
-- functions and threads become nil.
local function raw_result(v, depth)
  local tv = type(v)
  if tv == "function" or tv == "thread" then return nil end
  if tv ~= "table" then return v end
  if depth <= 0 then error("post-processor result nested too deeply (expected a list of points or a path)", 0) end
  local c = {}
  local k, e = next(v)
  while k ~= nil do
    if type(k) == "string" or type(k) == "number" then c[k] = raw_result(e, depth - 1) end
    k, e = next(v, k)
  end
  return c
end

local function validate(_, cand, m)
  if type(m) ~= "table" then
    bad(cand, "return", "mod.lua must return a table (the manifest), got %s", type(m))
  end
  m = plain(m, 4)
  for k in pairs(m) do
    if not MANIFEST_KEYS[k] then
      local keys = sorted_keys(MANIFEST_KEYS)
      bad(cand, tostring(k), "unknown field '%s' (expected one of %s)", tostring(k), table.concat(keys, ", "))
    end
  end
  if type(m.name) ~= "string" then bad(cand, "name", "'name' must be a string, got %s", type(m.name)) end
  if m.name ~= cand.name then
    bad(cand, "name", "'name' is '%s' but the folder is '%s' (they must match)", m.name, cand.name)
  end
  if type(m.version) ~= "string" or m.version == "" then
    bad(cand, "version", "'version' must be a non-empty string like \"1.0.0\", got %s", type(m.version))
  end
  if m.description ~= nil and type(m.description) ~= "string" then
    bad(cand, "description", "'description' must be a string, got %s", type(m.description))
  end
  local deps = m.depends or {}
  if type(deps) ~= "table" then bad(cand, "depends", "'depends' must be a list of mod names") end
  for i, d in ipairs(deps) do
    if type(d) ~= "string" or not d:match(NAME_PAT) then
      bad(cand, "depends", "depends[%d] must be a mod name, got %s", i, tostring(d))
    end
    if d == cand.name then bad(cand, "depends", "mod '%s' depends on itself", d) end
  end
  check_names(cand, "layers", m.layers, "layer", function(k, v)
    local ok = type(v) == "function" or (type(v) == "table" and
      (type(v.rule) == "function") ~= (type(v.make) == "function"))
    if not ok then
      bad(cand, k, "layer '%s' must be a rule function(x, y, terrain, base_cost), "
        .. "{rule = function} or {make = function(view) -> rule}", k)
    end
    if type(v) == "table" then
      for kk in pairs(v) do
        if kk ~= "rule" and kk ~= "make" and kk ~= "description" then
          bad(cand, k, "layer '%s': unknown field '%s' (expected rule, make, description)", k, tostring(kk))
        end
      end
    end
  end)
  check_names(cand, "profiles", m.profiles, "profile", function(k, p)
    if type(p) ~= "table" then bad(cand, k, "profile '%s' must be a table", k) end
    for kk in pairs(p) do
      if not PROFILE_KEYS[kk] then
        bad(cand, k, "profile '%s': unknown field '%s' (expected %s)", k, tostring(kk),
          table.concat(sorted_keys(PROFILE_KEYS), ", "))
      end
    end
    -- the search options: checked by find_path's parser (lodestar.core.search_options)
    if core_ok then
      local ok, msg = pcall(core.search_options, p)
      if not ok then
        bad(cand, k, "profile '%s': %s", k, tostring(msg):match("^bad argument #%d+ to '[^']*' %((.*)%)$") or msg)
      end
    end
    if p.heuristic == "custom" then
      bad(cand, k, "profile '%s': heuristic 'custom' needs a function (not in a profile)", k)
    end
    if type(p.weights) == "table" then -- its names and values were checked above
      for _, lname in ipairs(sorted_keys(p.weights)) do
        local owner = lname:match("^([a-z][a-z0-9_]*)%.[a-z][a-z0-9_]*$")
        if owner and owner ~= cand.name then
          local listed = false
          for _, d in ipairs(deps) do listed = listed or d == owner end
          if not listed then
            bad(cand, k, "profile '%s' weights layer '%s' of mod '%s', which is not in 'depends'", k, lname, owner)
          end
        elseif not owner then
          if not lname:match(NAME_PAT) then bad(cand, k, "profile '%s': bad layer name '%s'", k, lname) end
          if not (m.layers and m.layers[lname]) then
            bad(cand, k, "profile '%s' weights layer '%s', which mod '%s' does not define", k, lname, cand.name)
          end
        end
      end
    end
  end)
  check_names(cand, "postprocessors", m.postprocessors, "post-processor", function(k, f)
    if type(f) ~= "function" then bad(cand, k, "post-processor '%s' must be a function(path, grid)", k) end
  end)
  check_names(cand, "heuristics", m.heuristics, "heuristic", function(k, f)
    if type(f) ~= "function" then bad(cand, k, "heuristic '%s' must be a function", k) end
  end)
  check_names(cand, "on", m.on, "event handler", function(k, f)
    if type(f) ~= "function" then bad(cand, k, "event handler '%s' must be a function", k) end
  end)
  if m.selftest ~= nil and type(m.selftest) ~= "function" then
    bad(cand, "selftest", "'selftest' must be a function, got %s", type(m.selftest))
  end
  return m
end

-- Qualified weights of a profile: unqualified layer names get the mod's prefix.
local function qualify_profile(modname, p)
  local out = {}
  for k, v in pairs(p) do out[k] = v end
  if p.weights then
    out.weights = {}
    for lname, w in pairs(p.weights) do
      local q = lname:find(".", 1, true) and lname or (modname .. "." .. lname)
      out.weights[q] = w
    end
  end
  return out
end

-- == file signatures (hot reload) ============================================

-- Lists ROOT/NAME/**.lua except the spec/ folder: {relpath = {mtime, size}}.
local function scan_files(self, dir, rel, out)
  out = out or {}
  local lfs = self.lfs
  local names = {}
  for entry in lfs.dir(dir) do
    if entry:sub(1, 1) ~= "." then names[#names + 1] = entry end
  end
  table.sort(names)
  for _, entry in ipairs(names) do
    local path = dir .. "/" .. entry
    local r = rel and (rel .. "/" .. entry) or entry
    -- links are not followed (a link to "/" or to its own folder would make
    -- every poll walk the disk or loop); a mod that requires one fails
    local a = (lfs.symlinkattributes or lfs.attributes)(path)
    if a and a.mode == "directory" then
      if not (rel == nil and entry == "spec") then scan_files(self, path, r, out) end
    elseif a and a.mode == "file" and entry:match("%.lua$") then
      out[r] = {mtime = a.modification, size = a.size, path = path}
    end
  end
  return out
end

-- Files changed between two scans. A file modified in the same second as its
-- last scan is "racy" (mtimes have 1 s resolution): its content is compared.
local function files_changed(old, new, now)
  if not old then return true end
  for r, n in pairs(new) do
    local o = old[r]
    if not o or o.mtime ~= n.mtime or o.size ~= n.size then return true end
    if o.content then
      local c = read_file(n.path)
      if c ~= o.content then return true end
      -- same content, and any later write will show a later mtime
      if now > o.mtime + 1 then o.content = nil end
    end
  end
  for r in pairs(old) do if not new[r] then return true end end
  return false
end

local function remember_content(files, scan_time)
  for _, f in pairs(files) do
    if f.mtime >= scan_time - 1 then f.content = read_file(f.path) end
  end
  return files
end

-- == grids and layers ========================================================

-- The per-cell functions of a grid view, compiled under the chunk name
-- "(lodestar view)": an error the C side raises in them (a bad argument)
-- carries that position, not this file's path, and they cost no more than
-- the method call itself (a pcall per cell would: rules call them per cell).
local VIEW_SRC = [=[
local grid = ...
local v = {}
function v.size() return grid:size() end
function v.width() return (grid:size()) end
function v.height() local _, h = grid:size(); return h end
function v.terrain(x, y) return grid:terrain(x, y) end
function v.cost(x, y) return grid:cost(x, y) end
function v.blocked(x, y) return grid:blocked(x, y) end
function v.get_cost(x, y) return grid:get_cost(x, y) end
function v.get_blocked(x, y) return grid:get_blocked(x, y) end
function v.layer_get(name, x, y) return grid:layer_get(name, x, y) end
function v.version() return grid:version() end
function v.line_of_sight(x0, y0, x1, y1) return grid:line_of_sight(x0, y0, x1, y1) end
function v.polyline_cost(points, opts) return grid:polyline_cost(points, opts) end
return v
]=]
local view_chunk -- VIEW_SRC compiled, on first use

-- A read-only view of a registered grid for mod code (rule factories, event
-- handlers): mods read the grid through it but cannot free it or touch the
-- layers of other mods. Every function calls a C method of the grid (or
-- lodestar.core's prune_los) with the mod's arguments, which the C side
-- type-checks; none calls a method of a value the mod passes, so no mod code
-- ever receives the grid.
local function grid_view(gname, grid)
  view_chunk = view_chunk or assert(load(VIEW_SRC, "=(lodestar view)"))
  local v = view_chunk(grid)
  v.name = gname
  -- prune_los(path, grid) of lodestar.core, under pcall: "bad argument #1
  -- to 'prune_los' (lodestar.Path expected, got table)" at the mod's line
  local prune_los = require("lodestar.core").prune_los
  function v.prune_los(path)
    local ok, r = pcall(prune_los, path, grid)
    if not ok then error(r, 2) end
    return r
  end
  return readonly(v)
end

-- The view of grid `gname` that mod `mname` gets (nil for an unknown grid):
-- one per mod and grid, so what a mod does to its view, rawset included,
-- no other mod and no host code sees. add_grid and remove_grid drop them.
local function view_of(self, mname, gname)
  local per = self._views[mname]
  if not per then
    per = {}
    self._views[mname] = per
  end
  local v = per[gname]
  if v == nil and self.grids[gname] ~= nil then
    v = grid_view(gname, self.grids[gname])
    per[gname] = v
  end
  return v
end

local function has_layer(grid, qname)
  for _, n in ipairs(grid:layer_list()) do if n == qname then return true end end
  return false
end

-- Bakes layer `lname` of record `rec` on one grid, into a block that is not
-- yet written (grid:bake's defer): returns true, baked (for commit) or
-- false, msg, tripped.
local function bake_one(self, rec, gname, lname, rect)
  local grid = self.grids[gname]
  local spec = rec.manifest.layers[lname]
  local qname = rec.name .. "." .. lname
  local w, h = grid:size()
  if rect then w, h = rect[3] - rect[1] + 1, rect[4] - rect[2] + 1 end
  return guarded(self, self.limit + self.cell_limit * math.max(0, w) * math.max(0, h), function()
    local rule = spec
    if type(spec) == "table" then
      rule = spec.rule
      if spec.make then
        rule = spec.make(view_of(self, rec.name, gname))
        if type(rule) ~= "function" then
          error(("layer '%s': make(view) returned %s (expected a rule function)"):format(lname, type(rule)), 0)
        end
      end
    end
    rawset(rec.api, "grid", view_of(self, rec.name, gname))
    local ok, err = pcall(grid.bake, grid, qname, rule, rect, true)
    rawset(rec.api, "grid", nil)
    if not ok then error(err, 0) end
    return err
  end)
end

-- Writes the blocks bake_one made: {{grid =, qname =, baked =}, ...}.
local function commit(self, bakes)
  for _, b in ipairs(bakes) do self.grids[b.grid]:bake_commit(b.qname, b.baked) end
end

-- == records and logging =====================================================

local function entry_of(rec_or_name, display, msg, level)
  local file, line, message = split_error(msg)
  local name = type(rec_or_name) == "table" and rec_or_name.name or rec_or_name
  return {level = level or "error", mod = name, file = file or (display and display .. "/mod.lua"),
    line = line, message = message,
    text = file and (line and ("%s:%d: %s"):format(file, line, message) or ("%s: %s"):format(file, message))
      or (display and ("%s/mod.lua: %s"):format(display, message) or message)}
end

local function log(self, entry)
  if self.logfn then
    -- mod.log and print run inside mod calls: the host's callback gets the
    -- host's string methods back while it runs
    local entered, host = self._strings_entered, self._host_strindex
    if entered then leave_strings(self, host) end
    local ok, err = pcall(self.logfn, entry.text, entry)
    if entered then enter_strings(self) end
    if not ok then io.stderr:write("lodestar.mods: log callback failed: ", tostring(err), "\n") end
  end
end

-- The `mod` table a mod sees (stable across reloads: `mod.state` survives).
-- Each load sets its fields again (with rawset: the mod may have given the
-- table a metatable), so what one version did to them does not carry over;
-- the host never reads a field a mod can write, except state (rawget).
local function new_api(self, name, display, api)
  api = api or {state = {}}
  rawset(api, "name", name)
  rawset(api, "dir", display)
  local function modlog(...)
    local parts = pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    log(self, {level = "info", mod = name, message = table.concat(parts, " ", 1, parts.n),
      text = ("[%s] %s"):format(name, table.concat(parts, " ", 1, parts.n))})
  end
  rawset(api, "log", modlog)
  -- mod.rebake(layer [, grid_name [, rect]]): queued, done by the manager
  -- after the current call into the mod returns (see manager:emit).
  rawset(api, "rebake", function(layer, gname, rect)
    if type(layer) ~= "string" then error("bad argument #1 to 'rebake' (layer name expected)", 2) end
    if gname ~= nil and type(gname) ~= "string" then
      error(("bad argument #2 to 'rebake' (grid name expected, got %s)"):format(type(gname)), 2)
    end
    -- the host reads the queue after the mod's call returns: keep plain
    -- values only (a mod table could run metamethods outside the guard)
    local r
    if rect ~= nil then
      if type(rect) ~= "table" then
        error(("bad argument #3 to 'rebake' (rect {x0, y0, x1, y1} expected, got %s)"):format(type(rect)), 2)
      end
      r = {}
      for i = 1, 4 do
        local v = rawget(rect, i)
        if type(v) ~= "number" or v ~= math.floor(v) then
          error(("bad argument #3 to 'rebake' (rect[%d]: integer expected, got %s)"):format(i, type(v)), 2)
        end
        r[i] = v
      end
    end
    self._rebake[#self._rebake + 1] = {mod = name, layer = layer, grid = gname, rect = r}
  end)
  rawset(api, "grids", function()
    local out = {}
    for _, g in ipairs(sorted_keys(self.grids)) do out[#out + 1] = view_of(self, name, g) end
    return out
  end)
  return api, modlog
end

local function is_trusted(self, name)
  local t = self.trusted
  if type(t) == "function" then return t(name) and true or false end
  return t[name] and true or false
end

-- == the manager =============================================================

local Manager = {}
Manager.__index = Manager

--- Creates a mod manager.
-- @param opts table:
--   root      directory holding one folder per mod (required) [Units: path]
--   grids     [opt] {name = lodestar.Grid}: grids the mods' layers are baked on
--   log       [opt] function(text, entry): errors, warnings and mod output;
--             entry = {level = "error"|"warn"|"info", mod, file, line, message, text}
--   trusted   [opt] {modname = true} or function(name) -> bool: mods that get
--             the full standard library (no sandbox; the CPU guard still applies)
--   instruction_limit [opt] per call into mod code [Units: VM instructions]
--             [Limit: >= 1; default M.DEFAULT_LIMIT = 1e7]
--   cell_limit [opt] extra instructions per baked cell: a bake of N cells runs
--             under instruction_limit + cell_limit * N [default 2000]
--   lodestar  [opt] the package a sandboxed mod's `lodestar` table is built
--             from, M.MOD_API names only (default require "lodestar");
--             trusted mods get it whole
--   lfs       [opt] luafilesystem (default require "lfs")
--   time_limit_ms [opt] per call into mod code, on `clock`; a mod's (re)load
--             in poll (mod.lua, validation, selftest, every bake) is one call
--             [Units: ms] [Limit: > 0; default M.DEFAULT_TIME_LIMIT_MS = 500]
--   memory_limit_kb [opt] growth of the Lua heap (live data) per call into
--             mod code [Units: KB] [Limit: > 0; default 65536 (64 MB)]
--   clock     [opt] function() -> seconds: the time limit and the ms of
--             events (default os.clock: CPU time)
--   only      [opt] list of mod names: load only these folders (mod specs use
--             it to load one mod and its dependencies)
-- @return the manager. Nothing is loaded until the first poll().
-- Errors: a missing or non-directory root, bad option types (raised).
-- [Owner: the manager keeps references to the grids; it never frees them]
function M.new(opts)
  if type(opts) ~= "table" then error("bad argument #1 to 'new' (table expected, got " .. type(opts) .. ")", 2) end
  if type(opts.root) ~= "string" then error("bad argument #1 to 'new' (opts.root must be a directory path)", 2) end
  local self = setmetatable({}, Manager)
  self.root = opts.root:gsub("/+$", "")
  if self.root == "" then self.root = "/" end
  self.lfs = opts.lfs or require "lfs"
  local a = self.lfs.attributes(self.root)
  if not a or a.mode ~= "directory" then
    error(("bad argument #1 to 'new' (opts.root '%s' is not a directory)"):format(self.root), 2)
  end
  if opts.log ~= nil and type(opts.log) ~= "function" then
    error("bad argument #1 to 'new' (opts.log must be a function)", 2)
  end
  self.logfn = opts.log
  self.trusted = opts.trusted or {}
  self.limit = opts.instruction_limit or M.DEFAULT_LIMIT
  if type(self.limit) ~= "number" or self.limit < 1 or self.limit ~= math.floor(self.limit) then
    error("bad argument #1 to 'new' (opts.instruction_limit must be an integer >= 1)", 2)
  end
  self.cell_limit = opts.cell_limit or M.DEFAULT_CELL_LIMIT
  if type(self.cell_limit) ~= "number" or self.cell_limit < 0 or self.cell_limit ~= math.floor(self.cell_limit) then
    error("bad argument #1 to 'new' (opts.cell_limit must be an integer >= 0)", 2)
  end
  if not opts.lodestar and not lodestar_default then lodestar_default = require "lodestar" end
  self.lodestar = opts.lodestar or lodestar_default
  nojit_package(self.lodestar)
  self.clock = opts.clock or os.clock
  self.time_limit_ms = opts.time_limit_ms or M.DEFAULT_TIME_LIMIT_MS
  if type(self.time_limit_ms) ~= "number" or not (self.time_limit_ms > 0) -- luacheck: ignore 581 (NaN-safe)
      or self.time_limit_ms == math.huge then
    error("bad argument #1 to 'new' (opts.time_limit_ms must be a finite number > 0)", 2)
  end
  self.memory_limit_kb = opts.memory_limit_kb or M.DEFAULT_MEMORY_LIMIT_KB
  if type(self.memory_limit_kb) ~= "number" or not (self.memory_limit_kb > 0) then -- luacheck: ignore 581
    error("bad argument #1 to 'new' (opts.memory_limit_kb must be a number > 0)", 2)
  end
  if opts.only ~= nil then
    if type(opts.only) ~= "table" then error("bad argument #1 to 'new' (opts.only must be a list of mod names)", 2) end
    self.only = {}
    for _, n in ipairs(opts.only) do self.only[n] = true end
  end
  self.grids = {}
  self._views = {}   -- mod name -> grid name -> that mod's view (view_of)
  self.mods = {}     -- name -> record (active or disabled)
  self.apis = {}     -- name -> the `mod` table (survives reloads and failures)
  self.failed = {}   -- name -> files of a candidate that failed (not retried until they change)
  self.order = {}    -- active mod names in load order
  self._rebake = {}
  self._hook = make_hook(self, M.GRAIN)
  self._strlib = bounded_string(self)
  self._strindex = self._strlib -- what string methods resolve to inside mod calls
  self._cohook = make_hook(self, M.CO_GRAIN)
  for _, g in ipairs(sorted_keys(opts.grids or {})) do self:add_grid(g, opts.grids[g]) end
  return self
end

-- Loads the candidate for folder `name`: compile, run mod.lua (guarded),
-- validate. Returns cand or nil, entry.
function Manager:_load(name, files)
  local display = self.root .. "/" .. name
  local rec = {name = name, dir = self.root .. "/" .. name, display = display,
    file = display .. "/mod.lua", files = files}
  rec.api, rec.log = new_api(self, name, display, self.apis[name])
  self.apis[name] = rec.api
  rec.trusted = is_trusted(self, name)
  if not name:match(NAME_PAT) then
    return nil, entry_of(name, display, ("%s/mod.lua:1: mod folder name '%s' must match [a-z][a-z0-9_]*")
      :format(display, name))
  end
  local src, err = read_mod_file(self.lfs, rec.dir, "mod.lua")
  if err == "link" then
    err = ("%s: refused: mod.lua is a link or not a regular file (a mod loads only regular files "
      .. "inside its folder)"):format(rec.file)
  end
  if not src then return nil, entry_of(name, display, err) end
  rec.src = src
  rec.env = make_env(self, rec, rec.trusted)
  local chunk, cerr = compile(src, "@" .. rec.file, rec.env)
  if not chunk then return nil, entry_of(name, display, cerr) end
  -- the whole (re)load of a mod is one call: one time budget (rec.acct)
  rec.acct = {ms_left = self.time_limit_ms}
  self._acct = rec.acct
  local ok, m, tripped = guarded(self, self.limit, chunk)
  if not ok then self._acct = nil; return nil, entry_of(name, display, m), tripped end
  -- validation reads mod tables (pairs may run a mod's __pairs): guarded
  local vok, verr, vtripped = guarded(self, self.limit, validate, self, rec, m)
  self._acct = nil
  if not vok then return nil, entry_of(name, display, verr), vtripped end
  m = verr -- the plain copy validate returned
  rec.manifest = m
  rec.depends = {}
  for i, d in ipairs(m.depends or {}) do rec.depends[i] = d end
  rec.version = m.version
  return rec
end

-- Cross-mod checks once dependencies are known: qualified weights must name
-- layers the dependency defines.
local function check_refs(rec, pool)
  for _, pname in ipairs(sorted_keys(rec.manifest.profiles or {})) do
    local p = rec.manifest.profiles[pname]
    for _, lname in ipairs(sorted_keys(p.weights or {})) do
      local owner, l = lname:match("^([a-z][a-z0-9_]*)%.([a-z][a-z0-9_]*)$")
      if owner and owner ~= rec.name then
        local dep = pool[owner]
        if not (dep and dep.manifest.layers and dep.manifest.layers[l]) then
          return ("%s:%d: manifest: profile '%s' weights layer '%s', which mod '%s' does not define")
            :format(rec.file, key_line(rec.src, pname), pname, lname, owner)
        end
      elseif owner == rec.name and not (rec.manifest.layers and rec.manifest.layers[l]) then
        return ("%s:%d: manifest: profile '%s' weights layer '%s', which mod '%s' does not define")
          :format(rec.file, key_line(rec.src, pname), pname, lname, owner)
      end
    end
  end
end

-- Topological order of `pool` (name -> rec), ties broken by name (Kahn).
-- Returns order, problems: problems[name] = message for mods that cannot load
-- (missing dependency, cycle, or depending on such a mod).
local function topo(pool)
  local problems = {}
  local names = sorted_keys(pool)
  for _, n in ipairs(names) do
    for _, d in ipairs(pool[n].depends) do
      if not pool[d] and not problems[n] then
        problems[n] = ("%s: mod '%s' depends on '%s', which is not installed (or failed to load)")
          :format(pool[n].file, n, d)
      end
    end
  end
  -- propagate: a mod depending on a problem mod is a problem too
  local changed = true
  while changed do
    changed = false
    for _, n in ipairs(names) do
      if not problems[n] then
        for _, d in ipairs(pool[n].depends) do
          if problems[d] then
            problems[n] = ("%s: mod '%s' depends on '%s', which cannot load"):format(pool[n].file, n, d)
            changed = true
            break
          end
        end
      end
    end
  end
  local indeg, order, done = {}, {}, {}
  for _, n in ipairs(names) do
    if not problems[n] then
      indeg[n] = 0
      for _ in ipairs(pool[n].depends) do indeg[n] = indeg[n] + 1 end
    end
  end
  while true do
    local pick
    for _, n in ipairs(names) do
      if indeg[n] == 0 and not done[n] then pick = n; break end
    end
    if not pick then break end
    done[pick] = true
    order[#order + 1] = pick
    for _, n in ipairs(names) do
      if indeg[n] and not done[n] then
        for _, d in ipairs(pool[n].depends) do
          if d == pick then indeg[n] = indeg[n] - 1 end
        end
      end
    end
  end
  -- what is left sits on or behind a cycle: name the cycle
  for _, n in ipairs(names) do
    if indeg[n] and not done[n] and not problems[n] then
      -- walk dependencies from n until a name repeats
      local seen, path, cur = {}, {}, n
      while not seen[cur] do
        seen[cur] = #path + 1
        path[#path + 1] = cur
        local nxt
        for _, d in ipairs(pool[cur].depends) do
          if indeg[d] and not done[d] then nxt = d; break end
        end
        cur = nxt
      end
      local cyc = {}
      for i = seen[cur], #path do cyc[#cyc + 1] = path[i] end
      cyc[#cyc + 1] = cur
      local text = table.concat(cyc, " -> ")
      local inside = {}
      for i = 1, #cyc - 1 do inside[cyc[i]] = true end
      for _, m in ipairs(names) do
        if indeg[m] and not done[m] and not problems[m] then
          if inside[m] then
            problems[m] = ("%s: dependency cycle: %s"):format(pool[m].file, text)
          end
        end
      end
      if not problems[n] then
        problems[n] = ("%s: mod '%s' depends on a dependency cycle: %s"):format(pool[n].file, n, text)
      end
    end
  end
  return order, problems
end

-- Layers of a record, qualified, sorted.
local function layer_names(rec)
  local out = {}
  if rec and rec.manifest and rec.manifest.layers then
    for _, l in ipairs(sorted_keys(rec.manifest.layers)) do out[#out + 1] = l end
  end
  return out
end

-- Removes every layer of `rec` from every grid.
function Manager:_drop_layers(rec, keep)
  for _, gname in ipairs(sorted_keys(self.grids)) do
    local grid = self.grids[gname]
    for _, l in ipairs(layer_names(rec)) do
      local q = rec.name .. "." .. l
      if not (keep and keep[l]) and has_layer(grid, q) then grid:layer_remove(q) end
    end
  end
end

-- Bakes all layers of `rec` on all grids and writes them together once all
-- succeeded: on a failure nothing is written (the running version's layers
-- stay as they were) and it returns false, msg, tripped. A rule sees the
-- layers of the running version, not the new version's other layers.
function Manager:_bake_all(rec)
  local bakes = {}
  for _, gname in ipairs(sorted_keys(self.grids)) do
    for _, l in ipairs(layer_names(rec)) do
      local ok, baked, tripped = bake_one(self, rec, gname, l)
      if not ok then return false, baked, tripped end
      bakes[#bakes + 1] = {grid = gname, qname = rec.name .. "." .. l, baked = baked}
    end
  end
  commit(self, bakes)
  return true
end

-- Changes caused by replacing `old` with `new` (either may be nil).
function Manager:_changes(old, new)
  local ch = {layers = {}, profiles = {}, postprocessors = {}, heuristics = {}}
  local name = (new or old).name
  local seen = {}
  local function add(list, v) if not seen[list] then seen[list] = {} end
    if not seen[list][v] then seen[list][v] = true; list[#list + 1] = v end end
  for _, r in ipairs{old or new, new or old} do
    for _, l in ipairs(layer_names(r)) do add(ch.layers, name .. "." .. l) end
    for _, k in ipairs{"postprocessors", "heuristics"} do
      for _, p in ipairs(sorted_keys(r and r.manifest and r.manifest[k] or {})) do add(ch[k], name .. "." .. p) end
    end
  end
  local op = old and old.manifest.profiles or {}
  local np = new and new.manifest.profiles or {}
  for _, p in ipairs(sorted_keys(op)) do
    if serialize(op[p]) ~= serialize(np[p]) then add(ch.profiles, name .. "." .. p) end
  end
  for _, p in ipairs(sorted_keys(np)) do
    if serialize(op[p]) ~= serialize(np[p]) then add(ch.profiles, name .. "." .. p) end
  end
  -- any profile (of any mod) weighting a changed layer
  local changed = {}
  for _, l in ipairs(ch.layers) do changed[l] = true end
  local pool = {}
  for _, n in ipairs(self.order) do pool[n] = self.mods[n] end
  if new then pool[new.name] = new end
  for _, n in ipairs(sorted_keys(pool)) do
    local r = pool[n]
    for _, p in ipairs(sorted_keys(r.manifest.profiles or {})) do
      local q = qualify_profile(n, r.manifest.profiles[p])
      for l in pairs(q.weights or {}) do
        if changed[l] then add(ch.profiles, n .. "." .. p) end
      end
    end
  end
  for _, k in pairs(ch) do table.sort(k) end
  return ch
end

local function event(self, name, result, t0, extra)
  local ev = {mod = name, result = result, ms = now_ms(self) - t0}
  for k, v in pairs(extra or {}) do ev[k] = v end
  local rec = self.mods[name]
  local what = ev.error and (": " .. ev.error.text) or ""
  if ev.changes and #ev.changes.layers > 0 then
    what = what .. " (layers " .. table.concat(ev.changes.layers, ", ") .. ")"
  end
  if result == "failed" and rec then
    -- the version that failed is the new one; name the one that keeps running
    ev.text = ("%s failed in %.1f ms (%s keeps running)%s"):format(name, ev.ms,
      rec.version and ("version " .. rec.version) or "the running version", what)
  else
    ev.text = ("%s%s %s in %.1f ms%s"):format(name, rec and rec.version and (" " .. rec.version) or "",
      result, ev.ms, what)
  end
  return ev
end

-- Unloads an active mod: its layers leave every grid.
function Manager:_unload(name)
  local rec = self.mods[name]
  if not rec then return nil end
  local ch = self:_changes(rec, nil)
  self:_drop_layers(rec)
  self.mods[name] = nil
  for i = #self.order, 1, -1 do if self.order[i] == name then table.remove(self.order, i) end end
  return ch
end

--- Checks the mod folders and loads, reloads or removes what changed.
-- New and changed mods load in a fresh environment; a new version replaces
-- the running one only if mod.lua (and what it requires) runs, the manifest
-- is valid, its dependencies are there, `selftest()` passes and every layer
-- bakes on every grid. Otherwise the running version stays and the error is
-- logged. A version that failed is not retried until its files change again.
-- Cheap when nothing changed: one lfs.attributes per file.
-- @return list of events {mod, result, ms, text [, error] [, changes]};
--   result is "loaded", "reloaded", "failed", "removed", "unloaded"
--   (a dependency went away) or "disabled" (CPU guard);
--   changes = {layers, profiles, postprocessors, heuristics} (qualified
--   names, sorted): the host restarts in-flight requests using those
--   profiles/layers. error = log entry {mod, file, line, message, text}.
function Manager:poll()
  local events = {}
  local lfs = self.lfs
  local scan_time = os.time()
  -- 1. scan folders
  local present, scans = {}, {}
  local names = {}
  for entry in lfs.dir(self.root) do
    if entry:sub(1, 1) ~= "." then
      local a = lfs.attributes(self.root .. "/" .. entry .. "/mod.lua")
      if a and a.mode == "file" and (not self.only or self.only[entry]) then names[#names + 1] = entry end
    end
  end
  table.sort(names)
  for _, n in ipairs(names) do
    present[n] = true
    scans[n] = scan_files(self, self.root .. "/" .. n)
  end
  -- 2. removed mods
  for _, n in ipairs(sorted_keys(self.mods)) do
    if not present[n] then
      local t0 = now_ms(self)
      local ch = self:_unload(n)
      events[#events + 1] = event(self, n, "removed", t0, {changes = ch})
      self.apis[n], self._views[n] = nil, nil
    end
  end
  for n in pairs(self.failed) do if not present[n] then self.failed[n] = nil end end
  -- 3. load candidates for new or changed folders
  local cands, t0s = {}, {}
  for _, n in ipairs(names) do
    local cur = self.mods[n]
    local known = self.failed[n] or (cur and cur.files)
    if files_changed(known, scans[n], scan_time) then
      t0s[n] = now_ms(self)
      remember_content(scans[n], scan_time)
      local cand, entry = self:_load(n, scans[n])
      if cand then
        cands[n] = cand
        cand.load_ms = now_ms(self) - t0s[n]
      else
        self.failed[n] = scans[n]
        log(self, entry)
        events[#events + 1] = event(self, n, "failed", t0s[n], {error = entry})
      end
    end
  end
  -- 4. dependency order over candidates and running versions
  local pool = {}
  for n, r in pairs(self.mods) do pool[n] = r end
  for n, c in pairs(cands) do pool[n] = c end
  local order, problems = topo(pool)
  -- a candidate with a problem is rejected; fall back to the running version
  local retry = false
  -- the ms of an event count this mod's own work only (its load, then its
  -- selftest and bakes), not the other mods loaded in between
  local function restart_clock(n) t0s[n] = now_ms(self) - (cands[n].load_ms or 0) end
  for _, n in ipairs(sorted_keys(problems)) do
    if cands[n] then
      restart_clock(n)
      local entry = entry_of(n, cands[n].display, problems[n])
      log(self, entry)
      events[#events + 1] = event(self, n, "failed", t0s[n], {error = entry})
      self.failed[n] = cands[n].files
      cands[n] = nil
      pool[n] = self.mods[n]
      retry = true
    end
  end
  if retry then order, problems = topo(pool) end
  -- running mods that lost a dependency are unloaded
  for _, n in ipairs(sorted_keys(problems)) do
    if self.mods[n] then
      local t0 = now_ms(self)
      local entry = entry_of(n, self.mods[n].display, problems[n])
      log(self, entry)
      local ch = self:_unload(n)
      self.failed[n] = nil
      events[#events + 1] = event(self, n, "unloaded", t0, {error = entry, changes = ch})
    end
  end
  -- 5. in dependency order: cross-checks, selftest, bake, swap
  for _, n in ipairs(order) do
    local cand = cands[n]
    local lost
    for _, d in ipairs((cand or self.mods[n] or {depends = {}}).depends) do
      if not pool[d] then lost = d; break end
    end
    if cand then restart_clock(n) end
    if lost then
      -- a dependency failed its first load in this poll
      local rec = cand or self.mods[n]
      local entry = entry_of(n, rec.display, ("%s: mod '%s' depends on '%s', which failed to load")
        :format(rec.file, n, lost))
      log(self, entry)
      pool[n] = nil
      if cand then
        self.failed[n] = cand.files
        events[#events + 1] = event(self, n, "failed", t0s[n], {error = entry})
      else
        local t0 = now_ms(self)
        local ch = self:_unload(n)
        events[#events + 1] = event(self, n, "unloaded", t0, {error = entry, changes = ch})
      end
    elseif cand then
      local old = self.mods[n]
      local err, tripped = check_refs(cand, pool), false
      self._acct = cand.acct -- selftest and bakes: the rest of the load's time budget
      if not err and cand.manifest.selftest then
        local ok, res, msg = guarded(self, self.limit, cand.manifest.selftest)
        if not ok then
          err, tripped = errtext(res), msg
        elseif res == false then
          err = ("%s:%d: selftest failed: %s"):format(cand.file, fn_line(cand.manifest.selftest) or 1,
            errtext(msg or "returned false"))
        end
      end
      if not err then
        local ok, berr, btripped = self:_bake_all(cand)
        if not ok then err, tripped = berr, btripped end
      end
      self._acct = nil
      if err then
        local entry = entry_of(cand, cand.display, err)
        log(self, entry)
        self.failed[n] = cand.files
        pool[n] = old
        events[#events + 1] = event(self, n, "failed", t0s[n], {error = entry, tripped = tripped or nil})
      else
        -- swap: layers the old version had and the new one lacks go away
        if old then
          local keep = {}
          for _, l in ipairs(layer_names(cand)) do keep[l] = true end
          self:_drop_layers(old, keep)
        end
        local ch = self:_changes(old, cand)
        self.mods[n] = cand
        rawset(cand.api, "version", cand.version)
        self.failed[n] = nil
        events[#events + 1] = event(self, n, old and "reloaded" or "loaded", t0s[n], {changes = ch})
      end
    end
  end
  -- 6. the load order of what runs now
  local active = {}
  for n, r in pairs(self.mods) do active[n] = r end
  self.order = (topo(active))
  -- a dependency that changed may have dropped a layer a dependent weights
  if #events > 0 then
    for _, n in ipairs(self.order) do
      local err = check_refs(self.mods[n], self.mods)
      if err then
        local entry = entry_of(n, self.mods[n].display, err)
        entry.level = "warn"
        log(self, entry)
      end
    end
  end
  for _, ev in ipairs(self:_flush_rebakes()) do events[#events + 1] = ev end
  for _, ev in ipairs(self:take_disabled()) do events[#events + 1] = ev end
  return events
end

-- Disables a running mod after its code tripped the CPU guard.
function Manager:_disable(rec, msg)
  if rec.disabled then return end
  rec.disabled = true
  local entry = entry_of(rec, rec.display, msg)
  entry.message = entry.message .. "; mod disabled until its files change"
  entry.text = entry.text .. "; mod disabled until its files change"
  rec.error = entry
  log(self, entry)
  self._disabled_events = self._disabled_events or {}
  self._disabled_events[#self._disabled_events + 1] = {mod = rec.name, result = "disabled", ms = 0,
    error = entry, text = rec.name .. " disabled: " .. entry.text}
end

-- Calls a function of running mod `rec` under the guard; on a trip the mod
-- is disabled. Returns ok, results... or false, msg.
function Manager:_call(rec, fn, ...)
  local r = pack(guarded(self, self.limit, fn, ...))
  if not r[1] then
    -- the message as text: an error object's __tostring would run mod code
    -- outside the guard when the host prints it
    if r[3] then self:_disable(rec, r[2]) else log(self, entry_of(rec, rec.display, r[2])) end
    return false, errtext(r[2])
  end
  return table_unpack(r, 1, r.n)
end

-- Splits "mod.thing" and returns the running record and the thing's name.
function Manager:_lookup(qname, what)
  if type(qname) ~= "string" then
    error(("bad argument #1 to '%s' (string 'mod.name' expected, got %s)"):format(what, type(qname)), 3)
  end
  local mname, item = qname:match("^([a-z][a-z0-9_]*)%.([a-z][a-z0-9_]*)$")
  if not mname then
    error(("bad argument #1 to '%s' (expected a qualified name 'mod.name', got '%s')"):format(what, qname), 3)
  end
  return self.mods[mname], item
end

--- Search options of a profile, ready for lodestar.find_path.
-- @param qname "mod.profile", e.g. "danger.cautious"
-- @return a fresh table {weights = {["mod.layer"] = w}, algorithm, heuristic,
--   weight, h_scale} (only the fields the profile sets; layer names
--   qualified), or nil, message when no running mod has that profile.
--   A disabled mod's profiles stay available (they are data; its layers keep
--   their last baked values). Pass `algorithm` to find_path; for
--   lodestar.search.<algorithm>(grid, opts) remove it from the table first.
function Manager:profile(qname)
  local rec, item = self:_lookup(qname, "profile")
  local p = rec and rec.manifest.profiles and rec.manifest.profiles[item]
  if not p then return nil, ("no profile '%s'"):format(qname) end
  return qualify_profile(rec.name, p)
end

--- Runs a mod's post-processor on a path under the CPU guard.
-- @param qname "mod.postprocessor"; @param path a lodestar.Path (or what the
--   previous step returned); @param grid [opt] the lodestar.Grid of the path;
--   the function gets a read-only view of it (view.prune_los(path),
--   view.line_of_sight(...), view.terrain(x, y), ...), never the grid
-- @return what the post-processor returned; or, when it is missing, failed
--   or its mod is disabled, the input unchanged plus an error message (the
--   error is also logged; a runaway loop disables the mod).
function Manager:postprocess(qname, path, grid)
  local rec, item = self:_lookup(qname, "postprocess")
  local f = rec and rec.manifest.postprocessors and rec.manifest.postprocessors[item]
  if not f then return path, ("no post-processor '%s'"):format(qname) end
  if rec.disabled then return path, ("mod '%s' is disabled"):format(rec.name) end
  -- the mod gets a read-only view, never the grid itself
  local view
  if grid ~= nil then
    for gname, g in pairs(self.grids) do if rawequal(g, grid) then view = view_of(self, rec.name, gname) end end
    view = view or grid_view("(unregistered)", grid)
  end
  local ok, out = self:_call(rec, function(p, v) return raw_result(f(p, v), 4) end, path, view)
  if not ok then return path, out end
  if out == nil then return path, ("post-processor '%s' returned nil"):format(qname) end
  return out
end

--- A mod's heuristic, wrapped so that every call runs under the CPU guard.
-- @param qname "mod.heuristic"
-- @return function(...) -> number (the mod's function, guarded; an error
--   raises, a runaway loop disables the mod and raises), or nil, message.
function Manager:heuristic(qname)
  local rec, item = self:_lookup(qname, "heuristic")
  local f = rec and rec.manifest.heuristics and rec.manifest.heuristics[item]
  if not f then return nil, ("no heuristic '%s'"):format(qname) end
  return function(...)
    if rec.disabled then error(("heuristic '%s': mod '%s' is disabled"):format(qname, rec.name), 2) end
    local r = pack(self:_call(rec, function(...)
      local h = f(...)
      if type(h) ~= "number" then -- a table's __add or __lt would run mod code in the host
        error(("heuristic '%s' returned %s (expected a number)"):format(qname, type(h)), 0)
      end
      return h
    end, ...))
    if not r[1] then error(r[2], 0) end
    return r[2]
  end
end

--- Sends an event to every running mod that handles it (manifest `on`), in
-- load order, each call under the CPU guard. Layers the handlers asked to
-- re-bake (mod.rebake) are baked afterwards.
-- @param name event name, e.g. "tick" or "agents"; @param ... its arguments
--   (the manager passes them as they are; conventions in docs/mods.md)
-- @return list of events (re-bakes with their changes, errors, disables)
function Manager:emit(name, ...)
  local events = {}
  for _, n in ipairs(self.order) do
    local rec = self.mods[n]
    local f = rec and not rec.disabled and rec.manifest.on and rec.manifest.on[name]
    if f then
      local t0 = now_ms(self)
      local ok, err = self:_call(rec, f, ...)
      if not ok and not rec.disabled then
        events[#events + 1] = event(self, n, "failed", t0, {error = entry_of(rec, rec.display, err)})
      end
    end
  end
  for _, ev in ipairs(self:_flush_rebakes()) do events[#events + 1] = ev end
  for _, ev in ipairs(self:take_disabled()) do events[#events + 1] = ev end
  return events
end

-- Runs the queued mod.rebake requests (in request order, each once).
function Manager:_flush_rebakes()
  local events, seen = {}, {}
  local queue = self._rebake
  self._rebake = {}
  for _, q in ipairs(queue) do
    local rec = self.mods[q.mod]
    local key = q.mod .. "\0" .. q.layer .. "\0" .. tostring(q.grid) .. "\0" .. serialize(q.rect)
    if rec and not rec.disabled and not seen[key] then
      seen[key] = true
      local t0 = now_ms(self)
      if not (rec.manifest.layers and rec.manifest.layers[q.layer]) then
        local entry = entry_of(rec, rec.display, ("mod.rebake: mod '%s' has no layer '%s'"):format(q.mod, q.layer))
        log(self, entry)
        events[#events + 1] = event(self, q.mod, "failed", t0, {error = entry})
      else
        local grids = q.grid and {q.grid} or sorted_keys(self.grids)
        local failed
        local bakes = {} -- written together once every grid baked
        self._acct = {ms_left = self.time_limit_ms} -- one re-bake on every grid: one call
        for _, g in ipairs(grids) do
          if self.grids[g] then
            local ok, baked, tripped = bake_one(self, rec, g, q.layer, q.rect)
            if not ok then
              failed = baked
              if tripped then self:_disable(rec, baked) else log(self, entry_of(rec, rec.display, baked)) end
              break
            end
            bakes[#bakes + 1] = {grid = g, qname = q.mod .. "." .. q.layer, baked = baked}
          end
        end
        self._acct = nil
        if not failed then commit(self, bakes) end
        local ch = {layers = {q.mod .. "." .. q.layer}, profiles = {}, postprocessors = {}, heuristics = {}}
        if failed then
          if not rec.disabled then -- a disable is reported by take_disabled
            events[#events + 1] = event(self, q.mod, "failed", t0, {error = entry_of(rec, rec.display, failed)})
          end
        else
          ch = self:_changes_layers(ch)
          events[#events + 1] = event(self, q.mod, "rebaked", t0, {changes = ch})
        end
      end
    end
  end
  return events
end

-- Adds the profiles that weight any of ch.layers.
function Manager:_changes_layers(ch)
  local changed = {}
  for _, l in ipairs(ch.layers) do changed[l] = true end
  for _, n in ipairs(self.order) do
    local r = self.mods[n]
    for _, p in ipairs(sorted_keys(r.manifest.profiles or {})) do
      for l in pairs(qualify_profile(n, r.manifest.profiles[p]).weights or {}) do
        if changed[l] then ch.profiles[#ch.profiles + 1] = n .. "." .. p; break end
      end
    end
  end
  table.sort(ch.profiles)
  return ch
end

--- Registers a grid: every running mod's layers are baked on it.
-- @param name grid name (what `view.name` shows mods); @param grid lodestar.Grid
-- @return list of events for layers that failed to bake (empty when all went well)
-- [Owner: the caller keeps owning the grid; remove_grid before freeing it]
function Manager:add_grid(name, grid)
  if type(name) ~= "string" then error("bad argument #1 to 'add_grid' (string expected)", 2) end
  if type(grid) ~= "userdata" then error("bad argument #2 to 'add_grid' (lodestar.Grid expected)", 2) end
  self.grids[name] = grid
  for _, per in pairs(self._views) do per[name] = nil end
  local events = {}
  for _, n in ipairs(self.order) do
    local rec = self.mods[n]
    if not rec.disabled then
      self._acct = {ms_left = self.time_limit_ms} -- the mod's layers on the new grid: one call
      local bakes, failed = {}, false -- written together once all baked
      for _, l in ipairs(layer_names(rec)) do
        local t0 = now_ms(self)
        local ok, err, tripped = bake_one(self, rec, name, l)
        if not ok then
          if tripped then self:_disable(rec, err) else log(self, entry_of(rec, rec.display, err)) end
          events[#events + 1] = event(self, n, "failed", t0, {error = entry_of(rec, rec.display, err)})
          failed = true
          break
        end
        bakes[#bakes + 1] = {grid = name, qname = n .. "." .. l, baked = err}
      end
      self._acct = nil
      if not failed then commit(self, bakes) end
    end
  end
  return events
end

--- Unregisters a grid and removes the mods' layers from it.
-- @param name the name given to add_grid
function Manager:remove_grid(name)
  local grid = self.grids[name]
  if not grid then return end
  for _, n in ipairs(self.order) do
    for _, l in ipairs(layer_names(self.mods[n])) do
      local q = n .. "." .. l
      if has_layer(grid, q) then grid:layer_remove(q) end
    end
  end
  self.grids[name] = nil
  for _, per in pairs(self._views) do per[name] = nil end
end

--- Events of mods disabled by the CPU guard since the last call (postprocess
-- and heuristic calls happen outside poll/emit, so their disables queue here).
-- @return list of events {mod, result = "disabled", error, text}
function Manager:take_disabled()
  local evs = self._disabled_events or {}
  self._disabled_events = nil
  return evs
end

--- State of the mods.
-- @return list, in load order, of {name, version, status = "running" |
--   "disabled", error = entry or nil, layers = {qualified...},
--   profiles = {qualified...}, postprocessors = {qualified...}}
function Manager:list()
  local out = {}
  for _, n in ipairs(self.order) do
    local r = self.mods[n]
    local function q(t)
      local l = {}
      for _, k in ipairs(sorted_keys(t or {})) do l[#l + 1] = n .. "." .. k end
      return l
    end
    out[#out + 1] = {name = n, version = r.version, status = r.disabled and "disabled" or "running",
      error = r.error, layers = q(r.manifest.layers), profiles = q(r.manifest.profiles),
      postprocessors = q(r.manifest.postprocessors), heuristics = q(r.manifest.heuristics)}
  end
  return out
end

--- The `mod.state` table of a mod (for hosts and tests), or nil.
function Manager:state(name)
  local api = self.apis[name]
  return api and rawget(api, "state")
end

--- Unloads every mod (their layers leave the grids) and forgets the grids.
function Manager:close()
  for i = #self.order, 1, -1 do self:_unload(self.order[i]) end
  self.grids, self._views = {}, {}
end

--- Does a list of events (from poll or emit) touch a request?
-- @param events list of events as poll() and emit() return them
-- @param what   a profile name ("danger.cautious"), or search options with
--               `weights` (layer names as find_path takes them)
-- @return true when the host should restart an in-flight request made with
--   `what`: its profile changed, or a layer it weights was re-baked or removed.
function M.affected(events, what)
  for _, ev in ipairs(events) do
    local ch = ev.changes
    if ch then
      if type(what) == "string" then
        for _, p in ipairs(ch.profiles) do if p == what then return true end end
      elseif type(what) == "table" and what.weights then
        for _, l in ipairs(ch.layers) do
          if what.weights[l] ~= nil and what.weights[l] ~= 0 then return true end
        end
      end
    end
  end
  return false
end

M.Manager = Manager
M._split_error = split_error -- for tests
return M
