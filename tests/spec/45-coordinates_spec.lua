-- SPDX-License-Identifier: MIT
-- Coordinates outside the int range, nan, inf and fractions, at every
-- coordinate entry point of the binding and the Lua package: the error names
-- the argument (or opts.<key>) and the value as the caller wrote it, never a
-- value wrapped to 32 bits ("4294967296", not "0" or "-2147483648").
local lodestar = require "lodestar"
local support = require "support"

local errmsg = support.errmsg

local has = support.has

local BIG = 2 ^ 32          -- wraps to 0 as an int32
local HALF = 2 ^ 31         -- wraps to -2147483648
local NAN, INF = 0 / 0, math.huge

describe("grid coordinates given as arguments", function()
  local g = lodestar.grid.new(8, 8)

  it("find_path names the argument (sx, sy, gx, gy) and the value as given", function()
    assert.equal("bad argument #2 to 'find_path' (sx 4294967296 out of range (expected 0..7))",
      errmsg(lodestar.find_path, g, BIG, 0, 1, 1))
    assert.equal("bad argument #5 to 'find_path' (gy 2147483648 out of range (expected 0..7))",
      errmsg(lodestar.find_path, g, 0, 0, 1, HALF))
    assert.equal("bad argument #2 to 'find_path' (sx -4294967296 out of range (expected 0..7))",
      errmsg(lodestar.find_path, g, -BIG, 0, 1, 1))
    assert.equal("bad argument #3 to 'find_path' (sy nan is not an integer cell (expected 0..7))",
      errmsg(lodestar.find_path, g, 0, NAN, 1, 1))
    assert.equal("bad argument #4 to 'find_path' (gx inf out of range (expected 0..7))",
      errmsg(lodestar.find_path, g, 0, 0, INF, 1))
    assert.equal("bad argument #2 to 'find_path' (sx 2.5 is not an integer cell (expected 0..7))",
      errmsg(lodestar.find_path, g, 2.5, 0, 1, 1))
    assert.equal("bad argument #2 to 'find_path' (sx 9007199254740994 out of range (expected 0..7))",
      errmsg(lodestar.find_path, g, 2 ^ 53 + 2, 0, 1, 1))
  end)

  it("grid methods (x, y), searches, components and the hierarchy (sx, sy, gx, gy) do the same", function()
    has(errmsg(g.cost, g, BIG, 0), "bad argument #1 to 'cost' (x 4294967296 out of range")
    has(errmsg(g.blocked, g, 0, -BIG), "bad argument #2 to 'blocked' (y -4294967296 out of range")
    has(errmsg(g.set_cost, g, NAN, 0, 1), "(x nan is not an integer cell (expected 0..7))")
    has(errmsg(g.line_of_sight, g, 0, 0, HALF, 0), "(x 2147483648 out of range")
    has(errmsg(g.component, g, BIG, 0), "bad argument #1 to 'component' (x 4294967296 out of range")
    local s = lodestar.search.astar(g)
    has(errmsg(s.start, s, 0, 0, BIG, 0), "bad argument #3 to 'start' (gx 4294967296 out of range")
    local h = lodestar.hierarchy(g)
    has(errmsg(h.find_path, h, 0, 0, 0, BIG), "bad argument #4 to 'find_path' (gy 4294967296 out of range")
    has(errmsg(h.start, h, INF, 0, 1, 1), "bad argument #1 to 'start' (sx inf out of range")
  end)

  it("connected's points are printed the same on both engines", function()
    assert.equal("bad argument #1 to 'connected' (point (4294967296, 0) is not a cell of the 8x8 grid)",
      errmsg(g.connected, g, {BIG, 0}, {1, 1}))
    assert.equal("bad argument #2 to 'connected' (point (1, nan) is not a cell of the 8x8 grid)",
      errmsg(g.connected, g, {0, 0}, {1, NAN}))
    assert.equal("bad argument #1 to 'connected' (point (0.5, 0) is not a cell of the 8x8 grid)",
      errmsg(g.connected, g, {0.5, 0}, {1, 1}))
  end)

  it("bake rectangles and grid sizes keep the value", function()
    has(errmsg(g.bake, g, "mud", function() return 1 end, {0, 0, BIG, 1}),
      "(rect {0, 0, 4294967296, 1} out of range")
    has(errmsg(g.bake, g, "mud", function() return 1 end, {0, 0, INF, 1}),
      "(rect {0, 0, inf, 1} out of range")
    has(errmsg(lodestar.grid.new, BIG, 4), "(width 4294967296 out of range (expected 1..")
    has(errmsg(lodestar.grid.new, 4, -BIG), "(height -4294967296 out of range (expected 1..")
  end)

  it("heuristic_distance refuses offsets no grid has instead of wrapping them", function()
    has(errmsg(lodestar.heuristic_distance, "octile", BIG, 0), "(dx 4294967296 out of range")
    has(errmsg(lodestar.heuristic_distance, "octile", 0, -BIG), "(dy -4294967296 out of range")
    assert.equal(5, lodestar.heuristic_distance("manhattan", 2, -3))
  end)

  it("path indices keep the value", function()
    local p = lodestar.find_path(g, 0, 0, 3, 0)
    has(errmsg(p.cell, p, BIG), "(index 4294967296 out of range (path has 4 cells))")
  end)
end)

