-- SPDX-License-Identifier: MIT
-- The error messages docs/*.md quote are the ones the code prints: each call
-- below raises, and its message (without the position, and for an argument
-- error from its first parenthesis on, as the docs usually quote it) must
-- appear verbatim in the doc, line breaks read as spaces. The runtime's
-- messages (docs/embedding.md) are checked by tests/c/runtime_test.c.
local lodestar = require "lodestar"
local smooth = require "lodestar.smooth"
local support = require "support"

-- the doc's text, each run of whitespace one space
local function doc(name)
  local f = assert(io.open("docs/" .. name, "r"))
  local text = f:read("a")
  f:close()
  return (text:gsub("%s+", " "))
end

-- the message of the error f(...) raises, without "file:line: "
local errmsg = support.errtext

-- "bad argument #2 to 'f' (what)" or "calling 'f' on bad self (what)" ->
-- "(what)"; other messages unchanged
local function detail(msg)
  return msg:match("^bad argument #%d+ to '[^']*' (%(.*%))$")
    or msg:match("^calling '[^']*' on bad self (%(.*%))$") or msg
end

local function quoted(text, msg)
  assert(text:find(msg, 1, true), "not quoted verbatim: " .. msg)
end

describe("messages quoted in docs/lua-api.md", function()
  local text = doc("lua-api.md")

  it("grids", function()
    local g = lodestar.grid.new(10, 10)
    quoted(text, detail(errmsg(g.get_blocked, {}, 1, 1)))
    quoted(text, detail(errmsg(g.get_blocked, g, 10, 1)))
    quoted(text, detail(errmsg(g.set_cost, g, 1, 1, 0 / 0)))
    quoted(text, detail(errmsg(g.set_terrain, g, 1, 1, "ab")))
    quoted(text, detail(errmsg(g.set_neighbourhood, g, 5)))
    quoted(text, detail(errmsg(g.set_diagonal, g, "no_cornercut")))
    g:layer_add("x")
    quoted(text, detail(errmsg(g.layer_set, g, "x", 1, 1, 0 / 0)))
    quoted(text, errmsg(lodestar.find_path, g, 0, 0, 1, 1, {algo = "x"}))
  end)

  it("graphs", function()
    quoted(text, detail(errmsg(lodestar.graph.new, "xyzw")))
    local ll = lodestar.graph.new("lonlat")
    quoted(text, detail(errmsg(ll.add_node, ll, 200, 0)))
    quoted(text, detail(errmsg(ll.add_node, ll, 0, -91)))
    local g = lodestar.graph.new()
    quoted(text, detail(errmsg(g.add_node, g, 1, 2, 3)))
    for _ = 1, 5 do g:add_node(0, 0) end
    quoted(text, detail(errmsg(g.add_edge, g, 1, 9, 1)))
    quoted(text, detail(errmsg(g.add_edge, g, 1, 2, 0 / 0)))
    for i = 1, 5 do g:add_edge(i, i % 5 + 1, 1) end
    g:add_edge(1, 3, 1)
    g:freeze()
    quoted(text, detail(errmsg(g.edge, g, 9)))
    quoted(text, detail(errmsg(g.set_edge_cost, g, 2, 1, 3)))
    local s = lodestar.search.astar(g)
    quoted(text, detail(errmsg(s.start, s, 0, 1)))
    -- the heuristic's whole message: it used to be quoted without "opts.heuristic: "
    quoted(text, detail(errmsg(lodestar.search.astar, g, {heuristic = "great_circle"})))
    quoted(text, detail(errmsg(lodestar.search.astar, g, {cost = function() end})))
  end)

  it("rule helpers and smoothing", function()
    quoted(text, errmsg(lodestar.rule.terrain, {T = "x"}))
    quoted(text, errmsg(lodestar.rule.near, {}, -1, 1))
    quoted(text, errmsg(lodestar.rule.near, {}, 1, 0 / 0))
    quoted(text, errmsg(smooth.catmull_rom, {}, {sample = 3}))
    quoted(text, errmsg(smooth.postprocessor, -1))
    quoted(text, errmsg(smooth.postprocessor, 0.5, 2.5))
    quoted(text, detail(errmsg(smooth.postprocessor(), {}, "grid")))
  end)
end)

describe("the Module table of docs/lua-api.md", function()
  it("lists lodestar.algorithms as the module has it", function()
    local text = doc("lua-api.md")
    local at = text:find("| `lodestar.algorithms` | `", 1, true)
    assert.truthy(at)
    local line = text:match("%b{}", at)
    assert.truthy(line)
    local listed = {}
    for name in line:gmatch('"([^"]+)"') do listed[#listed + 1] = name end
    assert.same(lodestar.algorithms, listed)
  end)
end)
