-- SPDX-License-Identifier: MIT
-- Path operations leak nothing when Lua runs out of memory part-way (STYLE
-- 14, create the userdata first): run the C host tests/c/lua_oom_paths.c
-- built by `make lua` (Lua 5.4 only: LuaJIT's 64-bit build has no custom
-- allocators).
describe("path operations under a failing allocator", function()
  it("free every temporary path whichever allocation fails", function()
    if type(jit) == "table" then return end
    local build = os.getenv("LDS_BUILD") or "build" -- set by make test
    local f = io.popen(build .. "/lua54/lua_oom_paths " .. build .. "/lua54 2>&1")
    local out = f:read("*a")
    f:close()
    assert.matches("lua_oom_paths: %d+ passed, 0 failed", out)
  end)
end)
