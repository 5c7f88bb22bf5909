-- SPDX-License-Identifier: MIT
-- Argument errors across the binding and the Lua package (docs/lua-api.md,
-- Conventions): every "unknown option" list names every accepted key,
-- methods are named and numbered as for a call with ':', errors point at the
-- caller's line and blame the right argument, option tables of the Lua
-- package reject unknown keys, and factories check their arguments at once.
local lodestar = require "lodestar"
local smooth = require "lodestar.smooth"
local testing = require "lodestar.testing"
local support = require "support"

local THIS = "13%-errors_spec%.lua:%d+: " -- the position prefix of an error raised here

-- msg without the position prefix of this file
local function here(msg)
  local rest, n = msg:gsub("^.-" .. THIS, "")
  assert.equal(1, n, "no position in this file: " .. msg)
  return rest
end

local errmsg = support.errmsg

-- The keys listed in "unknown option 'zzz' (expected a, b, c)".
local function listed(msg)
  local list = msg:match("unknown [%a ]+ 'zzz' %(expected ([^)]*)%)")
  assert.is_string(list, msg)
  local keys = {}
  for k in list:gmatch("[^, ]+") do keys[#keys + 1] = k end
  return keys
end

local function sorted_keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

describe("unknown-option lists", function()
  local g = lodestar.grid.new(10, 10)
  g:layer_add("mud")
  local graph = lodestar.graph.new()
  graph:add_node(0, 0)
  graph:add_node(1, 0)
  graph:add_edge(1, 2, 1)
  graph:freeze()

  -- Each case: a call with opts; a valid value for every key it accepts.
  -- The list printed for an unknown key must be exactly these keys, and
  -- each of them must be accepted on its own.
  local cost = function(_, _, _, _, base) return base end
  local cases = {
    {"find_path(grid)", function(o) return lodestar.find_path(g, 0, 0, 3, 3, o) end, {
      algorithm = "jps", cost = cost, goal = {3, 3}, h_scale = 0, heuristic = "octile",
      partial = true, start = {0, 0}, weight = 1, weights = {mud = 1}}},
    {"search.astar(grid)", function(o) return lodestar.search.astar(g, o) end, {
      cost = cost, goal = {3, 3}, h_scale = 0, heuristic = "octile",
      partial = true, start = {0, 0}, weight = 1, weights = {mud = 1}}},
    {"find_path(graph)", function(o) return lodestar.find_path(graph, 1, 2, o) end, {
      algorithm = "dijkstra", goal = 2, h_scale = 0, heuristic = "zero", partial = true,
      start = 1, weight = 1}},
    {"search.astar(graph)", function(o) return lodestar.search.astar(graph, o) end, {
      goal = 2, h_scale = 0, heuristic = "zero", partial = true, start = 1, weight = 1}},
    {"search.dstar_lite", function(o)
      local t = {start = {0, 0}, goal = {3, 3}}
      for k, v in pairs(o) do t[k] = v end
      return lodestar.search.dstar_lite(g, t)
    end, {goal = {3, 3}, h_scale = 0, heuristic = "octile", start = {0, 0}, subscribe = false,
      weights = {mud = 1}}},
    {"s:run", function(o) return lodestar.search.astar(g, {start = {0, 0}, goal = {3, 3}}):run(o) end,
      {budget_us = 1000000, max_expansions = 5}},
    {"d:compute", function(o)
      return lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {3, 3}}):compute(o)
    end, {budget_us = 1000000, max_expansions = 5}},
    {"smooth.catmull_rom", function(o)
      return smooth.catmull_rom(lodestar.find_path(g, 0, 0, 3, 3), o)
    end, {grid = g, samples = 4, weights = {}}},
  }
  for _, case in ipairs(cases) do
    local name, call, valid = case[1], case[2], case[3]
    it(name .. " lists every key it accepts", function()
      assert.same(sorted_keys(valid), listed(errmsg(call, {zzz = 1})), name)
      for k, v in pairs(valid) do
        local ok, e = pcall(call, {[k] = v})
        assert(ok or not tostring(e):find("unknown", 1, true), name .. ": " .. k .. ": " .. tostring(e))
      end
    end)
  end

  it("find_path's list names 'algorithm' (the reported typo)", function()
    assert.matches(THIS .. "bad argument #6 to 'find_path' %(unknown option 'algo' %(expected "
      .. "algorithm, cost, goal, h_scale, heuristic, partial, start, weight, weights%)%)$",
      errmsg(function() lodestar.find_path(g, 1, 3, 4, 5, {algo = "jps"}) end))
  end)

  it("an unknown algorithm lists the algorithms", function()
    assert.equal("bad argument #6 to 'find_path' (opts.algorithm: unknown algorithm 'a*' (expected "
      .. table.concat(lodestar.algorithms, ", ") .. "))",
      errmsg(lodestar.find_path, g, 0, 0, 1, 1, {algorithm = "a*"}))
    assert.equal("bad argument #4 to 'find_path' (opts.algorithm: unknown algorithm 'a*' (expected "
      .. "astar, dijkstra, wastar, greedy))", errmsg(lodestar.find_path, graph, 1, 2, {algorithm = "a*"}))
  end)

  it("request_path (the runtime's Lua half) lists its fields", function()
    local R = require("lodestar.runtime")({})
    R.grids.world = g
    local msg = errmsg(function() R.request_path{grid = "world", start = {0, 0}, goal = {1, 1}, zzz = 1} end)
    assert.matches(THIS .. "bad argument #1 to 'request_path' %(unknown field 'zzz'", msg)
    assert.same({"agent", "algo", "algorithm", "goal", "grid", "h_scale", "heuristic", "on_done",
      "partial", "priority", "profile", "start", "weight", "weights"},
      listed((msg:gsub("unknown field", "unknown option"))))
  end)
