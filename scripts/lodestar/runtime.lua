-- SPDX-License-Identifier: MIT
--- lodestar.runtime — the Lua half of the C embedding runtime
-- (runtime/lds_runtime.c). Not for use on its own: the runtime calls
-- `require("lodestar.runtime")(host)` once with a table of C functions and
-- gets back the table R below. It adds `lodestar.request_path` and
-- `lodestar.grids` to the package, keeps the Lua handles of requests in
-- flight, drives the mod manager, and restarts requests after a reload.
--
-- Requests made from Lua go through the runtime's lodestar.Scheduler (the
-- binding of the C scheduler, bindings/lua/lua_scheduler.c): the C host
-- passes it as host.scheduler (it is the lds_Scheduler that
-- lds_runtime_scheduler returns, shared with the host's C requests); without
-- one this file makes its own (lodestar.scheduler.new), so it also runs on
-- plain Lua 5.4 or LuaJIT without the C runtime.
--
-- host (C closures over the runtime):
--   host.scheduler                     the runtime's lodestar.Scheduler [opt]
--   host.set_params(id, grid, opts) -> true | nil, msg   (C requests with a profile)
--   host.status(id) -> status name      (C requests; "arg" when stale)
--   host.log(level, text)              level 0 error, 1 warning, 2 info
--   host.lua_error(text)               logs a Lua error (level 0) and counts it
--   host.clock() -> seconds             the runtime's env.clock (mods' time limit)
--   host.mod_event(mod, result, ms, text, error, restarted)

local lodestar = require "lodestar"
local core = require "lodestar.core"

-- option names request_path passes to the search (the rest are its own);
-- they are checked by lodestar.core.search_options, find_path's parser.
-- `algo` is the deprecated spelling of `algorithm` (docs/lua-api.md).
local SEARCH_KEYS = {algorithm = true, heuristic = true, weight = true, h_scale = true, weights = true,
  partial = true}
local REQUEST_KEYS = {grid = true, start = true, goal = true, priority = true, agent = true,
  on_done = true, profile = true, algo = true}
for k in pairs(SEARCH_KEYS) do REQUEST_KEYS[k] = true end

local function sorted_keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out, function(a, b) return tostring(a) < tostring(b) end)
  return out
end

