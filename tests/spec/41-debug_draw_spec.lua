-- SPDX-License-Identifier: MIT
-- The debug-draw interface and pictures from Lua: grid:draw, search:draw,
-- path:draw through a renderer table, search:picture writing a PNG
-- (bindings/lua/lua_debug_draw.c, docs/debugging.md).
local lodestar = require "lodestar"

-- A renderer that records what it is told: batches of {prim, size, verts}.
local function recorder()
  local dd = {batches = {}, texts = {}}
  function dd:begin(prim, size) self.cur = {prim = prim, size = size, verts = {}} end
  function dd:vertex(x, y, r, g, b, a) table.insert(self.cur.verts, {x, y, r, g, b, a}) end
  function dd:finish() table.insert(self.batches, self.cur); self.cur = nil end
  return dd
end

local MAP = "....\n.##.\n....\n"

local function solved(algo)
  local g = lodestar.grid.from_ascii(MAP)
  local s = lodestar.search[algo or "astar"](g)
  s:start(0, 0, 3, 2)
  assert.equal("found", s:run())
  return g, s, s:path()
end

-- Reads the width and height from a PNG file's IHDR chunk.
local function png_size(file)
  local f = assert(io.open(file, "rb"))
  local head = f:read(24)
  f:close()
  assert.equal("\137PNG\r\n\26\n", head:sub(1, 8))
  local function u32(i)
    local a, b, c, d = head:byte(i, i + 3)
    return ((a * 256 + b) * 256 + c) * 256 + d
  end
  return u32(17), u32(21)
end

