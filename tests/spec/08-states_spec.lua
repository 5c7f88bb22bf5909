-- SPDX-License-Identifier: MIT
-- Two lua_States in one process share nothing (STYLE 8): run the C host
-- tests/c/lua_two_states.c built for this engine by `make lua`.
describe("two lua_States", function()
  it("load the module independently, each on its own allocator; OOM: grid nil, nomem; search raises", function()
    local engine = (type(jit) == "table") and "luajit" or "lua54"
    local build = os.getenv("LDS_BUILD") or "build" -- set by make test
    local prog = build .. "/" .. engine .. "/two_states"
    local f = io.popen(prog .. " " .. build .. "/" .. engine .. " 2>&1")
    local out = f:read("*a")
    f:close()
    assert.matches("two_states: %d+ passed, 0 failed", out)
    assert.equal("17", out:match("two_states: (%d+) passed"))
  end)

  it("close cleanly with searches made under the mods' memory guard (lua_close finalizes the guard first)", function()
    local engine = (type(jit) == "table") and "luajit" or "lua54"
    local interp = engine == "luajit" and "luajit" or "lua5.4"
    local build = os.getenv("LDS_BUILD") or "build"
    local f = io.popen(interp .. " tests/data/lua/guard_close.lua " .. build .. " " .. engine .. " 2>&1; echo rc=$?")
    local out = f:read("*a")
    f:close()
    assert.equal("closing\nrc=0\n", out)
  end)
end)
