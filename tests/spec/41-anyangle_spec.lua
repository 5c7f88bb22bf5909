-- SPDX-License-Identifier: MIT
-- Any-angle paths from Lua: find_path{algorithm = "theta" | "lazytheta"},
-- the sliced lodestar.search.theta, and path:string_pull(grid) (the
-- shortest path through the corridor of a grid path's cells).
local lodestar = require "lodestar"

local function grid_of(rows)
  return lodestar.grid.from_ascii(table.concat(rows, "\n"))
end

local ROWS = {
  "..........",
  "...###....",
  "...###....",
  "..........",
}

describe("theta and lazytheta", function()
  it("find a waypoint path no dearer than A*, costed exactly", function()
    local g = grid_of(ROWS)
    local a = assert(lodestar.find_path(g, 0, 0, 9, 3))
    for _, algo in ipairs{"theta", "lazytheta"} do
      local p = assert(lodestar.find_path(g, 0, 0, 9, 3, {algorithm = algo}))
      assert.is_true(p.cost <= a.cost + 1e-12)
      assert.is_true(#p < #a)
      local x0, y0 = p:cell(1)
      local x1, y1 = p:cell(#p)
      assert.same({0, 0, 9, 3}, {x0, y0, x1, y1})
      -- the cost of the straight steps, recomputed from the cells they cross
      local pts = {}
      for _, x, y in p:cells() do pts[#pts + 1] = {x = x, y = y} end
      assert.near(p.cost, g:polyline_cost(pts), 1e-9)
    end
  end)

  it("cut across an open field where A* zig-zags", function()
    local g = lodestar.grid.new(12, 8)
    local a = assert(lodestar.find_path(g, 1, 1, 10, 5))
    local p = assert(lodestar.find_path(g, 1, 1, 10, 5, {algorithm = "theta"}))
    assert.equal(2, #p)
    assert.near(math.sqrt(81 + 16), p.cost, 1e-12)
    assert.is_true(p.cost < a.cost - 0.5)
  end)

  it("run sliced, one expansion at a time, to the same path", function()
    local g = grid_of(ROWS)
    local s = lodestar.search.lazytheta(g)
    s:start(0, 0, 9, 3)
    local steps = 0
    while s:step(1) == "running" do steps = steps + 1 end
    assert.equal("found", s:status())
    assert.is_true(steps > 3)
    local p = lodestar.find_path(g, 0, 0, 9, 3, {algorithm = "lazytheta"})
    assert.equal(p.cost, s:path().cost)
    assert.equal("lazytheta", s:algorithm_used())
  end)

  it("refuse an edge callback", function()
    local g = grid_of(ROWS)
    local ok, err = pcall(lodestar.find_path, g, 0, 0, 9, 3,
      {algorithm = "theta", edge_cost = function(_, _, _, _, c) return c end})
    if ok then
      assert.is_nil(err)
    else
      assert.matches("edge", err)
    end
  end)
end)

describe("path:string_pull", function()
  it("gives the corridor's shortest line, never longer than the path", function()
    local g = grid_of(ROWS)
    local p = assert(lodestar.find_path(g, 0, 0, 9, 3))
    local pts = p:string_pull(g)
    assert.same({x = 0, y = 0}, pts[1])
    assert.same({x = 9, y = 3}, pts[#pts])
    assert.is_true(pts.length <= p.cost + 1e-12)
    local len = 0
    for i = 2, #pts do
      len = len + math.sqrt((pts[i].x - pts[i - 1].x) ^ 2 + (pts[i].y - pts[i - 1].y) ^ 2)
      -- corners of cells: multiples of 0.5
      assert.equal(pts[i].x * 2, math.floor(pts[i].x * 2))
    end
    assert.near(pts.length, len, 1e-12)
    assert.is_number(pts.cost)
  end)

  it("is exact for the corridor: the A* path's own cells bound it", function()
    local g = lodestar.grid.new(12, 8)
    -- A* goes (1,1) .. (5,5) diagonally, then straight to (10,5): the
    -- corridor (those cells and one side cell per diagonal move) bends at
    -- the corner (5.5, 4.5) of cells (5,4) and (5,5)
    local p = assert(lodestar.find_path(g, 1, 1, 10, 5))
    local pts = p:string_pull(g)
    assert.same({{x = 1, y = 1}, {x = 5.5, y = 4.5}, {x = 10, y = 5}},
      {pts[1], pts[2], pts[3]})
    assert.equal(3, #pts)
    assert.near(math.sqrt(4.5 ^ 2 + 3.5 ^ 2) + math.sqrt(4.5 ^ 2 + 0.25), pts.length, 1e-12)
    assert.near(pts.length, pts.cost, 1e-9)
    -- a straight diagonal run is one segment
    pts = assert(lodestar.find_path(g, 1, 1, 6, 6)):string_pull(g)
    assert.equal(2, #pts)
    assert.near(5 * math.sqrt(2), pts.length, 1e-12)
  end)

  it("rejects waypoint paths and foreign grids with a clear message", function()
    local g = grid_of(ROWS)
    local p = assert(lodestar.find_path(g, 0, 0, 9, 3, {algorithm = "theta"}))
    local ok, err = pcall(p.string_pull, p, g)
    assert.is_false(ok)
    assert.matches("not a move to a neighbouring cell", err)
    ok, err = pcall(p.string_pull, p, lodestar.grid.new(3, 3))
    assert.is_false(ok)
    assert.matches("width", err)
  end)
end)

describe("grid:to_navmesh and grid:outline", function()
  local rows = {
    "..........",
    "...###....",
    "...###....",
    "..........",
  }

  it("build the exact mesh of the free space; Polyanya finds the optimum on it", function()
    local g = grid_of(rows)
    local mesh, info = assert(g:to_navmesh())
    assert.equal(info.polys, mesh:poly_count())
    assert.equal(info.verts, mesh:vertex_count())
    assert.equal(1, mesh:piece_count())
    assert.is_true(info.max_poly_verts <= 64)
    -- cell (0,0) to cell (9,3): round the block's corner (6, 1) in map coordinates
    local p = assert(mesh:find_path({0.5, 0, 0.5}, {9.5, 0, 3.5}, {algorithm = "optimal"}))
    local want = math.sqrt(5.5 ^ 2 + 0.5 ^ 2) + math.sqrt(3.5 ^ 2 + 2.5 ^ 2)
    assert.near(want, p.length, 1e-9)
    -- the same as the corridor's string-pulled line of A*'s path here
    local pts = assert(lodestar.find_path(g, 0, 0, 9, 3)):string_pull(g)
    assert.near(want, pts.length, 1e-9)
  end)

  it("keep two cells that touch at a corner apart (a pinch vertex)", function()
    local g = grid_of{".#", "#."}
    local mesh = assert(g:to_navmesh())
    assert.equal(2, mesh:poly_count())
    assert.equal(2, mesh:piece_count())
    local ol = g:outline()
    assert.equal(2, ol.pieces)
    assert.equal(2, #ol)
    assert.same({hole = false, piece = 1, 0, 0, 1, 0, 1, 1, 0, 1}, ol[1])
  end)

  it("report bad options and an empty grid", function()
    local g = grid_of(rows)
    assert.has_error(function() g:to_navmesh{max_verts = 3} end,
      "bad argument #1 to 'to_navmesh' (opts.max_verts: expected an integer in 4..64, got 3)")
    assert.has_error(function() g:to_navmesh{colour = 1} end)
    local none, msg = grid_of{"##", "##"}:to_navmesh()
    assert.is_nil(none)
    assert.matches("no passable cell", msg)
  end)
end)
