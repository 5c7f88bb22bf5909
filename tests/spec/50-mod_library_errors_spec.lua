-- SPDX-License-Identifier: MIT
-- Errors raised by the sandbox's wrapped library functions (table.sort,
-- table.unpack, table.concat, ..., string.rep, setmetatable; docs/mods.md,
-- "Errors") name the mod's own file and line, as the unwrapped functions
-- do, never scripts/lodestar/mods.lua; a comparator's own error keeps its
-- line, and the CPU guard still stops a comparator that loops. Runs under
-- Lua 5.4 and LuaJIT (make test-lua).
local mods = require "lodestar.mods"
local testing = require "lodestar.testing"

describe("the mod sandbox's wrapped library functions", function()
  local dir, m

  before_each(function()
    dir = testing.mods_dir()
    m = mods.new{root = dir.root, grids = {}, log = function() end,
      clock = function() return 0 end} -- the instruction limit alone: no time trips under load
  end)

  after_each(function()
    m:close()
    dir.close()
  end)

  -- loads mod `a` whose line 3 is `line`; returns the load event
  local function load(line)
    dir.write("a/mod.lua", "local t = {3, 1, 2}\nlocal n = #t\n" .. line
      .. '\nreturn { name = "a", version = "1" }')
    local evs = m:poll()
    assert.equal(1, #evs)
    return evs[1]
  end

  local function where() return dir.root .. "/a/mod.lua:3: " end

  local cases = {
    {"table.sort(t, 5)", "bad argument #2 to 'sort' (function expected, got number)"},
    {"table.unpack(5)", nil, true}, -- (5.4: "attempt to get length of a number value")
    {"unpack(5)", nil, true},
    {"table.concat({{}})", "invalid value (table) at index 1 in table for 'concat'"},
    {"table.insert(t, 1, 2, 3)", "wrong number of arguments to 'insert'"},
    {"table.remove(t, 'x')", "bad argument #2 to 'remove' (number expected, got string)"},
    {"table.move(t, 1, 2)", "bad argument #4 to 'move' (number expected, got nil)"},
    {"string.rep('x', 2, {})", "bad argument #3 to 'rep' (string expected, got table)"},
    {"setmetatable(5, {})", "bad argument #1 to 'setmetatable' (table expected, got number)"},
  }
  for _, c in ipairs(cases) do
    local line, want, fails = c[1], c[2], c[3]
    if want or fails then
      it("'" .. line .. "' fails at the mod's line", function()
        local ev = load(line)
        assert.equal("failed", ev.result)
        local text = ev.error.text
        assert.is_nil(text:find("mods.lua", 1, true), text)
        assert.equal(where(), text:sub(1, #where()))
        if want then assert.equal(where() .. want, text) end
      end)
    end
  end

  it("a comparator's own error keeps the comparator's line", function()
    local ev = load("table.sort(t, function(a, b)\n error('no order') end)")
    assert.equal("failed", ev.result)
    assert.equal(dir.root .. "/a/mod.lua:4: no order", ev.error.text)
  end)

  it("a looping comparator still trips the CPU guard, named at the mod's line", function()
    local ev = load("table.sort(t, function(a, b) while true do end end)")
    assert.equal("failed", ev.result)
    assert.matches("^" .. where():gsub("%p", "%%%0") .. "instruction limit exceeded", ev.error.text)
  end)

  it("pcall in a mod sees the mod-level message", function()
    local ev = load("local ok, e = pcall(table.sort, t, 5); mod.state.e = e")
    assert.equal("loaded", ev.result)
    assert.equal("bad argument #2 to 'sort' (function expected, got number)",
      (m:state("a").e:gsub("^.-:%d+: ", "")))
  end)
end)