end)

describe("methods in errors", function()
  local g = lodestar.grid.new(10, 10)
  local s = lodestar.search.astar(g, {start = {0, 0}, goal = {5, 5}})
  local d = lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {5, 5}})

  it("s:step(-1) and s:run{budget=5} name the method, self not counted", function()
    local step = "bad argument #1 to 'step' (max_expansions must be >= 0 (0 = no limit))"
    local run = "bad argument #1 to 'run' (unknown budget field 'budget' (expected budget_us, max_expansions))"
    -- a method call: Lua names it from the call site
    assert.equal(step, here(errmsg(function() s:step(-1) end)))
    assert.equal(run, here(errmsg(function() s:run{budget = 5} end)))
    -- no call site to see (pcall; a tail call on LuaJIT): the same text
    assert.equal(step, errmsg(s.step, s, -1))
    assert.equal(run, errmsg(s.run, s, {budget = 5}))
    assert.equal(step, (errmsg(function() return s:step(-1) end):gsub("^.-" .. THIS, "")))
    -- the explicit form counts self, as Lua's own libraries do
    assert.matches(THIS .. "bad argument #2 to 'step'", errmsg(function() s.step(s, -1) end))
  end)

  it("argument numbers are those of the method call", function()
    assert.equal("bad argument #2 to 'blocked' (y 20 out of range (expected 0..9))",
      errmsg(g.blocked, g, 1, 20))
    -- a deprecated alias is the same function (Lua 5.4 reports it by its
    -- current name, LuaJIT may find the alias's field name)
    assert.matches("^bad argument #2 to '[a-z_]*blocked' %(y 20 out of range %(expected 0..9%)%)$",
      errmsg(g.get_blocked, g, 1, 20))
    assert.equal("bad argument #1 to 'compute' (max_expansions must be >= 0 (0 = no limit))",
      errmsg(d.compute, d, -1))
    assert.equal("bad argument #3 to 'update_rect' (x1 2 < x0 3 (empty rectangle))",
      errmsg(d.update_rect, d, 3, 0, 2, 1))
    assert.equal("bad argument #1 to 'set_diagonal' (invalid option 'no_cornercut')",
      errmsg(g.set_diagonal, g, "no_cornercut"))
    local p = lodestar.find_path(g, 0, 0, 3, 0)
    assert.equal("bad argument #1 to 'cell' (index 9 out of range (path has 4 cells))", errmsg(p.cell, p, 9))
    assert.equal("bad argument #1 to 'prune_los' (lodestar.Grid expected, got no value)", errmsg(p.prune_los, p))
    local graph = lodestar.graph.new()
    graph:add_node(0, 0)
    assert.equal("bad argument #2 to 'add_edge' (node 9 out of range (expected 1..1))",
      errmsg(graph.add_edge, graph, 1, 9, 1))
  end)

  it("module functions are named too", function()
    assert.equal("bad argument #1 to 'new' (width 0 out of range (expected 1..65535))",
      errmsg(lodestar.grid.new, 0, 4))
    assert.equal("bad argument #2 to 'astar' (unknown option 'zzz' (expected cost, goal, h_scale, "
      .. "heuristic, partial, start, weight, weights))", errmsg(lodestar.search.astar, g, {zzz = 1}))
    assert.equal("bad argument #1 to 'heuristic_distance' (invalid option 'taxicab')",
      errmsg(lodestar.heuristic_distance, "taxicab", 1, 1))
  end)

  -- every method of every userdata type: a wrong self names the method
  -- (a deprecated alias names the method it stands for, docs/lua-api.md)
  local ALIAS = {get_blocked = "blocked", get_cost = "cost", coord_kind = "coords_kind",
    neighbors = "neighbours", in_neighbors = "in_neighbours", compute = "step"}
  local graph = lodestar.graph.new()
  local objects = {
    {"lodestar.Grid", g}, {"lodestar.Search", s}, {"lodestar.DStar", d}, {"lodestar.Graph", graph},
  }
  for _, o in ipairs(objects) do
    it(o[1] .. ": every method names itself on a bad self", function()
      local methods = getmetatable(o[2]).__index
      assert.is_table(methods)
      local n = 0
      for name, fn in pairs(methods) do
        local function want(m) return ("calling '%s' on bad self (%s expected, got table)"):format(m, o[1]) end
        local msg = errmsg(fn, {})
        -- an alias may be named either way (Lua 5.4: the method's name; LuaJIT: the field's)
        assert.is_truthy(msg == want(ALIAS[name] or name) or msg == want(name), msg)
        n = n + 1
      end
      assert.is_true(n >= 10)
    end)
  end
  it("lodestar.Path: every method names itself on a bad self", function()
    local p = lodestar.find_path(g, 0, 0, 1, 1)
    for _, name in ipairs{"cell", "cells", "free", "node", "nodes", "prune_los", "reverse", "sub", "totable"} do
      assert.equal(("calling '%s' on bad self (lodestar.Path expected, got table)"):format(name),
        errmsg(p[name], {}))
    end
  end)
end)

