-- SPDX-License-Identifier: MIT
-- A designer's own map characters: grid.from_ascii(text, {legend = ...})
-- and grid.from_rows(rows, opts), with from_ascii's defaults (. S G 1-9
-- free, everything else blocked) where the legend says nothing.
local lodestar = require "lodestar"
local testing = require "lodestar.testing"
local support = require "support"

local SQRT2 = math.sqrt(2)

-- the message of the error f(...) raises, without "file:line: "
local errmsg = support.errtext

-- every cell as "terrain/blocked/cost", row by row
local function cells(g)
  local w, h = g:size()
  local out = {}
  for y = 0, h - 1 do
    local row = {}
    for x = 0, w - 1 do
      row[#row + 1] = ("%s/%s/%s"):format(g:terrain(x, y), g:get_blocked(x, y) and "b" or "f",
        ("%g"):format(g:get_cost(x, y)))
    end
    out[#out + 1] = table.concat(row, " ")
  end
  return out
end

local LEGEND = {["~"] = {cost = 5}, ["="] = {cost = 0.5}, ["#"] = "blocked"}

describe("grid.from_ascii with a legend", function()
  it("loads a designer's map with water and road", function()
    local g = assert(lodestar.grid.from_ascii([[
      S~~G
      ....
      ==#=
    ]], {legend = LEGEND}))
    assert.same({
      "S/f/1 ~/f/5 ~/f/5 G/f/1",
      "./f/1 ./f/1 ./f/1 ./f/1",
      "=/f/0.5 =/f/0.5 #/b/1 =/f/0.5",
    }, cells(g))
    assert.equal(0.5, g:min_cost())
    -- through the water 5 + 5 + 1 = 11; around it 1 + 2 * sqrt 2
    assert.near(1 + 2 * SQRT2, lodestar.find_path(g, 0, 0, 3, 0).cost, 1e-9)
    -- the wall '#' cuts the road: up a diagonal, two cells, down onto the road
    assert.near(SQRT2 + 1 + 1 + 0.5, lodestar.find_path(g, 0, 2, 3, 2).cost, 1e-9)
    assert.is_optimal(g, 0, 2, 3, 2)
    assert.admissible(g, "octile")
  end)

  it("keeps today's meaning of every character the legend does not name", function()
    local text = "S.@T\n.3~G\n"
    local old = assert(lodestar.grid.from_ascii(text))
    assert.same({"S/f/1 ./f/1 @/b/1 T/b/1", "./f/1 3/f/3 ~/b/1 G/f/1"}, cells(old))
    assert.same(cells(old), cells(assert(lodestar.grid.from_ascii(text, {}))))
    assert.same(cells(old), cells(assert(lodestar.grid.from_ascii(text, {legend = {}}))))
    local g = assert(lodestar.grid.from_ascii(text, {legend = {["~"] = 2}}))
    assert.same({"S/f/1 ./f/1 @/b/1 T/b/1", "./f/1 3/f/3 ~/f/2 G/f/1"}, cells(g))
  end)

  it("value forms: cost, \"blocked\", \"free\", false, a table; built-ins can be replaced", function()
    local g = assert(lodestar.grid.from_ascii("abcde.5@", {legend = {
      a = 3, b = "blocked", c = "free", d = false,
      e = {cost = 2, blocked = true},
      ["."] = 1.5, ["5"] = "blocked", ["@"] = "free",
    }}))
    assert.same({"a/f/3 b/b/1 c/f/1 d/b/1 e/b/2 ./f/1.5 5/b/1 @/f/1"}, cells(g))
  end)

  it("reads legend tables raw: their metamethods never run", function()
    local sneaky = setmetatable({}, {__index = function() error("metamethod ran") end})
    local g = assert(lodestar.grid.from_ascii("S~G", {legend = {["~"] = sneaky}}))
    assert.equal(1, g:get_cost(1, 0))
    assert.is_false(g:get_blocked(1, 0))
    local layers = setmetatable({water = 2}, {__index = function() error("metamethod ran") end})
    g = assert(lodestar.grid.from_ascii("S~G", {legend = {["~"] = {layers = layers}}}))
    assert.equal(2, g:layer_get("water", 1, 0))
  end)

  it("maps characters to a terrain and to layer values", function()
    local g = assert(lodestar.grid.from_ascii([[
      S~~G
      ,,,.
    ]], {legend = {
      ["~"] = {cost = 2, terrain = "W", layers = {water = 1, danger = 0.5}},
      [","] = {layers = {mud = 3, water = false}},
    }}))
    assert.same({"danger", "mud", "water"}, g:layer_list()) -- sorted, whatever the table order
    assert.equal("W", g:terrain(1, 0))
    assert.equal(2, g:get_cost(1, 0))
    assert.equal(1, g:layer_get("water", 2, 0))
    assert.equal(0.5, g:layer_get("danger", 1, 0))
    assert.equal(0, g:layer_get("mud", 1, 0))
    assert.equal(3, g:layer_get("mud", 0, 1))
    assert.equal(math.huge, g:layer_get("water", 0, 1)) -- false: blocked when weighted
    assert.equal(",", g:terrain(0, 1))
    assert.equal(0, g:layer_get("water", 3, 1))
    assert.equal(0, g:layer_get("mud", 0, 0))
    -- without weights the base costs: 2 + 2 + 1 straight, 1 + 2 sqrt 2 around
    assert.near(1 + 2 * SQRT2, lodestar.find_path(g, 0, 0, 3, 0).cost, 1e-9)
    -- water weighted: ',' (water = false) is blocked, so through the water,
    -- 2 + 10 * 1 a cell
    local p = lodestar.find_path(g, 0, 0, 3, 0, {weights = {water = 10}})
    assert.near(12 + 12 + 1, p.cost, 1e-9)
    -- the terrain a legend gives feeds the terrain rules
    g:bake("danger", lodestar.rule.terrain{W = 7})
    assert.equal(7, g:layer_get("danger", 2, 0))
    assert.equal(0, g:layer_get("danger", 0, 0))
  end)

  it("strict: a character neither in the legend nor built in is an error naming it", function()
    assert.same({nil, "from_ascii: row 2, column 3 (cell 2,1): character '%' is not in the legend (strict)",
      "format"}, {lodestar.grid.from_ascii("S~.\n..%\n", {legend = LEGEND, strict = true})})
    assert.same({nil, "from_ascii: row 1, column 2 (cell 1,0): character 0x01 is not in the legend (strict)",
      "format"}, {lodestar.grid.from_ascii(".\1.", {strict = true})})
    -- every built-in (. S G 1-9 @ O T W) and legend character is known
    assert.is_not_nil(lodestar.grid.from_ascii("SG.123456789@OTW~=#", {legend = LEGEND, strict = true}))
    -- without strict an unknown character is blocked, as before
    local g = assert(lodestar.grid.from_ascii("S~.\n..%\n", {legend = LEGEND}))
    assert.is_true(g:get_blocked(2, 1))
  end)

  it("raises for a malformed legend, naming the character", function()
    local f = lodestar.grid.from_ascii
    local function e(legend) return errmsg(f, "S.", {legend = legend}) end
    local pre = "bad argument #2 to 'from_ascii' "
    assert.equal(pre .. "(opts.legend['~']: cost 0 out of range (expected finite, > 0))",
      e{["~"] = {cost = 0}})
    assert.equal(pre .. "(opts.legend['~']: cost -1 out of range (expected finite, > 0))", e{["~"] = -1})
    assert.equal(pre .. "(opts.legend['~']: cost inf out of range (expected finite, > 0))",
      e{["~"] = math.huge})
    assert.equal(pre .. "(opts.legend['~']: cost nan out of range (expected finite, > 0))", e{["~"] = 0 / 0})
    assert.equal(pre .. "(opts.legend['~']: cost 1e+300 out of range (expected finite, > 0))",
      e{["~"] = 1e300})
    assert.equal(pre .. "(opts.legend['~']: cost: number expected, got string)", e{["~"] = {cost = "5"}})
    assert.equal(pre .. "(opts.legend['~']: unknown field 'costs' (expected blocked, cost, layers, terrain))",
      e{["~"] = {costs = 5}})
    assert.equal(pre .. "(opts.legend['~']: a cost, \"blocked\", \"free\", false or a table expected, got 'wall')",
      e{["~"] = "wall"})
    assert.equal(pre .. "(opts.legend['~']: a cost, \"blocked\", \"free\", false or a table expected, got boolean)",
      e{["~"] = true})
    assert.equal(pre .. "(opts.legend['~']: blocked: boolean expected, got number)", e{["~"] = {blocked = 1}})
    assert.equal(pre .. "(opts.legend['~']: terrain: one-character string expected, got 'ab')",
      e{["~"] = {terrain = "ab"}})
    assert.equal(pre .. "(opts.legend['~']: layers: table expected, got number)", e{["~"] = {layers = 1}})
    assert.equal(pre .. "(opts.legend['~']: layers: keys must be layer names)", e{["~"] = {layers = {1}}})
    assert.equal(pre .. "(opts.legend['~']: layers: layer name of 64 bytes (expected 1..63))",
      e{["~"] = {layers = {[("x"):rep(64)] = 1}}})
    assert.equal(pre .. "(opts.legend['~']: layers.water: value is nan (expected a number, or false))",
      e{["~"] = {layers = {water = 0 / 0}}})
    assert.equal(pre .. "(opts.legend['~']: layers.water: number or false expected, got string)",
      e{["~"] = {layers = {water = "deep"}}})
    assert.equal(pre .. "(opts.legend: keys must be one-character strings, got 'ab')", e{ab = 1})
    assert.equal(pre .. "(opts.legend: keys must be one-character strings, got number)", e{[1] = 1})
    assert.equal(pre .. "(opts.legend[' ']: this character separates cells or rows here (expected a cell character))",
      e{[" "] = 1})
    assert.equal(pre .. "(opts.legend: table expected, got string)", errmsg(f, "S.", {legend = "~"}))
    assert.equal(pre .. "(opts.strict: boolean expected, got string)", errmsg(f, "S.", {strict = "yes"}))
    assert.equal(pre .. "(unknown option 'legnd' (expected legend, strict))", errmsg(f, "S.", {legnd = {}}))
    assert.equal(pre .. "(table expected, got string)", errmsg(f, "S.", "~"))
  end)

  it("testing.grid takes the same legend", function()
    local g, S, G = testing.grid([[
      S ~ ~ G
      . . . .
    ]], {legend = LEGEND})
    assert.same({x = 0, y = 0}, S)
    assert.same({x = 3, y = 0}, G)
    assert.equal(5, g:get_cost(1, 0))
    assert.path_cost(lodestar.find_path(g, S.x, S.y, G.x, G.y), 1 + 2 * SQRT2)
  end)
end)

describe("grid.from_rows", function()
  it("builds the grid from_ascii builds from the same rows", function()
    local rows = {"S~~G", "....", "==#="}
    local a = assert(lodestar.grid.from_rows(rows, {legend = LEGEND}))
    local b = assert(lodestar.grid.from_ascii(table.concat(rows, "\n"), {legend = LEGEND}))
    assert.same(cells(b), cells(a))
    assert.same({4, 3}, {a:size()})
    assert.same(cells(assert(lodestar.grid.from_ascii("S.@\n.3G"))),
      cells(assert(lodestar.grid.from_rows{"S.@", ".3G"})))
  end)

  it("takes every byte as a cell, spaces too", function()
    local g = assert(lodestar.grid.from_rows({" S ", "  G"}, {legend = {[" "] = 2}}))
    assert.same({" /f/2 S/f/1  /f/2", " /f/2  /f/2 G/f/1"}, cells(g))
    -- without a legend a space is blocked, like any unknown character
    assert.is_true(assert(lodestar.grid.from_rows{" S"}):get_blocked(0, 0))
    -- a tab too, and any byte (from_ascii refuses a tab key: it trims tabs)
    assert.equal(3, assert(lodestar.grid.from_rows({"S\tG"}, {legend = {["\t"] = 3}})):get_cost(1, 0))
    assert.equal(3, assert(lodestar.grid.from_ascii("S\0G", {legend = {["\0"] = 3}})):get_cost(1, 0))
    assert.equal("bad argument #2 to 'from_ascii' (opts.legend[0x09]: this character separates cells "
      .. "or rows here (expected a cell character))",
      errmsg(lodestar.grid.from_ascii, "S\tG", {legend = {["\t"] = 3}}))
  end)

  it("returns nil, msg, 'format' for rows that do not make a grid", function()
    assert.same({nil, "from_rows: row 2 has 2 cells (expected 3 like row 1)", "format"},
      {lodestar.grid.from_rows{"...", ".."}})
    assert.same({nil, "from_rows: no rows (expected a list of strings)", "format"},
      {lodestar.grid.from_rows{}})
    assert.same({nil, "from_rows: row 1 is empty (expected at least one cell)", "format"},
      {lodestar.grid.from_rows{"", ""}})
    assert.same({nil, "from_rows: row 2, column 3: a line break in a row (expected one row per string)",
      "format"}, {lodestar.grid.from_rows{"...", "..\n"}})
    assert.same({nil, "from_rows: row 1, column 2 (cell 1,0): character '?' is not in the legend (strict)",
      "format"}, {lodestar.grid.from_rows({".?."}, {strict = true})})
  end)

  it("raises for arguments of the wrong type", function()
    assert.equal("bad argument #1 to 'from_rows' (table expected, got string)",
      errmsg(lodestar.grid.from_rows, "S.G"))
    assert.equal("bad argument #1 to 'from_rows' (row 2: string expected, got number)",
      errmsg(lodestar.grid.from_rows, {"S.", 5}))
    assert.equal("bad argument #2 to 'from_rows' (opts.legend['~']: cost 0 out of range (expected finite, > 0))",
      errmsg(lodestar.grid.from_rows, {"S~"}, {legend = {["~"] = 0}}))
  end)
end)

describe("the legend messages docs quote", function()
  local function doc(name)
    local f = assert(io.open("docs/" .. name, "r"))
    local text = f:read("a")
    f:close()
    return (text:gsub("%s+", " "))
  end
  local function detail(msg) return msg:match("^bad argument #%d+ to '[^']*' (%(.*%))$") or msg end

  it("are the ones the code prints", function()
    local api, guide = doc("lua-api.md"), doc("designer-guide.md")
    local function quoted(text, msg) assert(text:find(msg, 1, true), "not quoted verbatim: " .. msg) end
    local strict = select(2, lodestar.grid.from_ascii("S~.\n..%\n", {legend = LEGEND, strict = true}))
    quoted(api, strict)
    quoted(guide, strict)
    local cost0 = errmsg(lodestar.grid.from_ascii, "S.", {legend = {["~"] = {cost = 0}}})
    quoted(api, cost0)
    quoted(guide, cost0)
    quoted(api, detail(errmsg(lodestar.grid.from_ascii, "S.", {legend = {["~"] = {costs = 5}}})))
    quoted(api, detail(errmsg(lodestar.grid.from_ascii, "S.", {legend = {ab = 1}})))
    quoted(api, select(2, lodestar.grid.from_rows{"...", ".."}))
    quoted(api, select(2, lodestar.grid.from_rows{}))
    quoted(api, select(2, lodestar.grid.from_rows{"", ""}))
    quoted(api, errmsg(lodestar.grid.from_rows, {"S.", 5}))
  end)
end)
