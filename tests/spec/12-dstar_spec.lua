-- SPDX-License-Identifier: MIT
-- lodestar.search.dstar_lite: incremental replanning from Lua (D* Lite,
-- core/lds_dstar.h). Every repaired plan is compared with a fresh
-- lodestar.find_path (A*) on the edited grid.
local lodestar = require "lodestar"
local testing = require "lodestar.testing"
local support = require "support"

local errmsg = support.errmsg

local function cells(path)
  local t = {}
  for _, x, y in path:cells() do t[#t + 1] = x .. "," .. y end
  return table.concat(t, " ")
end

-- The optimal cost by a fresh A* on the grid as it is now (nil: no path).
local function astar_cost(g, sx, sy, gx, gy, opts)
  local p = lodestar.find_path(g, sx, sy, gx, gy, opts)
  return p and p.cost or nil
end

-- A path is valid: starts at (sx,sy), ends at (gx,gy), never enters a
-- blocked cell, and its cost is that of its cells on the grid.
local function assert_valid(g, p, sx, sy, gx, gy)
  local first, last = {p:cell(1)}, {p:cell(#p)}
  assert.same({sx, sy}, first)
  assert.same({gx, gy}, last)
  for _, x, y in p:cells() do assert.is_false(g:get_blocked(x, y)) end
  assert.near(lodestar.path.new(g, p:totable()).cost, p.cost, 1e-9 * math.max(1, p.cost))
end

-- Park-Miller minimal standard generator: every product < 2^46, so the
-- sequence is the same with Lua 5.4 integers and LuaJIT doubles.
local function rng(seed)
  local s = seed
  return function(n)
    s = (s * 16807) % 2147483647
    return s % n
  end
end

describe("dstar_lite", function()
  local maze = [[
    S . . . @ . . .
    . @ @ . @ . @ .
    . @ . . @ . @ .
    . @ . @ @ . @ .
    . . . . . . @ G
  ]]

  it("is a constructor under lodestar.search, not an algorithm of lodestar.Search", function()
    assert.is_function(lodestar.search.dstar_lite)
    assert.is_function(lodestar.core.search.dstar_lite)
    for _, name in ipairs(lodestar.algorithms) do assert.not_equal("dstar_lite", name) end
  end)

  it("every method: compute, status, cost, path, next, flags, stats, endpoints, grid", function()
    local g, S, G = testing.grid(maze)
    local d = lodestar.search.dstar_lite(g, {start = S, goal = {G.x, G.y}})
    assert.equal("running", d:status())
    assert.is_nil(d:cost())
    assert.matches("^lodestar.DStar %(0,0%)%->%(7,4%) running %(.+%)$", tostring(d))
    assert.equal("found", d:compute())
    assert.equal("found", d:status())
    local want = astar_cost(g, S.x, S.y, G.x, G.y)
    assert.near(want, d:cost(), 1e-9)
    local p = d:path()
    assert.equal("lodestar.Path", getmetatable(p).__name)
    assert.near(want, p.cost, 1e-9)
    assert.is_false(p.partial)
    assert_valid(g, p, S.x, S.y, G.x, G.y)
    local x, y = d:next()
    assert.same({p:cell(2)}, {x, y})
    assert.same({0, 0, 7, 4}, {d:endpoints()})
    assert.equal(g, d:grid())
    assert.is_true(d:subscribed())
    assert.equal("", d:errmsg())
    local f = d:flags()
    assert.same({start_blocked = false, goal_blocked = false, unreachable = false,
                 reachable_again = false, changes = false, near_start = false,
                 reinit = false, at_goal = false}, f)
    local st = d:stats()
    assert.is_true(st.expansions > 0)
    assert.is_true(st.pushes >= st.expansions)
    assert.is_true(st.g_updates >= st.expansions)
    assert.is_true(st.rhs_updates > 0)
    assert.is_true(st.peak_queue >= st.queue_size)
    assert.equal(0, st.cells_changed)
    assert.equal(0, st.replans)
    assert.is_true(st.elapsed_us >= 0)
    assert.is_true(st.mem_bytes >= 64 * 10 * 7) -- 64 bytes per padded cell
    -- nothing changed: computing again expands nothing
    local e = st.expansions
    assert.equal("found", d:compute())
    assert.equal(e, d:stats().expansions)
    -- the agent walks one cell: move_start returns the object, plan follows
    assert.equal(d, d:move_start(x, y))
    assert.equal("running", d:status())
    assert.equal("found", d:compute())
    assert.near(astar_cost(g, x, y, G.x, G.y), d:cost(), 1e-9)
    assert.equal(#p - 1, #d:path())
    assert.same({x, y, 7, 4}, {d:endpoints()})
    -- update / update_rect return the object too
    assert.equal(d, d:update(2, 2))
    assert.equal(d, d:update_rect(0, 0, 1, 1))
    assert.equal("running", d:status())
    assert.equal("found", d:compute())
    assert.is_true(d:flags().changes)
    assert.equal(5, d:stats().cells_changed)
    assert.equal(1, d:stats().replans)
  end)

  it("repairs the plan when a wall appears on it (subscribed: grid edits are forwarded)", function()
    local g = lodestar.grid.new(30, 20)
    for y = 0, 15 do g:set_blocked(15, y, true) end -- a wall with a gap at the bottom
    local d = lodestar.search.dstar_lite(g, {start = {2, 2}, goal = {27, 3}})
    assert.equal("found", d:compute())
    assert.near(astar_cost(g, 2, 2, 27, 3), d:cost(), 1e-9)
    local before = d:stats().expansions
    -- block three cells in the middle of the current plan
    local p = d:path()
    local mid = math.floor(#p / 2)
    for i = mid - 1, mid + 1 do
      local x, y = p:cell(i)
      g:set_blocked(x, y, true)
    end
    assert.equal("running", d:status())
    assert.equal("found", d:compute())
    local f = d:flags()
    assert.is_true(f.changes)
    assert.is_false(f.reinit)
    local want = astar_cost(g, 2, 2, 27, 3)
    assert.is_true(want > p.cost)
    assert.near(want, d:cost(), 1e-9)
    local q = d:path()
    assert.near(want, q.cost, 1e-9)
    assert_valid(g, q, 2, 2, 27, 3)
    assert.equal(3, d:stats().cells_changed)
    assert.is_true(d:stats().expansions > before)
    -- a cheaper shortcut: open the wall; the repaired cost drops to A*'s
    for y = 0, 15 do g:set_blocked(15, y, false) end
    assert.equal("found", d:compute())
    want = astar_cost(g, 2, 2, 27, 3)
    assert.near(want, d:cost(), 1e-9)
    assert_valid(g, d:path(), 2, 2, 27, 3)
    -- a cost change (not a block) is repaired too
    local x, y = d:path():cell(5)
    g:set_cost(x, y, 9)
    assert.equal("found", d:compute())
    assert.near(astar_cost(g, 2, 2, 27, 3), d:cost(), 1e-9)
  end)

  it("unsubscribed: sees only what update / update_rect report", function()
    local g = lodestar.grid.new(12, 3)
    local d = lodestar.search.dstar_lite(g, {start = {0, 1}, goal = {11, 1}, subscribe = false})
    assert.is_false(d:subscribed())
    assert.equal("found", d:compute())
    assert.near(11, d:cost(), 1e-12)
    g:set_blocked(5, 1, true)
    assert.equal("found", d:compute()) -- not told: the old plan stands
    assert.near(11, d:cost(), 1e-12)
    assert.same({5, 1}, {d:path():cell(6)}) -- still through the new wall
    d:update(5, 1)
    assert.equal("running", d:status())
    assert.equal("found", d:compute())
    assert.near(astar_cost(g, 0, 1, 11, 1), d:cost(), 1e-12)
    assert.near(9 + 2 * math.sqrt(2), d:cost(), 1e-12)
    for x = 4, 6 do g:set_blocked(x, 0, true); g:set_blocked(x, 2, true) end
    d:update_rect(4, 0, 6, 2)
    assert.equal("no_path", d:compute())
    assert.is_true(d:flags().unreachable)
    assert.equal(10, d:stats().cells_changed) -- 1, then 9
    assert.equal(2, d:stats().replans)
  end)

  it("the agent walks the plan with move_start while cells change", function()
    local W, H = 24, 18
    local rand = rng(7)
    local g = lodestar.grid.new(W, H)
    for _ = 1, 90 do
      local x, y = rand(W), rand(H)
      if not (x == 0 and y == 0) and not (x == W - 1 and y == H - 1) then g:set_blocked(x, y, true) end
    end
    local d = lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {W - 1, H - 1}})
    local ax, ay = 0, 0
    local found, nopath, steps, compared = 0, 0, 0, 0
    for _ = 1, 1000 do -- bounded: a walk that never arrives fails below
      local st = d:compute()
      local want = astar_cost(g, ax, ay, W - 1, H - 1)
      compared = compared + 1
      if want then
        assert.equal("found", st)
        assert.near(want, d:cost(), 1e-9 * want)
        assert_valid(g, d:path(), ax, ay, W - 1, H - 1)
        found = found + 1
      else
        assert.equal("no_path", st)
        assert.is_nil(d:cost())
        nopath = nopath + 1
      end
      local nx, ny
      if st == "found" then
        if ax == W - 1 and ay == H - 1 then break end
        ax, ay = d:next()
        d:move_start(ax, ay)
        steps = steps + 1
        if not (ax == W - 1 and ay == H - 1) then
          assert.equal("found", d:compute())
          nx, ny = d:next()
        end
      end
      -- the world changes: a few cells flip, never the agent's own cell
      for _ = 1, 3 do
        local x, y = rand(W), rand(H)
        if not (x == ax and y == ay) and not (x == W - 1 and y == H - 1) then
          g:set_blocked(x, y, not g:get_blocked(x, y))
        end
      end
      -- sometimes a wall lands right in front of the agent
      if nx and steps % 5 == 0 and not (nx == W - 1 and ny == H - 1) then
        g:set_blocked(nx, ny, true)
      end
    end
    assert.equal(W - 1, ax)
    assert.equal(H - 1, ay)
    assert.is_true(steps >= W - 1)
    assert.is_true(found > 20)
    assert.equal(compared, found + nopath)
    assert.is_true(d:stats().replans > 10)
  end)

  it("sliced compute gives the same answer and expansions as one shot", function()
    local g1 = lodestar.grid.new(40, 40)
    local rand = rng(3)
    for _ = 1, 300 do g1:set_blocked(rand(40), rand(40), true) end
    g1:set_blocked(1, 1, false)
    g1:set_blocked(38, 37, false)
    local g2 = g1:clone()
    local one = lodestar.search.dstar_lite(g1, {start = {1, 1}, goal = {38, 37}})
    local sl = lodestar.search.dstar_lite(g2, {start = {1, 1}, goal = {38, 37}})
    local function sliced(budget)
      local calls, st = 0
      repeat
        st = sl:compute(budget)
        calls = calls + 1
      until st ~= "running"
      return st, calls
    end
    assert.equal("found", one:compute())
    local st, calls = sliced(3)
    assert.equal("found", st)
    assert.is_true(calls > 10)
    assert.equal(one:cost(), sl:cost())
    assert.equal(cells(one:path()), cells(sl:path()))
    assert.equal(one:stats().expansions, sl:stats().expansions)
    -- a change, then the repair sliced with a table budget
    one:move_start(one:next())
    sl:move_start(sl:next())
    for _, g in ipairs({g1, g2}) do
      for x = 10, 30 do g:set_blocked(x, 20, true) end
    end
    assert.equal("found", one:compute({}))
    st, calls = sliced({max_expansions = 2})
    assert.equal("found", st)
    assert.is_true(calls > 2)
    assert.equal(one:cost(), sl:cost())
    assert.equal(cells(one:path()), cells(sl:path()))
    assert.equal(one:stats().expansions, sl:stats().expansions)
    assert.near(astar_cost(g1, one:endpoints()), one:cost(), 1e-9)
    -- a budget of 0 means no limit; a huge µs budget finishes too
    g1:set_blocked(20, 21, true)
    assert.equal("found", one:compute(0))
    g1:set_blocked(21, 21, true)
    assert.equal("found", one:compute({budget_us = 10000000}))
    assert.near(astar_cost(g1, one:endpoints()), one:cost(), 1e-9)
  end)

  it("goal unreachable, then reachable again; blocked start or goal; start at goal", function()
    local g = testing.grid[[
      S . @ . .
      . . @ . .
      . . . . G
    ]]
    local d = lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {4, 2}})
    assert.equal("found", d:compute())
    g:set_blocked(2, 2, true) -- closes the only gap
    assert.equal("no_path", d:compute())
    local f = d:flags()
    assert.is_true(f.unreachable)
    assert.is_true(f.changes)
    assert.is_false(f.reachable_again)
    assert.is_nil(d:cost())
    local p, msg, code = d:path()
    assert.is_nil(p)
    assert.equal("lds_dstar_path: no path (status no_path)", msg)
    assert.equal("state", code)
    local nx, nmsg, ncode = d:next()
    assert.is_nil(nx)
    assert.equal("no path (status no_path)", nmsg)
    assert.equal("state", ncode)
    assert.equal("no_path", d:compute()) -- nothing new: same answer at once
    g:set_blocked(2, 2, false)
    assert.equal("found", d:compute())
    f = d:flags()
    assert.is_true(f.reachable_again)
    assert.is_false(f.unreachable)
    assert.near(astar_cost(g, 0, 0, 4, 2), d:cost(), 1e-12)
    -- the goal becomes blocked, then free
    g:set_blocked(4, 2, true)
    assert.equal("no_path", d:compute())
    assert.is_true(d:flags().goal_blocked)
    assert.is_false(d:flags().start_blocked)
    g:set_blocked(4, 2, false)
    assert.equal("found", d:compute())
    assert.is_true(d:flags().reachable_again)
    -- the agent's own cell becomes blocked: start_blocked, near_start
    g:set_blocked(0, 0, true)
    assert.equal("no_path", d:compute())
    assert.is_true(d:flags().start_blocked)
    assert.is_true(d:flags().near_start)
    g:set_blocked(0, 0, false)
    assert.equal("found", d:compute())
    -- standing on the goal: a one-cell path of cost 0
    d:move_start(4, 2)
    assert.equal("found", d:compute())
    assert.is_true(d:flags().at_goal)
    assert.equal(0, d:cost())
    assert.equal(1, #d:path())
    assert.same({4, 2}, {d:next()})
  end)

  it("a whole-grid edit restarts from scratch (reinit)", function()
    local g = lodestar.grid.new(10, 10)
    local d = lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {9, 5}})
    assert.equal("found", d:compute())
    g:set_neighbourhood(4)
    assert.equal("found", d:compute())
    assert.is_true(d:flags().reinit)
    assert.equal(14, d:cost())
    assert.equal(astar_cost(g, 0, 0, 9, 5), d:cost())
  end)

  it("weights, heuristic and h_scale options follow the A* cost model", function()
    local g = lodestar.grid.new(16, 10)
    g:layer_add("danger")
    for y = 0, 8 do g:layer_set("danger", 8, y, 5) end
    local opts = {weights = {danger = 2}}
    local d = lodestar.search.dstar_lite(g, {start = {0, 4}, goal = {15, 4}, weights = {danger = 2}})
    assert.equal("found", d:compute())
    assert.near(astar_cost(g, 0, 4, 15, 4, opts), d:cost(), 1e-9)
    -- weights are read from the layer at each notified change
    g:layer_set("danger", 8, 9, 5)
    assert.equal("found", d:compute())
    assert.near(astar_cost(g, 0, 4, 15, 4, opts), d:cost(), 1e-9)
    local z = lodestar.search.dstar_lite(g, {start = {0, 4}, goal = {15, 4}, heuristic = "zero"})
    local o = lodestar.search.dstar_lite(g, {start = {0, 4}, goal = {15, 4}, heuristic = "octile",
                                             h_scale = 1})
    assert.equal("found", z:compute())
    assert.equal("found", o:compute())
    assert.near(15, z:cost(), 1e-12)
    assert.near(15, o:cost(), 1e-12)
    assert.is_true(z:stats().expansions > o:stats().expansions)
  end)

  it("keeps its grid alive when the grid is dropped or freed", function()
    local function make()
      local g = lodestar.grid.new(20, 20)
      return lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {19, 19}})
    end
    local d = make()
    collectgarbage()
    collectgarbage()
    assert.equal("found", d:compute())
    local g = d:grid()
    assert.equal("lodestar.Grid 20x20", tostring(g):match("^(lodestar.Grid %d+x%d+)"))
    g:set_blocked(10, 10, true) -- still subscribed through the live grid
    assert.equal("found", d:compute())
    assert.is_true(d:flags().changes)
    g:free() -- the core grid lives on for the D* Lite
    assert.matches("attempt to use a freed lodestar.Grid", errmsg(g.size, g), 1, true)
    d:move_start(1, 1)
    assert.equal("found", d:compute())
    assert.near(16 * math.sqrt(2) + 4, d:cost(), 1e-9) -- around (10,10): no corner cutting
    g = nil -- luacheck: ignore 311 (drops the reference, so the collector can take it)
    collectgarbage()
    d:free()
    d:free() -- idempotent
    assert.equal("lodestar.DStar (freed)", tostring(d))
    assert.matches("attempt to use a freed lodestar.DStar", errmsg(d.compute, d), 1, true)
    assert.matches("attempt to use a freed lodestar.DStar", errmsg(d.path, d), 1, true)
    d = nil -- luacheck: ignore 311
    collectgarbage()
    -- many dropped at once, grids and searches collected in any order
    for _ = 1, 20 do make():compute() end
    collectgarbage()
    collectgarbage()
  end)

  if _VERSION == "Lua 5.4" and type(jit) ~= "table" then
    it("__close frees it at the end of the scope", function()
      local chunk = assert(load([[
        local lodestar = ...
        local keep
        do
          local g <close> = lodestar.grid.new(4, 4)
          local d <close> = lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {3, 3}})
          d:compute()
          keep = {g = g, d = d}
        end
        return tostring(keep.g), tostring(keep.d)
      ]]))
      local gs, ds = chunk(lodestar)
      assert.equal("lodestar.Grid (freed)", gs)
      assert.equal("lodestar.DStar (freed)", ds)
    end)
  end

  describe("errors", function()
    local g = lodestar.grid.new(10, 10)
    local new = lodestar.search.dstar_lite
    it("bad options name the option", function()
      assert.matches("bad argument #2 to '[^']*' %(opts.start: required %(a table {x, y}%)%)",
        errmsg(new, g, {goal = {1, 1}}))
      assert.matches("(opts.goal: required (a table {x, y}))", errmsg(new, g, {start = {1, 1}}), 1, true)
      assert.matches("(table expected, got nil)", errmsg(new, g), 1, true)
      assert.matches("(lodestar.Grid expected, got nil)", errmsg(new, nil, {}), 1, true)
      assert.matches("(lodestar.Grid expected, got lodestar.Graph)",
        errmsg(new, lodestar.graph.new(), {}), 1, true)
      assert.matches("(opts.start: cell (10,0) outside the 10x10 grid)",
        errmsg(new, g, {start = {10, 0}, goal = {1, 1}}), 1, true)
      assert.matches("(opts.goal: cell (0,-1) outside the 10x10 grid)",
        errmsg(new, g, {start = {0, 0}, goal = {0, -1}}), 1, true)
      assert.matches("(opts.start: expected {x, y} with integer cells (x is 0.5))",
        errmsg(new, g, {start = {0.5, 0}, goal = {1, 1}}), 1, true)
      assert.matches("(opts.goal: table {x, y} expected, got number)",
        errmsg(new, g, {start = {0, 0}, goal = 3}), 1, true)
      assert.matches("(unknown option 'subscribed' (expected goal, h_scale, heuristic, start, subscribe, weights))",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, subscribed = true}), 1, true)
      assert.matches("(opts.heuristic: invalid option 'euclidean' (expected auto, zero, manhattan, octile, chebyshev; "
        .. "D* Lite keys must be exact, so no euclidean))",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, heuristic = "euclidean"}), 1, true)
      assert.matches("(opts.heuristic: string expected, got number)",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, heuristic = 1}), 1, true)
      assert.matches("(opts.h_scale: -1 out of range (expected finite, >= 0))",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, h_scale = -1}), 1, true)
      assert.matches("(opts.h_scale: nan out of range (expected finite, >= 0))",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, h_scale = 0 / 0}), 1, true)
      assert.matches("(opts.subscribe: boolean expected, got string)",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, subscribe = "yes"}), 1, true)
      assert.matches("(opts.weights: the grid has no layer 'danger')",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, weights = {danger = 1}}), 1, true)
      assert.matches("(opts.weights: table expected, got number)",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, weights = 2}), 1, true)
      g:layer_add("road")
      assert.matches("(opts.weights: weight of layer 'road' is inf (expected finite))",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, weights = {road = math.huge}}), 1, true)
      assert.matches("(opts.weights: weight of layer 'road': number expected, got string)",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, weights = {road = "x"}}), 1, true)
      -- a weighted cost <= 0 is the core's finding, naming the cell, as an error of opts.weights
      g:layer_set("road", 3, 4, -1)
      assert.equal("opts.weights: cell (3,4) has cost -1 under the layer weights (base 1; expected "
        .. "finite, > 0, or +inf from a layer to block it))",
        errmsg(new, g, {start = {0, 0}, goal = {1, 1}, weights = {road = 2}}):match("opts.weights: .*"))
      g:layer_remove("road")
    end)
    it("a weighted cost that turns <= 0 after a change ends the replan with status arg", function()
      local h = lodestar.grid.new(6, 6)
      h:layer_add("road")
      local d = lodestar.search.dstar_lite(h, {start = {0, 0}, goal = {5, 5}, weights = {road = 1}})
      assert.equal("found", d:compute())
      h:layer_set("road", 2, 3, -5)
      local st, msg = d:compute()
      assert.equal("arg", st)
      assert.equal("lds_dstar_step: cell (2,3) has cost -4 under the layer weights (base 1; "
        .. "expected finite, > 0, or +inf from a layer to block it)", msg)
      assert.equal(msg, d:errmsg())
      assert.equal("arg", d:status())
    end)
    it("bad coordinates, rectangles and budgets", function()
      local d = new(g, {start = {0, 0}, goal = {9, 9}})
      assert.matches("bad argument #1 to '[^']*' %(x 10 out of range %(expected 0..9%)%)",
        errmsg(function() d:move_start(10, 0) end))
      assert.matches("(y -1 out of range (expected 0..9))", errmsg(d.move_start, d, 0, -1), 1, true)
      assert.matches("(x 1.5 is not an integer cell (expected 0..9))", errmsg(d.update, d, 1.5, 0), 1, true)
      assert.matches("(number expected, got string)", errmsg(d.update, d, "1", 0), 1, true)
      assert.matches("(number expected, got no value)", errmsg(d.update_rect, d, 0, 0, 1), 1, true)
      assert.matches("(x 12 out of range (expected 0..9))", errmsg(d.update_rect, d, 0, 0, 12, 1), 1, true)
      -- numbered as in d:update_rect(3, 0, 2, 1): self is not counted
      assert.matches("bad argument #3 to 'update_rect' %(x1 2 < x0 3 %(empty rectangle%)%)",
        errmsg(d.update_rect, d, 3, 0, 2, 1))
      assert.matches("bad argument #4 to 'update_rect' %(y1 0 < y0 1 %(empty rectangle%)%)",
        errmsg(d.update_rect, d, 0, 1, 2, 0))
      assert.matches("(max_expansions must be >= 0 (0 = no limit))", errmsg(d.compute, d, -1), 1, true)
      assert.matches("(max_expansions must be an integer >= 0 (0 = no limit; got 2.5))",
        errmsg(d.compute, d, 2.5), 1, true)
      assert.matches("(number or table {max_expansions =, budget_us =} expected, got string)",
        errmsg(d.compute, d, "10"), 1, true)
      assert.matches("(unknown budget field 'budget_ms' (expected budget_us, max_expansions))",
        errmsg(d.compute, d, {budget_ms = 3}), 1, true)
      assert.matches("(budget_us must be an integer >= 0)", errmsg(d.compute, d, {budget_us = 1.5}), 1, true)
      assert.matches("(max_expansions must be an integer >= 0)",
        errmsg(d.compute, d, {max_expansions = -2}), 1, true)
      assert.matches("(lodestar.DStar expected, got lodestar.Grid)", errmsg(d.compute, g), 1, true)
      assert.matches("(lodestar.DStar expected, got no value)", errmsg(d.free), 1, true)
      -- nothing was changed by the failed calls
      assert.equal("running", d:status())
      assert.equal("found", d:compute())
      assert.same({0, 0, 9, 9}, {d:endpoints()})
    end)
  end)
end)
