-- SPDX-License-Identifier: MIT
-- lodestar.scheduler (bindings/lua/lua_scheduler.c): the C scheduler from
-- Lua 5.4 and LuaJIT. Budgets in deterministic mode (expansions counted),
-- priorities, profiles, callbacks against polling, paths against find_path,
-- find_path's option errors, bad handles, garbage collection, callback
-- errors. The last block writes a digest of one fixed scenario (every
-- path's cells, cost and delivery frame) to $LDS_BUILD/sched_digest.<engine>;
-- `make test-lua` compares the two engines' files (docs/scheduler.md).
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errtext

-- the text inside "bad argument #n to 'f' (...)"
local function inner(msg)
  return assert(msg:match("bad argument #%d+ to '[^']*' %((.*)%)$"), msg)
end

local function cells(p)
  local out = {}
  for i = 1, #p do
    local x, y = p:cell(i)
    out[#out + 1] = x .. "," .. y
  end
  return table.concat(out, " ")
end

local MAP = "tests/data/den011d.map"
-- problems of den011d.map.scen (start x, y, goal x, y), short to long
local PROBLEMS = {
  {103, 39, 102, 37}, {104, 43, 102, 44}, {11, 105, 143, 69}, {30, 110, 200, 60},
  {143, 69, 11, 105}, {60, 100, 120, 40}, {200, 60, 30, 110}, {120, 40, 60, 100},
}

local function map()
  local g = assert(lodestar.grid.load(MAP))
  -- a cost layer for the profiles: dear along a band of rows
  g:layer_add("mud")
  for y = 50, 90 do
    for x = 0, g:width() - 1 do g:layer_set("mud", x, y, 3) end
  end
  return g
end

-- runs every step until the scheduler is idle; returns the ticks
local function drain(s, budget, max_frames)
  local ticks = {}
  for _ = 1, max_frames or 100000 do
    local t = s:step(budget)
    ticks[#ticks + 1] = t
    if t.queued == 0 and t.active == 0 then return ticks end
  end
  error("the scheduler did not become idle")
end

describe("lodestar.scheduler", function()
  local g = map()
  for _, pr in ipairs(PROBLEMS) do
    assert(lodestar.find_path(g, pr[1], pr[2], pr[3], pr[4]), "problem must have a path")
  end

  it("keeps each frame within its budget in deterministic mode (expansions counted)", function()
    local s = lodestar.scheduler.new{deterministic = true, expansions_per_us = 4}
    s:add_grid(g)
    for _, pr in ipairs(PROBLEMS) do s:request{from = {pr[1], pr[2]}, to = {pr[3], pr[4]}} end
    local ticks = drain(s, 100)
    local total = 0
    assert.is_true(#ticks > 5, "the work needs several frames")
    for i, t in ipairs(ticks) do
      assert.equal(400, t.budget_expansions)
      assert.is_true(t.expansions <= 400, "frame " .. i .. " spent " .. t.expansions)
      if i < #ticks then assert.equal(400, t.expansions, "a frame with work left uses its budget") end
      total = total + t.expansions
    end
    local st = s:stats()
    assert.equal(total, st.expansions)
    assert.equal(#PROBLEMS, st.found)
    assert.equal(0, st.pending)
    assert.is_true(st.mem_bytes > 0)
  end)

  it("serves larger priorities first", function()
    local s = lodestar.scheduler.new{deterministic = true, searches_per_grid = 1}
    s:add_grid(g)
    local order = {}
    for i, pr in ipairs(PROBLEMS) do
      s:request{from = {pr[1], pr[2]}, to = {pr[3], pr[4]}, agent = i, priority = i,
        on_done = function(r) order[#order + 1] = r:info().agent end}
    end
    drain(s, 50)
    assert.same({8, 7, 6, 5, 4, 3, 2, 1}, order)
    -- set_priority moves a waiting request to the front
    order = {}
    local reqs = {}
    for i, pr in ipairs(PROBLEMS) do
      reqs[i] = s:request{from = {pr[1], pr[2]}, to = {pr[3], pr[4]}, agent = i,
        on_done = function(r) order[#order + 1] = r:info().agent end}
    end
    reqs[6]:set_priority(10)
    drain(s, 50)
    assert.equal(6, order[1])
  end)

  it("gives the paths of find_path for the same options (profiles, overrides, algorithms)", function()
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    s:profile("soldier", {})
    s:profile("tank", {weights = {mud = 4}, heuristic = "octile"})
    s:profile("scout", {algorithm = "jps"})
    local cases = {
      {profile = "soldier", opts = {}},
      {profile = "tank", opts = {weights = {mud = 4}, heuristic = "octile"}},
      {profile = "scout", opts = {algorithm = "jps"}},
      {profile = "tank", extra = {weights = {mud = 0.5}}, opts = {weights = {mud = 0.5}, heuristic = "octile"}},
      {extra = {algorithm = "dijkstra"}, opts = {algorithm = "dijkstra"}},
      {extra = {weight = 1.5, algorithm = "wastar"}, opts = {weight = 1.5, algorithm = "wastar"}},
    }
    local reqs = {}
    for ci, c in ipairs(cases) do
      for pi, pr in ipairs(PROBLEMS) do
        local spec = {from = {pr[1], pr[2]}, to = {pr[3], pr[4]}, profile = c.profile}
        for k, v in pairs(c.extra or {}) do spec[k] = v end
        reqs[#reqs + 1] = {s:request(spec), ci, pi}
      end
    end
    drain(s, 200)
    for _, e in ipairs(reqs) do
      local r, c, pr = e[1], cases[e[2]], PROBLEMS[e[3]]
      local want = assert(lodestar.find_path(g, pr[1], pr[2], pr[3], pr[4], c.opts))
      local got = assert(r:path())
      assert.equal("found", r:status())
      assert.equal(want.cost, got.cost)
      assert.equal(cells(want), cells(got))
      assert.same(c.opts.weights, got.weights)
      assert.equal(got, r:path(), "the same Path object on every call")
    end
    -- the tank's path is not the soldier's: the weights made a difference
    assert.are_not.equal(reqs[3][1]:path().cost, reqs[8 + 3][1]:path().cost)
  end)

  it("delivers the same paths by callback and by polling", function()
    local function run(with_callbacks)
      local s = lodestar.scheduler.new{deterministic = true}
      s:add_grid(g)
      s:profile("tank", {weights = {mud = 4}})
      local got, reqs = {}, {}
      for i, pr in ipairs(PROBLEMS) do
        local spec = {from = {pr[1], pr[2]}, to = {pr[3], pr[4]}, profile = i % 2 == 0 and "tank" or nil}
        if with_callbacks then
          spec.on_done = function(r) got[i] = cells(r:path()) .. " @" .. s:stats().frame end
        end
        reqs[i] = s:request(spec)
      end
      for _ = 1, 100000 do
        local t = s:step(300)
        if not with_callbacks then
          for i, r in ipairs(reqs) do
            if not got[i] and r:status() ~= "running" then got[i] = cells(r:path()) .. " @" .. s:stats().frame end
          end
        end
        if t.queued == 0 and t.active == 0 then break end
      end
      return got
    end
    local a, b = run(true), run(false)
    assert.equal(#PROBLEMS, #a)
    assert.same(a, b)
  end)

  it("delivers the quick partial path first (on_partial, partial_path)", function()
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local events = {}
    local pr = PROBLEMS[3]
    local r = s:request{from = {pr[1], pr[2]}, to = {pr[3], pr[4]}, quick = 50,
      on_partial = function(q) events[#events + 1] = "partial " .. #q:partial_path() end,
      on_done = function() events[#events + 1] = "done" end}
    assert.same({nil, "none"}, {r:partial_path()})
    assert.same({nil, "running"}, {r:path()})
    drain(s, 100)
    assert.equal(2, #events)
    assert.matches("^partial %d+$", events[1])
    assert.equal("done", events[2])
    local quick, full = r:partial_path(), r:path()
    local x0, y0 = quick:cell(1)
    assert.same({pr[1], pr[2]}, {x0, y0})
    assert.is_true(#quick < #full)
    assert.equal(lodestar.find_path(g, pr[1], pr[2], pr[3], pr[4]).cost, full.cost)
    assert.is_true(r:info().partial)
  end)

  it("redefining a profile restarts its pending requests with the new weights", function()
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    s:profile("tank", {weights = {mud = 4}})
    local pr = PROBLEMS[3]
    local r = s:request{from = {pr[1], pr[2]}, to = {pr[3], pr[4]}, profile = "tank"}
    s:step(10)
    assert.equal(1, s:profile("tank", {weights = {mud = 1}}))
    assert.same({weights = {mud = 1}}, s:profile("tank"))
    drain(s, 1000)
    assert.equal(lodestar.find_path(g, pr[1], pr[2], pr[3], pr[4], {weights = {mud = 1}}).cost, r:path().cost)
    assert.same({weights = {mud = 1}}, r:options())
    -- set_options on one request
    local r2 = s:request{from = {pr[1], pr[2]}, to = {pr[3], pr[4]}}
    r2:set_options{weights = {mud = 2}}
    drain(s, 1000)
    assert.equal(lodestar.find_path(g, pr[1], pr[2], pr[3], pr[4], {weights = {mud = 2}}).cost, r2:path().cost)
  end)

  it("checks options with find_path's messages, naming the option", function()
    local s = lodestar.scheduler.new()
    s:add_grid(g)
    for _, o in ipairs{{weight = 0.5}, {algorithm = "bfs"}, {h_scale = -1}, {heuristic = "taxicab"},
                       {weights = {rock = 1}}, {weights = {mud = "x"}}, {algorithm = 3}, {weight = "2"}} do
      local fp = errmsg(lodestar.find_path, g, 0, 0, 1, 1, o)
      local spec = {from = {103, 39}, to = {102, 37}}
      for k, v in pairs(o) do spec[k] = v end
      assert.equal("bad argument #1 to 'request' (" .. inner(fp) .. ")", errmsg(s.request, s, spec))
      if not (o.weights and o.weights.rock) then -- a profile does not know the grid's layers
        assert.equal("bad argument #2 to 'profile' (" .. inner(fp) .. ")", errmsg(s.profile, s, "p", o))
      end
    end
    assert.equal("bad argument #1 to 'request' (opts.cost: not supported here (the scheduler runs "
      .. "searches without Lua callbacks))",
      errmsg(s.request, s, {from = {0, 0}, to = {1, 1}, cost = function() return 1 end}))
    assert.matches("%(opts.to: cell %(999,2%) outside the 247x167 grid%)",
      errmsg(s.request, s, {from = {103, 39}, to = {999, 2}}))
    assert.matches("%(opts.from: required", errmsg(s.request, s, {to = {1, 1}}))
    assert.matches("%(opts.priority: 2000000 out of range", errmsg(s.request, s, {from = {103, 39},
      to = {102, 37}, priority = 2e6}))
    assert.matches("%(opts.priority: 1.5 out of range %(expected an integer", errmsg(s.request, s,
      {from = {103, 39}, to = {102, 37}, priority = 1.5}))
    assert.matches("%(opts.profile: unknown profile 'x' %(no profile is defined",
      errmsg(s.request, s, {from = {103, 39}, to = {102, 37}, profile = "x"}))
    assert.matches("%(unknown option 'zz' %(expected agent, algorithm, cost, from, grid,",
      errmsg(s.request, s, {from = {103, 39}, to = {102, 37}, zz = 1}))
    assert.matches("%(opts.on_done: function expected, got number%)",
      errmsg(s.request, s, {from = {103, 39}, to = {102, 37}, on_done = 1}))
    assert.matches("%(opts.searches_per_grid: 0 out of range %(expected 1..64%)%)",
      errmsg(lodestar.scheduler.new, {searches_per_grid = 0}))
    assert.matches("%(unknown option 'budget'", errmsg(lodestar.scheduler.new, {budget = 1}))
    local other = lodestar.grid.new(4, 4)
    assert.matches("%(opts.grid: this grid was not added to the scheduler",
      errmsg(s.request, s, {grid = other, from = {0, 0}, to = {1, 1}}))
    s:add_grid(other)
    assert.matches("%(opts.grid: required when the scheduler has several grids%)",
      errmsg(s.request, s, {from = {0, 0}, to = {1, 1}}))
    assert.matches("budget_us must be >= 0", errmsg(s.step, s, -1))
    assert.matches("already added", errmsg(s.add_grid, s, other))
    local r = s:request{grid = other, from = {0, 0}, to = {3, 3}} -- still the scheduler's
    drain(s, 0)
    assert.equal("found", r:status())
  end)

  it("makes a released request, a freed scheduler and a wrong self errors, not crashes", function()
    local s = lodestar.scheduler.new()
    s:add_grid(g)
    local r = s:request{from = {103, 39}, to = {102, 37}}
    r:release()
    r:release() -- idempotent
    for _, m in ipairs{"status", "path", "partial_path", "info", "errmsg", "cancel", "options", "id"} do
      assert.equal("attempt to use a released lodestar.Request", errmsg(r[m], r))
    end
    assert.matches("released", tostring(r))
    assert.matches("lodestar.Request expected, got table", errmsg(r.status, {}))
    assert.matches("lodestar.Scheduler expected, got lodestar.Grid", errmsg(s.step, g))
    -- cancel: no callback, status cancelled
    local called = false
    local c = s:request{from = {11, 105}, to = {143, 69}, on_done = function() called = true end}
    assert.is_true(c:cancel())
    assert.is_false(c:cancel())
    assert.equal("cancelled", c:status())
    drain(s, 0)
    assert.is_false(called)
    -- a freed scheduler: its requests raise, its grid is let go
    local q = s:request{from = {11, 105}, to = {143, 69}}
    s:free()
    assert.equal("attempt to use a lodestar.Request of a freed lodestar.Scheduler", errmsg(q.status, q))
    assert.equal("attempt to use a freed lodestar.Scheduler", errmsg(s.step, s))
    assert.matches("freed", tostring(s))
    q:release()
  end)

  it("survives collection with requests pending, in any order", function()
    local function pending(n)
      local gg = lodestar.grid.new(64, 64)
      local s = lodestar.scheduler.new()
      s:add_grid(gg)
      local reqs = {}
      for i = 1, n do reqs[i] = s:request{from = {0, 0}, to = {63, i}, on_done = function() end} end
      s:step{max_expansions = 100}
      return s, gg, reqs
    end
    do -- one request object kept: it holds its scheduler, which holds its grid
      local keep = select(3, pending(20))[5]
      collectgarbage()
      collectgarbage()
      assert.equal("running", keep:status())
      keep:release()
    end
    do -- the grid freed by Lua code: the scheduler keeps the core grid
      local s, gg, reqs = pending(20)
      gg:free()
      drain(s, 0)
      assert.equal("found", reqs[5]:status())
      assert.equal(63, select(1, reqs[5]:path():cell(-1)))
    end
    for _ = 1, 3 do pending(20) end -- everything garbage at once, requests pending
    collectgarbage()
    collectgarbage()
    do -- collections and releases from inside the callbacks of one frame
      local s = pending(0)
      local all, n = {}, 0
      for i = 1, 12 do
        all[i] = s:request{from = {0, 0}, to = {63, i}, on_done = function(r)
          n = n + 1
          if all[i + 1] then all[i + 1]:release() end -- its queued event goes with it
          r:release()
          collectgarbage()
        end}
      end
      drain(s, 0) -- no limit: all 12 finish in one frame, in order
      assert.equal(6, n)
    end
  end)

  it("reports a callback error and leaves the scheduler working", function()
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local after = false
    s:request{from = {103, 39}, to = {102, 37}, priority = 1, on_done = function() error("kaboom") end}
    s:request{from = {104, 43}, to = {102, 44}, on_done = function() after = true end}
    local msg = errmsg(s.step, s)
    assert.matches("on_done: .*kaboom", msg)
    assert.matches("stack traceback", msg)
    assert.is_true(after, "the other callback of the frame ran first")
    -- with on_error the step returns, counting the error
    local seen = {}
    s:on_error(function(m, r) seen[#seen + 1] = {m, r:status()} end)
    s:request{from = {103, 39}, to = {102, 37}, on_done = function() error("again") end}
    local t = s:step()
    assert.equal(1, t.callback_errors)
    assert.matches("again", seen[1][1])
    assert.equal("found", seen[1][2])
    -- a callback may submit, but not step or free the scheduler
    local inner_msg
    s:request{from = {103, 39}, to = {102, 37}, on_done = function()
      inner_msg = select(2, pcall(s.step, s))
      s:request{from = {104, 43}, to = {102, 44}}
    end}
    s:step()
    assert.matches("cannot step the scheduler from one of its callbacks", inner_msg)
    assert.equal(1, s:stats().pending)
    drain(s, 0)
  end)

  it("is out of a mod's reach (docs/mods.md: neither lodestar.scheduler nor a host's scheduler)", function()
    local mods = require "lodestar.mods"
    local testing = require "lodestar.testing"
    local dir = testing.mods_dir()
    dir.write_mod("probe", [[
return { name = "probe", version = "1", postprocessors = { p = function(path)
  return { sched = type(lodestar.scheduler), core = type(lodestar.core) }
end } }]])
    local grid = lodestar.grid.new(4, 2)
    local m = mods.new{root = dir.root, grids = {world = grid}, clock = function() return 0 end,
      log = function() end}
    assert.equal("loaded", m:poll()[1].result)
    local out = assert(m:postprocess("probe.p", lodestar.find_path(grid, 0, 0, 3, 0), grid))
    assert.same({sched = "nil", core = "nil"}, out)
    m:close()
    dir.close()
  end)

  it("gives the same frames and paths for the same inputs (a digest for the other engine)", function()
    local function scenario()
      local s = lodestar.scheduler.new{deterministic = true, searches_per_grid = 3}
      s:add_grid(g)
      s:profile("soldier", {})
      s:profile("tank", {weights = {mud = 4}, heuristic = "octile"})
      s:profile("scout", {algorithm = "jps", partial = true})
      local classes = {"soldier", "tank", "scout"}
      local lines = {}
      for round = 1, 3 do
        for i, pr in ipairs(PROBLEMS) do
          local k = (round * 7 + i) % 3 + 1
          s:request{from = {pr[1], pr[2]}, to = {pr[3], pr[4]}, profile = classes[k],
            priority = (i + round) % 4, agent = round * 100 + i, quick = i % 2 == 0 and 40 or nil,
            on_done = function(r)
              local p = r:path()
              lines[#lines + 1] = ("%d %s %d %.17g %s"):format(r:info().agent, r:status(),
                s:stats().frame, p and p.cost or -1, p and cells(p) or "-")
            end}
        end
        for _ = 1, 5 do s:step(150) end
      end
      drain(s, 150)
      return table.concat(lines, "\n") .. "\n"
    end
    local a = scenario()
    assert.equal(a, scenario())
    local engine = jit and "luajit" or "lua54"
    local f = assert(io.open((os.getenv("LDS_BUILD") or "build") .. "/sched_digest." .. engine, "w"))
    f:write(a)
    f:close()
  end)
end)
