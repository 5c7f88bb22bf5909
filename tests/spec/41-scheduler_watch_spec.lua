-- SPDX-License-Identifier: MIT
-- Watched paths from Lua (bindings/lua/lua_scheduler.c, opts.watch): a
-- bridge closed under walking agents (every watched path that still had
-- to cross it gets exactly one event, none crosses a blocked cell without
-- one, replans optimal against find_path on the edited grid), when
-- on_broken runs (at the next step, before the replan's on_done), cost
-- breaks, progress, option errors, callback errors. Runs under Lua 5.4 and
-- LuaJIT (make test-lua).
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errtext

-- the scenario's LCG (exact in LuaJIT doubles: same numbers on both engines)
local rng = dofile("tests/bench/gameday.lua").lcg

-- the move a -> b is legal on g (no_corner_cutting, the default rule)
local function walk_ok(g, ax, ay, bx, by)
  if g:blocked(bx, by) then return false end
  if ax == bx or ay == by then return true end
  return not g:blocked(bx, ay) and not g:blocked(ax, by)
end

-- whether the part of p after cell `from` (1-based) is broken on g
local function remaining_broken(g, p, from)
  for j = from + 1, #p do
    local ax, ay = p:cell(j - 1)
    local bx, by = p:cell(j)
    if not walk_ok(g, ax, ay, bx, by) then return true end
  end
  return false
end

local W, H, NA, RX0, RX1, BY0, BY1 = 60, 30, 45, 28, 31, 14, 15

local function river()
  local g = lodestar.grid.new(W, H)
  for y = 0, H - 1 do
    for x = RX0, RX1 do
      if not (y >= BY0 and y <= BY1) and y ~= 2 then g:set_blocked(x, y, true) end
    end
  end
  return g
end

describe("lodestar.scheduler watched paths", function()
  it("a bridge closed under walking agents: one event per broken path, replans optimal", function()
    local g = river()
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g, 3)
    local rand = rng(99)
    local agents, bad = {}, {}
    local policies = {"notify", "replan", "both"}
    for i = 1, NA do
      local a = {x = rand(RX0 - 8), y = 8 + rand(14), events = 0, replans = 0, index = 1}
      a.gx, a.gy = RX1 + 4 + rand(W - RX1 - 5), 8 + rand(14)
      a.policy = policies[(i - 1) % 3 + 1]
      a.req = s:request{from = {a.x, a.y}, to = {a.gx, a.gy}, agent = i,
        watch = {policy = a.policy, on_broken = function(req, x, y, reason)
          assert.equal(a.req, req)
          a.events = a.events + 1
          a.bx, a.by, a.reason = x, y, reason
        end},
        on_done = function(req)
          a.index = 1
          if a.waiting then -- a replan: from where it stood, optimal on the grid now
            a.waiting = false
            a.replans = a.replans + 1
            local p = req:path()
            if g:blocked(a.x, a.y) then -- it stood on the bridge
              if req:status() ~= "no_path" or p then bad[#bad + 1] = i end
              return
            end
            local ref = assert(lodestar.find_path(g, a.x, a.y, a.gx, a.gy))
            local x0, y0 = p:cell(1)
            if req:status() ~= "found" or x0 ~= a.x or y0 ~= a.y
              or math.abs(p.cost - ref.cost) > 1e-9 * math.max(1, ref.cost) then
              bad[#bad + 1] = i
            end
          end
        end}
      agents[i] = a
    end
    local expected, crossing = 0, 0
    for frame = 0, 199 do
      if frame == 20 then
        local after = g:clone()
        for y = BY0, BY1 do
          for x = RX0, RX1 do after:set_blocked(x, y, true) end
        end
        for _, a in ipairs(agents) do
          local p = a.req:watched() and a.req:path()
          a.expect = p and remaining_broken(after, p, a.index) or false
          if a.expect then expected = expected + 1 end
        end
        for y = BY0, BY1 do -- 8 edits, one cell at a time
          for x = RX0, RX1 do g:set_blocked(x, y, true) end
        end
        for _, a in ipairs(agents) do
          -- known at once (req:broken), delivered at the next step
          local bx = a.req:broken()
          assert.equal(a.expect, bx ~= nil)
          assert.equal(0, a.events)
          if bx and a.policy ~= "notify" then
            a.waiting = true
            assert.equal("running", a.req:status())
          end
        end
      end
      s:step(300)
      for i, a in ipairs(agents) do
        local p = a.req:watched() and a.req:path()
        if p and remaining_broken(g, p, a.index) then
          crossing = crossing + 1
          print(("frame %d: agent %d's watched path crosses a blocked cell"):format(frame, i))
        end
      end
      for _, a in ipairs(agents) do -- the walkers take one step
        local p = not a.waiting and a.req:watched() and a.req:path()
        if p and a.index < #p then
          a.index = a.index + 1
          a.x, a.y = p:cell(a.index)
          assert.is_true(a.req:progress(a.index))
        end
      end
    end
    local missed, unexpected = 0, 0
    for _, a in ipairs(agents) do
      local ev = a.policy == "replan" and a.replans or a.events
      if a.expect and ev ~= 1 then missed = missed + 1 end
      if not a.expect and ev ~= 0 then unexpected = unexpected + 1 end
      if a.expect and a.policy ~= "replan" then
        assert.is_true(a.bx >= RX0 and a.bx <= RX1 and a.by >= BY0 and a.by <= BY1)
        assert.equal("blocked", a.reason)
      end
      if a.expect and a.policy == "both" then assert.equal(1, a.replans) end
    end
    assert.is_true(expected >= 10, "the scenario really breaks paths")
    assert.is_true(expected < NA, "and leaves some alone")
    assert.equal(0, missed)
    assert.equal(0, unexpected)
    assert.equal(0, crossing)
    assert.same({}, bad)
    local es = s:edit_stats()
    assert.equal(expected, es.watch_events)
    local nreplan = 0
    for _, a in ipairs(agents) do
      if a.expect and a.policy ~= "notify" then nreplan = nreplan + 1 end
    end
    assert.equal(nreplan, es.replans)
    assert.equal(8, es.edits) -- the closing's 8 edits (the river was drawn before)
  end)

  it("on_broken runs at the next step, before the replan's on_done; sched:deliver runs it now", function()
    local g = lodestar.grid.new(10, 3)
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local log = {}
    local req = s:request{from = {0, 1}, to = {9, 1},
      watch = {policy = "both", on_broken = function(_, x, y, why)
        log[#log + 1] = ("broken %d,%d %s"):format(x, y, why)
      end},
      on_done = function(r) log[#log + 1] = ("done %d cells"):format(#r:path()) end}
    s:step()
    assert.same({"done 10 cells"}, log)
    assert.is_true(req:watched())
    assert.is_true(req:progress(3)) -- on (2, 1)
    g:set_blocked(1, 1, true)          -- behind the walker: no event
    assert.is_nil(req:broken())
    g:set_blocked(5, 1, true)
    assert.same({"done 10 cells"}, log) -- no Lua ran inside set_blocked
    local x, y, why = req:broken()
    assert.same({5, 1, "blocked"}, {x, y, why})
    assert.is_false(req:watched())
    assert.equal("running", req:status())
    s:step()
    assert.same({"done 10 cells", "broken 5,1 blocked", "done 8 cells"}, log)
    local p = req:path()
    assert.same({2, 1}, {p:cell(1)}) -- from where the walker stood
    assert.is_true(req:watched())
    -- sched:deliver(): the callback now, not at the step
    local q = req:path()
    local n0 = #log
    for i = 1, #q do
      local cx, cy = q:cell(i)
      if cx == 7 then g:set_blocked(cx, cy, true) break end
    end
    s:deliver()
    assert.equal(n0 + 1, #log)
    assert.truthy(log[#log]:match("^broken 7,%d blocked$"))
    s:step()
    assert.equal(n0 + 2, #log)
    assert.equal("found", req:status())
    assert.equal(2, s:edit_stats().replans)
  end)

  it("cost rises break a path past cost_ratio (reason 'cost'); notify keeps the path", function()
    local g = lodestar.grid.new(8, 1)
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local got
    local req = s:request{from = {0, 0}, to = {7, 0},
      watch = {cost_ratio = 2, on_broken = function(_, x, y, why) got = {x, y, why} end}}
    s:step()
    g:set_cost(3, 0, 2)  -- 2x: not above the ratio
    g:set_cost(4, 0, 2.5)
    s:step()
    assert.same({4, 0, "cost"}, got)
    assert.equal("found", req:status())
    assert.equal(8, #req:path())
    assert.is_false(req:watched())
    assert.equal(nil, req:progress(2))
    -- walked to the end: not watched any more
    local r2 = s:request{from = {0, 0}, to = {7, 0}, watch = {}}
    s:step()
    assert.is_true(r2:progress_cell(7, 0))
    assert.is_false(r2:watched())
    g:set_blocked(5, 0, true)
    assert.is_nil(r2:broken())
  end)

  it("progress: bad indexes and cells raise; an unwatched request fails softly", function()
    local g = lodestar.grid.new(8, 1)
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local req = s:request{from = {0, 0}, to = {7, 0}, watch = {policy = "replan"}}
    local plain = s:request{from = {0, 0}, to = {7, 0}}
    local ok, msg, code = req:progress(1) -- not delivered yet
    assert.same({nil, "state"}, {ok, code})
    assert.is_string(msg)
    s:step()
    assert.equal("bad argument #1 to 'progress' (index 0 out of range (expected 1..8, the "
      .. "path's cells))", errmsg(req.progress, req, 0))
    assert.equal("bad argument #1 to 'progress' (index 9 out of range (expected 1..8, the "
      .. "path's cells))", errmsg(req.progress, req, 9))
    assert.equal("bad argument #1 to 'progress_cell' (cell (3,3) is not on the remaining path)",
      errmsg(req.progress_cell, req, 3, 3))
    assert.truthy(errmsg(req.progress, req, 1.5):match("^bad argument #1 to .progress. %(number has no integer"))
    assert.is_true(req:progress(4))
    assert.is_true(req:progress(2)) -- backwards: nothing changes
    assert.same({nil, "state"}, {select(1, plain:progress(1)), select(3, plain:progress(1))})
    assert.is_false(plain:watched())
    assert.is_nil(plain:broken())
    local es = s:edit_stats()
    assert.equal(1, es.watched)
    local r3 = s:request{from = {0, 0}, to = {7, 0}, watch = {}}
    assert.is_true(r3:cancel())
    assert.same({nil, "the request was cancelled", "state"}, {r3:progress(1)})
    assert.equal(5, es.watched_cells) -- the walker's cell 4 (the move out of it) and 5..8
  end)

  it("checks opts.watch like find_path's options", function()
    local g = lodestar.grid.new(8, 1)
    local s = lodestar.scheduler.new{}
    s:add_grid(g)
    local function req(w) return s:request{from = {0, 0}, to = {7, 0}, watch = w} end
    assert.equal("bad argument #1 to 'request' (opts.watch: table {policy =, cost_ratio =, "
      .. "on_broken =} expected, got boolean)", errmsg(req, true))
    assert.equal("bad argument #1 to 'request' (opts.watch: unknown key 'ratio' (expected "
      .. "cost_ratio, on_broken, policy))", errmsg(req, {ratio = 2}))
    assert.equal("bad argument #1 to 'request' (opts.watch.policy: invalid option 'always' "
      .. "(expected notify, replan, both))", errmsg(req, {policy = "always"}))
    assert.equal("bad argument #1 to 'request' (opts.watch.cost_ratio: 0.5 out of range "
      .. "(expected 0, or finite >= 1))", errmsg(req, {cost_ratio = 0.5}))
    assert.truthy(errmsg(req, {cost_ratio = math.huge}):match("opts.watch.cost_ratio: inf"))
    assert.equal("bad argument #1 to 'request' (opts.watch.on_broken: function expected, got "
      .. "string)", errmsg(req, {on_broken = "f"}))
    assert.equal(0, s:stats().pending) -- nothing was queued
  end)

  it("raises the messages docs/lua-api.md quotes", function()
    local fh = assert(io.open("docs/lua-api.md"))
    local text = fh:read("*a"):gsub("%s+", " ")
    fh:close()
    local g = lodestar.grid.new(8, 1)
    local s = lodestar.scheduler.new{deterministic = true}
    s:add_grid(g)
    local function quoted(msg)
      local inner = msg:match("^bad argument #%d+ to '[^']*' (%(.*%))$") or msg
      assert(text:find(inner, 1, true), "not quoted verbatim: " .. inner)
    end
    local function req(w) return s:request{from = {0, 0}, to = {7, 0}, watch = w} end
    quoted(errmsg(req, {policy = "always"}))
    quoted(errmsg(req, {cost_ratio = 0.5}))
    quoted(errmsg(req, {ratio = 2}))
    local r = req({})
    s:step()
    quoted(errmsg(r.progress, r, 9))
    quoted(errmsg(r.progress_cell, r, 3, 3))
  end)

  it("on_broken errors follow on_error; an edit inside on_broken is delivered in the same step", function()
    local g = lodestar.grid.new(10, 1)
    local errs = {}
    local s = lodestar.scheduler.new{deterministic = true,
      on_error = function(m) errs[#errs + 1] = m end}
    s:add_grid(g)
    local seen = {}
    local a, b
    a = s:request{from = {0, 0}, to = {9, 0}, watch = {on_broken = function(_, x)
      seen[#seen + 1] = "a" .. x
      g:set_blocked(8, 0, true) -- breaks b: delivered after this callback
      error("boom")
    end}}
    b = s:request{from = {0, 0}, to = {9, 0}, watch = {on_broken = function(_, x)
      seen[#seen + 1] = "b" .. x
    end}}
    s:step()
    assert.is_true(b:progress(7)) -- b is past cell 4
    g:set_blocked(4, 0, true)     -- breaks a only
    local tick = s:step()
    assert.same({"a4", "b8"}, seen)
    assert.equal(1, #errs)
    assert.truthy(errs[1]:match("^on_broken: .*boom"))
    assert.equal(1, tick.callback_errors)
    -- without on_error, step raises once the frame's callbacks ran
    s:on_error(nil)
    local c = s:request{from = {0, 0}, to = {3, 0}, watch = {on_broken = function() error("bang") end}}
    s:step()
    g:set_blocked(2, 0, true)
    assert.truthy(errmsg(s.step, s):match("on_broken: .*bang"))
    assert.equal(4, #c:path()) -- notify only: the path stays, unwatched
    assert.is_false(c:watched())
    assert.equal("found", a:status())
  end)
end)
