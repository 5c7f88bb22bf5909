-- SPDX-License-Identifier: MIT
-- Option errors name the option the caller wrote (opts.<key>, or the
-- argument's position) and what was expected, never the C function behind
-- it (lds_scheduler_submit, lds_scheduler_set_params), with the argument
-- counted as for a call with ':' and located at the caller's line.
local lodestar = require "lodestar"
local support = require "support"

local THIS = "46%-option_errors_spec%.lua:%d+: "

local errmsg = support.errmsg

local has = support.has

local function no_c_name(msg)
  assert.is_falsy(msg:find("lds_", 1, true), "a C function named: " .. msg)
end

describe("scheduler requests through a hierarchy", function()
  local g = lodestar.grid.new(16, 16)
  g:layer_add("mud")
  local other = lodestar.grid.new(16, 16)
  local h = lodestar.hierarchy(g)
  local function sched()
    local s = lodestar.scheduler.new()
    s:add_grid(g)
    s:add_grid(other)
    return s
  end

  it("name the request's own option", function()
    local s = sched()
    local base = {grid = g, from = {0, 0}, to = {5, 5}, hierarchy = h}
    local function with(k, v)
      local t = {}
      for a, b in pairs(base) do t[a] = b end
      t[k] = v
      return t
    end
    for key, v in pairs{weights = {mud = 2}, partial = true, quick = 10} do
      local msg = errmsg(function() local rv = s:request(with(key, v)) return rv end)
      assert.matches(THIS, msg)
      has(msg, "bad argument #1 to 'request' (opts." .. key .. ": not with opts.hierarchy (")
      no_c_name(msg)
    end
    local msg = errmsg(function() local rv = s:request(with("grid", other)) return rv end)
    has(msg, "bad argument #1 to 'request' (opts.hierarchy: built on another grid")
    no_c_name(msg)
  end)

  it("name the profile when the profile set it", function()
    local s = sched()
    s:profile("slow", {weights = {mud = 2}})
    s:profile("fallback", {partial = true})
    s:profile("eager", {quick = 50})
    for name, key in pairs{slow = "weights", fallback = "partial", eager = "quick"} do
      local msg = errmsg(function()
        local rv = s:request{grid = g, from = {0, 0}, to = {5, 5}, hierarchy = h, profile = name}
        return rv
      end)
      has(msg, ("(opts.profile: profile '%s' sets %s, which a request with opts.hierarchy cannot take ("):format(
        name, key))
      no_c_name(msg)
    end
  end)

  it("set_options names the option, not lds_scheduler_set_params", function()
    local s = sched()
    local r = s:request{grid = g, from = {0, 0}, to = {5, 5}, hierarchy = h}
    local msg = errmsg(function() local rv = r:set_options{partial = true} return rv end)
    assert.matches(THIS, msg)
    has(msg, "bad argument #1 to 'set_options' (opts.partial: not with opts.hierarchy (")
    no_c_name(msg)
    has(errmsg(r.set_options, r, {weights = {mud = 1}}), "(opts.weights: not with opts.hierarchy (")
    assert.equal("running", r:status())
  end)

  it("redefining a profile a pending hierarchy request uses is refused, not skipped", function()
    local s = sched()
    s:profile("p", {})
    local r = s:request{grid = g, from = {0, 0}, to = {5, 5}, hierarchy = h, profile = "p"}
    local msg = errmsg(function() local rv = s:profile("p", {partial = true}) return rv end)
    assert.matches(THIS, msg)
    has(msg, "bad argument #2 to 'profile' (opts.partial: a pending request of profile 'p' runs "
      .. "through a hierarchy, which cannot take it (")
    assert.same({}, s:profile("p")) -- unchanged
    assert.equal("running", r:status())
    assert.equal(1, s:profile("p", {weight = 1})) -- still restartable
  end)
end)

describe("scheduler profiles and requests", function()
  local g = lodestar.grid.new(8, 8)
  local s = lodestar.scheduler.new()
  s:add_grid(g)

  it("profile options are argument #2 of sched:profile, at the caller's line", function()
    local msg = errmsg(function() local rv = s:profile("a", {weight = 0.5}) return rv end)
    assert.matches(THIS .. "bad argument #2 to 'profile' %(opts%.weight: 0%.5 out of range", msg)
    msg = errmsg(function() local rv = s:profile("a", {cost = print}) return rv end)
    assert.matches(THIS .. "bad argument #2 to 'profile' %(opts%.cost: not supported here", msg)
    msg = errmsg(function() local rv = s:request{from = {0, 0}, to = {1, 1}, heuristic = "x"} return rv end)
    assert.matches(THIS .. "bad argument #1 to 'request' %(opts%.heuristic: invalid option 'x'", msg)
  end)

  it("a profile's unknown layer names the profile", function()
    s:profile("b", {weights = {nope = 1}})
    assert.equal("bad argument #1 to 'request' (opts.profile: profile 'b' weights: the grid has no layer 'nope')",
      (errmsg(s.request, s, {from = {0, 0}, to = {1, 1}, profile = "b"}):gsub("^.-:%d+: ", "")))
    has(errmsg(s.request, s, {from = {0, 0}, to = {1, 1}, weights = {nope = 1}}),
      "(opts.weights: the grid has no layer 'nope')")
  end)
end)

describe("navigation mesh find_path options", function()
  local m = lodestar.grid.new(6, 6):to_navmesh()
  local a, b = {0.5, 0, 0.5}, {4.5, 0, 4.5}

  it("are named opts.<key> with the value", function()
    local cases = {
      {{snap_radius = -1}, "(opts.snap_radius: -1 out of range (expected finite, >= 0 [world units]))"},
      {{snap_radius = "x"}, "(opts.snap_radius: number expected, got string)"},
      {{algorithm = "best"}, "(opts.algorithm: unknown algorithm 'best' (expected funnel, optimal))"},
      {{algorithm = 1}, "(opts.algorithm: string expected, got number)"},
      {{area_costs = 3}, "(opts.area_costs: table {[area id] = cost} expected, got number)"},
      {{area_costs = {[300] = 1}}, "(opts.area_costs: keys must be area ids 0..255 (got 300))"},
      {{area_costs = {[1] = 0}},
        "(opts.area_costs: area 1: cost 0 out of range (expected > 0; math.huge blocks the area))"},
      {{blocked_areas = {1, 2.5}}, "(opts.blocked_areas: entry 2: an area id 0..255 expected, got 2.5)"},
      {{height_tol = "x"}, "(opts.height_tol: number (< 0: any height) expected, got string)"},
      {{height_tol = 0 / 0}, "(opts.height_tol: nan out of range"},
      {{thorough = 1}, "(opts.thorough: boolean expected, got number)"},
      {{postprocess = 1}, "(opts.postprocess: function (path, mesh) -> value expected, got number)"},
    }
    for _, c in ipairs(cases) do
      local msg = errmsg(m.find_path, m, a, b, c[1])
      has(msg, "bad argument #3 to 'find_path' " .. c[2])
    end
    has(errmsg(m.find_path, m, {0 / 0, 0, 1}, b),
      "bad argument #1 to 'find_path' (point: x must be a finite number (got nan))")
  end)
end)

describe("other options keep the value as given on both engines", function()
  local g = lodestar.grid.new(8, 8)
  it("hierarchy sizes, to_navmesh, picture scale", function()
    has(errmsg(lodestar.hierarchy, g, {cluster_size = 2 ^ 32}),
      "(opts.cluster_size: 4294967296 out of range (expected an integer 4..64))")
    has(errmsg(lodestar.hierarchy, g, {landmarks = 0 / 0}),
      "(opts.landmarks: nan out of range (expected an integer 1..")
    has(errmsg(g.to_navmesh, g, {max_verts = 2 ^ 32}),
      "(opts.max_verts: expected an integer in 4..64, got 4294967296)")
    has(errmsg(g.to_navmesh, g, {area = -1}), "(opts.area: expected an integer in 0..255, got -1)")
    has(errmsg(g.to_navmesh, g, {strict = 1}), "(opts.strict: boolean expected, got number)")
  end)
end)

describe("layer weights the grid turns into bad costs", function()
  -- the core sees these only against the grid's cells; the error still
  -- names the option (opts.weights, or the weights a path remembers)
  local g = lodestar.grid.new(20, 20)
  g:layer_add("mud")
  g:layer_set("mud", 2, 2, 1)
  local NEG = {weights = {mud = -5}}
  local WHY = "cell (2,2) has "

  it("find_path, search constructors, D* Lite and the hierarchy name opts.weights", function()
    has(errmsg(lodestar.find_path, g, 0, 0, 5, 5, NEG), "bad argument #6 to 'find_path' (opts.weights: " .. WHY)
    has(errmsg(lodestar.find_path, g, 0, 0, 5, 5, {algorithm = "jps", weights = {mud = -5}}),
      "bad argument #6 to 'find_path' (opts.weights: " .. WHY)
    has(errmsg(lodestar.search.astar, g, {weights = {mud = -5}, start = {0, 0}, goal = {5, 5}}),
      "bad argument #2 to 'astar' (opts.weights: " .. WHY)
    local s = lodestar.search.astar(g, NEG)
    has(errmsg(s.start, s, 0, 0, 5, 5), "lodestar.Search: start: opts.weights of the search: " .. WHY)
    has(errmsg(lodestar.search.dstar_lite, g, {start = {0, 0}, goal = {5, 5}, weights = {mud = -5}}),
      "bad argument #2 to 'dstar_lite' (opts.weights: " .. WHY)
    has(errmsg(lodestar.hierarchy, g, NEG), "bad argument #2 to 'hierarchy' (opts.weights: " .. WHY)
    for _, msg in ipairs{errmsg(lodestar.find_path, g, 0, 0, 5, 5, NEG), errmsg(lodestar.hierarchy, g, NEG),
                         errmsg(s.start, s, 0, 0, 5, 5)} do
      no_c_name(msg)
    end
  end)

  it("post-processing names opts.weights or path.weights", function()
    local p = lodestar.find_path(g, 0, 0, 5, 5)
    has(errmsg(p.prune_los, p, g, NEG), "bad argument #2 to 'prune_los' (opts.weights: " .. WHY)
    has(errmsg(p.string_pull, p, g, NEG), "bad argument #2 to 'string_pull' (opts.weights: " .. WHY)
    has(errmsg(g.polyline_cost, g, {{0.5, 0.5}, {5.5, 5.5}}, NEG),
      "bad argument #2 to 'polyline_cost' (opts.weights: " .. WHY)
    g:layer_set("mud", 2, 2, 0)
    local q = lodestar.find_path(g, 0, 0, 5, 5, NEG) -- fine now: mud is 0 on the path
    g:layer_set("mud", 2, 2, 1)
    has(errmsg(q.prune_los, q, g), "bad argument #1 to 'prune_los' (path.weights: " .. WHY)
    has(errmsg(g.polyline_cost, g, q), "bad argument #1 to 'polyline_cost' (path.weights: " .. WHY)
  end)

  it("a cost callback on an any-angle search is opts.cost", function()
    local msg = errmsg(lodestar.find_path, g, 0, 0, 5, 5, {algorithm = "theta", cost = function() return 1 end})
    has(msg, "bad argument #6 to 'find_path' (opts.cost: algorithm 'theta' takes no cost function")
    no_c_name(msg)
  end)
end)

describe("budgets past 2^53", function()
  it("are refused with their value instead of being cast past 2^64", function()
    local g = lodestar.grid.new(8, 8)
    local s = lodestar.search.astar(g)
    s:start(0, 0, 7, 7)
    has(errmsg(s.step, s, {budget_us = 2 ^ 70}),
      "(budget_us 1.1805916207174e+21 out of range (expected an integer 0..2^53))")
    has(errmsg(s.step, s, {max_expansions = 2 ^ 64}), "(max_expansions 1.844674407371e+19 out of range")
    local sc = lodestar.scheduler.new()
    sc:add_grid(g)
    has(errmsg(sc.step, sc, {max_expansions = 2 ^ 70}), "(max_expansions 1.1805916207174e+21 out of range")
    assert.equal("found", s:step{max_expansions = 2 ^ 53})
  end)
end)
