-- SPDX-License-Identifier: MIT
-- Maps, scenarios and DIMACS graphs parsed from text in memory (a game's own
-- file system: love.filesystem.read, a zip): grid.parse, scenario.parse,
-- graph.parse_dimacs give what the file loaders give from the same bytes,
-- and fail with "name:line: ..." and the loaders' nil, msg, code.
local lodestar = require "lodestar"
local support = require "support"

local function read(path)
  local f = assert(io.open(path, "rb"))
  local t = f:read("a")
  f:close()
  return t
end

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

-- the message of the error f(...) raises, without "file:line: "
local errmsg = support.errtext

-- every observable property of two grids is the same
local function same_grid(a, b)
  local w, h = a:size()
  assert.same({w, h}, {b:size()})
  assert.equal(a:neighbourhood(), b:neighbourhood())
  assert.equal(a:diagonal(), b:diagonal())
  assert.equal(a:version(), b:version())
  assert.equal(a:passable_count(), b:passable_count())
  assert.equal(a:min_cost(), b:min_cost())
  assert.same(a:layer_list(), b:layer_list())
  local diffs = 0
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if a:get_blocked(x, y) ~= b:get_blocked(x, y) or a:terrain(x, y) ~= b:terrain(x, y)
        or a:get_cost(x, y) ~= b:get_cost(x, y) then
        diffs = diffs + 1
      end
    end
  end
  assert.equal(0, diffs)
end

local HEADER = "type octile\nheight 2\nwidth 3\nmap\n"

describe("grid.parse", function()
  it("makes the grid grid.load makes from the same bytes", function()
    for _, path in ipairs{"tests/data/arena.map", "tests/data/den011d.map"} do
      local text = read(path)
      local a = assert(lodestar.grid.load(path))
      local b = assert(lodestar.grid.parse(text, path))
      same_grid(a, b)
      same_grid(a, assert(lodestar.grid.parse(text))) -- the name only names errors
    end
    local g = assert(lodestar.grid.parse(read("tests/data/den011d.map")))
    assert.same({247, 167}, {g:size()})
    assert.equal("no_corner_cutting", g:diagonal())
    assert.equal(0, g:version())
    assert.is_true(g:get_blocked(0, 0))
  end)

  it("reads CRLF text and small maps", function()
    local g = assert(lodestar.grid.parse("type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n...\r\nT@G\r\n"))
    assert.same({3, 2}, {g:size()})
    assert.is_true(g:get_blocked(1, 1))
    assert.is_true(g:get_blocked(0, 1))
    assert.equal("T", g:terrain(0, 1))
    assert.is_false(g:get_blocked(2, 1))
    -- no corner cutting past the '@': around it, 3 straight moves
    assert.equal(3, lodestar.find_path(g, 0, 0, 2, 1).cost)
  end)

  it("fails as grid.load fails on the same bytes, named by the chunk name", function()
    local path = os.tmpname()
    for _, text in ipairs{
      "type octile\nwidth 3\nmap\n...\n",
      HEADER .. "...\n..\n",
      HEADER .. "...\n...\nmore\n",
      "type hex\nheight 1\nwidth 1\nmap\n.\n",
      "",
    } do
      write(path, text)
      local g1, m1, c1 = lodestar.grid.load(path)
      local g2, m2, c2 = lodestar.grid.parse(text, path)
      assert.is_nil(g1)
      assert.is_nil(g2)
      assert.equal(m1, m2)
      assert.equal("format", c1)
      assert.equal(c1, c2)
    end
    os.remove(path)
    assert.same({nil, "maps/a.map:6: map row 1 has 2 characters (expected 3)", "format"},
      {lodestar.grid.parse(HEADER .. "...\n..\n", "maps/a.map")})
    -- without a name: "(map)"
    assert.same({nil, "(map):2: 'map' before the header was complete (missing 'height')", "format"},
      {lodestar.grid.parse("type octile\nmap\n")})
    assert.same({nil, "(map):1: unexpected end of file (expected the header 'type octile', "
      .. "'height H', 'width W', 'map')", "format"}, {lodestar.grid.parse("")})
  end)

  it("rejects a NUL byte with its offset", function()
    assert.same({nil, "m.map:5: binary data (a NUL byte at offset 35; expected a text file)",
      "format"}, {lodestar.grid.parse(HEADER .. "..\0\n...\n", "m.map")})
    -- a gzip file must be decompressed first: its header holds NULs
    local g, msg, code = lodestar.grid.parse("\31\139\8\0\0\0\0\0", "a.map.gz")
    assert.is_nil(g)
    assert.equal("a.map.gz:1: binary data (a NUL byte at offset 3; expected a text file)", msg)
    assert.equal("format", code)
  end)

  it("rejects huge headers before allocating", function()
    -- 65535 x 65535 cells declared, nothing follows
    assert.same({nil, "(map):4: the header declares 65535 rows of 65535 cells, but only 0 bytes "
      .. "follow", "format"}, {lodestar.grid.parse("type octile\nheight 65535\nwidth 65535\nmap\n")})
    assert.same({nil, "(map):2: expected 'height N' with N in 1..65535", "format"},
      {lodestar.grid.parse("type octile\nheight 65536\nwidth 1\nmap\n.\n")})
    assert.same({nil, "(map):1: expected 'width N' with N in 1..65535", "format"},
      {lodestar.grid.parse("width 99999999999999999999\n")})
    -- a megabyte-long header line: quoted by its first 40 bytes
    assert.same({nil, "(map):1: expected a header line ('type', 'height', 'width' or 'map'), got '"
      .. ("x"):rep(40) .. "'", "format"}, {lodestar.grid.parse(("x"):rep(1048576) .. "\n")})
  end)

  it("raises for arguments of the wrong type", function()
    assert.equal("bad argument #1 to 'parse' (string expected, got nil)", errmsg(lodestar.grid.parse, nil))
    assert.equal("bad argument #1 to 'parse' (string expected, got number)",
      errmsg(lodestar.grid.parse, 5))
    assert.equal("bad argument #2 to 'parse' (string expected, got table)",
      errmsg(lodestar.grid.parse, HEADER, {}))
  end)
end)

