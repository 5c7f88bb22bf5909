-- SPDX-License-Identifier: MIT
-- lodestar.search: constructors, slicing, results, lifetime, errors.
local lodestar = require "lodestar"
local testing = require "lodestar.testing"
local support = require "support"

local errmsg = support.errmsg

local SQRT2 = math.sqrt(2)

local function cells(path)
  local t = {}
  for _, x, y in path:cells() do t[#t + 1] = x .. "," .. y end
  return table.concat(t, " ")
end

describe("search", function()
  local maze = [[
    S . . . @ . . .
    . @ @ . @ . @ .
    . @ . . @ . @ .
    . @ . @ @ . @ .
    . . . . . . @ G
  ]]

  it("has one constructor per algorithm the core names", function()
    assert.same({"astar", "dijkstra", "wastar", "greedy", "jps", "jps+", "theta", "lazytheta"},
                lodestar.algorithms)
    for _, name in ipairs(lodestar.algorithms) do
      assert.is_function(lodestar.search[name])
    end
  end)

  it("astar finds the optimal path; step/run/status/path/cost/stats", function()
    local g, S, G = testing.grid(maze)
    local s = lodestar.search.astar(g)
    assert.equal("state", s:status())
    s:start(S.x, S.y, G.x, G.y)
    assert.equal("running", s:status())
    assert.equal("running", s:step(1))
    assert.equal(1, s:stats().expansions)
    assert.equal("found", s:run())
    assert.equal("found", s:status())
    -- down the left column, along the bottom, up and around the two walls
    local p = s:path()
    assert.equal(19, p.cost)
    assert.equal("0,0 0,1 0,2 0,3 0,4 1,4 2,4 3,4 4,4 5,4 5,3 5,2 5,1 5,0 6,0 7,0 7,1 7,2 7,3 7,4",
      cells(p))
    assert.equal(p.cost, s:cost())
    assert.equal(g, s:grid())
    assert.equal("astar", s:algorithm())
    local st = s:stats()
    assert.is_true(st.expansions > 10)
    assert.is_true(st.pushes >= st.expansions)
    assert.is_true(st.peak_open >= 1)
    assert.is_number(st.elapsed_us)
    assert.is_true(st.mem_bytes > 0)
    assert.matches("^lodestar.Search astar found", tostring(s))
  end)

  it("dijkstra, wastar and greedy run; dijkstra matches astar", function()
    local g, S, G = testing.grid(maze)
    local a = lodestar.find_path(g, S.x, S.y, G.x, G.y)
    local d = lodestar.find_path(g, S.x, S.y, G.x, G.y, {algorithm = "dijkstra"})
    local w = lodestar.find_path(g, S.x, S.y, G.x, G.y, {algorithm = "wastar", weight = 2})
    local gr = lodestar.find_path(g, S.x, S.y, G.x, G.y, {algorithm = "greedy"})
    assert.near(a.cost, d.cost, 1e-12)
    assert.is_true(w.cost <= 2 * a.cost + 1e-9)
    assert.is_true(gr.cost >= a.cost - 1e-9)
    local ds = lodestar.search.dijkstra(g, {start = S, goal = G})
    ds:run()
    assert.is_true(ds:stats().expansions >= lodestar.search.astar(g, {start = S, goal = G}):stats().expansions)
  end)

  it("a search resumed across many step calls gives the one-shot path, bit for bit", function()
    local g = assert(lodestar.grid.load("tests/data/den011d.map"))
    local one = lodestar.search.astar(g, {start = {102, 37}, goal = {168, 123}})
    assert.equal("found", one:run())
    local sliced = lodestar.search.astar(g, {start = {x = 102, y = 37}, goal = {x = 168, y = 123}})
    local steps = 0
    while sliced:step(3) == "running" do steps = steps + 1 end
    assert.equal("found", sliced:status())
    assert.is_true(steps > 50)
    assert.equal(one:stats().expansions, sliced:stats().expansions)
    assert.equal(one:cost(), sliced:cost())
    assert.equal(cells(one:path()), cells(sliced:path()))
    -- run{} with budgets slices the same way
    local budgeted = lodestar.search.astar(g, {start = {102, 37}, goal = {168, 123}})
    while budgeted:run{max_expansions = 7, budget_us = 1000000} == "running" do end
    assert.equal(cells(one:path()), cells(budgeted:path()))
  end)

  it("no_path is a normal outcome; partial paths on request", function()
    local g = testing.grid[[
      S . @ .
      . . @ G
    ]]
    local s = lodestar.search.astar(g, {start = {0, 0}, goal = {3, 1}})
    assert.equal("no_path", s:run())
    local p, msg, code = s:path()
    assert.is_nil(p)
    assert.equal("lds_search_path: no path (status no_path)", msg)
    assert.equal("state", code)
    local pp = s:partial_path()
    assert.is_true(pp.partial)
    local x = pp:cell(-1)
    assert.equal(1, x) -- closest expanded cell to the goal
    local none, why = lodestar.find_path(g, 0, 0, 3, 1)
    assert.is_nil(none); assert.equal("no_path", why)
    local part = lodestar.find_path(g, 0, 0, 3, 1, {partial = true})
    assert.is_true(part.partial)
    assert.equal(2, #part)
  end)

  it("a blocked start is no_path, not an error", function()
    local g = lodestar.grid.new(3, 3)
    g:set_blocked(0, 0, true)
    assert.equal("no_path", lodestar.search.astar(g, {start = {0, 0}, goal = {2, 2}}):run())
  end)

  it("jps and jps+ give A*'s cost, with the jump points as a sparse path", function()
    local g = testing.grid[[
      ..........
      ..@@@@@@..
      ..@....@..
      ..@.......
      ..........
    ]]
    local a = lodestar.search.astar(g, {start = {0, 0}, goal = {5, 3}})
    assert.equal("found", a:run())
    for _, algo in ipairs{"jps", "jps+"} do
      local s = lodestar.search[algo](g, {start = {0, 0}, goal = {5, 3}})
      assert.equal(algo, s:algorithm())
      assert.equal("found", s:run())
      local p = s:path()
      assert.near(a:cost(), p.cost, 1e-9)
      assert.equal(#a:path(), #p) -- full cells, jump points filled in
      local jp = s:jump_points()
      assert.is_true(#jp >= 2 and #jp < #p)
      local x0, y0 = jp:cell(1)
      assert.same({0, 0}, {x0, y0})
    end
  end)

  describe("algorithm_used", function()
    local function used(g, algo, opts)
      local s = lodestar.search[algo](g, opts)
      assert.is_nil(s:algorithm_used()) -- nothing has started yet
      s:start(0, 0, 9, 7)
      local name = s:algorithm_used()
      assert.equal("found", s:run())
      assert.equal(name, s:algorithm_used()) -- fixed for the query
      assert.equal(algo, s:algorithm())      -- the name asked for never changes
      return name, s:cost()
    end

    it("is jps / jps+ on a uniform 8-connected grid", function()
      local g = lodestar.grid.new(10, 8)
      assert.equal("jps", (used(g, "jps")))
      assert.equal("jps+", (used(g, "jps+")))
    end)

    it("is astar for JPS on a weighted grid, with A*'s cost", function()
      local g = lodestar.grid.new(10, 8)
      g:set_cost(4, 4, 3)
      local _, astar_cost = used(g, "astar")
      for _, algo in ipairs{"jps", "jps+"} do
        local name, cost = used(g, algo)
        assert.equal("astar", name)
        assert.equal(astar_cost, cost)
      end
    end)

    it("is astar for JPS on a 4-connected grid", function()
      local g = lodestar.grid.new(10, 8)
      g:set_neighbourhood(4)
      assert.equal("astar", (used(g, "jps")))
      assert.equal("astar", (used(g, "jps+")))
    end)

    it("is astar for JPS with a layer weight or an edge callback", function()
      local g = lodestar.grid.new(10, 8)
      g:layer_add("danger")
      g:layer_set("danger", 3, 3, 2)
      assert.equal("astar", (used(g, "jps", {weights = {danger = 1}})))
      assert.equal("jps", (used(g, "jps", {weights = {danger = 0}})))
      assert.equal("astar", (used(g, "jps", {cost = function(_, _, _, _, base) return base end})))
    end)

    it("is jps for jps+ under the 'always' diagonal rule", function()
      local g = lodestar.grid.new(10, 8)
      g:set_diagonal("always")
      assert.equal("jps", (used(g, "jps+")))
      g:set_diagonal("never")
      assert.equal("astar", (used(g, "jps+")))
    end)

    it("follows the grid at each start; other algorithms report themselves", function()
      local g = lodestar.grid.new(10, 8)
      local s = lodestar.search.jps(g, {start = {0, 0}, goal = {9, 7}})
      assert.equal("jps", s:algorithm_used())
      g:set_cost(1, 1, 2)
      assert.equal("jps", s:algorithm_used()) -- decided at start
      s:start(0, 0, 9, 7)
      assert.equal("astar", s:algorithm_used())
      g:set_cost(1, 1, 1)
      s:start(0, 0, 9, 7)
      assert.equal("jps", s:algorithm_used())
      for _, algo in ipairs{"astar", "dijkstra", "wastar", "greedy"} do
        assert.equal(algo, (used(g, algo)))
      end
    end)

    it("is nil after a start that raised; raises when freed", function()
      local g = lodestar.grid.new(10, 8)
      g:layer_add("hole")
      g:layer_set("hole", 2, 2, -5)
      local s = lodestar.search.jps(g, {weights = {hole = 1}})
      assert.is_false(pcall(s.start, s, 0, 0, 9, 7)) -- cell cost 1 - 5 <= 0
      assert.is_nil(s:algorithm_used())
      s:free()
      assert.matches("attempt to use a freed lodestar.Search", errmsg(s.algorithm_used, s), 1, true)
    end)
  end)

  it("jump_points on an A* search is the full path", function()
    local g = lodestar.grid.new(4, 4)
    local s = lodestar.search.astar(g, {start = {0, 0}, goal = {3, 3}})
    s:run()
    assert.equal(#s:path(), #s:jump_points())
  end)

  it("an edit makes a running query stale", function()
    local g = lodestar.grid.new(20, 20)
    local s = lodestar.search.astar(g, {start = {0, 0}, goal = {19, 19}})
    s:step(2)
    g:set_cost(5, 5, 3)
    local st, msg = s:step(2)
    assert.equal("stale", st)
    assert.matches("the grid changed since the query started", msg, 1, true)
    assert.equal(msg, s:errmsg())
    s:start(0, 0, 19, 19) -- restart is fine
    assert.equal("found", s:run())
  end)

  it("keeps its grid alive when the grid variable is dropped", function()
    local s
    do
      local g = lodestar.grid.new(64, 64)
      for y = 0, 62 do g:set_blocked(32, y, true) end
      s = lodestar.search.astar(g, {start = {0, 0}, goal = {63, 0}})
    end
    s:step(10)
    collectgarbage(); collectgarbage()
    assert.equal("found", s:run())
    assert.equal(64, s:path():totable()[1] and #s:path() > 63 and 64 or 0)
    local g2 = s:grid()
    assert.equal(64, (g2:size()))
    s = nil -- luacheck: ignore 311 (drops the reference, so the collector can take it)
    g2 = nil -- luacheck: ignore 311
    collectgarbage(); collectgarbage()
  end)

  it("grid:free() with a live search defers the free until the search goes", function()
    local g = lodestar.grid.new(16, 16)
    local s = lodestar.search.astar(g, {start = {0, 0}, goal = {15, 15}})
    g:free()
    assert.matches("attempt to use a freed lodestar.Grid", errmsg(g.size, g), 1, true)
    assert.equal("found", s:run()) -- the core grid still lives
    assert.near(15 * SQRT2, s:cost(), 1e-9)
    s:free()
    s:free()
    assert.equal("lodestar.Search (freed)", tostring(s))
    assert.matches("attempt to use a freed lodestar.Search", errmsg(s.run, s), 1, true)
    collectgarbage()
  end)

  if _VERSION == "Lua 5.4" then
    it("closes with <close> (Lua 5.4)", function()
      local chunk = assert(load([[
        local lodestar = ...
        local keep
        do
          local g <close> = lodestar.grid.new(4, 4)
          local s <close> = lodestar.search.astar(g, {start = {0, 0}, goal = {3, 3}})
          s:run()
          keep = {g = g, s = s}
        end
        return tostring(keep.g), tostring(keep.s)
      ]]))
      local gs, ss = chunk(lodestar)
      assert.equal("lodestar.Grid (freed)", gs)
      assert.equal("lodestar.Search (freed)", ss)
    end)
  end

  describe("errors", function()
    local g = lodestar.grid.new(10, 10)
    it("bad options name the option", function()
      assert.matches("(opts.weight: 0.5 out of range (expected finite, >= 1))",
        errmsg(lodestar.search.wastar, g, {weight = 0.5}), 1, true)
      assert.matches("(opts.weight: nan out of range (expected finite, >= 1))",
        errmsg(lodestar.search.wastar, g, {weight = 0 / 0}), 1, true)
      assert.matches("(opts.heuristic: invalid option 'octagonal' (expected auto, zero, manhattan, octile, euclidean, "
        .. "chebyshev))",
        errmsg(lodestar.search.astar, g, {heuristic = "octagonal"}), 1, true)
      assert.matches("(unknown option 'wieght' (expected cost, goal, h_scale, heuristic, partial, start, weight, "
        .. "weights))",
        errmsg(lodestar.search.astar, g, {wieght = 2}), 1, true)
      assert.matches("(opts.cost: function expected, got number)",
        errmsg(lodestar.search.astar, g, {cost = 3}), 1, true)
      assert.matches("(opts.start: cell (10,0) outside the 10x10 grid)",
        errmsg(lodestar.search.astar, g, {start = {10, 0}, goal = {1, 1}}), 1, true)
      assert.matches("(opts.start and opts.goal go together)",
        errmsg(lodestar.search.astar, g, {start = {1, 0}}), 1, true)
      assert.matches("(lodestar.Grid or lodestar.Graph expected, got nil)", errmsg(lodestar.search.astar, nil), 1, true)
    end)
    it("bad coordinates and budgets", function()
      local s = lodestar.search.astar(g)
      assert.matches("(sx 10 out of range (expected 0..9))", errmsg(s.start, s, 10, 0, 1, 1), 1, true)
      assert.matches("(gx 1.25 is not an integer cell (expected 0..9))", errmsg(s.start, s, 0, 0, 1.25, 1), 1, true)
      assert.matches("(max_expansions must be >= 0 (0 = no limit))", errmsg(s.step, s, -1), 1, true)
      assert.matches("(unknown budget field 'budget_ms' (expected budget_us, max_expansions))",
        errmsg(s.run, s, {budget_ms = 3}), 1, true)
      assert.matches("(budget_us must be an integer >= 0)", errmsg(s.run, s, {budget_us = 1.5}), 1, true)
      assert.matches("(lodestar.Search expected, got lodestar.Grid)", errmsg(s.step, g), 1, true)
      assert.matches("bad argument #6 to '[^']*' %(opts.weight: 0.5 out of range",
        errmsg(lodestar.find_path, g, 0, 0, 1, 1, {algorithm = "wastar", weight = 0.5}))
      assert.matches("(opts.algorithm: unknown algorithm 'bfs' (expected astar, dijkstra, wastar, greedy, jps, "
        .. "jps+, theta, lazytheta))",
        errmsg(lodestar.find_path, g, 0, 0, 1, 1, {algorithm = "bfs"}), 1, true)
    end)
    it("stepping before start reports state", function()
      local s = lodestar.search.astar(g)
      local st, msg = s:step()
      assert.equal("state", st)
      assert.equal("lds_search_step: no query started (call lds_search_start first)", msg)
    end)
  end)
end)
