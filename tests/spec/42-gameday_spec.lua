-- SPDX-License-Identifier: MIT
-- The game-day scenario (tests/bench/gameday.lua, issue 18), short: 300
-- agents of 4 classes on AR0011SR for 300 frames in deterministic mode,
-- doors toggled every 6 frames, 8 cost edits a frame, walkers reporting
-- progress, watched paths that replan. Every delivered path is checked
-- against a one-shot find_path with its class's weights on the grid at
-- delivery; no watched path may cross a closed door without its event.
-- The digest (every delivered path's cells and cost, every event) goes to
-- $LDS_BUILD/gameday_digest.<engine>; `make test-lua` compares the Lua 5.4
-- and LuaJIT files byte for byte.
local gameday = dofile("tests/bench/gameday.lua")

local DATA = (os.getenv("LDS_SHARED") or "../shared") .. "/data/movingai/"

describe("the game-day scenario through lodestar.scheduler", function()
  it("delivers optimal paths, flags every broken watched path, and writes its digest #slow", function()
    local engine = jit and "luajit" or "lua54"
    local digest = (os.getenv("LDS_BUILD") or "build") .. "/gameday_digest." .. engine
    local map = DATA .. "maps/AR0011SR.map"
    assert(io.open(map), "the Moving AI data is missing: " .. map):close()
    local r = gameday.run{map = map, scen = DATA .. "scen/AR0011SR.map.scen", agents = 300,
      frames = 300, budget_us = 8000, deterministic = true, check = true, digest = digest}
    assert.equal(0, r.bad_paths)            -- every delivered path optimal at delivery
    assert.equal(r.found, r.checked)
    assert.equal(0, r.unflagged)            -- no watched path crosses a closed door silently
    assert.same({}, r.failed)               -- no request failed (stale or otherwise)
    assert.is_true(r.found >= 300, "paths delivered: " .. r.found)
    assert.is_true(r.events >= 50, "watched-path events: " .. r.events)
    assert.equal(r.events, r.replans)       -- policy "both": every event replans
    assert.equal(r.events, r.edit_stats.watch_events)
    -- the digest has one line per delivered path and per event
    assert.equal(r.found + r.no_path + r.events, r.digest_lines)
    local n = 0
    for _ in io.lines(digest) do n = n + 1 end
    assert.equal(r.digest_lines, n)
  end)
end)
