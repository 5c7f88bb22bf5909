-- SPDX-License-Identifier: MIT
-- Boolean options and arguments take nil (the default) or a boolean; any
-- other value raises an error naming the option and "boolean expected"
-- (0 and "yes" are truthy in Lua: read as truthiness they would silently
-- ask for the option). docs/lua-api.md, "Search options everywhere".
local lodestar = require "lodestar"
local core = require "lodestar.core"
local support = require "support"

local errmsg = support.errmsg

local has = support.has

local function recorder()
  local dd = {}
  function dd.begin() end
  function dd.vertex() end
  function dd.finish() end
  return dd
end

local function mesh()
  return assert(lodestar.navmesh.new{verts = {{0, 0, 0}, {4, 0, 0}, {0, 0, 4}}, polys = {{1, 2, 3}}})
end

local function graph()
  local g = lodestar.graph.new("xy")
  g:add_node(0, 0)
  g:add_node(1, 0)
  g:add_edge(1, 2, 1)
  g:freeze()
  return g
end

local A, B = {x = 0.5, y = 0, z = 0.5}, {x = 1, y = 0, z = 1}

-- call(v) passes v as the option; want(type) is the text the error must hold.
local CASES = {
  {"find_path opts.partial", function(v)
    return lodestar.find_path(lodestar.grid.new(4, 4), 0, 0, 3, 3, {partial = v})
  end, "bad argument #6 to 'find_path' (opts.partial: boolean expected, got %s)"},
  {"search opts.partial", function(v)
    return lodestar.search.astar(lodestar.grid.new(4, 4), {partial = v})
  end, "(opts.partial: boolean expected, got %s)"},
  {"graph find_path opts.partial", function(v)
    return lodestar.find_path(graph(), 1, 2, {partial = v})
  end, "(opts.partial: boolean expected, got %s)"},
  {"search_options opts.partial", function(v)
    return core.search_options({partial = v})
  end, "bad argument #1 to 'search_options' (opts.partial: boolean expected, got %s)"},
  {"sched:profile opts.partial", function(v)
    return lodestar.scheduler.new():profile("p", {partial = v})
  end, "(opts.partial: boolean expected, got %s)"},
  {"mesh:find_path opts.partial", function(v)
    return mesh():find_path(A, B, {partial = v})
  end, "(opts.partial: boolean expected, got %s)"},
  {"mesh:find_path opts.thorough", function(v)
    return mesh():find_path(A, B, {thorough = v})
  end, "(opts.thorough: boolean expected, got %s)"},
  {"scheduler.new opts.deterministic", function(v)
    return lodestar.scheduler.new{deterministic = v}
  end, "bad argument #1 to 'new' (opts.deterministic: boolean expected, got %s)"},
  {"s:draw opts.labels", function(v)
    local s = lodestar.search.astar(lodestar.grid.new(4, 4))
    s:start(0, 0, 3, 3)
    s:run()
    return s:draw(recorder(), {labels = v})
  end, "(opts.labels: boolean expected, got %s)"},
  {"hierarchy opts.optimal_jps", function(v)
    return lodestar.hierarchy(lodestar.grid.new(8, 8), {optimal_jps = v})
  end, "bad argument #2 to 'hierarchy' (opts.optimal_jps: boolean expected, got %s)"},
  {"hierarchy opts.lower_bounds", function(v)
    return lodestar.hierarchy(lodestar.grid.new(8, 8), {lower_bounds = v})
  end, "bad argument #2 to 'hierarchy' (opts.lower_bounds: boolean expected, got %s)"},
  {"path.new partial", function(v)
    return lodestar.path.new(lodestar.grid.new(4, 4), {{0, 0}, {1, 1}}, v)
  end, "bad argument #3 to 'new' (boolean expected, got %s)"},
  {"g:bake defer", function(v)
    local g = lodestar.grid.new(4, 4)
    return g:bake("mud", function() return 1 end, nil, v)
  end, "bad argument #4 to 'bake' (boolean expected, got %s)"},
}

describe("boolean options", function()
  for _, c in ipairs(CASES) do
    local name, call, want = c[1], c[2], c[3]
    it(name .. " refuses a string and a number, takes nil and booleans", function()
      has(errmsg(call, "yes"), want:format("string"))
      has(errmsg(call, 0), want:format("number"))
      has(errmsg(call, 1), want:format("number"))
      assert.is_true(pcall(call, nil))
      assert.is_true(pcall(call, false))
      assert.is_true(pcall(call, true))
    end)
  end

  it("search_options copies partial as given", function()
    assert.same({partial = true}, core.search_options({partial = true}))
    assert.same({partial = false}, core.search_options({partial = false}))
    assert.same({}, core.search_options({partial = nil}))
  end)
end)