describe("Lua package errors point at the caller and blame the right argument", function()
  local g = lodestar.grid.new(10, 10)
  local other = lodestar.grid.new(5, 5)
  local p = lodestar.find_path(g, 0, 0, 9, 9)

  it("lodestar.prune_los(path, other_grid) blames the grid, #2, at the caller's line", function()
    assert.matches(THIS .. "bad argument #2 to 'prune_los' %(lds_grid_path_cost: path width 10 "
      .. "does not match the grid %(width 5%)%)$", errmsg(function() lodestar.prune_los(p, other) end))
    assert.matches(THIS .. "bad argument #1 to 'prune_los' %(lodestar.Path expected, got table%)$",
      errmsg(function() lodestar.prune_los({}, g) end))
    assert.equal(2, #lodestar.prune_los(lodestar.find_path(g, 0, 0, 5, 2), g))
  end)

  it("a graph path given to a grid post-processor is named as such, not as a width mismatch", function()
    local graph = lodestar.graph.new()
    graph:add_node(0, 0)
    graph:add_node(1, 0)
    graph:add_edge(1, 2, 1)
    graph:freeze()
    local gp = lodestar.find_path(graph, 1, 2)
    assert.matches(THIS .. "calling 'prune_los' on bad self %(a grid path expected, got a graph path%)$",
      errmsg(function() gp:prune_los(g) end))
    assert.matches(THIS .. "bad argument #1 to 'prune_los' %(a grid path expected, got a graph path%)$",
      errmsg(function() lodestar.prune_los(gp, g) end))
    assert.matches(THIS .. "calling 'reverse' on bad self %(a grid path expected, got a graph path%)$",
      errmsg(function() gp:reverse(g) end))
    assert.matches(THIS .. "calling 'sub' on bad self %(a grid path expected, got a graph path%)$",
      errmsg(function() gp:sub(1, 2, g) end))
    assert.equal(2, #gp:reverse()) -- without a grid a graph path is fine
  end)

  it("rule helpers check their arguments when made", function()
    assert.matches(THIS .. "bad argument #2 to 'near' %(radius must be a number > 0%)$",
      errmsg(function() lodestar.rule.near({{x = 1, y = 1}}, 0) end))
    assert.matches(THIS .. "bad argument #1 to 'near' %(source 2: {x=, y=} with numbers expected%)$",
      errmsg(function() lodestar.rule.near({{x = 1, y = 1}, {1, 2}}, 3) end))
    assert.matches(THIS .. "bad argument #3 to 'near' %(peak must be a finite number%)$",
      errmsg(function() lodestar.rule.near({}, 3, "8") end))
    assert.matches(THIS .. "bad argument #1 to 'terrain' %(value of 'T': number or false expected, got string%)$",
      errmsg(function() lodestar.rule.terrain{T = "5"} end))
    assert.matches(THIS .. "bad argument #2 to 'terrain' %(number or false expected, got boolean%)$",
      errmsg(function() lodestar.rule.terrain({}, true) end))
  end)

  it("testing.true_cost names itself at the caller's line", function()
    assert.matches(THIS .. "bad argument #2 to 'true_cost' %(sx 10 out of range %(expected 0..9%)%)$",
      errmsg(function() testing.true_cost(g, 10, 0, 1, 1) end))
    assert.matches(THIS .. "bad argument #6 to 'true_cost' %(opts.weights: the grid has no layer 'x'%)$",
      errmsg(function() testing.true_cost(g, 0, 0, 1, 1, {weights = {x = 1}}) end))
  end)

  it("smooth functions check their arguments at the caller's line", function()
    assert.matches(THIS .. "bad argument #1 to 'catmull_rom' %(lodestar.Path or list of {x=, y=} "
      .. "expected, got number%)$", errmsg(function() smooth.catmull_rom(5) end))
    assert.matches(THIS .. "bad argument #1 to 'resample' %(point 2: x and y must be finite numbers%)$",
      errmsg(function() smooth.resample({{x = 0, y = 0}, {x = 1}}, 1) end))
    assert.matches(THIS .. "bad argument #1 to 'length' %(lodestar.Path or list of {x=, y=} "
      .. "expected, got nil%)$", errmsg(function() smooth.length() end))
    assert.matches(THIS .. "bad argument #2 to 'catmull_rom' %(opts.grid: lodestar.Grid or grid view "
      .. "expected, got table%)$",
      errmsg(function() smooth.catmull_rom(p, {grid = {}}) end))
    local graph = lodestar.graph.new()
    graph:add_node(0, 0)
    graph:freeze()
    assert.matches(THIS .. "bad argument #1 to 'catmull_rom' %(a grid path expected, got a graph path%)$",
      errmsg(function() smooth.catmull_rom(lodestar.find_path(graph, 1, 1)) end))
  end)
end)

describe("smooth: options and factories", function()
  local g = lodestar.grid.new(10, 10)
  local p = lodestar.find_path(g, 0, 0, 9, 4)

  it("postprocessor checks spacing and samples when made", function()
    assert.matches(THIS .. "bad argument #1 to 'postprocessor' %(spacing must be a number > 0%)$",
      errmsg(function() smooth.postprocessor(-1) end))
    assert.matches(THIS .. "bad argument #1 to 'postprocessor' %(spacing must be a number > 0%)$",
      errmsg(function() smooth.postprocessor(0 / 0) end))
    assert.matches(THIS .. "bad argument #2 to 'postprocessor' %(samples must be an integer >= 1%)$",
      errmsg(function() smooth.postprocessor(0.5, 2.5) end))
    assert.is_function(smooth.postprocessor())
    local step = smooth.postprocessor(0.5, 4)
    assert.matches(THIS .. "bad argument #1 to 'postprocessor step' %(lodestar.Path or list of {x=, y=} "
      .. "expected, got string%)$", errmsg(function() step("path") end))
    assert.matches(THIS .. "bad argument #2 to 'postprocessor step' %(lodestar.Grid or grid view "
      .. "expected, got string%)$",
      errmsg(function() step(p, "grid") end))
  end)

  it("catmull_rom rejects unknown option keys", function()
    assert.matches(THIS .. "bad argument #2 to 'catmull_rom' %(unknown option 'sample' %(expected grid, "
      .. "samples, weights%)%)$",
      errmsg(function() smooth.catmull_rom(p, {sample = 3}) end))
    assert.matches(THIS .. "bad argument #2 to 'catmull_rom' %(opts keys must be strings%)$",
      errmsg(function() smooth.catmull_rom(p, {3}) end))
    assert.matches(THIS .. "bad argument #2 to 'catmull_rom' %(table expected, got number%)$",
      errmsg(function() smooth.catmull_rom(p, 3) end))
    assert.equal((#p - 1) * 3 + 1, #smooth.catmull_rom(p, {samples = 3}))
  end)
end)
