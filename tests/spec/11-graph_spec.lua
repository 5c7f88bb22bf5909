-- SPDX-License-Identifier: MIT
-- lodestar.graph and searches on graphs: building, editing, queries, the
-- custom Lua heuristic, lifetime, errors, DIMACS road graphs (docs/lua-api.md,
-- section Graph). Node and edge ids are 1-based, like DIMACS files.
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errmsg

local function has(haystack, needle)
  assert.is_truthy(haystack:find(needle, 1, true),
    ("expected to find\n  %s\nin\n  %s"):format(needle, haystack))
end

local ROADS = (os.getenv("LDS_SHARED") or "../shared") .. "/data/roads/"

-- Graph A, planar (xy):
--
--   4 (0,8) --6--> 3 (6,8)        edges (insertion order = edge ids 1..6
--   ^             ^  |              after freeze, sorted by source):
--   8         5 /    | 10           1->2 5, 1->3 11, 1->4 8, 2->3 5,
--   |       2 (3,4)  |              3->1 10, 4->3 6
--   |     5 /        v
--   1 (0,0) <--------               5 (100,100) has no edges
--
-- shortest 1->3 = 10 via 2 (direct 11, via 4 14); 3->4 = 3->1->4 = 18.
local function graph_a()
  local g = lodestar.graph.new("xy")
  assert.equal(1, g:add_node(0, 0))
  assert.equal(2, g:add_node(3, 4))
  assert.equal(3, g:add_node(6, 8))
  assert.equal(4, g:add_node(0, 8))
  assert.equal(5, g:add_node(100, 100))
  g:add_edge(1, 2, 5)
  g:add_edge(2, 3, 5)
  g:add_edge(1, 3, 11)
  g:add_edge(1, 4, 8)
  g:add_edge(4, 3, 6)
  g:add_edge(3, 1, 10)
  return g:freeze()
end

