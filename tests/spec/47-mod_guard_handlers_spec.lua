-- SPDX-License-Identifier: MIT
-- The CPU guard against error handlers (docs/mods.md, "CPU guard"): an
-- xpcall message handler runs where the error was raised, which for the
-- guard's own error is inside its hook, where Lua 5.4 fires no hooks; and a
-- trusted mod's pcall must not swallow the guard either. The loops below are
-- bounded so that a regression fails (the handler ran to its end, the mod
-- loaded) instead of hanging the suite.
local mods = require "lodestar.mods"
local testing = require "lodestar.testing"

describe("the CPU guard and error handlers", function()
  local dir, m

  before_each(function()
    dir = testing.mods_dir()
    m = mods.new{root = dir.root, grids = {}, log = function() end, trusted = {trusted = true},
      clock = function() return 0 end} -- the instruction limit alone: no time trips under load
  end)

  after_each(function()
    m:close()
    dir.close()
  end)

  local function load(name, body)
    dir.write(name .. "/mod.lua", body .. ('\nreturn { name = "%s", version = "1" }'):format(name))
    local evs = m:poll()
    assert.equal(1, #evs)
    return evs[1]
  end

  -- a handler that would run 3e7 instructions with no hook firing, then say so
  local HANDLER = [[
    xpcall(function() while true do end end, function(e)
      for _ = 1, 1e7 do end
      mod.state.handler_ran = true
      return e
    end)
    mod.state.survived = true]]

  for _, name in ipairs{"sandboxed", "trusted"} do
    it("an xpcall handler is not run for the guard's error (" .. name .. " mod)", function()
      local ev = load(name, HANDLER)
      assert.equal("failed", ev.result)
      assert.matches("instruction limit exceeded", ev.error.text, 1, true)
      assert.is_nil(m:state(name).handler_ran)
      assert.is_nil(m:state(name).survived)
    end)

    it("pcall does not swallow the guard (" .. name .. " mod)", function()
      local ev = load(name, [[
        for _ = 1, 100 do pcall(function() while true do end end) end
        mod.state.survived = true]])
      assert.equal("failed", ev.result)
      assert.matches("instruction limit exceeded", ev.error.text, 1, true)
      assert.is_nil(m:state(name).survived)
    end)

    it("a handler still runs for the mod's own errors (" .. name .. " mod)", function()
      local ev = load(name, [[
        local ok, msg = xpcall(function(a) error("boom " .. a, 0) end, function(e) return "handled " .. e end, "x")
        mod.state.r = tostring(ok) .. " " .. msg
        local ok2, msg2 = pcall(xpcall, print, nil)
        mod.state.r2 = tostring(ok2) .. " " .. tostring(msg2)]])
      assert.equal("loaded", ev.result)
      assert.equal("false handled boom x", m:state(name).r)
      assert.matches("^false .*bad argument #2 to 'xpcall' %(", m:state(name).r2)
    end)
  end
end)
