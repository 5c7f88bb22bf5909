-- SPDX-License-Identifier: MIT
-- One search-option parser: lodestar.core.search_options, request_path (the
-- runtime's Lua half, over a fake host) and find_path check options the
-- same way and fail with the same message (docs/lua-api.md, "search_options").
local core = require "lodestar.core"
local support = require "support"

local errmsg = support.errmsg

-- the text inside "bad argument #n to 'f' (...)"
local function inner(msg)
  return assert(msg:match("bad argument #%d+ to '[^']*' %((.*)%)$"), msg)
end

local BAD = {
  {algo = "jps"}, {algorithm = "bfs"}, {algorithm = 3}, {weight = 0.5}, {weight = "2"},
  {h_scale = -1}, {heuristic = "taxicab"}, {weights = {mud = "x"}}, {weights = {rock = 1}},
  {weights = 3}, {colour = "red"}, {cost = 1},
}

describe("lodestar.core.search_options", function()
  local g
  before_each(function()
    g = core.grid.new(8, 8)
    g:layer_add("mud")
  end)

  it("returns the options it checked, normalised", function()
    local o = core.search_options({algorithm = "jps", weight = 2, h_scale = 0.5, heuristic = "octile",
      partial = true, weights = {mud = 3}}, g)
    assert.same({algorithm = "jps", weight = 2, h_scale = 0.5, heuristic = "octile", partial = true,
      weights = {mud = 3}}, o)
    assert.same({}, core.search_options(nil))
    assert.same({}, core.search_options({}))
  end)

  it("fails exactly as find_path does, for every bad option", function()
    for _, o in ipairs(BAD) do
      local fp = errmsg(core.find_path, g, 0, 0, 1, 1, o)
      assert.matches("^bad argument #6 to 'find_path' %(", fp)
      assert.equal("bad argument #1 to 'search_options' (" .. inner(fp) .. ")",
        errmsg(core.search_options, o, g))
      assert.equal("bad argument #1 to 'request_path' (" .. inner(fp) .. ")",
        errmsg(core.search_options, o, g, "request_path"))
    end
  end)

  it("checks layer names only against a grid it is given", function()
    assert.same({weights = {rock = 1}}, core.search_options({weights = {rock = 1}}))
    assert.equal("bad argument #1 to 'search_options' (opts.weights: the grid has no layer 'rock')",
      errmsg(core.search_options, {weights = {rock = 1}}, g))
  end)
end)

describe("request_path checks its options with find_path's parser", function()
  local lodestar = require "lodestar"
  local g, R, submitted
  local saved = {}
  before_each(function()
    saved.request_path, saved.grids = lodestar.request_path, lodestar.grids
    g = core.grid.new(8, 8)
    g:layer_add("mud")
    submitted = {}
    -- no host.scheduler: runtime.lua makes its own lodestar.Scheduler
    local host = {
      set_params = function() return true end, status = function() return "running" end,
      log = function() end, clock = function() return 0 end, mod_event = function() end,
    }
    package.loaded["lodestar.runtime"] = nil
    R = require("lodestar.runtime")(host)
    R.add_grid("map", g)
  end)
  after_each(function()
    lodestar.request_path, lodestar.grids = saved.request_path, saved.grids
  end)

  local function request(extra)
    local spec = {grid = "map", start = {0, 0}, goal = {3, 3}}
    for k, v in pairs(extra) do spec[k] = v end
    local h = R.request_path(spec)
    submitted[#submitted + 1] = h.request:options()
    return h
  end

  it("passes the normalised options to the scheduler", function()
    request{algorithm = "jps", weights = {mud = 2}, partial = true}
    assert.same({algorithm = "jps", weights = {mud = 2}, partial = true}, submitted[1])
  end)

  it("raises find_path's message for a bad option (not nil, msg)", function()
    for _, o in ipairs{{weight = 0.5}, {algorithm = "bfs"}, {h_scale = -1}, {heuristic = "taxicab"},
                       {weights = {rock = 1}}, {weights = {mud = "x"}}} do
      local fp = errmsg(core.find_path, g, 0, 0, 1, 1, o)
      assert.matches("bad argument #1 to 'request_path' %(" .. inner(fp):gsub("%p", "%%%0") .. "%)$",
        errmsg(request, o))
    end
    assert.equal(0, #submitted)
  end)

  it("keeps algo as a deprecated alias of algorithm", function()
    request{algo = "dijkstra"}
    assert.equal("dijkstra", submitted[1].algorithm)
    assert.matches("algo and algorithm given", errmsg(request, {algo = "jps", algorithm = "astar"}))
    assert.matches("opts.algorithm: unknown algorithm 'bfs'", errmsg(request, {algo = "bfs"}))
  end)
end)
