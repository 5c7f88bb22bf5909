-- SPDX-License-Identifier: MIT
-- The mod manager (scripts/lodestar/mods.lua): loading, dependency order,
-- sandbox, hot reload, CPU guard. Each test builds its mods in a temporary
-- directory and deletes it afterwards.
local lodestar = require "lodestar"
local mods = require "lodestar.mods"
local testing = require "lodestar.testing"
local sandbox_dir = testing.mods_dir




local function results(events)
  local out = {}
  for i, e in ipairs(events) do out[i] = e.mod .. ":" .. e.result end
  return out
end

local TERRAIN = [[
return {
  name = "terrain", version = "1.0.0",
  layers = { swamp = function(x, y, t) if t == "S" then return %d end return 0 end },
  profiles = { walker = { weights = { swamp = 1 } } },
}
]]

describe("lodestar.mods", function()
  local dir, grid, logs, m

  local function new_manager(opts)
    opts = opts or {}
    opts.root = dir.root
    opts.grids = opts.grids or {world = grid}
    opts.log = function(_, entry) logs[#logs + 1] = entry end
    -- a fixed clock: no call here may trip the time limit on a loaded machine
    opts.clock = opts.clock or function() return 0 end
    m = mods.new(opts)
    return m
  end

  before_each(function()
    dir = sandbox_dir()
    grid = lodestar.grid.from_ascii("S...\n.S..\n")
    logs = {}
  end)

  after_each(function()
    if m then m:close() end
    m = nil
    dir.close()
  end)

  it("loads a mod and bakes its layer under a namespaced name", function()
    dir.write("terrain/mod.lua", TERRAIN:format(5))
    new_manager()
    local ev = m:poll()
    assert.same({"terrain:loaded"}, results(ev))
    assert.same({"terrain.swamp"}, ev[1].changes.layers)
    assert.same({"terrain.swamp"}, grid:layer_list())
    assert.equal(5, grid:layer_get("terrain.swamp", 0, 0))
    assert.equal(0, grid:layer_get("terrain.swamp", 1, 0))
    assert.same({weights = {["terrain.swamp"] = 1}}, m:profile("terrain.walker"))
    assert.same({}, m:poll()) -- nothing changed
    assert.same({}, logs)
  end)

  it("picks up a change and reports the changed layers and profiles", function()
    dir.write("terrain/mod.lua", TERRAIN:format(5))
    new_manager()
    m:poll()
    dir.write("terrain/mod.lua", TERRAIN:format(7)) -- same size: found by content
    local ev = m:poll()
    assert.same({"terrain:reloaded"}, results(ev))
    assert.same({"terrain.swamp"}, ev[1].changes.layers)
    assert.same({"terrain.walker"}, ev[1].changes.profiles)
    assert.equal(7, grid:layer_get("terrain.swamp", 1, 1))
    assert.is_true(mods.affected(ev, "terrain.walker"))
    assert.is_true(mods.affected(ev, {weights = {["terrain.swamp"] = 0.5}}))
    assert.is_false(mods.affected(ev, {weights = {["terrain.swamp"] = 0, other = 1}}))
    assert.is_false(mods.affected(ev, "danger.cautious"))
    assert.matches("^terrain 1.0.0 reloaded in [%d.]+ ms %(layers terrain.swamp%)$", ev[1].text)
  end)

  it("picks up a change in a required file", function()
    dir.write("terrain/mod.lua", [[
      local r = require "rules.swamp"
      return { name = "terrain", version = "1", layers = { swamp = r } }]])
    dir.write("terrain/rules/swamp.lua", "return function() return 1 end\n")
    new_manager()
    m:poll()
    assert.equal(1, grid:layer_get("terrain.swamp", 3, 1))
    dir.write("terrain/rules/swamp.lua", "return function() return 2.5 end\n")
    assert.same({"terrain:reloaded"}, results(m:poll()))
    assert.equal(2.5, grid:layer_get("terrain.swamp", 3, 1))
    -- an error in the required file names that file and line
    dir.write("terrain/rules/swamp.lua", "local t = {}\nreturn function(x) return t.x.y end\n")
    local ev = m:poll()
    assert.same({"terrain:failed"}, results(ev))
    assert.equal(dir.root .. "/terrain/rules/swamp.lua", ev[1].error.file)
    assert.equal(2, ev[1].error.line)
    assert.matches("attempt to index", ev[1].error.message, 1, true)
    assert.equal(2.5, grid:layer_get("terrain.swamp", 3, 1))
  end)

  it("a syntax error keeps the old version and logs file and line", function()
    dir.write("terrain/mod.lua", TERRAIN:format(5))
    new_manager()
    m:poll()
    dir.write("terrain/mod.lua", "return {\n  name = 'terrain',\n  version = = 2,\n}\n")
    local ev = m:poll()
    assert.same({"terrain:failed"}, results(ev))
    local e = ev[1].error
    assert.equal("terrain", e.mod)
    assert.equal(dir.root .. "/terrain/mod.lua", e.file)
    assert.equal(3, e.line)
    assert.matches("unexpected symbol near '='", e.message, 1, true)
    assert.equal(e, logs[1])
    assert.equal(5, grid:layer_get("terrain.swamp", 0, 0)) -- old layer in place
    assert.same({weights = {["terrain.swamp"] = 1}}, m:profile("terrain.walker"))
    assert.equal("running", m:list()[1].status)
    assert.same({}, m:poll()) -- the broken version is not retried until it changes
    dir.write("terrain/mod.lua", TERRAIN:format(9))
    assert.same({"terrain:reloaded"}, results(m:poll()))
    assert.equal(9, grid:layer_get("terrain.swamp", 0, 0))
  end)

  it("a failing selftest keeps the old version", function()
    dir.write("terrain/mod.lua", TERRAIN:format(5))
    new_manager()
    m:poll()
    dir.write("terrain/mod.lua", [[
return {
  name = "terrain", version = "2",
  layers = { swamp = function() return 100 end },
  selftest = function()
    return false, "swamp must cost less than 50"
  end,
}]])
    local ev = m:poll()
    assert.same({"terrain:failed"}, results(ev))
    assert.equal(dir.root .. "/terrain/mod.lua:4: selftest failed: swamp must cost less than 50", ev[1].error.text)
    -- the event names the version that keeps running, not as if it had failed
    assert.matches("^terrain failed in [%d.]+ ms %(version 1%.0%.0 keeps running%): ", ev[1].text)
    assert.equal(5, grid:layer_get("terrain.swamp", 0, 0))
    -- a selftest that raises
    dir.write("terrain/mod.lua", [[
return {
  name = "terrain", version = "3",
  layers = { swamp = function() return 100 end },
  selftest = function() assert(1 == 2, "arithmetic is broken") end,
}]])
    ev = m:poll()
    assert.equal(dir.root .. "/terrain/mod.lua:4: arithmetic is broken", ev[1].error.text)
    assert.equal(5, grid:layer_get("terrain.swamp", 0, 0))
    assert.equal("1.0.0", m:list()[1].version)
  end)

  it("an error inside a rule at bake time keeps the old layer", function()
    dir.write("terrain/mod.lua", [[
return {
  name = "terrain", version = "1",
  layers = {
    a = function() return 1 end,
    swamp = function(x, y) return x end,
  },
}]])
    local other = lodestar.grid.new(3, 3)
    new_manager{grids = {world = grid, other = other}}
    m:poll()
    dir.write("terrain/mod.lua", [[
return {
  name = "terrain", version = "2",
  layers = {
    a = function() return 2 end,
    swamp = function(x, y)
      if y == 1 then error("no swamp on row 1") end
      return 10 + x
    end,
  },
}]])
    local ev = m:poll()
    assert.same({"terrain:failed"}, results(ev))
    assert.equal(dir.root .. "/terrain/mod.lua:6: no swamp on row 1 (bake: rule for layer "
      .. "'terrain.swamp' at (0,1))", ev[1].error.text)
    -- every layer of the mod is as before, on every grid (a was re-baked with
    -- the new rule, then restored with the old one)
    for _, g in ipairs{grid, other} do
      assert.equal(1, g:layer_get("terrain.a", 0, 0))
      assert.equal(2, g:layer_get("terrain.swamp", 2, 0))
      assert.equal(0, g:layer_get("terrain.swamp", 0, 1))
    end
    assert.equal("1", m:list()[1].version)
  end)

  it("a first load whose bake fails leaves no layer behind", function()
    dir.write("terrain/mod.lua", [[
return { name = "terrain", version = "1",
  layers = { a = function() return 1 end, b = function() return 0 / 0 end } }]])
    new_manager()
    local ev = m:poll()
    assert.same({"terrain:failed"}, results(ev))
    assert.matches("bake: rule for layer 'terrain.b' returned nan at (0,0)", ev[1].error.message, 1, true)
    assert.same({}, grid:layer_list())
    assert.same({}, m:list())
  end)

  it("mod.state survives reloads", function()
    local src = [[
mod.state.loads = (mod.state.loads or 0) + 1
return { name = "counter", version = "%s",
  layers = { loads = function() return mod.state.loads end } }]]
    dir.write("counter/mod.lua", src:format("1"))
    new_manager()
    m:poll()
    assert.equal(1, grid:layer_get("counter.loads", 0, 0))
    dir.write("counter/mod.lua", src:format("2"))
    m:poll()
    dir.write("counter/mod.lua", src:format("3"))
    m:poll()
    assert.equal(3, m:state("counter").loads)
    assert.equal(3, grid:layer_get("counter.loads", 0, 0))
  end)

  it("removing a mod removes its layers; mods depending on it are unloaded", function()
    dir.write("terrain/mod.lua", TERRAIN:format(5))
    dir.write("danger/mod.lua", [[
return { name = "danger", version = "1", depends = {"terrain"},
  layers = { danger = function() return 1 end },
  profiles = { cautious = { weights = { danger = 2, ["terrain.swamp"] = 1 } } } }]])
    dir.write("roads/mod.lua", [[return { name = "roads", version = "1",
      layers = { road = function() return -0.5 end } }]])
    new_manager()
    m:poll()
    assert.same({}, logs)
    assert.same({"danger.danger", "roads.road", "terrain.swamp"}, (function()
      local l = grid:layer_list(); table.sort(l); return l end)())
    dir.remove("terrain")
    local ev = m:poll()
    assert.same({"terrain:removed", "danger:unloaded"}, results(ev))
    assert.matches("mod 'danger' depends on 'terrain', which is not installed", ev[2].error.text, 1, true)
    assert.same({"terrain.swamp"}, ev[1].changes.layers)
    assert.same({"danger.cautious", "terrain.walker"}, ev[1].changes.profiles)
    assert.same({"roads.road"}, grid:layer_list())
    assert.is_nil(m:profile("danger.cautious"))
    -- terrain comes back: danger loads again
    dir.write("terrain/mod.lua", TERRAIN:format(5))
    assert.same({"terrain:loaded", "danger:loaded"}, results(m:poll()))
  end)

  it("warns when a dependency drops a layer a dependent weights", function()
    dir.write("terrain/mod.lua", TERRAIN:format(5))
    dir.write("danger/mod.lua", [[
return { name = "danger", version = "1", depends = {"terrain"},
  profiles = { cautious = { weights = { ["terrain.swamp"] = 1 } } } }]])
    new_manager()
    m:poll()
    dir.write("terrain/mod.lua", 'return { name = "terrain", version = "2" }')
    local ev = m:poll()
    assert.same({"terrain:reloaded"}, results(ev))
    assert.same({"danger.cautious", "terrain.walker"}, ev[1].changes.profiles)
    assert.equal("warn", logs[1].level)
    assert.equal(dir.root .. "/danger/mod.lua:2: manifest: profile 'cautious' weights layer 'terrain.swamp', "
      .. "which mod 'terrain' does not define", logs[1].text)
  end)

  it("loads in dependency order, ties by name", function()
    local function mod(name, deps)
      dir.write(name .. "/mod.lua", ([[
mod.state.seq = mod.state.seq
return { name = %q, version = "1", depends = {%s} }]]):format(name, deps))
    end
    mod("a", '"d"')
    mod("b", "")
    mod("c", '"a", "b"')
    mod("d", '"b"')
    mod("e", "")
    new_manager()
    assert.same({"b:loaded", "d:loaded", "a:loaded", "c:loaded", "e:loaded"}, results(m:poll()))
    local order = {}
    for i, r in ipairs(m:list()) do order[i] = r.name end
    assert.same({"b", "d", "a", "c", "e"}, order)
  end)

  it("a dependency cycle and a missing dependency are errors naming both mods", function()
    dir.write("a/mod.lua", 'return { name = "a", version = "1", depends = {"b"} }')
    dir.write("b/mod.lua", 'return { name = "b", version = "1", depends = {"a"} }')
    dir.write("c/mod.lua", 'return { name = "c", version = "1", depends = {"nothere"} }')
    dir.write("d/mod.lua", 'return { name = "d", version = "1" }')
    new_manager()
    local ev = m:poll()
    assert.same({"a:failed", "b:failed", "c:failed", "d:loaded"}, results(ev))
    assert.equal(dir.root .. "/a/mod.lua: dependency cycle: a -> b -> a", ev[1].error.text)
    assert.equal(dir.root .. "/b/mod.lua: dependency cycle: a -> b -> a", ev[2].error.text)
    assert.equal(dir.root .. "/c/mod.lua: mod 'c' depends on 'nothere', which is not installed (or failed to load)",
      ev[3].error.text)
    assert.equal(3, #logs)
  end)

  it("validates the manifest with file and line", function()
    new_manager()
    local function err_of(src)
      dir.write("x/mod.lua", src)
      local ev = m:poll()
      assert.equal(1, #ev)
      return ev[1].error.text
    end
    local f = dir.root .. "/x/mod.lua"
    assert.equal(f .. ":1: manifest: mod.lua must return a table (the manifest), got nil", err_of("local x = 1"))
    assert.equal(f .. ":2: manifest: 'name' is 'y' but the folder is 'x' (they must match)",
      err_of('return {\n name = "y", version = "1" }'))
    assert.equal(f .. ":3: manifest: unknown field 'layer' (expected one of depends, description, heuristics, "
      .. "layers, name, on, postprocessors, profiles, selftest, version)",
      err_of('return { name = "x", version = "1",\n\n layer = {} }'))
    assert.equal(f .. ":2: manifest: layer name \"Swamp\" in 'layers' must match [a-z][a-z0-9_]* "
      .. "(it is namespaced as 'x.NAME')",
      err_of('return { name = "x", version = "1",\n layers = { Swamp = function() end } }'))
    assert.equal(f .. ":3: manifest: profile 'p' weights layer 'terrain.swamp' of mod 'terrain', which is not "
      .. "in 'depends'",
      err_of('return { name = "x", version = "1",\n profiles = {\n p = { weights = {["terrain.swamp"] = 1} } } }'))
    assert.equal(f .. ":2: manifest: profile 'p': opts.algorithm: unknown algorithm 'bfs' (expected "
      .. table.concat(lodestar.algorithms, ", ") .. ")",
      err_of('return { name = "x", version = "1", profiles = {\n p = { algorithm = "bfs" } } }'))
    assert.equal(f .. ":1: manifest: 'version' must be a non-empty string like \"1.0.0\", got number",
      err_of('return { name = "x", version = 1 }'))
  end)

  describe("sandbox", function()
    local function load_err(body)
      dir.write("s/mod.lua", body .. '\nreturn { name = "s", version = "1" }')
      local ev = m:poll()
      assert.equal(1, #ev)
      assert.equal("failed", ev[1].result)
      return ev[1].error.text
    end

    it("refuses os.execute, io, debug and bytecode", function()
      new_manager()
      local f = dir.root .. "/s/mod.lua"
      -- the engines word it differently: "attempt to call a nil value (field
      -- 'execute')" on 5.4, "attempt to call field 'execute' (a nil value)" on LuaJIT
      local function nil_use(text, what)
        assert.equal(f .. ":1: ", text:sub(1, #f + 4))
        assert.matches("attempt to %a+ .*" .. what, text)
        assert.matches("nil value", text, 1, true)
      end
      nil_use(load_err('os.execute("touch /tmp/pwned")'), "'execute'")
      nil_use(load_err('io.open("/etc/passwd")'), "'io'")
      nil_use(load_err('debug.sethook()'), "'debug'")
      nil_use(load_err('string.dump(print)'), "'dump'")
      assert.matches("load: mode 'b' refused", load_err('assert(load("return 1", "x", "b"))'), 1, true)
      assert.matches("attempt to load a binary chunk", load_err('assert(load("\\27Lua"))'), 1, true)
      assert.matches("attempt to modify read-only field 'find_path'",
        load_err('lodestar.find_path = nil'), 1, true)
      assert.matches("attempt to modify read-only field 'new'", load_err('lodestar.grid.new = nil'), 1, true)
      -- shared metatables are out of reach
      assert.matches(":1: attempt to index", load_err('getmetatable("").__index.rep = nil'), 1, true)
      assert.is_function(string.rep) -- the host's string library is intact
      assert.is_not_nil(lodestar.find_path)
    end)

    it("refuses finalizers, and post-processors get a view, not the grid", function()
      new_manager()
      assert.matches("setmetatable: __gc is not allowed in a mod",
        load_err('setmetatable({}, {__gc = function() while true do end end})'), 1, true)
      dir.remove("s")
      dir.write("p/mod.lua", [[
return { name = "p", version = "1", postprocessors = {
  grab = function(path, view)
    mod.state.free = type(view.free)
    mod.state.bake = type(view.bake)
    mod.state.w = view.width()
    return view.prune_los(path)
  end } }]])
      m:poll()
      local path = lodestar.find_path(grid, 0, 0, 3, 0)
      local out = m:postprocess("p.grab", path, grid)
      assert.equal(2, #out) -- pruned to its ends
      assert.equal(4, m:state("p").w)
      assert.equal("nil", m:state("p").free) -- no grid methods on a view
      assert.equal("nil", m:state("p").bake)
      assert.equal(4, (grid:size())) -- the grid is alive and well
    end)

    it("require resolves only inside the mod's folder", function()
      dir.write("x.lua", "return 1")
      dir.write("other/secret.lua", "return 1")
      new_manager()
      assert.matches("require '../x': refused (a mod may only require files inside its folder",
        load_err('require "../x"'), 1, true)
      assert.matches("require '/etc/passwd': refused", load_err('require "/etc/passwd"'), 1, true)
      assert.matches("require '..other.secret': refused", load_err('require "..other.secret"'), 1, true)
      assert.matches("require 'lfs': no file '" .. dir.root .. "/s/lfs.lua'", load_err('require "lfs"'), 1, true)
      assert.matches("require 'os': no file", load_err('require "os"'), 1, true)
    end)

    it("a trusted mod gets the standard library", function()
      dir.write("t/mod.lua", [[
local f = io.open(mod.dir .. "/mod.lua")
mod.state.first = f:read("*l")
f:close()
mod.state.lfs = require("lfs") ~= nil
return { name = "t", version = "1" }]])
      new_manager{trusted = {t = true}}
      assert.same({"t:loaded"}, results(m:poll()))
      assert.equal("local f = io.open(mod.dir .. \"/mod.lua\")", m:state("t").first)
      assert.is_true(m:state("t").lfs)
    end)

    it("two mods cannot collide: same layer names live in their namespaces", function()
      dir.write("a/mod.lua", 'return { name = "a", version = "1", layers = { swamp = function() return 1 end } }')
      dir.write("b/mod.lua", 'return { name = "b", version = "1", layers = { swamp = function() return 2 end } }')
      new_manager()
      m:poll()
      assert.equal(1, grid:layer_get("a.swamp", 0, 0))
      assert.equal(2, grid:layer_get("b.swamp", 0, 0))
    end)

    it("mods do not see each other's globals", function()
      dir.write("a/mod.lua", 'shared = 42\nreturn { name = "a", version = "1" }')
      dir.write("b/mod.lua", 'mod.state.saw = tostring(shared)\nreturn { name = "b", version = "1" }')
      new_manager()
      m:poll()
      assert.equal("nil", m:state("b").saw)
      assert.is_nil(rawget(_G, "shared"))
    end)
  end)

  describe("CPU guard", function()
    local LIMIT = 100000

    it("stops a runaway loop in mod.lua within the instruction limit", function()
      dir.write("spin/mod.lua", [[
mod.state.n = 0
while true do mod.state.n = mod.state.n + 1 end
return { name = "spin", version = "1" }]])
      new_manager{instruction_limit = LIMIT, cell_limit = 0}
      local ev = m:poll()
      assert.same({"spin:failed"}, results(ev))
      assert.equal(dir.root .. "/spin/mod.lua:2: instruction limit exceeded (100000 instructions)",
        ev[1].error.text)
      local n = m:state("spin").n
      assert.is_true(n <= LIMIT, "loop ran " .. n .. " iterations")
      assert.is_true(n >= LIMIT / 20, "stopped too early: " .. n)
    end)

    it("pcall and coroutines inside the mod cannot escape it", function()
      dir.write("spin/mod.lua", [[
mod.state.tries = 0
while true do
  mod.state.tries = mod.state.tries + 1
  pcall(function() while true do end end)
end
return { name = "spin", version = "1" }]])
      new_manager{instruction_limit = LIMIT, cell_limit = 0}
      local ev = m:poll()
      assert.matches("instruction limit exceeded (100000 instructions)", ev[1].error.text, 1, true)
      assert.equal(1, m:state("spin").tries)
      dir.write("spin/mod.lua", [[
local co = coroutine.wrap(function() while true do end end)
co()
return { name = "spin", version = "1" }]])
      ev = m:poll()
      assert.matches("instruction limit exceeded (100000 instructions)", ev[1].error.text, 1, true)
    end)

    it("a runaway rule at reload keeps the old version", function()
      dir.write("terrain/mod.lua", TERRAIN:format(5))
      new_manager{instruction_limit = LIMIT, cell_limit = 0}
      m:poll()
      dir.write("terrain/mod.lua", [[
return { name = "terrain", version = "2",
  layers = { swamp = function(x, y)
    while true do end
  end } }]])
      local ev = m:poll()
      assert.same({"terrain:failed"}, results(ev))
      assert.equal(dir.root .. "/terrain/mod.lua:3: instruction limit exceeded (100000 instructions)"
        .. " (bake: rule for layer 'terrain.swamp' at (0,0))", ev[1].error.text)
      assert.equal(5, grid:layer_get("terrain.swamp", 0, 0))
    end)

    it("a bake gets cell_limit more instructions per cell", function()
      dir.write("busy/mod.lua", [[
return { name = "busy", version = "1",
  layers = { b = function(x, y)
    local s = 0
    for i = 1, 300 do s = s + i end -- about 600 instructions a cell
    return s
  end } }]])
      local big = lodestar.grid.new(20, 20) -- 400 cells: ~240000 instructions
      new_manager{instruction_limit = LIMIT, cell_limit = 1000, grids = {big = big}}
      assert.same({"busy:loaded"}, results(m:poll()))
      assert.equal(45150, big:layer_get("busy.b", 19, 19))
      m:close()
      new_manager{instruction_limit = LIMIT, cell_limit = 0, grids = {big = lodestar.grid.new(20, 20)}}
      local ev = m:poll()
      assert.same({"busy:failed"}, results(ev))
      assert.matches("instruction limit exceeded (100000 instructions)", ev[1].error.text, 1, true)
    end)

    it("a runaway event handler disables its mod", function()
      dir.write("loop/mod.lua", [[
return { name = "loop", version = "1",
  on = { tick = function(n)
    mod.state.ticks = (mod.state.ticks or 0) + 1
    if n > 1 then while true do end end
  end } }]])
      new_manager{instruction_limit = LIMIT, cell_limit = 0}
      m:poll()
      assert.same({}, m:emit("tick", 1))
      local ev = m:emit("tick", 2)
      assert.same({"loop:disabled"}, results(ev))
      assert.equal(dir.root .. "/loop/mod.lua:4: instruction limit exceeded (100000 instructions)"
        .. "; mod disabled until its files change", ev[1].error.text)
      assert.matches("mod disabled until its files change", ev[1].error.text, 1, true)
      assert.same({}, m:poll()) -- reported once
      assert.same({}, m:emit("tick", 1)) -- not called any more
      assert.equal(2, m:state("loop").ticks)
      assert.equal("disabled", m:list()[1].status)
    end)

    it("a runaway post-processor disables its mod; the game goes on", function()
      dir.write("pp/mod.lua", [[
return { name = "pp", version = "1",
  layers = { l = function() return 3 end },
  postprocessors = {
    spin = function(path) while true do end end,
    keep = function(path) return path end,
  } }]])
      dir.write("ok/mod.lua", [[
return { name = "ok", version = "1", postprocessors = { count = function(path) return #path end } }]])
      new_manager{instruction_limit = LIMIT, cell_limit = 0}
      m:poll()
      local path = lodestar.find_path(grid, 0, 0, 3, 1)
      local out, err = m:postprocess("pp.spin", path, grid)
      assert.equal(path, out)
      assert.equal(dir.root .. "/pp/mod.lua:4: instruction limit exceeded (100000 instructions)", err)
      assert.equal("disabled", m:list()[2].status)
      local dis = m:poll() -- the disable is reported once
      assert.same({"pp:disabled"}, results(dis))
      assert.matches("mod disabled until its files change", dis[1].error.text, 1, true)
      local _, err2 = m:postprocess("pp.keep", path)
      assert.equal("mod 'pp' is disabled", err2)
      assert.equal(3, grid:layer_get("pp.l", 0, 0)) -- its layer keeps its last values
      assert.equal(#path, m:postprocess("ok.count", path)) -- other mods go on
      -- fixing the file brings it back
      dir.write("pp/mod.lua", [[
return { name = "pp", version = "2",
  layers = { l = function() return 4 end },
  postprocessors = { spin = function(path) return "fixed" end } }]])
      assert.same({"pp:reloaded"}, results(m:poll()))
      assert.equal("fixed", m:postprocess("pp.spin", path))
      assert.equal(4, grid:layer_get("pp.l", 0, 0))
    end)
  end)

  describe("host calls", function()
    it("emit runs event handlers and re-bakes the layers they ask for", function()
      dir.write("heat/mod.lua", [[
mod.state.heat = mod.state.heat or {}
return { name = "heat", version = "1",
  layers = { heat = function(x, y) return mod.state.heat[y * 100 + x] or 0 end },
  profiles = { avoid = { weights = { heat = 1 } } },
  on = {
    agents = function(positions)
      for _, p in ipairs(positions) do
        local k = p.y * 100 + p.x
        mod.state.heat[k] = (mod.state.heat[k] or 0) + 1
      end
      mod.rebake("heat")
    end,
  } }]])
      new_manager()
      m:poll()
      local ev = m:emit("agents", {{x = 1, y = 0}, {x = 1, y = 0}, {x = 2, y = 1}})
      assert.same({"heat:rebaked"}, results(ev))
      assert.same({"heat.heat"}, ev[1].changes.layers)
      assert.same({"heat.avoid"}, ev[1].changes.profiles)
      assert.equal(2, grid:layer_get("heat.heat", 1, 0))
      assert.equal(1, grid:layer_get("heat.heat", 2, 1))
      assert.same({}, m:emit("nobody_listens"))
    end)

    it("add_grid bakes the running mods' layers; remove_grid removes them", function()
      dir.write("terrain/mod.lua", TERRAIN:format(5))
      new_manager()
      m:poll()
      local g2 = lodestar.grid.from_ascii("..S\n")
      assert.same({}, m:add_grid("second", g2))
      assert.equal(5, g2:layer_get("terrain.swamp", 2, 0))
      m:remove_grid("second")
      assert.same({}, g2:layer_list())
    end)

    it("a make(view) rule factory sees the grid read-only", function()
      dir.write("v/mod.lua", [[
return { name = "v", version = "1",
  layers = { edge = { make = function(view)
    local w, h = view.size()
    mod.state.tried = pcall(function() view.free = nil end)
    return function(x, y) return (x == w - 1) and 1 or 0 end
  end } } }]])
      new_manager()
      m:poll()
      assert.equal(1, grid:layer_get("v.edge", 3, 0))
      assert.equal(0, grid:layer_get("v.edge", 2, 0))
      assert.is_false(m:state("v").tried)
    end)

    it("heuristics run guarded", function()
      dir.write("h/mod.lua", [[
return { name = "h", version = "1",
  heuristics = { manhattan = function(ax, ay, bx, by) return math.abs(ax - bx) + math.abs(ay - by) end } }]])
      new_manager()
      m:poll()
      local h = m:heuristic("h.manhattan")
      assert.equal(7, h(0, 0, 3, 4))
      assert.same({nil, "no heuristic 'h.nope'"}, {m:heuristic("h.nope")})
      assert.has_error(function() m:profile("nodot") end,
        "bad argument #1 to 'profile' (expected a qualified name 'mod.name', got 'nodot')")
    end)
  end)
end)