describe("debug draw from Lua", function()
  it("grid:draw gives one cells batch with a vertex per cell, blocked cells darker", function()
    local g = lodestar.grid.from_ascii(MAP)
    local dd = recorder()
    assert.equal(12, g:draw(dd))
    assert.equal(1, #dd.batches)
    local b = dd.batches[1]
    assert.equal("cells", b.prim)
    assert.equal(12, #b.verts)
    local by = {}
    for _, v in ipairs(b.verts) do
      by[("%d,%d"):format(v[1], v[2])] = v
      for i = 3, 6 do assert.is_true(v[i] >= 0 and v[i] <= 1) end
    end
    assert.is_true(by["1,1"][3] < by["0,0"][3]) -- '#' darker than '.'
  end)

  it("grid:draw shades by a layer by name and refuses an unknown one", function()
    local g = lodestar.grid.from_ascii(MAP)
    g:layer_add("danger")
    g:layer_set("danger", 3, 0, 5)
    local dd = recorder()
    g:draw(dd, {layer = "danger"})
    assert.equal(12, #dd.batches[1].verts)
    assert.has_error(function() g:draw(recorder(), {layer = "nope"}) end)
    assert.has_error(function() g:draw(recorder(), {colour = 1}) end)
  end)

  it("search:draw shows closed cells, start and goal dots, labels through text", function()
    local _, s = solved()
    local dd = recorder()
    local n = s:draw(dd)
    assert.is_true(n > 2)
    local cells, points = 0, 0
    for _, b in ipairs(dd.batches) do
      if b.prim == "cells" then cells = cells + #b.verts end
      if b.prim == "points" then points = points + #b.verts end
    end
    assert.is_true(s:stats().expansions >= 1)
    assert.is_true(cells >= s:stats().expansions)
    assert.is_true(points >= 2)
    local labels = recorder()
    function labels:text(x, y, t) table.insert(self.texts, {x, y, t}) end
    s:draw(labels, {labels = true})
    assert.is_true(#labels.texts >= 1)
    assert.matches("^[%d%.]+$", labels.texts[1][3])
  end)

  it("path:draw gives segments between cell centres in the colour asked", function()
    local _, _, p = solved()
    local dd = recorder()
    p:draw(dd, 0x00FF00FF, 0.5)
    local lines = dd.batches[1]
    assert.equal("lines", lines.prim)
    assert.equal(0.5, lines.size)
    assert.equal(2 * (#p - 1), #lines.verts)
    assert.same({0.5, 0.5, 0, 1, 0, 1}, lines.verts[1])
    local last = lines.verts[#lines.verts]
    assert.same({3.5, 2.5}, {last[1], last[2]})
    assert.equal("points", dd.batches[2].prim)
    local t = recorder()
    p:draw(t, {1, 0, 0})
    local v = t.batches[1].verts[1]
    assert.same({1, 0, 0, 1}, {v[3], v[4], v[5], v[6]})
  end)

  it("a renderer's error reaches the caller, and the objects still work", function()
    local g, s, p = solved()
    local dd = recorder()
    function dd.vertex() error("renderer broke") end
    assert.has_error(function() s:draw(dd) end, nil)
    local ok, err = pcall(p.draw, p, dd)
    assert.is_false(ok)
    assert.matches("renderer broke", err)
    assert.equal(12, g:draw(recorder()))
  end)

  it("bad renderers and arguments are refused with a message", function()
    local g, s, p = solved()
    local ok, err = pcall(g.draw, g, {begin = print, vertex = print})
    assert.is_false(ok)
    assert.matches("dd.finish must be a function", err)
    ok, err = pcall(s.draw, s, 42)
    assert.is_false(ok)
    assert.matches("bad argument #1", err)
    ok, err = pcall(p.draw, p, recorder(), 0x1p40)
    assert.is_false(ok)
    assert.matches("colour", err)
    ok, err = pcall(p.draw, p, recorder(), nil, 0)
    assert.is_false(ok)
    assert.matches("width", err)
    local fresh = lodestar.search.astar(g)
    ok, err = pcall(fresh.draw, fresh, recorder())
    assert.is_false(ok)
    assert.matches("no query was started", err)
    local gs = lodestar.search.astar(lodestar.graph.from_grid(g))
    ok, err = pcall(gs.draw, gs, recorder())
    assert.is_false(ok)
    assert.matches("a graph search has no cells to draw", err)
  end)

  it("a search cannot draw itself from inside its own step", function()
    local g = lodestar.grid.from_ascii(MAP)
    local s
    s = lodestar.search.astar(g, {cost = function(_, _, _, _, base)
      s:draw(recorder())
      return base
    end})
    s:start(0, 0, 3, 2)
    local st, msg = s:run()
    assert.equal("callback", st)
    assert.matches("search:draw: not from inside the search's own step", msg, 1, true)
  end)
end)

describe("search:picture", function()
  local file
  before_each(function() file = os.tmpname() .. ".png" end)
  after_each(function() os.remove(file) end)

  it("writes a PNG of the map at the scale asked, with path and post", function()
    local g, s, p = solved("jps")
    local post = p:prune_los(g)
    assert.is_true(s:picture(file, {scale = 3, path = p, post = post}))
    assert.same({12, 9}, {png_size(file)})
  end)

  it("returns nil, message for a file it cannot write; raises on bad options", function()
    local _, s, p = solved()
    local ok, msg = s:picture("/nonexistent-dir/x.png")
    assert.is_nil(ok)
    assert.matches("/nonexistent%-dir/x.png", msg)
    assert.has_error(function() s:picture(file, {scale = 0}) end)
    assert.has_error(function() s:picture(file, {scale = 65}) end)
    assert.has_error(function() s:picture(file, {path = "p"}) end)
    assert.has_error(function() s:picture(file, {zoom = 2}) end)
    assert.has_error(function() s:picture(file, {layer = "none"}) end)
    local other = lodestar.find_path(lodestar.grid.from_ascii("......\n"), 0, 0, 5, 0)
    ok, msg = s:picture(file, {path = other})
    assert.is_nil(ok)
    assert.is_string(msg)
    assert.truthy(p)
  end)
end)