describe("scenario.parse and scenario.load", function()
  it("give the same problems, and the parsed map solves them", function()
    local path = "tests/data/arena.map.scen"
    local a = assert(lodestar.scenario.load(path))
    local b = assert(lodestar.scenario.parse(read(path), path))
    assert.equal(160, #a)
    assert.same(a, b)
    assert.same({bucket = 0, map = "arena.map", map_width = 49, map_height = 49, sx = 1, sy = 11,
      gx = 1, gy = 12, optimal = 1, tolerance = 0.5}, a[1])
    assert.equal(3.41421, a[3].optimal)
    assert.equal(0.000005, a[3].tolerance)
    local g = assert(lodestar.grid.parse(read("tests/data/" .. a[1].map)))
    local worst = 0
    for _, e in ipairs(a) do
      local p = lodestar.find_path(g, e.sx, e.sy, e.gx, e.gy)
      worst = math.max(worst, math.abs(p.cost - e.optimal))
    end
    assert.is_true(worst < 1e-4)
  end)

  it("fail with name:line messages, as the loader", function()
    local path = os.tmpname()
    local text = "version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\n"
    write(path, text)
    local _, m1, c1 = lodestar.scenario.load(path)
    local s2, m2, c2 = lodestar.scenario.parse(text, path)
    os.remove(path)
    assert.is_nil(s2)
    assert.equal(m1, m2)
    assert.equal(c1, c2)
    assert.equal(path .. ":2: expected 9 fields (bucket map width height sx sy gx gy optimal), got 8", m2)
    assert.equal("format", c2)
    assert.same({nil, "(scen):2: expected 9 fields (bucket map width height sx sy gx gy optimal), "
      .. "got 1", "format"}, {lodestar.scenario.parse("version 1\nx\n")})
    assert.same({nil, "s:1: binary data (a NUL byte at offset 7; expected a text file)", "format"},
      {lodestar.scenario.parse("version\0 1\n", "s")})
    local s, msg, code = lodestar.scenario.load(path .. ".missing")
    assert.is_nil(s)
    assert.equal("lds_scen_load: cannot open " .. path .. ".missing (No such file or directory)", msg)
    assert.equal("io", code)
    assert.equal("bad argument #1 to 'parse' (string expected, got nil)",
      errmsg(lodestar.scenario.parse, nil))
    assert.equal("bad argument #1 to 'load' (string expected, got boolean)",
      errmsg(lodestar.scenario.load, true))
  end)

  it("an empty scenario is an empty list", function()
    assert.same({}, assert(lodestar.scenario.parse("version 1\n")))
  end)
end)

describe("graph.parse_dimacs", function()
  local GR = "c a test graph\np sp 4 5\na 1 2 7\na 2 3 1\na 1 3 9\na 3 4 2\na 4 1 3\n"
  local CO = "p aux sp co 4\nv 1 7420000 43730000\nv 2 7421000 43730000\nv 3 7421000 "
    .. "43731000\nv 4 7420000 43731000\n"

  local function edges(g)
    local out = {}
    for i = 1, g:edge_count() do out[i] = {g:edge(i)} end
    return out
  end

  it("makes the graph load_dimacs makes from the same files", function()
    local gr, co = os.tmpname(), os.tmpname()
    write(gr, GR)
    write(co, CO)
    local a = assert(lodestar.graph.load_dimacs(gr, co))
    local b = assert(lodestar.graph.parse_dimacs(GR, CO, gr, co))
    os.remove(gr)
    os.remove(co)
    assert.equal(4, b:node_count())
    assert.equal(5, b:edge_count())
    assert.equal("lonlat", b:coord_kind())
    assert.same(edges(a), edges(b))
    for i = 1, 4 do assert.same({a:coords(i)}, {b:coords(i)}) end
    assert.same({7.42, 43.73}, {b:coords(1)})
    assert.equal(a:h_scale(), b:h_scale())
    assert.equal(10, lodestar.find_path(b, 1, 4).cost) -- 1 -> 2 -> 3 -> 4
    local c = assert(lodestar.graph.parse_dimacs(GR))
    assert.equal("none", c:coord_kind())
    assert.same(edges(a), edges(c))
  end)

  it("fails as load_dimacs fails, named by the chunk names", function()
    local path = os.tmpname()
    local text = "c a comment\np sp 3 2\na 1 2 5\na 2 x 4\n"
    write(path, text)
    local _, m1, c1 = lodestar.graph.load_dimacs(path)
    local g2, m2, c2 = lodestar.graph.parse_dimacs(text, nil, path)
    os.remove(path)
    assert.is_nil(g2)
    assert.equal(m1, m2)
    assert.equal(c1, c2)
    assert.equal(path .. ":4: expected 'a U V W', got 'a 2 x 4'", m2)
    assert.same({nil, "(gr):4: expected 'a U V W', got 'a 2 x 4'", "format"},
      {lodestar.graph.parse_dimacs(text)})
    assert.same({nil, "(co):2: expected 'v ID X Y' with integers, got 'v 1 x'", "format"},
      {lodestar.graph.parse_dimacs(GR, "p aux sp co 4\nv 1 x\n")})
    assert.same({nil, "r.gr:2: binary data (a NUL byte at offset 9; expected a text file)", "format"},
      {lodestar.graph.parse_dimacs("p sp 1 0\n\0", nil, "r.gr")})
    assert.equal("bad argument #1 to 'parse_dimacs' (string expected, got nil)",
      errmsg(lodestar.graph.parse_dimacs, nil))
    assert.equal("bad argument #2 to 'parse_dimacs' (string expected, got number)",
      errmsg(lodestar.graph.parse_dimacs, GR, 1))
    assert.equal("bad argument #3 to 'parse_dimacs' (string expected, got boolean)",
      errmsg(lodestar.graph.parse_dimacs, GR, nil, true))
  end)
end)

describe("the parse messages docs/lua-api.md quotes", function()
  it("are the ones the code prints", function()
    local f = assert(io.open("docs/lua-api.md", "r"))
    local text = f:read("a"):gsub("%s+", " ")
    f:close()
    local function quoted(msg) assert(text:find(msg, 1, true), "not quoted verbatim: " .. msg) end
    quoted(select(2, lodestar.grid.parse("type octile\nmap\n")))
    quoted(select(2, lodestar.grid.parse("type octile\nheight 65535\nwidth 65535\nmap\n")))
    quoted(errmsg(lodestar.grid.parse, nil))
  end)
end)
