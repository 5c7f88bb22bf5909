-- SPDX-License-Identifier: MIT
-- Out of memory in the text constructors (grid.parse, scenario.parse/load,
-- graph.parse_dimacs, from_ascii/from_rows with a legend): run the C host
-- tests/c/lua_parse_oom.c built for this engine by `make lua`, which fails
-- every allocation from the n-th on for each n and checks that nothing leaks.
describe("text constructors out of memory", function()
  it("fail cleanly at every allocation and leak nothing", function()
    local engine = (type(jit) == "table") and "luajit" or "lua54"
    local build = os.getenv("LDS_BUILD") or "build" -- set by make test
    local prog = build .. "/" .. engine .. "/parse_oom"
    local f = io.popen(prog .. " " .. build .. "/" .. engine .. " . 2>&1")
    local out = f:read("*a")
    f:close()
    assert.matches("parse_oom: %d+ passed, 0 failed", out)
    assert.equal("7", out:match("parse_oom: (%d+) passed"))
  end)
end)
