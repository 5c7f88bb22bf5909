-- SPDX-License-Identifier: MIT
-- The mod CPU guard (scripts/lodestar/mods.lua, guarded) ends with each
-- guarded call, whatever way the call ends: the count hook fires every
-- `grain` instructions, also in the guard's own instructions just before
-- and just after the mod's function, and a trip there must not escape the
-- guard (it left the hook and the guard state installed, so every later hook
-- firing tripped in host code: "instruction limit exceeded" in busted).
-- Every instruction limit from 1 to 300 puts the first hook firing at a
-- different instruction of the guard's entry and exit; after each call the
-- host's hook, the string methods and the guard state are back and a long
-- plain loop runs. The clock is fixed: nothing depends on time.
local mods = require "lodestar.mods"
local lfs = require "lfs"

local function tmp_root()
  local base = os.tmpname()
  os.remove(base)
  assert(lfs.mkdir(base .. "-exit"))
  return base .. "-exit"
end

-- Checks that nothing of the guard outlived the call, then runs a long loop
-- of plain code (with the guard's hook left behind it would trip).
local function assert_guard_gone(m, host_hook)
  local h = debug.gethook()
  assert.are.equal(host_hook, h)
  assert.is_nil(m._g)
  assert.are.equal(string, getmetatable("").__index)
  local ok, err = pcall(function()
    local n = 0
    for i = 1, 200000 do n = n + i % 3 end
    return n
  end)
  assert.is_true(ok, err)
end

describe("mod guard exit", function()
  local root
  before_each(function() root = tmp_root() end)
  after_each(function()
    debug.sethook()
    getmetatable("").__index = string
    lfs.rmdir(root)
  end)

  local function manager(limit)
    return mods.new{root = root, instruction_limit = limit, log = function() end,
      clock = function() return 0 end}
  end

  local calls = {
    {"a C function", select, "#"},
    {"an empty Lua function", function() end},
    {"a function that raises", function() error("boom", 0) end},
    {"a runaway loop", function() while true do end end},
  }
  -- LuaJIT: hooks never fire in compiled code (mods run interpreted)
  for _, c in ipairs(calls) do
    if rawget(_G, "jit") and debug.getinfo(c[2], "S").what == "Lua" then jit.off(c[2]) end
  end
  for _, c in ipairs(calls) do
    it("leaves no hook and no guard behind after " .. c[1] .. ", at every limit 1..300", function()
      for limit = 1, 300 do
        local m = manager(limit)
        local rec = {name = "x", display = "x"}
        local ok, a, b = pcall(m._call, m, rec, table.unpack and table.unpack(c, 2) or unpack(c, 2))
        assert.is_true(ok, tostring(a)) -- _call returns its failure, it never raises
        if a == false then assert.is_string(b) end
        assert_guard_gone(m, nil)
      end
    end)
  end

  it("puts the host's hook back after every kind of end", function()
    local fired = 0
    local function host_hook() fired = fired + 1 end
    for limit = 1, 300, 7 do
      for _, c in ipairs(calls) do
        local m = manager(limit)
        debug.sethook(host_hook, "", 100000)
        m:_call({name = "x", display = "x"}, table.unpack and table.unpack(c, 2) or unpack(c, 2))
        assert_guard_gone(m, host_hook)
        debug.sethook()
      end
    end
  end)
end)
