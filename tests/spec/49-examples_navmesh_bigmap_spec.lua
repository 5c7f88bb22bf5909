-- SPDX-License-Identifier: MIT
-- Runs examples/navmesh/level.lua and examples/bigmap/doors.lua (the
-- examples of docs/navmesh.md and docs/big-maps.md) on the engine busted
-- runs on, and checks the summaries they return.
local function run(path, arg)
  local chunk = assert(loadfile(path))
  local out = {}
  local real_print = _G.print -- the chunk's print (busted gives specs their own globals)
  _G.print = function(...) out[#out + 1] = table.concat({...}, "\t") end
  local ok, res = pcall(chunk, arg)
  _G.print = real_print
  assert(ok, res)
  return res, table.concat(out, "\n")
end

describe("examples", function()
  it("navmesh/level.lua: any-angle, agent classes, a sliced query, a hook", function()
    local shared = os.getenv("LDS_SHARED") or "../shared"
    local s, text = run("examples/navmesh/level.lua", shared)
    -- arena (1,13) -> (40,40): the exact any-angle optimum, the same on the
    -- grid's own mesh and on Recast's tessellation of the same free space
    -- (../shared/data/navmesh/2d/arena.nav, --algo optimal: 47.480674)
    assert.near(47.480674, s.optimal_length, 1e-6)
    assert.is_true(s.tank > s.runner)
    assert.is_true(s.sliced_frames > 1)
    assert.matches("same path as find_path: true", text)
    if s.dungeon_length then assert.near(18.309580, s.dungeon_length, 1e-5) end
  end)

  it("bigmap/doors.lua: components, hierarchy classes, prefix, scheduler", function()
    local s, text = run("examples/bigmap/doors.lua")
    assert.equal(0, s.wrong)
    assert.is_true(s.tank > s.walker)
    assert.is_true(s.slices > 1)
    assert.matches("A%* no_path after 0 expansions", text)
  end)
end)
