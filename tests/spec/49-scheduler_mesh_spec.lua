-- SPDX-License-Identifier: MIT
-- Mesh requests through lodestar.scheduler (docs/scheduler.md "Mesh
-- requests", docs/lua-api.md): sched:add_mesh, sched:request{mesh = ...}
-- sliced by small budgets next to grid requests; every delivered path is
-- mesh:find_path's table for the same options, equal value for value;
-- priorities, cancel, release, remove_mesh, mesh:free() while in use, and
-- errors naming opts.<key> with the value given. Lua 5.4 and LuaJIT.
local lodestar = require "lodestar"

local SHARED = os.getenv("LDS_SHARED") or "../shared"

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

-- A mesh file of the shared data, or a mesh of a small grid without it.
local function mesh_of(rel)
  local path = SHARED .. "/data/navmesh/" .. rel
  if exists(path) then return assert(lodestar.navmesh.load(path)) end
  local g = lodestar.grid.new(30, 20)
  for y = 0, 19 do
    for x = 0, 29 do
      if (x % 7 == 3 and y % 9 ~= 4) then g:set_blocked(x, y, true) end
    end
  end
  return assert(g:to_navmesh())
end

-- The script's own LCG (31 bits, exact in LuaJIT's doubles).
local seed = 12345
local function rnd(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end

-- The centre of a random polygon (inside: polygons are convex).
local function rand_point(m)
  local verts = m:poly(1 + rnd(m:poly_count()))
  local x, y, z = 0, 0, 0
  for _, v in ipairs(verts) do
    local vx, vy, vz = m:vertex(v)
    x, y, z = x + vx, y + vy, z + vz
  end
  local n = #verts
  return {x / n, y / n, z / n}
end

local CLASSES = {
  {algorithm = "funnel"},
  {algorithm = "funnel", area_costs = {[0] = 1, [1] = 3}, partial = true},
  {algorithm = "optimal", partial = true},
  {algorithm = "funnel", thorough = false},
}

local function merged(opts, extra)
  local t = {}
  for k, v in pairs(opts) do t[k] = v end
  for k, v in pairs(extra) do t[k] = v end
  return t
end

describe("mesh requests in lodestar.scheduler", function()
  it("slices many agents of several classes and delivers find_path's paths", function()
    local meshes = {mesh_of("2d/den011d.nav"), mesh_of("3d/dungeon.nav")}
    local sched = lodestar.scheduler.new{deterministic = true, aging_frames = 1000000}
    sched:add_mesh(meshes[1], 1)
    sched:add_mesh(meshes[2], 1)
    local reqs, done, order, mismatches = {}, 0, {0, 0}, 0
    for i = 1, 80 do
      local mi = 1 + (i % 2)
      local m = meshes[mi]
      local cls = CLASSES[1 + rnd(#CLASSES)]
      local a, b = rand_point(m), rand_point(m)
      local prio = rnd(3)
      local entry = {mesh = mi, prio = prio, i = i}
      entry.req = sched:request(merged(cls, {mesh = m, from = a, to = b, priority = prio,
        agent = i, on_done = function(req)
          done = done + 1
          order[mi] = order[mi] + 1
          entry.rank = order[mi]
          local want, msg = m:find_path(a, b, cls)
          local got, gmsg = req:path()
          if want then
            if not got then mismatches = mismatches + 1
            else
              -- the same table, value for value (points, length, cost,
              -- partial, corridor, algorithm)
              local ok = pcall(assert.same, want, got)
              if not ok then mismatches = mismatches + 1 end
            end
          elseif got or gmsg ~= msg then
            mismatches = mismatches + 1
          end
        end}))
      reqs[i] = entry
    end
    local ticks, over = 0, 0
    while sched:stats().pending > 0 and ticks < 100000 do
      local tick = sched:step{max_expansions = 30}
      if tick.expansions > 31 then over = over + 1 end
      ticks = ticks + 1
    end
    assert.equal(80, done)
    assert.equal(0, mismatches)
    assert.equal(0, over)
    assert.is_true(ticks > 10)
    -- one search per mesh: delivery in (priority, submission) order per mesh
    local bad = 0
    for _, e in ipairs(reqs) do
      for _, f in ipairs(reqs) do
        if e.mesh == f.mesh and e ~= f and (e.prio > f.prio or (e.prio == f.prio and e.i < f.i))
            and e.rank > f.rank then
          bad = bad + 1
        end
      end
    end
    assert.equal(0, bad)
    local info = reqs[1].req:info()
    assert.equal(1, info.agent)
    assert.equal(0, info.restarts)
    assert.is_true(info.done)
    assert.is_nil(info.profile)
    local p = reqs[1].req:path()
    if p then assert.equal(#p, info.path_length) end
    assert.same({nil, "none"}, {reqs[1].req:partial_path()})
    sched:free()
  end)

  it("runs grid and mesh requests in one scheduler within the budget", function()
    local m = mesh_of("2d/arena.nav")
    local g = lodestar.grid.new(40, 30)
    for y = 0, 29 do -- cells are 0-based
      if y ~= 15 then g:set_blocked(20, y, true) end
    end
    local sched = lodestar.scheduler.new{deterministic = true}
    sched:add_grid(g)
    sched:add_mesh(m)
    local grid_reqs, mesh_reqs, ends = {}, {}, {}
    for i = 1, 20 do
      ends[i] = {rnd(10), rnd(30), 30 + rnd(10), rnd(30)}
      grid_reqs[i] = sched:request{grid = g, from = {ends[i][1], ends[i][2]},
                                   to = {ends[i][3], ends[i][4]}}
      mesh_reqs[i] = sched:request{mesh = m, from = rand_point(m), to = rand_point(m),
                                   algorithm = i % 2 == 0 and "optimal" or "funnel"}
    end
    local over = 0
    for _ = 1, 100000 do
      if sched:stats().pending == 0 then break end
      local tick = sched:step{max_expansions = 50}
      if tick.expansions > 51 then over = over + 1 end
    end
    assert.equal(0, over)
    for i = 1, 20 do
      assert.equal("found", grid_reqs[i]:status())
      local e = ends[i]
      assert.equal(lodestar.find_path(g, e[1], e[2], e[3], e[4]).cost, grid_reqs[i]:path().cost)
      local s = mesh_reqs[i]:status()
      assert.is_true(s == "found" or s == "no_path")
    end
    sched:free()
  end)

  it("refuses bad options naming opts.<key> and the value", function()
    local m = mesh_of("2d/arena.nav")
    local other = mesh_of("2d/arena.nav")
    local sched = lodestar.scheduler.new()
    sched:add_mesh(m)
    local a, b = rand_point(m), rand_point(m)
    local function err(opts) return select(2, pcall(sched.request, sched, opts)) end
    assert.matches("opts.from: y must be a finite number %(got nan%)",
                   err{mesh = m, from = {1, 0 / 0, 1}, to = b})
    assert.matches("opts.to: required", err{mesh = m, from = a})
    assert.matches("opts.to: point {x, y, z} expected, got string", err{mesh = m, from = a, to = "x"})
    assert.matches("opts.algorithm: unknown algorithm 'fast' %(expected funnel, optimal%)",
                   err{mesh = m, from = a, to = b, algorithm = "fast"})
    assert.matches("opts.area_costs: area 1: cost %-1 out of range",
                   err{mesh = m, from = a, to = b, area_costs = {[1] = -1}})
    assert.matches("opts.snap_radius: %-2 out of range",
                   err{mesh = m, from = a, to = b, snap_radius = -2})
    assert.matches("opts.profile: not with opts.mesh", err{mesh = m, from = a, to = b, profile = "x"})
    assert.matches("opts.watch: not with opts.mesh", err{mesh = m, from = a, to = b, watch = {}})
    assert.matches("unknown option 'colour'", err{mesh = m, from = a, to = b, colour = 1})
    assert.matches("opts.mesh: this mesh was not added", err{mesh = other, from = a, to = b})
    assert.matches("opts.mesh: lodestar.Navmesh expected", err{mesh = 3, from = a, to = b})
    assert.matches("opts.priority: 2000000 out of range",
                   err{mesh = m, from = a, to = b, priority = 2000000})
    assert.matches("mesh already added", select(2, pcall(sched.add_mesh, sched, m)))
    assert.equal(0, sched:stats().pending)
    -- off the mesh: only that request fails, in the tick
    local bad = sched:request{mesh = m, from = {1e6, 0, 1e6}, to = b}
    local good = sched:request{mesh = m, from = a, to = b}
    sched:step()
    assert.equal("arg", bad:status())
    local p, msg, status = bad:path()
    assert.is_nil(p)
    assert.matches("start %(1e%+06, 0, 1e%+06%) is not on the mesh", msg)
    assert.equal("arg", status)
    assert.matches("not on the mesh", bad:info().error)
    assert.is_true(good:status() == "found" or good:status() == "no_path")
    assert.has_error(function() good:set_options{} end,
      "lodestar.Request: set_options: not for a mesh request (its options are fixed at sched:request)")
    sched:free()
  end)

  it("cancels, releases, removes a mesh and outlives mesh:free()", function()
    local m = mesh_of("2d/arena.nav")
    local sched = lodestar.scheduler.new{deterministic = true}
    sched:add_mesh(m, 1)
    local calls = 0
    local rs = {}
    for i = 1, 6 do
      rs[i] = sched:request{mesh = m, from = rand_point(m), to = rand_point(m),
                            on_done = function() calls = calls + 1 end}
    end
    assert.is_true(rs[2]:cancel())
    assert.equal("cancelled", rs[2]:status())
    m:free() -- the scheduler still uses the core mesh
    assert.has_error(function() m:poly_count() end)
    sched:step()
    assert.equal(5, calls)
    local p = rs[1]:path()
    assert.is_true(p == nil or p.length >= 0)
    rs[1]:release()
    assert.has_error(function() rs[1]:status() end, "attempt to use a released lodestar.Request")
    -- pending requests of a removed mesh end with "state"
    local m2 = mesh_of("2d/arena.nav")
    sched:add_mesh(m2)
    local late = sched:request{mesh = m2, from = rand_point(m2), to = rand_point(m2),
                               on_done = function() calls = calls + 1 end}
    sched:remove_mesh(m2)
    assert.equal(6, calls)
    assert.equal("state", late:status())
    assert.matches("mesh was removed", late:errmsg())
    assert.matches("was not added", select(2, pcall(sched.remove_mesh, sched, m2)))
    sched:free()
    collectgarbage()
  end)
end)