local function nodes_of(path)
  local t = {}
  for _, n in path:nodes() do t[#t + 1] = n end
  return t
end

describe("graph", function()
  describe("building and queries", function()
    it("new, add_node, add_edge, freeze, counts, coords, tostring", function()
      local g = lodestar.graph.new()
      assert.equal("xy", g:coord_kind()) -- the default
      assert.is_false(g:frozen())
      assert.matches("^lodestar.Graph 0 nodes 0 edges xy building %(", tostring(g))
      g = graph_a()
      assert.is_true(g:frozen())
      assert.equal(g, g:freeze()) -- idempotent, returns the graph
      assert.equal(5, g:node_count())
      assert.equal(6, g:edge_count())
      assert.same({3, 4}, {g:coords(2)})
      assert.same({100, 100}, {g:coords(5)})
      assert.equal(5, g:distance(1, 2))
      assert.matches("^lodestar.Graph 5 nodes 6 edges xy frozen %(", tostring(g))
      assert.same({"none", "xy", "xyz", "lonlat"}, lodestar.coords_kinds)
    end)

    it("coords kinds none, xyz and lonlat", function()
      local n = lodestar.graph.new("none")
      assert.equal(1, n:add_node())
      assert.equal(2, n:add_node())
      n:add_edge(1, 2, 1)
      n:freeze()
      assert.equal("none", n:coord_kind())
      assert.same({}, {n:coords(1)})
      assert.equal(0, n:h_scale())
      local z = lodestar.graph.new("xyz")
      z:add_node(0, 0)      -- z defaults to 0
      z:add_node(1, 2, 2)
      z:add_edge(1, 2, 6)
      z:freeze()
      assert.same({0, 0, 0}, {z:coords(1)})
      assert.same({1, 2, 2}, {z:coords(2)})
      assert.equal(3, z:distance(1, 2))
      assert.near(2, z:h_scale(), 1e-8) -- 6 / 3
      local ll = lodestar.graph.new("lonlat")
      ll:add_node(7.42, 43.73)
      ll:add_node(7.42, 43.74)
      ll:add_edge(1, 2, 2000)
      ll:freeze()
      -- 0.01 degree of latitude on a sphere of 6,371,000 m
      local metres = 6371000 * math.rad(0.01)
      assert.near(metres, ll:distance(1, 2), 1e-6)
      assert.near(2000 / metres, ll:h_scale(), 1e-6)
    end)

    it("neighbors and in_neighbors list {node, cost, edge} in edge-id order", function()
      local g = graph_a()
      assert.same({{node = 2, cost = 5, edge = 1}, {node = 3, cost = 11, edge = 2},
                   {node = 4, cost = 8, edge = 3}}, g:neighbors(1))
      assert.same({}, g:neighbors(5))
      local ins = g:in_neighbors(3)
      table.sort(ins, function(a, b) return a.node < b.node end)
      assert.same({{node = 1, cost = 11, edge = 2}, {node = 2, cost = 5, edge = 4},
                   {node = 4, cost = 6, edge = 6}}, ins)
      assert.same({1, 3, 11}, {g:edge(2)})
      assert.equal(4, g:find_edge(2, 3))
      assert.is_nil(g:find_edge(3, 2)) -- directed
    end)

    it("h_scale is the largest consistent scale: min cost / distance", function()
      local g = graph_a()
      assert.near(1, g:h_scale(), 1e-8) -- 1->3 has 11/10, every other edge 1
      assert.is_true(g:h_scale() <= 1)
      g:set_edge_cost(2, 3, 2.5) -- 2.5 / 5
      assert.near(0.5, g:h_scale(), 1e-8)
    end)

    it("set_edge_cost bumps the version and changes the answer", function()
      local g = graph_a()
      local v0 = g:version()
      assert.equal(10, lodestar.find_path(g, 1, 3).cost)
      g:set_edge_cost(1, 2, 7)
      assert.equal(v0 + 1, g:version())
      assert.same({1, 2, 7}, {g:edge(1)})
      assert.equal(11, lodestar.find_path(g, 1, 3).cost) -- direct edge now wins
      g:set_edge_cost_id(2, 20)
      assert.equal(v0 + 2, g:version())
      assert.equal(12, lodestar.find_path(g, 1, 3).cost) -- 7 + 5
    end)

    it("mem_used reports total, node and edge bytes", function()
      local g = graph_a()
      local all, nb, eb = g:mem_used()
      assert.is_true(nb > 0 and eb > 0)
      assert.is_true(nb + eb <= all)
    end)
  end)

  describe("searching", function()
    it("astar on a graph: optimal path as node ids, stats, h_scale", function()
      local g = graph_a()
      local s = lodestar.search.astar(g)
      assert.equal("state", s:status())
      assert.equal(s, s:start(1, 3))
      assert.equal("running", s:status())
      assert.equal("found", s:run())
      local p = s:path()
      assert.equal(3, #p)
      assert.equal(10, p.cost)
      assert.is_false(p.partial)
      assert.same({1, 2, 3}, p:totable())
      assert.same({1, 2, 3}, nodes_of(p))
      assert.equal(2, p:node(2))
      assert.equal(3, p:node(-1))
      assert.equal(3, p:cell(-1)) -- cell(i) gives the node id on graph paths
      local seen = {}
      for i, n in p:cells() do seen[i] = n end
      assert.same({1, 2, 3}, seen)
      assert.matches("^lodestar.Path 3 nodes cost 10 %(", tostring(p))
      assert.equal(10, s:cost())
      assert.equal(g, s:graph())
      assert.is_nil(s:grid())
      assert.near(1, s:h_scale(), 1e-8)
      assert.is_true(s:stats().expansions >= 3)
      assert.is_true(s:stats().mem_bytes > 0)
      assert.matches("^lodestar.Search astar found", tostring(s))
      -- copies of graph paths keep node ids; their cost is unknown (nil)
      local r = p:reverse()
      assert.same({3, 2, 1}, r:totable())
      assert.is_nil(r.cost)
      assert.same({2, 3}, p:sub(2):totable())
      assert.same({1, 2}, p:sub(1, -2):totable())
      -- best-so-far while running
      s:start(1, 3)
      assert.equal("running", s:step(1))
      local pp = s:partial_path()
      assert.is_true(pp.partial)
      assert.equal(1, pp:node(1))
      assert.equal("found", s:run())
      -- reuse for another query, and the reverse direction
      s:start(3, 4)
      assert.equal("found", s:run())
      assert.equal(18, s:cost())
      assert.same({3, 1, 4}, s:path():totable())
    end)

    it("dijkstra, wastar and greedy; weight bounds the cost", function()
      local g = graph_a()
      local d = lodestar.search.dijkstra(g, {start = 1, goal = 3})
      assert.equal("found", d:run())
      assert.equal(10, d:cost())
      assert.equal(0, d:h_scale()) -- dijkstra: h = 0
      local w = lodestar.search.wastar(g, {start = 1, goal = 3, weight = 2})
      assert.equal("found", w:run())
      assert.is_true(w:cost() <= 2 * 10)
      local gr = lodestar.search.greedy(g, {start = 1, goal = 3})
      assert.equal("found", gr:run())
      assert.is_true(gr:cost() >= 10)
      local z = lodestar.search.astar(g, {start = 1, goal = 3, heuristic = "zero"})
      assert.equal("found", z:run())
      assert.equal(10, z:cost())
      local e = lodestar.search.astar(g, {start = 1, goal = 3, heuristic = "euclidean", h_scale = 0.5})
      assert.equal("found", e:run())
      assert.equal(0.5, e:h_scale())
      assert.equal(10, e:cost())
    end)

    it("unreachable nodes: no_path, and partial paths to the closest node", function()
      local g = graph_a()
      local s = lodestar.search.astar(g, {start = 1, goal = 5})
      assert.equal("no_path", s:run())
      assert.is_nil(s:cost())
      local p, msg = lodestar.find_path(g, 1, 5)
      assert.is_nil(p)
      assert.equal("no_path", msg)
      -- 5 is at (100,100): of the reachable nodes, 3 (6,8) is the closest
      p = lodestar.find_path(g, 1, 5, {partial = true})
      assert.is_true(p.partial)
      assert.same({1, 2, 3}, p:totable())
      -- start = goal
      p = lodestar.find_path(g, 5, 5)
      assert.same({5}, p:totable())
      assert.equal(0, p.cost)
    end)

    it("parallel edges, self-loops and zero-cost edges", function()
      local g = lodestar.graph.new("none")
      for _ = 1, 3 do g:add_node() end
      g:add_edge(1, 2, 7)
      g:add_edge(1, 1, 0)   -- self-loop
      g:add_edge(1, 2, 3)   -- parallel, cheaper
      g:add_edge(2, 2, 1)   -- self-loop
      g:add_edge(2, 3, 0)   -- zero cost
      g:freeze()
      assert.same({{node = 2, cost = 7, edge = 1}, {node = 1, cost = 0, edge = 2},
                   {node = 2, cost = 3, edge = 3}}, g:neighbors(1))
      local p = lodestar.find_path(g, 1, 3)
      assert.equal(3, p.cost)
      assert.same({1, 2, 3}, p:totable())
      assert.equal(1, g:find_edge(1, 2)) -- the first of the parallel edges
      g:set_edge_cost(1, 2, 1)           -- changes that one
      assert.same({1, 2, 1}, {g:edge(1)})
      assert.same({1, 2, 3}, {g:edge(3)})
      assert.equal(1, lodestar.find_path(g, 1, 3).cost)
      g:set_edge_cost(1, 2, 9)
      g:set_edge_cost_id(3, 0.5)         -- the second one, by id
      assert.equal(0.5, lodestar.find_path(g, 1, 3).cost)
      assert.equal(0, lodestar.find_path(g, 1, 1).cost)
    end)

    it("a cost edit while a search runs makes it stale", function()
      local g = lodestar.graph.new()
      for i = 1, 50 do g:add_node(i, 0) end
      for i = 1, 49 do g:add_edge(i, i + 1, 1) end
      g:freeze()
      local s = lodestar.search.astar(g, {start = 1, goal = 50})
      assert.equal("running", s:step(5))
      local v = g:version()
      g:set_edge_cost(30, 31, 2)
      local st, msg = s:step(5)
      assert.equal("stale", st)
      assert.equal(("lds_search_step: the graph changed since the query started (version %d, now %d)")
        :format(v, v + 1), msg)
      assert.equal("stale", s:status())
      assert.equal("stale", s:run()) -- a finished query keeps its status
      s:start(1, 50)                 -- restarting picks up the new costs
      assert.equal("found", s:run())
      assert.equal(50, s:cost())
    end)

    it("slicing never changes the path", function()
      local g = lodestar.graph.from_grid(lodestar.grid.new(12, 9))
      local one = lodestar.search.astar(g, {start = 1, goal = 108})
      assert.equal("found", one:run())
      local sliced = lodestar.search.astar(g, {start = 1, goal = 108})
      local n = 0
      while sliced:step(1) == "running" do n = n + 1 end
      assert.is_true(n > 5)
      assert.equal("found", sliced:status())
      assert.equal(one:cost(), sliced:cost())
      assert.same(one:path():totable(), sliced:path():totable())
    end)
  end)

  describe("custom Lua heuristic", function()
    it("heuristic = function(node, goal) gets 1-based ids and keeps A* optimal", function()
      local g = graph_a()
      local calls, bad = 0, 0
      local s = lodestar.search.astar(g, {start = 1, goal = 3, heuristic = function(node, goal)
        calls = calls + 1
        if math.type and (math.type(node) ~= "integer" or math.type(goal) ~= "integer") then
          bad = bad + 1
        end
        if goal ~= 3 or node < 1 or node > 5 then bad = bad + 1 end
        return g:distance(node, goal) -- euclidean, admissible here (scale 1)
      end})
      assert.equal("found", s:run())
      assert.equal(10, s:cost())
      assert.same({1, 2, 3}, s:path():totable())
      assert.is_true(calls >= 3)
      assert.equal(0, bad)
      assert.equal(0, s:h_scale()) -- custom heuristics are not scaled
    end)

    it("a Lua error ends the search with status callback and the message", function()
      local g = graph_a()
      -- fails on the start node: already in start
      local s = lodestar.search.astar(g, {start = 1, goal = 3,
        heuristic = function() error("no estimate") end})
      assert.equal("callback", s:status())
      local st, msg = s:step()
      assert.equal("callback", st)
      assert.matches("^heuristic callback failed at node 1: .*no estimate$", msg)
      assert.equal(msg, s:errmsg())
      -- fails later, inside a step
      s = lodestar.search.astar(g, {start = 1, goal = 3, heuristic = function(node)
        if node == 4 then error({}) end
        return 0
      end})
      assert.equal("running", s:status())
      st, msg = s:run()
      assert.equal("callback", st)
      assert.equal("heuristic callback failed at node 4: (error object is a table value)", msg)
      -- find_path returns nil, message, "callback"
      local p, m, code = lodestar.find_path(g, 1, 3, {heuristic = function(node)
        if node == 2 then error("bad node 2", 0) end
        return 0
      end})
      assert.is_nil(p)
      assert.equal("heuristic callback failed at node 2: bad node 2", m)
      assert.equal("callback", code)
      -- the search can be restarted after a failure (3 -> 1 never asks about node 4)
      s:start(3, 1)
      assert.equal("found", s:run())
      assert.equal(10, s:cost())
    end)

    it("bad results are reported with the node", function()
      local g = graph_a()
      local _, m = lodestar.find_path(g, 1, 3, {heuristic = function() return "near" end})
      assert.equal("heuristic callback failed at node 1: returned string (expected a number >= 0)", m)
      _, m = lodestar.find_path(g, 1, 3, {heuristic = function(n) return n == 1 and 0 or -1 end})
      assert.equal("heuristic callback failed at node 2: returned -1 (expected finite, >= 0)", m)
      _, m = lodestar.find_path(g, 1, 3, {heuristic = function() return 0 / 0 end})
      assert.equal("heuristic callback failed at node 1: returned nan (expected finite, >= 0)", m)
      _, m = lodestar.find_path(g, 1, 3, {heuristic = function() return math.huge end})
      assert.equal("heuristic callback failed at node 1: returned inf (expected finite, >= 0)", m)
    end)

    it("cannot free the graph or restart its own search from inside", function()
      local g = graph_a()
      local _, m = lodestar.find_path(g, 1, 3, {heuristic = function() g:free() end})
      has(m, "lodestar.Graph: cannot free while a heuristic callback of a search on it runs")
      assert.equal(5, g:node_count()) -- still usable
      _, m = lodestar.find_path(g, 1, 3, {heuristic = function() g:set_edge_cost(1, 2, 1) end})
      has(m, "lodestar.Graph: cannot change costs while a heuristic callback of a search on it runs")
      assert.equal(5, select(3, g:edge(1)))
      local s0
      s0 = lodestar.search.astar(g, {heuristic = function(node)
        if node ~= 1 then s0:step() end
        return 0
      end})
      s0:start(1, 3)
      local st0, msg0 = s0:run()
      assert.equal("callback", st0)
      has(msg0, "lodestar.Search: cannot step a search from its own heuristic callback")
      local s
      s = lodestar.search.astar(g, {heuristic = function(node)
        if node ~= 1 then s:start(1, 2) end
        return 0
      end})
      s:start(1, 3)
      local st, msg = s:run()
      assert.equal("callback", st)
      has(msg, "cannot restart a search from its own heuristic callback")
    end)
  end)

  describe("lifetime", function()
    it("a search keeps its graph alive when the graph variable is dropped", function()
      local s
      do
        local g = lodestar.graph.new()
        for i = 1, 40 do g:add_node(i, 0) end
        for i = 1, 39 do g:add_edge(i, i + 1, 2) end
        g:freeze()
        s = lodestar.search.dijkstra(g, {start = 1, goal = 40})
      end
      assert.equal("running", s:step(3))
      collectgarbage(); collectgarbage()
      assert.equal("found", s:run())
      assert.equal(78, s:cost())
      assert.equal(40, s:graph():node_count())
      s = nil -- luacheck: ignore 311 (drops the reference, so the collector can take it)
      collectgarbage(); collectgarbage()
    end)

    it("graph:free() with a live search defers the free until the search goes", function()
      local g = graph_a()
      local s = lodestar.search.astar(g, {start = 1, goal = 3})
      g:free()
      g:free() -- idempotent
      assert.equal("lodestar.Graph (freed)", tostring(g))
      assert.matches("attempt to use a freed lodestar.Graph", errmsg(g.node_count, g), 1, true)
      assert.equal("found", s:run()) -- the core graph still lives
      assert.equal(10, s:cost())
      s:free()
      collectgarbage()
    end)

    if _VERSION == "Lua 5.4" then
      it("closes with <close> (Lua 5.4)", function()
        local chunk = assert(load([[
          local lodestar, g = ...
          local kept
          do
            local h <close> = lodestar.graph.new()
            h:add_node(0, 0)
            kept = h
          end
          return kept
        ]]))
        local kept = chunk(lodestar)
        assert.equal("lodestar.Graph (freed)", tostring(kept))
      end)
    end
  end)

  describe("from_grid", function()
    it("node id = y*width + x + 1, same costs as the grid search", function()
      local grid = lodestar.grid.from_ascii[[
        ....
        .@@.
        ..3.
      ]]
      local g = lodestar.graph.from_grid(grid)
      assert.is_true(g:frozen())
      assert.equal(12, g:node_count())
      assert.equal("xy", g:coord_kind())
      assert.same({2.5, 1.5}, {g:coords(1 * 4 + 2 + 1)}) -- cell (2,1): centre
      assert.same({}, g:neighbors(1 * 4 + 1 + 1))      -- blocked cell (1,1): isolated
      local gp = lodestar.find_path(grid, 0, 0, 3, 2)
      local hp = lodestar.find_path(g, 1, 2 * 4 + 3 + 1)
      assert.near(gp.cost, hp.cost, 1e-12)
      assert.equal(#gp, #hp)
      local i = 0
      for _, x, y in gp:cells() do
        i = i + 1
        assert.equal(y * 4 + x + 1, hp:node(i))
      end
    end)
  end)

  describe("errors", function()
    it("constructors and building", function()
      has(errmsg(lodestar.graph.new, "xyzw"), "invalid option 'xyzw'")
      has(errmsg(lodestar.graph.new, 3), "(string expected, got number)")
      local g = lodestar.graph.new()
      has(errmsg(g.add_node, g, 1), "(number expected, got no value)")
      has(errmsg(g.add_node, g, 0 / 0, 1), "(x nan out of range (expected finite))")
      has(errmsg(g.add_node, g, 1, math.huge), "(y inf out of range (expected finite))")
      has(errmsg(g.add_node, g, 1, 2, 3), "(the graph has coords 'xy' (expected no z))")
      local n = lodestar.graph.new("none")
      has(errmsg(n.add_node, n, 1, 2), "(the graph has coords 'none' (expected no coordinates))")
      local ll = lodestar.graph.new("lonlat")
      has(errmsg(ll.add_node, ll, 200, 0), "(longitude 200 out of range (expected -180..180))")
      has(errmsg(ll.add_node, ll, 0, -91), "(latitude -91 out of range (expected -90..90))")
      has(errmsg(g.add_edge, g, 1, 2, 1), "(node 1 out of range (the graph has no nodes))")
      g:add_node(0, 0)
      g:add_node(1, 0)
      -- a method named as for g:add_edge(1, 9, 1): self is not counted
      has(errmsg(g.add_edge, g, 1, 9, 1), "bad argument #2 to 'add_edge'")
      has(errmsg(g.add_edge, g, 1, 9, 1), "(node 9 out of range (expected 1..2))")
      has(errmsg(g.add_edge, g, 0, 1, 1), "(node 0 out of range (expected 1..2))")
      has(errmsg(g.add_edge, g, 1.5, 2, 1), "(number has no integer representation)")
      has(errmsg(g.add_edge, g, 1, 2, 0 / 0), "(cost nan out of range (expected finite, >= 0))")
      has(errmsg(g.add_edge, g, 1, 2, -1), "(cost -1 out of range (expected finite, >= 0))")
      has(errmsg(g.add_edge, g, 1, 2, math.huge), "(cost inf out of range (expected finite, >= 0))")
      has(errmsg(g.add_edge, g, 1, 2, "5"), "(number expected, got string)")
      has(errmsg(g.neighbors, g, 1), "lodestar.Graph: neighbours needs a frozen graph (call graph:freeze() first)")
      has(errmsg(g.set_edge_cost, g, 1, 2, 1), "set_edge_cost needs a frozen graph")
      has(errmsg(lodestar.search.astar, g), "(the graph is not frozen (call graph:freeze() first))")
      g:add_edge(1, 2, 1)
      g:freeze()
      has(errmsg(g.add_edge, g, 1, 2, 1),
        "lodestar.Graph: cannot add an edge: the graph is frozen (topology and coordinates are fixed)")
      has(errmsg(g.add_node, g, 0, 0), "lodestar.Graph: cannot add a node: the graph is frozen")
      has(errmsg(g.set_edge_cost, g, 2, 1, 1), "(no edge 2 -> 1)")
      has(errmsg(g.set_edge_cost, g, 1, 2, 0 / 0), "(cost nan out of range (expected finite, >= 0))")
      has(errmsg(g.set_edge_cost_id, g, 2, 1), "(edge 2 out of range (expected 1..1))")
      has(errmsg(g.edge, g, 0), "(edge 0 out of range (expected 1..1))")
      has(errmsg(g.coords, g, 3), "(node 3 out of range (expected 1..2))")
      has(errmsg(g.node_count, lodestar.grid.new(2, 2)), "(lodestar.Graph expected, got lodestar.Grid)")
      has(errmsg(lodestar.graph.from_grid, g), "(lodestar.Grid expected, got lodestar.Graph)")
      has(errmsg(lodestar.graph.load_dimacs, nil), "(string expected, got nil)")
    end)

    it("search options and ids", function()
      local g = graph_a()
      has(errmsg(lodestar.search.astar, g, {heuristic = "great_circle"}),
        "(opts.heuristic: 'great_circle' needs a graph with coords 'lonlat' (this one has 'xy'))")
      has(errmsg(lodestar.search.astar, g, {heuristic = "octile"}),
        "(opts.heuristic: invalid option 'octile' on a graph "
          .. "(expected auto, zero, euclidean, great_circle, or a function(node, goal)))")
      has(errmsg(lodestar.search.astar, g, {heuristic = "custom"}),
        "(opts.heuristic: 'custom' is given as the function itself: heuristic = function(node, goal) ... end)")
      has(errmsg(lodestar.search.astar, g, {heuristic = 3}),
        "(opts.heuristic: string or function expected, got number)")
      has(errmsg(lodestar.search.astar, g, {cost = function() end}),
        "(option 'cost' is for grid searches (on a graph, change costs with graph:set_edge_cost))")
      has(errmsg(lodestar.search.astar, g, {goal = 1, wieght = 2}),
        "(unknown option 'wieght' (expected goal, h_scale, heuristic, partial, start, weight))")
      has(errmsg(lodestar.search.wastar, g, {weight = 0 / 0}),
        "(opts.weight: nan out of range (expected finite, >= 1))")
      has(errmsg(lodestar.search.astar, g, {h_scale = -1}),
        "(opts.h_scale: -1 out of range (expected finite, >= 0))")
      has(errmsg(lodestar.search.astar, g, {start = 9, goal = 1}),
        "(opts.start: node 9 out of range (expected 1..5))")
      has(errmsg(lodestar.search.astar, g, {start = {1}, goal = 1}),
        "(opts.start: number (a node id) expected, got table)")
      has(errmsg(lodestar.search.astar, g, {start = 1}), "(opts.start and opts.goal go together)")
      has(errmsg(lodestar.search.jps, g),
        "(algorithm 'jps' runs on grids only (expected astar, dijkstra, wastar or greedy on a graph))")
      has(errmsg(lodestar.search.astar, {}), "(lodestar.Grid or lodestar.Graph expected, got table)")
      local s = lodestar.search.astar(g)
      has(errmsg(s.start, s, 0, 1), "(start 0 out of range (expected 1..5))")
      has(errmsg(s.start, s, 1, 6), "(goal 6 out of range (expected 1..5))")
      has(errmsg(s.start, s, 1, 2.5), "(number has no integer representation)")
      has(errmsg(lodestar.find_path, g, 1, 9), "(goal 9 out of range (expected 1..5))")
      -- the algorithm comes from the options (argument #4), not the graph (#1)
      assert.equal("bad argument #4 to 'find_path' (opts.algorithm: algorithm 'jps' runs on grids only "
        .. "(expected astar, dijkstra, wastar or greedy on a graph))",
        errmsg(lodestar.find_path, g, 1, 2, {algorithm = "jps"}))
      has(errmsg(lodestar.find_path, g, 1, 2, {algorithm = "bfs"}),
        "(opts.algorithm: unknown algorithm 'bfs' (expected astar, dijkstra, wastar, greedy))")
      has(errmsg(lodestar.find_path, g, 1, 2, {algo = "astar"}),
        "(unknown option 'algo' (expected algorithm, goal, h_scale, heuristic, partial, start, weight))")
      has(errmsg(lodestar.find_path, g, 1, 2, {weight = 0.5}), "bad argument #4")
      has(errmsg(lodestar.find_path, "g", 1, 2), "(lodestar.Grid or lodestar.Graph expected, got string)")
      local p = lodestar.find_path(g, 1, 3)
      has(errmsg(p.nodes, lodestar.find_path(lodestar.grid.new(2, 2), 0, 0, 1, 1)),
        "lodestar.Path: nodes() is for graph paths (use cells() on a grid path)")
      has(errmsg(p.node, p, 4), "(index 4 out of range (path has 3 cells))")
    end)
  end)

  describe("DIMACS", function()
    local gr, co = ROADS .. "monaco.gr", ROADS .. "monaco.co"
    -- the shared road data may be absent (a clone without ../shared): then
    -- the tests that read it are listed as pending, not failed
    local fh = io.open(gr)
    if fh then fh:close() end
    local it_roads = fh and it or pending

    local function read_queries(path)
      local out = {}
      for line in assert(io.open(path)):lines() do
        local s, t, d = line:match("^(%d+)%s+(%d+)%s+(%-?%d+)")
        if s then out[#out + 1] = {tonumber(s), tonumber(t), tonumber(d)} end
      end
      return out
    end

    it_roads("monaco: all 200 queries give the exact distance (A* and Dijkstra)", function()
      local g, msg = lodestar.graph.load_dimacs(gr, co)
      assert.is_not_nil(g, msg)
      assert.equal(2815, g:node_count())
      assert.equal(4717, g:edge_count())
      assert.equal("lonlat", g:coord_kind())
      assert.is_true(g:h_scale() > 9 and g:h_scale() <= 10.0001) -- decimetres per metre
      local qs = read_queries(ROADS .. "monaco.queries")
      assert.equal(200, #qs)
      local a = lodestar.search.astar(g)
      local d = lodestar.search.dijkstra(g)
      local mismatches, fewer = 0, 0
      for _, q in ipairs(qs) do
        a:start(q[1], q[2])
        local st = a:run()
        local cost = st == "found" and a:cost() or -1
        if cost ~= q[3] then mismatches = mismatches + 1 end
        d:start(q[1], q[2])
        d:run()
        if (d:cost() or -1) ~= q[3] then mismatches = mismatches + 1 end
        if a:stats().expansions <= d:stats().expansions then fewer = fewer + 1 end
        -- the path is a chain of edges whose costs add up to the distance
        if st == "found" then
          local nodes, sum = a:path():totable(), 0
          for i = 1, #nodes - 1 do
            local best
            for _, e in ipairs(g:neighbors(nodes[i])) do
              if e.node == nodes[i + 1] and (not best or e.cost < best) then best = e.cost end
            end
            sum = sum + (best or math.huge)
          end
          if sum ~= q[3] then mismatches = mismatches + 1 end
        end
      end
      assert.equal(0, mismatches)
      assert.equal(200, fewer) -- A* with the great-circle heuristic never expands more
    end)

    it_roads("the graph alone (.gr without .co) has no coordinates", function()
      local g = assert(lodestar.graph.load_dimacs(gr))
      assert.equal("none", g:coord_kind())
      local q = read_queries(ROADS .. "monaco.queries")[1]
      assert.equal(q[3], lodestar.find_path(g, q[1], q[2]).cost)
    end)

    it("malformed and missing files return nil, file:line message, code", function()
      local path = os.tmpname()
      local f = assert(io.open(path, "w"))
      f:write("c a comment\np sp 3 2\na 1 2 5\na 2 x 4\n")
      f:close()
      local g, msg, code = lodestar.graph.load_dimacs(path)
      assert.is_nil(g)
      assert.equal(path .. ":4: expected 'a U V W', got 'a 2 x 4'", msg)
      assert.equal("format", code)
      f = assert(io.open(path, "w"))
      f:write("p sp 3 1\na 1 7 5\n")
      f:close()
      g, msg, code = lodestar.graph.load_dimacs(path)
      assert.is_nil(g)
      assert.matches("^" .. path:gsub("%p", "%%%0") .. ":2: ", msg)
      assert.equal("format", code)
      os.remove(path)
      g, msg, code = lodestar.graph.load_dimacs(path .. ".missing")
      assert.is_nil(g)
      assert.equal("lds_graph_load_dimacs: cannot open " .. path .. ".missing (No such file or directory)", msg)
      assert.equal("io", code)
    end)
  end)
end)