describe("grid coordinates given as {x, y} tables", function()
  local g = lodestar.grid.new(8, 8)

  it("scheduler requests name opts.from / opts.to and the value as given", function()
    local sc = lodestar.scheduler.new()
    sc:add_grid(g)
    has(errmsg(sc.request, sc, {from = {BIG, 0}, to = {1, 1}}),
      "bad argument #1 to 'request' (opts.from: cell (4294967296,0) outside the 8x8 grid)")
    has(errmsg(sc.request, sc, {from = {0, 0}, to = {1, HALF}}),
      "(opts.to: cell (1,2147483648) outside the 8x8 grid)")
    has(errmsg(sc.request, sc, {from = {0, 0}, to = {INF, 1}}),
      "(opts.to: cell (inf,1) outside the 8x8 grid)")
    has(errmsg(sc.request, sc, {from = {NAN, 0}, to = {1, 1}}),
      "(opts.from: expected {x, y} with integer cells (x is nan))")
    has(errmsg(sc.request, sc, {from = {x = 0, y = 1.5}, to = {1, 1}}),
      "(opts.from: expected {x, y} with integer cells (y is 1.5))")
    has(errmsg(sc.request, sc, {from = {0, "1"}, to = {1, 1}}),
      "(opts.from: expected {x, y} with integer cells (y is string))")
  end)

  it("search and D* Lite start/goal options do the same", function()
    has(errmsg(lodestar.search.astar, g, {start = {BIG, 0}, goal = {1, 1}}),
      "(opts.start: cell (4294967296,0) outside the 8x8 grid)")
    has(errmsg(lodestar.search.dstar_lite, g, {start = {0, 0}, goal = {-BIG, 1}}),
      "(opts.goal: cell (-4294967296,1) outside the 8x8 grid)")
    has(errmsg(lodestar.search_options, {start = {0, BIG}}, g),
      "(opts.start: cell (0,4294967296) outside the 8x8 grid)")
  end)

  it("the runtime's request_path keeps the value (inf and 2^63 do not break the message)", function()
    local R = require("lodestar.runtime")({})
    R.grids.world = g
    has(errmsg(R.request_path, {grid = "world", start = {BIG, 0}, goal = {1, 1}}),
      "(start: cell (4294967296,0) out of bounds (the grid is 8x8))")
    has(errmsg(R.request_path, {grid = "world", start = {0, 0}, goal = {INF, 1}}),
      "(goal: cell (inf,1) out of bounds (the grid is 8x8))")
    has(errmsg(R.request_path, {grid = "world", start = {0, 0}, goal = {2 ^ 63, 1}}),
      "(goal: cell (9.2233720368548e+18,1) out of bounds (the grid is 8x8))")
    has(errmsg(R.request_path, {grid = "world", start = {0, NAN}, goal = {1, 1}}),
      "(start: expected {x, y} with integer cells (y is nan))")
  end)
end)

describe("other cell entry points", function()
  it("req:progress_cell keeps the value", function()
    local g = lodestar.grid.new(8, 8)
    local sc = lodestar.scheduler.new()
    sc:add_grid(g)
    local r = sc:request{from = {0, 0}, to = {3, 0}, watch = {}}
    sc:step(0)
    has(errmsg(r.progress_cell, r, 2 ^ 40, 0), "bad argument #1 to 'progress_cell' (x 1099511627776 out of range")
  end)

  it("navmesh ids keep the value", function()
    local m = lodestar.grid.new(4, 4):to_navmesh()
    has(errmsg(m.vertex, m, BIG), "(vertex 4294967296 out of range (expected 1..")
  end)
end)

describe("cells and counts in the Lua package and path.new", function()
  local g = lodestar.grid.new(10, 10)

  it("path.new keeps the cell's value", function()
    has(errmsg(lodestar.path.new, g, {{BIG, 0}, {1, 0}}), "(cell 1 (4294967296,0) is outside the 10x10 grid)")
    has(errmsg(lodestar.path.new, g, {{0, 0}, {1, NAN}}), "(cell 2 (1,nan) is not an integer cell of the 10x10 grid)")
  end)

  it("smooth's sample counts past 2^63 are printed, not wrapped or refused by %d", function()
    local smooth = require "lodestar.smooth"
    local pts = {{x = 0, y = 0}, {x = 1, y = 1}, {x = 2, y = 2}}
    has(errmsg(smooth.catmull_rom, pts, {samples = 1e300}),
      "(opts.samples 1e+300 gives 2e+300 points for 3 cells (more than smooth.MAX_POINTS = ")
    has(errmsg(smooth.catmull_rom, pts, {samples = 2 ^ 40}),
      "(opts.samples 1099511627776 gives 2199023255553 points for 3 cells")
    has(errmsg(smooth.postprocessor(0.5, 2 ^ 64), pts), "(samples 1.844674407371e+19 gives 3.6893488147419e+19 points")
  end)
end)
