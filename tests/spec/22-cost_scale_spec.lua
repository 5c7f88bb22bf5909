-- SPDX-License-Identifier: MIT
-- Costs have no scale: the same grid with every cost times 1e-12 (or 1e30)
-- gives the same paths, D* Lite included, and the testing kit judges them
-- the same way (its is_optimal tolerance is relative, with no floor of 1).
local lodestar = require "lodestar"
local testing = require "lodestar.testing"

local PICTURE = [[
  S . 9 9 .
  . @ 9 @ .
  . . 2 . G
]]

-- the picture with every cell cost multiplied by k
local function scaled(k)
  local g, S, G = testing.grid(PICTURE)
  for y = 0, g:height() - 1 do
    for x = 0, g:width() - 1 do if not g:get_blocked(x, y) then g:set_cost(x, y, g:get_cost(x, y) * k) end end
  end
  return g, S, G
end

describe("costs of any scale", function()
  for _, k in ipairs({1, 1e-12, 1e-30, 1e30}) do
    it("scale " .. k .. ": A*, D* Lite and is_optimal agree with Dijkstra", function()
      local g, S, G = scaled(k)
      local best = testing.true_cost(g, S.x, S.y, G.x, G.y)
      local a = lodestar.find_path(g, S.x, S.y, G.x, G.y)
      assert.is_true(math.abs(a.cost - best) <= 1e-9 * best)
      local d = lodestar.search.dstar_lite(g, {start = {S.x, S.y}, goal = {G.x, G.y}})
      assert.equal("found", d:compute())
      assert.is_true(math.abs(d:path().cost - best) <= 1e-9 * best)
      assert.equal(#a, #d:path())
      assert.is_optimal(g, S.x, S.y, G.x, G.y)
      -- greedy best-first takes a dearer path at every scale
      assert.is_not.is_optimal(g, S.x, S.y, G.x, G.y, {algorithm = "greedy"})
    end)
  end
end)
