-- SPDX-License-Identifier: MIT
-- Runs examples/bigmap/barracks.lua (docs/big-maps.md, "The path cache":
-- 1,000 agents sharing 10 destinations while doors open and close) on the
-- engine busted runs on. The script itself checks every delivered path
-- against a fresh A* (and raises on a wrong one); here its summary must
-- meet issue 20's verdict: searches per delivered path <= 0.2, 0 wrong.
local function run(path, ...)
  local chunk = assert(loadfile(path))
  local out = {}
  local real_print = _G.print -- the chunk's print (busted gives specs their own globals)
  _G.print = function(...) out[#out + 1] = table.concat({...}, "\t") end
  local ok, res = pcall(chunk, ...)
  _G.print = real_print
  assert(ok, res)
  return res, table.concat(out, "\n")
end

describe("examples", function()
  it("bigmap/barracks.lua: the path cache alone and in the scheduler", function()
    local s, text = run("examples/bigmap/barracks.lua")
    for _, part in ipairs{"cache", "scheduler"} do
      local r = s[part]
      assert.equal(4000, r.paths)
      assert.is_true(r.found > 3900, part .. ": " .. r.found .. " found")
      assert.is_true(r.searches_per_path <= 0.2, part .. ": " .. r.searches_per_path)
      assert.is_true(r.searches > 0) -- the first trip to each destination grows its tree
      assert.is_true(r.invalidated > 0) -- the doors cut trees back
      assert.is_true(r.hit_rate > 0.8)
      assert.equal(0, r.wrong)
      assert.matches(part .. "%s+4000 paths .* 0 wrong", text)
    end
    -- 10 trees of 16 bytes per padded cell (249 x 169), plus their open lists
    assert.is_true(s.cache.bytes >= 10 * 16 * 249 * 169)
  end)
end)
