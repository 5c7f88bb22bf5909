-- SPDX-License-Identifier: MIT
-- A start or goal on an edge or a vertex of the mesh (docs/navmesh.md
-- "Degenerate meshes"): the query starts from / ends in every allowed
-- polygon holding the point. At a pinch vertex of a grid's mesh (two free
-- cells touching only at a corner) the optimal path into the far cell is
-- the straight segment, on strict and non-strict meshes alike; on random
-- grids the optimal length does not depend on the tessellation (strict or
-- not, 4, 6 or 64 vertices a polygon) with endpoints at cell corners and
-- edge midpoints, funnel and optimal agree on reachability, funnel is never
-- shorter, and every path passes mesh:check_path. Lua 5.4 and LuaJIT.
local lodestar = require "lodestar"

describe("navmesh start and goal on a vertex or an edge", function()
  it("a pinch vertex starts into both cells, the straight segment", function()
    local g = lodestar.grid.from_rows{"....", "..@.", ".@..", "...."}
    for _, strict in ipairs{true, false} do
      local m = g:to_navmesh{strict = strict}
      for _, goal in ipairs{{1.5, 0, 1.5}, {2.5, 0, 2.5}} do
        for _, algo in ipairs{"optimal", "funnel"} do
          local p = assert(m:find_path({2, 0, 2}, goal, {algorithm = algo}))
          local q = assert(m:find_path(goal, {2, 0, 2}, {algorithm = algo}))
          assert.near(math.sqrt(0.5), p.length, 1e-12)
          assert.near(math.sqrt(0.5), q.length, 1e-12)
          assert.is_true((m:check_path(p)))
          assert.is_true((m:check_path(q)))
        end
      end
    end
  end)

  it("optimal lengths do not depend on the tessellation (random grids)", function()
    local seed = 12345
    local function rnd(n) -- a small LCG: the same grids on every engine
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    end
    local bad, nq = {}, 0
    for _ = 1, 25 do
      local W, H = 3 + rnd(14), 3 + rnd(14)
      local g = lodestar.grid.new(W, H)
      for y = 0, H - 1 do for x = 0, W - 1 do if rnd(10) < 3 then g:set_blocked(x, y, true) end end end
      local meshes = {}
      for _, o in ipairs{{strict = true, max_verts = 4}, {strict = true, max_verts = 64},
                         {strict = false, max_verts = 4}, {strict = false, max_verts = 64},
                         {strict = true, max_verts = 6}} do
        local m = g:to_navmesh(o)
        if m then meshes[#meshes + 1] = m end
      end
      local frees = {}
      for y = 0, H - 1 do for x = 0, W - 1 do if not g:blocked(x, y) then frees[#frees + 1] = {x, y} end end end
      if #meshes == 5 then
        for _ = 1, 12 do
          local function pt()
            local c, k = frees[1 + rnd(#frees)], rnd(3)
            if k == 0 then return {c[1] + rnd(2), 0, c[2] + rnd(2)} end -- a corner
            if k == 1 then return {c[1] + 0.5, 0, c[2] + rnd(2)} end    -- an edge midpoint
            return {c[1] + 0.5, 0, c[2] + 0.5}
          end
          local a, b = pt(), pt()
          local lens = {}
          for i, m in ipairs(meshes) do
            local po = m:find_path(a, b, {algorithm = "optimal"})
            local pf = m:find_path(a, b)
            lens[i] = po and po.length or -1
            if (po == nil) ~= (pf == nil) then bad[#bad + 1] = "reach" end
            if po and not m:check_path(po) then bad[#bad + 1] = "illegal optimal" end
            if pf and not m:check_path(pf) then bad[#bad + 1] = "illegal funnel" end
            if po and pf and pf.length < po.length - 1e-9 then bad[#bad + 1] = "funnel shorter" end
          end
          for i = 2, #lens do
            if math.abs(lens[i] - lens[1]) > 1e-9 * (1 + math.abs(lens[1])) then
              bad[#bad + 1] = ("tessellation: (%g,%g) -> (%g,%g): %s"):format(a[1], a[3], b[1], b[3],
                table.concat(lens, " "))
              break
            end
          end
          nq = nq + 1
        end
      end
    end
    assert.is_true(nq >= 100)
    assert.same({}, bad)
  end)
end)