return function(host)
  -- tracked: C requests made with a profile (C handle -> entry); lua_tracked:
  -- Lua requests with a profile or weights (sequence number -> entry)
  local R = {grids = {}, tracked = {}, lua_tracked = {}, manager = nil, mods = nil}
  local seq = 0
  local sched, own_sched = host.scheduler, host.scheduler == nil
  if own_sched then sched = core.scheduler.new() end
  R.scheduler = sched
  -- an error in a Lua on_done: logged with its traceback, counted, the tick goes on
  sched:on_error(function(msg)
    if host.lua_error then host.lua_error(msg) elseif host.log then host.log(0, msg) end
  end)

  --- A request handle (what lodestar.request_path returns).
  -- Fields: status ("running" until delivered, then "found", "no_path",
  -- "cancelled" or an error name such as "stale"), path (a lodestar.Path
  -- once found, or with `partial` the partial path of a no_path request;
  -- owned by the handle; it remembers the request's layer weights,
  -- path.weights, for post-processing), cost [Units: cost] (-1 without a
  -- path), frames (frames it waited), error (message of an error status),
  -- id (the scheduler handle), agent, profile, on_done; request (the
  -- lodestar.Request while it runs).
  local Handle = {}
  Handle.__index = Handle
  Handle.__name = "lodestar.Request"
  function Handle.__tostring(h)
    return ("lodestar.Request %s %s"):format(h.profile or "-", h.status)
  end

  --- handle:cancel() — drops the request if it is still running (no
  -- on_done call); status becomes "cancelled". Returns true if it was running.
  function Handle:cancel()
    if self.status ~= "running" then return false end
    self.request:cancel()
    self.request:release()
    if self._key then R.lua_tracked[self._key] = nil end
    self.request, self.status = nil, "cancelled"
    return true
  end

  -- opts for the C side: the profile's, then the request's own fields
  local function build_opts(spec, profile_opts)
    local opts = {}
    if profile_opts then
      for k, v in pairs(profile_opts) do opts[k] = v end
    end
    for k in pairs(SEARCH_KEYS) do
      if spec[k] ~= nil then
        if k == "weights" and opts.weights then
          local w = {}
          for n, x in pairs(opts.weights) do w[n] = x end
          for n, x in pairs(spec.weights) do w[n] = x end
          opts.weights = w
        else
          opts[k] = spec[k]
        end
      end
    end
    if spec.algo ~= nil then opts.algorithm = spec.algo end
    return opts
  end

  -- opts checked and normalised by the binding's parser (find_path's
  -- checks and messages, naming request_path); raises at the caller's level
  local function check_opts(opts, grid, level)
    local ok, res = pcall(core.search_options, opts, grid, "request_path")
    if not ok then error(res, level + 1) end
    return res
  end

  -- "mod.profile" as the manager spells qualified names (mods.lua _lookup)
  local function qualified(name)
    return name:match("^[a-z][a-z0-9_]*%.[a-z][a-z0-9_]*$") ~= nil
  end
  -- "unknown profile 'NAME' (what exists)", worded as the C side's
  -- unknown_profile (lds_runtime.c): the name once, then the profiles
  local function unknown_profile(name)
    local all = {}
    for _, m in ipairs(R.manager:list()) do
      for _, p in ipairs(m.profiles) do all[#all + 1] = p end
    end
    if #all == 0 then
      return ("unknown profile '%s'%s (the running mods define no profiles)")
        :format(name, qualified(name) and "" or ", expected 'mod.profile'")
    end
    return ("unknown profile '%s' (%sprofiles: %s)")
      :format(name, qualified(name) and "" or "expected 'mod.profile'; ", table.concat(all, ", "))
  end

  -- the opts of a profile, or nil and a message; the C host calls it (an
  -- unknown profile is the caller's bad argument, not a Lua error to log)
  R.try_profile = function(name)
    if not R.manager then
      return nil, ("profile '%s' but the runtime has no mods (set mods_dir)"):format(name)
    end
    -- the manager raises on a malformed name: that too is an unknown one
    if not qualified(name) then return nil, unknown_profile(name) end
    local p = R.manager:profile(name)
    if not p then return nil, unknown_profile(name) end
    return p
  end
  local function profile_opts(name, level)
    local p, msg = R.try_profile(name)
    if not p then error(("bad argument #1 to 'request_path' (%s)"):format(msg), level + 1) end
    return p
  end

  -- A coordinate as the caller wrote it (the C binding's ldsl_fmt_coord):
  -- integers in full, never through %d (which raises for inf and 2^63).
  local function coord(v)
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    if v == math.floor(v) and math.abs(v) < 1e18 then return ("%.0f"):format(v) end
    return ("%.14g"):format(v)
  end

  local function cell(v, what, grid)
    if type(v) ~= "table" then
      error(("bad argument #1 to 'request_path' (%s: table {x, y} expected, got %s)")
        :format(what, type(v)), 3)
    end
    local x, y = v.x or v[1], v.y or v[2]
    for _, a in ipairs{{"x", x}, {"y", y}} do
      local axis, v2 = a[1], a[2]
      if type(v2) ~= "number" or v2 ~= math.floor(v2) then
        error(("bad argument #1 to 'request_path' (%s: expected {x, y} with integer cells (%s is %s))")
          :format(what, axis, type(v2) == "number" and coord(v2) or type(v2)), 3)
      end
    end
    local w, h = grid:width(), grid:height()
    if not (x >= 0 and y >= 0 and x < w and y < h) then
      error(("bad argument #1 to 'request_path' (%s: cell (%s,%s) out of bounds (the grid is %dx%d))")
        :format(what, coord(x), coord(y), w, h), 3)
    end
    return x, y
  end

  -- Called by the scheduler after the tick that finished the request (as
  -- the request's on_done). Bookkeeping first, then the user's on_done: an
  -- error there leaves the handle complete.
  local function deliver(h, req)
    if h._key then R.lua_tracked[h._key] = nil end
    local info = req:info()
    h.status, h.cost, h.frames, h.restarts = info.status, info.cost, info.frames, info.restarts
    if info.error and info.error ~= "" then h.error = info.error end
    if info.status == "found" or info.status == "no_path" then h.path = (req:path()) end
    req:release()
    h.request = nil
    if h.on_done then h.on_done(h) end
  end

  --- lodestar.request_path{grid =, start = {x, y}, goal = {x, y}, ...}
  -- Queues a path request on the runtime's scheduler; the path arrives over
  -- the next frames (lds_runtime_tick).
  -- @param spec table:
  --   grid      name given to lds_runtime_add_grid, or that lodestar.Grid
  --   start, goal  {x, y} or {x =, y =} [Units: cells, 0-based]
  --   profile   [opt] "mod.profile": the mod profile's options (weights,
  --             algorithm, ...); the request is restarted when a reload
  --             changes the profile or a layer it weights
  --   algorithm, heuristic, weight, h_scale, weights, partial
  --             [opt] search options, checked as find_path checks its opts
  --             (lodestar.core.search_options; `algo` is a deprecated
  --             alias of algorithm) (override the profile's; weights by
  --             layer name, merged with the profile's); with partial = true
  --             a no_path request delivers the path to the reachable cell
  --             closest to the goal (handle.path, flagged partial)
  --   priority  [opt] integer, larger first [Limit: -1e6..1e6] default 0
  --   agent     [opt] integer tag, reported back as handle.agent
  --   on_done   [opt] function(handle), called once from inside the tick
  --             when the request ends (not when cancelled); an error in it
  --             is logged with a traceback and does not stop the tick
  -- @return the handle (see Handle above).
  -- Errors (raised): unknown keys, bad types, cells out of the grid, an
  -- unknown grid name or profile; a bad search option raises find_path's
  -- error for it ("bad argument #1 to 'request_path' (opts.weight: ...)").
  function R.request_path(spec)
    if type(spec) ~= "table" then
      error("bad argument #1 to 'request_path' (table expected, got " .. type(spec) .. ")", 2)
    end
    for _, k in ipairs(sorted_keys(spec)) do
      if not REQUEST_KEYS[k] then
        error(("bad argument #1 to 'request_path' (unknown field '%s' (expected %s))")
          :format(tostring(k), table.concat(sorted_keys(REQUEST_KEYS), ", ")), 2)
      end
    end
    local grid = spec.grid
    if type(grid) == "string" then
      grid = R.grids[spec.grid]
      if not grid then
        error(("bad argument #1 to 'request_path' (grid: no grid named '%s' was added)")
          :format(spec.grid), 2)
      end
    elseif type(grid) ~= "userdata" then
      error("bad argument #1 to 'request_path' (grid: name or lodestar.Grid expected, got "
        .. type(grid) .. ")", 2)
    end
    local sx, sy = cell(spec.start, "start", grid)
    local gx, gy = cell(spec.goal, "goal", grid)
    if spec.on_done ~= nil and type(spec.on_done) ~= "function" then
      error("bad argument #1 to 'request_path' (on_done: function expected, got "
        .. type(spec.on_done) .. ")", 2)
    end
    for _, k in ipairs{"priority", "agent"} do
      local v = spec[k]
      if v ~= nil and (type(v) ~= "number" or v ~= math.floor(v)) then
        error(("bad argument #1 to 'request_path' (%s: integer expected, got %s)")
          :format(k, type(v) == "number" and tostring(v) or type(v)), 2)
      end
    end
    if spec.profile ~= nil and type(spec.profile) ~= "string" then
      error("bad argument #1 to 'request_path' (profile: string 'mod.profile' expected, got "
        .. type(spec.profile) .. ")", 2)
    end
    if spec.algo ~= nil and spec.algorithm ~= nil then
      error("bad argument #1 to 'request_path' (algo and algorithm given: algo is the deprecated "
        .. "name of algorithm)", 2)
    end
    local popts = spec.profile ~= nil and profile_opts(spec.profile, 2) or nil
    local opts = check_opts(build_opts(spec, popts), grid, 2)
    local h = setmetatable({status = "running", cost = -1, agent = spec.agent,
      profile = spec.profile, on_done = spec.on_done}, Handle)
    local ok, req = pcall(sched.request, sched, {grid = grid, from = {sx, sy}, to = {gx, gy},
      priority = spec.priority or 0, agent = spec.agent or 0, algorithm = opts.algorithm,
      heuristic = opts.heuristic, weight = opts.weight, h_scale = opts.h_scale,
      weights = opts.weights, partial = opts.partial,
      on_done = function(req) deliver(h, req) end})
    if not ok then error("request_path: " .. tostring(req), 2) end
    h.request, h.id = req, req:id()
    if spec.profile ~= nil or opts.weights then
      seq = seq + 1
      h._key = seq
      R.lua_tracked[seq] = {grid = grid, profile = spec.profile, spec = spec, opts = opts, req = req}
    end
    return h
  end

  --- Remembers a C request made with a profile (lds_runtime_submit).
  function R.track(id, grid, profile, opts)
    R.tracked[id] = {grid = grid, profile = profile, spec = {}, opts = opts}
  end

  local function log_entry(text, entry)
    local level = 2
    if entry and entry.level == "error" then level = 0 elseif entry and entry.level == "warn" then level = 1 end
    host.log(level, text)
  end

  --- Creates the mod manager over the grids added so far.
  -- Mods see the package without the runtime's additions: no
  -- request_path, no raw grids (they get read-only views), no manager.
  -- limits [opt]: {time_limit_ms, cell_limit, memory_limit_kb} (nil fields:
  -- the manager's defaults); the manager's clock is the host's (host.clock).
  function R.start_mods(root, instruction_limit, limits)
    limits = limits or {}
    R.mods = require "lodestar.mods"
    local api = {}
    for k, v in pairs(lodestar) do
      if k ~= "request_path" and k ~= "grids" and k ~= "mods" then api[k] = v end
    end
    setmetatable(api, getmetatable(lodestar))
    R.manager = R.mods.new{root = root, grids = R.grids, log = log_entry,
      instruction_limit = instruction_limit, time_limit_ms = limits.time_limit_ms,
      cell_limit = limits.cell_limit, memory_limit_kb = limits.memory_limit_kb,
      clock = host.clock, lodestar = api}
    lodestar.mods = R.manager
  end

  --- Registers a grid under a name (the C host has added it to its
  -- scheduler already; a scheduler made here gets it now).
  function R.add_grid(name, grid)
    if own_sched then sched:add_grid(grid) end
    R.grids[name] = grid
    if R.manager then R.manager:add_grid(name, grid) end
  end

  -- Does any layer a tracked request weights no longer exist, or sit at a
  -- new index? (a removed layer moves the later ones down)
  local function layers_moved(events)
    for _, ev in ipairs(events) do
      if ev.result == "removed" or ev.result == "unloaded" then return true end
      local ch = ev.changes
      if ch and ch.layers then
        for _, l in ipairs(ch.layers) do
          for _, g in pairs(R.grids) do
            local found = false
            for _, name in ipairs(g:layer_list()) do if name == l then found = true break end end
            if not found then return true end
          end
        end
      end
    end
    return false
  end

  -- New options for a tracked request: the profile's current options (or
  -- the old ones if the profile is gone), with weights on missing layers
  -- dropped (logged).
  local function fresh_opts(t)
    local popts
    if t.profile then popts = R.manager:profile(t.profile) end
    local opts = popts and build_opts(t.spec, popts) or t.opts
    if opts.weights then
      local have = {}
      for _, n in ipairs(t.grid:layer_list()) do have[n] = true end
      local w = {}
      for _, n in ipairs(sorted_keys(opts.weights)) do
        if have[n] then
          w[n] = opts.weights[n]
        else
          host.log(1, ("restart: layer '%s' is gone; request %s no longer weights it"):format(n, tostring(t.profile)))
        end
      end
      local c = {}
      for k, v in pairs(opts) do c[k] = v end
      c.weights = w
      opts = c
    end
    return opts
  end

  --- Polls the mods; restarts the tracked requests the events affect:
  -- those made with a profile listed in an event's changes.profiles, or
  -- weighting a layer in changes.layers (mods.affected); and, when a layer
  -- was removed (its index freed), every tracked request with weights.
  -- Returns the number of events.
  function R.poll()
    local events = R.manager:poll()
    local restarted = 0
    local moved = #events > 0 and layers_moved(events)
    local function affected(t)
      return #events > 0 and ((t.profile and R.mods.affected(events, t.profile))
        or (t.opts.weights and (moved or R.mods.affected(events, t.opts))))
    end
    for _, id in ipairs(sorted_keys(R.tracked)) do
      local t = R.tracked[id]
      if host.status(id) ~= "running" then
        R.tracked[id] = nil -- a C request that ended (or was released)
      elseif affected(t) then
        t.opts = fresh_opts(t)
        local ok, msg = host.set_params(id, t.grid, t.opts)
        if ok then restarted = restarted + 1
        else host.log(0, "restart after reload: " .. msg) end
      end
    end
    for _, key in ipairs(sorted_keys(R.lua_tracked)) do
      local t = R.lua_tracked[key]
      if t.req:status() ~= "running" then
        R.lua_tracked[key] = nil
      elseif affected(t) then
        t.opts = fresh_opts(t)
        local o = {}
        for _, k in ipairs{"algorithm", "heuristic", "weight", "h_scale", "weights", "partial"} do
          o[k] = t.opts[k]
        end
        local ok, msg = pcall(t.req.set_options, t.req, o)
        if ok then restarted = restarted + 1
        else host.log(0, "restart after reload: " .. tostring(msg)) end
      end
    end
    for _, ev in ipairs(events) do
      -- the host API promises a "file:line: message" string; the manager's
      -- error is a table {level, mod, file, line, message, text}
      local err = ev.error
      if type(err) == "table" then
        err = err.text or ((err.file and (err.file .. ":" .. tostring(err.line or "?") .. ": ") or "")
          .. tostring(err.message))
      end
      host.mod_event(ev.mod, ev.result, ev.ms or 0, ev.text or "", err, restarted)
    end
    return #events, restarted
  end

  function R.close()
    if R.manager then R.manager:close() end
    R.manager = nil
  end

  lodestar.request_path = R.request_path
  lodestar.grids = R.grids
  return R
end
