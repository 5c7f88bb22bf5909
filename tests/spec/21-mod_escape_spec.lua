-- SPDX-License-Identifier: MIT
-- The mod escape suite: one attacking mod per attempt to reach the host's
-- files, its grid, its tables or another mod (docs/mods.md, "What a mod
-- sees"). Each attempt must fail cleanly, and after it the host's grid, its
-- tables and a bystander mod ("good") must be exactly as before.
local lodestar = require "lodestar"
local mods = require "lodestar.mods"
local lfs = require "lfs"
local testing = require "lodestar.testing"
local sandbox_dir = testing.mods_dir

-- the host's own functions, taken before any mod runs
local HOST = {
  string = string, rep = string.rep, dump = string.dump, format = string.format,
  smt_index = getmetatable("").__index, concat = table.concat, floor = math.floor,
  grid_load = lodestar.grid.load, load_dimacs = lodestar.graph.load_dimacs,
  find_path = lodestar.find_path, grid_new = lodestar.grid.new, algo1 = lodestar.algorithms[1],
  nalgo = #lodestar.algorithms,
}




-- The bystander: a layer baked from its view, a profile, and a
-- post-processor reporting what it sees of its view, its lodestar table and
-- its standard library.
local GOOD = [[
return { name = "good", version = "1",
  layers = { swamp = { make = function(view)
    local t = view.terrain
    return function(x, y) return t(x, y) == "S" and 3 or 0 end
  end } },
  profiles = { walker = { weights = { swamp = 1 } } },
  postprocessors = { probe = function(path, view)
    local w, h = view.size()
    local pts = lodestar.smooth.catmull_rom(path, { grid = view, samples = 2 })
    return { w = w, h = h, name = view.name, t00 = view.terrain(0, 0), t11 = view.terrain(1, 1),
      blocked = view.get_blocked(0, 0), los = view.line_of_sight(0, 0, 3, 0),
      pruned = #view.prune_los(path), layer = view.layer_get("good.swamp", 0, 0),
      smooth = #pts, find = type(lodestar.find_path), new = type(lodestar.grid.new),
      algo1 = lodestar.algorithms[1], nalgo = #lodestar.algorithms,
      rep = ("x"):rep(2), srep = string.rep("y", 2), fmt = ("%d"):format(7),
      concat = table.concat({"a", "b"}), floor = math.floor(2.5),
      mname = mod.name, grids = #mod.grids(), gv = mod.grids()[1].terrain(1, 1),
      dump = type(("").dump), sdump = type(string.dump), load = type(lodestar.grid.load) }
  end },
}]]

local GOOD_PROBE = {w = 4, h = 2, name = "world", t00 = "S", t11 = "S", blocked = false, los = true,
  pruned = 2, layer = 3, smooth = 7, find = "function", new = "function", algo1 = HOST.algo1, nalgo = HOST.nalgo,
  rep = "xx", srep = "yy", fmt = "7", concat = "ab", floor = 2, mname = "good", grids = 1, gv = "S",
  dump = "nil", sdump = "nil", load = "nil"}

describe("mod escapes", function()
  local dir, grid, logs, m, n, baseline

  local function probe()
    local path = lodestar.find_path(grid, 0, 0, 3, 0)
    local out, err = m:postprocess("good.probe", path, grid)
    assert.is_nil(err)
    return out
  end

  -- The host and the bystander are as they were before the attack.
  local function intact()
    assert.same({4, 2}, {grid:size()})
    assert.equal("S", grid:terrain(0, 0))
    assert.same({"good.swamp"}, grid:layer_list())
    assert.equal(3, grid:layer_get("good.swamp", 1, 1))
    assert.equal(0, grid:layer_get("good.swamp", 2, 0))
    assert.same(baseline, probe())
    assert.same({weights = {["good.swamp"] = 1}}, m:profile("good.walker"))
    assert.equal(HOST.string, string)
    assert.equal(HOST.rep, string.rep)
    assert.equal(HOST.dump, string.dump)
    assert.equal(HOST.smt_index, getmetatable("").__index)
    assert.equal(HOST.dump, ("").dump)
    assert.equal(HOST.concat, table.concat)
    assert.equal(HOST.floor, math.floor)
    assert.equal(HOST.grid_load, lodestar.grid.load)
    assert.equal(HOST.load_dimacs, lodestar.graph.load_dimacs)
    assert.equal(HOST.find_path, lodestar.find_path)
    assert.equal(HOST.grid_new, lodestar.grid.new)
    assert.equal(HOST.algo1, lodestar.algorithms[1])
    assert.equal(HOST.nalgo, #lodestar.algorithms)
    assert.is_nil(debug.gethook())
    assert.equal("running", m:list()[1].status)
  end

  -- Writes the attack as mod evil_N (body + manifest unless the body
  -- returns its own), polls, and returns its name and its event.
  local function attack(body, files)
    n = n + 1
    local name = "evil_" .. n
    if not body:find("\nreturn ", 1, true) and not body:find("^return ") then
      body = body .. ('\nreturn { name = "%s", version = "1" }'):format(name)
    end
    for rel, text in pairs(files or {}) do dir.write(name .. "/" .. rel, text) end
    dir.write(name .. "/mod.lua", (body:gsub("EVIL", name)))
    local evs = m:poll()
    assert.equal(1, #evs)
    assert.equal(name, evs[1].mod)
    return name, evs[1], dir.root .. "/" .. name .. "/mod.lua"
  end

  -- An attack that must fail to load; returns the error text.
  local function refused(body, files)
    local name, ev, file = attack(body, files)
    assert.equal("failed", ev.result)
    assert.is_nil(m:state(name).pwned)
    return ev.error.text, file, name
  end

  before_each(function()
    dir = sandbox_dir()
    grid = lodestar.grid.from_ascii("S...\n.S..\n")
    logs = {}
    n = 0
    dir.write("good/mod.lua", GOOD)
    m = mods.new{root = dir.root, grids = {world = grid}, clock = function() return 0 end, -- no time trips under load
      log = function(_, entry) logs[#logs + 1] = entry end}
    assert.equal("loaded", m:poll()[1].result)
    baseline = probe()
  end)

  after_each(function()
    -- the attackers go; what stays must be the host and the bystander as before
    for e in lfs.dir(dir.root) do
      if e:match("^evil") then dir.remove(e) end
    end
    m:poll()
    intact()
    m:close()
    dir.close()
  end)

  it("the bystander sees its view, its lodestar table and its library, without dump or load", function()
    assert.same(GOOD_PROBE, baseline)
  end)

  describe("files", function()
    it("grid.load, graph.load_dimacs and the other file readers are not there", function()
      local passwd = assert(io.open("/etc/passwd")):read("*l")
      for _, expr in ipairs{
        'lodestar.grid.load("/etc/passwd")',
        'lodestar.graph.load_dimacs("/etc/passwd")',
        'lodestar.grid.load("/dev/stdin")',
        'lodestar.core.grid.load("/etc/passwd")',
        'lodestar.testing.grid("/etc/passwd")',
        'lodestar.mods.new{root = "/"}',
        'io.open("/etc/passwd")',
        'io.lines("/etc/passwd")',
        'dofile("/etc/passwd")',
        'loadfile("/etc/passwd")',
        'package.loadlib("/etc/passwd", "x")',
        'os.getenv("HOME")',
        'os.remove("/tmp/x")',
        'debug.getregistry()',
      } do
        local text, file = refused("mod.state.pwned = " .. expr)
        assert.equal(file .. ":1: ", text:sub(1, #file + 4))
        assert.matches("nil value", text, 1, true)
        assert.not_matches(passwd, text, 1, true)
      end
      -- the package's loaders are not reachable by require either
      local text = refused('mod.state.pwned = require("lodestar")')
      assert.matches("require 'lodestar': no file", text, 1, true)
    end)

    it("a file that is a link out of the mod's folder is never read", function()
      -- mod.lua itself a link to a mod outside the folder
      dir.write("outside.lua", 'mod.state.pwned = true\nreturn { name = "evil_link", version = "1" }')
      dir.mkdir("evil_link")
      assert(lfs.link(dir.root .. "/outside.lua", dir.root .. "/evil_link/mod.lua", true))
      local evs = m:poll()
      assert.equal(1, #evs)
      assert.equal("failed", evs[1].result)
      assert.equal(dir.root .. "/evil_link/mod.lua: refused: mod.lua is a link or not a regular file "
        .. "(a mod loads only regular files inside its folder)", evs[1].error.text)
      assert.is_nil(m:state("evil_link").pwned)
      dir.remove("evil_link")
      os.remove(dir.root .. "/outside.lua")
      m:poll()
      -- a required file that is a link, a folder that is a link, a link cycle
      dir.mkdir("evil_req")
      assert(lfs.link("/etc/passwd", dir.root .. "/evil_req/secret.lua", true))
      assert(lfs.link("/etc", dir.root .. "/evil_req/up", true))
      assert(lfs.link(dir.root .. "/evil_req", dir.root .. "/evil_req/loop", true))
      local function try(body)
        dir.write("evil_req/mod.lua", body .. '\nreturn { name = "evil_req", version = "1" }')
        evs = m:poll()
        assert.equal(1, #evs)
        return evs[1]
      end
      local ev = try('mod.state.pwned = require "secret"')
      assert.equal("failed", ev.result)
      assert.matches("require 'secret': refused ('" .. dir.root .. "/evil_req/secret.lua' is a link "
        .. "or not a regular file; a mod loads only regular files inside its folder)", ev.error.text, 1, true)
      ev = try('mod.state.pwned = require "up.passwd" -- through a folder link')
      assert.equal("failed", ev.result)
      assert.matches("require 'up.passwd': refused", ev.error.text, 1, true)
      ev = try('mod.state.pwned = require "loop.mod"')
      assert.equal("failed", ev.result)
      assert.matches("require 'loop.mod': refused", ev.error.text, 1, true)
      assert.is_nil(m:state("evil_req").pwned)
      -- the scan does not follow the links either (the cycle would not end)
      ev = try('mod.state.ok = true')
      assert.equal("loaded", ev.result)
      assert.is_true(m:state("evil_req").ok)
    end)
  end)

  describe("the host's grid", function()
    it("view.prune_los calls lodestar's own prune_los, never a method of what the mod passes", function()
      local name, ev = attack([[
return { name = "EVIL", version = "1", postprocessors = { steal = function(path, view)
  local fake = { prune_los = function(_, g) mod.state.stolen = g; return path end }
  local pruned = view.prune_los(fake) -- not a tail call: the error names this line
  return pruned
end } }]])
      assert.equal("loaded", ev.result)
      local path = lodestar.find_path(grid, 0, 0, 3, 0)
      local out, err = m:postprocess(name .. ".steal", path, grid)
      assert.equal(path, out)
      assert.equal(dir.root .. "/" .. name .. "/mod.lua:3: bad argument #1 to 'prune_los' "
        .. "(lodestar.Path expected, got table)", err)
      assert.is_nil(m:state(name).stolen)
    end)

    it("no view function calls into a value the mod passes", function()
      local name, ev = attack([[
local caught = {}
mod.state.caught = caught
mod.state.errors = {}
local trap
local function grab(...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if type(v) == "userdata" or (type(v) == "table" and v ~= trap) then caught[#caught + 1] = tostring(v) end
  end
  caught[#caught + 1] = "called"
  return trap
end
local mt = { __index = function() return grab end, __call = grab, __tostring = function() grab() return "t" end,
  __len = grab, __eq = grab, __lt = grab, __le = grab, __concat = grab, __unm = grab, __add = grab,
  __sub = grab, __mul = grab, __div = grab, __mod = grab, __pow = grab, __idiv = grab, __name = "trap" }
trap = setmetatable({}, mt)
local names = { "size", "width", "height", "terrain", "get_cost", "get_blocked", "layer_get",
  "version", "line_of_sight", "prune_los" }
return { name = "EVIL", version = "1", postprocessors = { audit = function(path, view)
  local tried = 0
  for _, fname in ipairs(names) do
    local f = view[fname]
    for pos = 1, 4 do
      local args = { 0, 0, 1, 0 }
      if fname == "layer_get" then args = { "good.swamp", 0, 0, 0 } end
      args[pos] = trap
      local ok, e = pcall(f, table.unpack(args, 1, 4))
      if not ok then mod.state.errors[#mod.state.errors + 1] = tostring(e) end
      tried = tried + 1
    end
  end
  mod.state.tried = tried
  return path
end } }]])
      assert.equal("loaded", ev.result)
      local path = lodestar.find_path(grid, 0, 0, 3, 0)
      assert.equal(path, (m:postprocess(name .. ".audit", path, grid)))
      assert.equal(40, m:state(name).tried)
      assert.same({}, m:state(name).caught)
      -- the C side refused each trap; no message names a host file
      local errors = m:state(name).errors
      assert.equal(17, #errors) -- terrain 2, get_cost 2, get_blocked 2, layer_get 3, line_of_sight 4, prune_los 4
      for _, e in ipairs(errors) do
        assert.matches("bad argument", e, 1, true)
        assert.not_matches("lodestar/[%w_]+%.lua", e)
      end
    end)

    it("a view is the mod's own: rawset on it changes nothing any other mod sees", function()
      local name, ev = attack([[
local function poison(view)
  for _, k in ipairs{ "size", "width", "height", "terrain", "get_cost", "get_blocked", "layer_get",
      "version", "line_of_sight", "prune_los" } do
    rawset(view, k, function() return "X" end)
  end
  rawset(view, "name", "hacked")
end
for _, v in ipairs(mod.grids()) do poison(v) end
return { name = "EVIL", version = "1",
  layers = { l = { make = function(view) poison(view)
    return function() if mod.grid then poison(mod.grid) end return 0 end end } },
  postprocessors = { p = function(path, view) poison(view); return path end } }]])
      assert.equal("loaded", ev.result)
      local path = lodestar.find_path(grid, 0, 0, 3, 0)
      assert.equal(path, (m:postprocess(name .. ".p", path, grid)))
      -- the bystander's view (after_each: intact) is untouched
      assert.same(baseline, probe())
    end)
  end)

  describe("shared tables", function()
    it("the lodestar table is the mod's own copy: rawset and writes reach no other mod", function()
      local name, ev = attack([[
rawset(lodestar, "find_path", nil)
rawset(lodestar.grid, "new", function() return "evil" end)
rawset(lodestar, "grid", { load = print })
lodestar.algorithms[1] = "evil"
table.insert(lodestar.algorithms, "more")
mod.state.setmt = pcall(setmetatable, lodestar, {})
mod.state.getmt = getmetatable(lodestar)
mod.state.write = pcall(function() lodestar.smooth = nil end)
mod.state.next = next(lodestar) ~= nil]])
      assert.equal("loaded", ev.result)
      local s = m:state(name)
      assert.is_false(s.setmt)
      assert.is_false(s.getmt)
      assert.is_false(s.write)
      -- a mod loaded afterwards gets a fresh table too
      local other, ev2 = attack('mod.state.f = type(lodestar.find_path)\nmod.state.a = lodestar.algorithms[1]')
      assert.equal("loaded", ev2.result)
      assert.same({f = "function", a = HOST.algo1}, m:state(other))
    end)

    it("string, table and math are the mod's own; string methods never reach string.dump", function()
      local name, ev = attack([[
string.rep = function() return "pwned" end
string.format = function() return "pwned" end
string.myext = function() return "ext" end
table.concat = function() return "pwned" end
math.floor = function() return -1 end
setmetatable(string, { __index = function() return function() return "pwned" end end })
mod.state.dump = ("").dump
mod.state.smt = getmetatable("")
mod.state.call_dump = pcall(function() return ("").dump(function() end) end)
mod.state.ext = pcall(function() return ("x"):myext() end)
mod.state.rep = ("z"):rep(2)
mod.state.fmt = ("%d"):format(3)
mod.state.smt_write = pcall(function() local s = "" ; s.rep = nil end)]])
      assert.equal("loaded", ev.result)
      local s = m:state(name)
      assert.is_nil(s.dump)
      assert.is_nil(s.smt)
      assert.is_false(s.call_dump)
      assert.is_false(s.ext)
      assert.equal("zz", s.rep)
      assert.equal("3", s.fmt)
      assert.is_false(s.smt_write)
    end)

    it("the mod table is the mod's: changing it changes nothing outside", function()
      local name, ev = attack([[
setmetatable(mod, { __newindex = function() mod.state.pwned = true end,
  __index = function() mod.state.pwned = true end })
mod.name = "good"
mod.dir = "/"
mod.log = function() mod.state.pwned = true end
mod.grids = nil
print("still logs")
mod.state.bad_grid = select(2, pcall(mod.rebake, "l", {}))
mod.state.bad_rect = select(2, pcall(mod.rebake, "l", nil, setmetatable({}, {
  __index = function() mod.state.pwned = true; return 0 end })))
return { name = "EVIL", version = "1", layers = { l = function() return 1 end } }]])
      assert.equal("loaded", ev.result)
      local s = m:state(name)
      assert.matches("bad argument #2 to 'rebake' (grid name expected, got table)", s.bad_grid, 1, true)
      assert.matches("bad argument #3 to 'rebake' (rect[1]: integer expected, got nil)", s.bad_rect, 1, true)
      assert.equal("[" .. name .. "] still logs", logs[#logs].text)
      assert.equal(name, logs[#logs].mod)
      -- the host wrote the version past the metatable; the mod's code did not run
      assert.equal("1", rawget(m.apis[name], "version"))
      assert.is_nil(s.pwned)
    end)

    it("what the host reads of a mod is plain data; a mod re-bakes only its own layers", function()
      local name, ev = attack([[
local flag = function() mod.state.pwned = true end
local weights = setmetatable({ l = 2 }, { __index = flag, __pairs = function(t) flag(); return next, t end })
local walker = setmetatable({ weights = weights }, { __index = flag })
return setmetatable({ name = "EVIL", version = "1",
  layers = setmetatable({ l = function() return 1 end }, { __index = flag }),
  profiles = setmetatable({ walker = walker }, { __index = flag }),
  on = { poke = function() mod.rebake("swamp"); mod.rebake("swamp", "world") end } },
  { __index = flag, __newindex = flag })]])
      assert.equal("loaded", ev.result, ev.error and ev.error.text)
      -- the host reads the profile, the list, and sends the event
      assert.same({weights = {[name .. ".l"] = 2}}, m:profile(name .. ".walker"))
      local listed = {}
      for _, e in ipairs(m:list()) do listed[#listed + 1] = e.name .. " " .. e.status end
      assert.same({name .. " running", "good running"}, listed)
      local evs = m:emit("poke")
      assert.equal(2, #evs)
      for _, e in ipairs(evs) do
        assert.equal("failed", e.result)
        assert.equal(("mod.rebake: mod '%s' has no layer 'swamp'"):format(name), e.error.message)
      end
      assert.is_nil(m:state(name).pwned)
    end)

    it("pairs and next over the lodestar table show the allow-list only", function()
      local name, ev = attack([[
local seen, out = {}, {}
local function walk(t, prefix)
  if seen[t] then return end
  seen[t] = true
  for k, v in pairs(t) do
    if type(v) == "table" then walk(v, prefix .. k .. ".") else out[#out + 1] = prefix .. k end
  end
end
walk(lodestar, "")
table.sort(out)
mod.state.names = out
mod.state.raw = next(lodestar)]])
      assert.equal("loaded", ev.result)
      assert.is_nil(m:state(name).raw)
      local names = m:state(name).names
      if _VERSION == "Lua 5.4" then -- __pairs; LuaJIT's pairs sees the empty proxy
        local want = {}
        for _, k in ipairs(mods.MOD_API) do want[#want + 1] = k end
        table.sort(want)
        -- data lists show their elements
        local got = {}
        for _, k in ipairs(names) do
          local list = k:match("^([%a_]+)%.%d+$")
          if not list then got[#got + 1] = k elseif got[#got] ~= list then got[#got + 1] = list end
        end
        table.sort(got)
        assert.same(want, got)
      else
        assert.same({}, names)
      end
    end)
  end)

  describe("recursion through C", function()
    -- LuaJIT has no C-stack limit for Lua -> C -> Lua recursion: each of
    -- these crashed a LuaJIT host before the guards (Lua 5.4 stops them
    -- with "C stack overflow")
    it("coroutines resumed inside coroutines, without end, fail the mod", function()
      local text = refused("local function f() return coroutine.wrap(f)() end\nf()")
      assert.matches("coroutines nest deeper than 100 resumes", text, 1, true)
    end)

    it("a gsub replacement calling gsub again, without end, fails the mod", function()
      local text = refused('local function f() return (("a"):gsub(".", f)) end\nf()')
      -- LuaJIT: lodestar's guard; 5.4: its own limit, whichever comes first
      assert.is_truthy(text:find("gsub: Lua callbacks nest too deep", 1, true)
        or text:find("C stack overflow", 1, true), text)
    end)

    it("a mesh path's postprocess hook calling find_path again, without end, fails the mod", function()
      local text = refused([[
local m = lodestar.navmesh.new{verts = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}}, polys = {{1, 2, 3, 4}}}
local function pp(_, mesh) return mesh:find_path({1, 0, 1}, {3, 0, 3}, {postprocess = pp}) end
m:find_path({1, 0, 1}, {3, 0, 3}, {postprocess = pp})]])
      assert.is_truthy(text:find("find_path: opts.postprocess: Lua callbacks nest too deep", 1, true)
        or text:find("C stack overflow", 1, true), text)
    end)

    it("nesting up to the limit still runs", function()
      local name, ev = attack([[
local d = 0
local function f(k) if k == 0 then return 0 end d = d + 1 return coroutine.wrap(f)(k - 1) + 1 end
mod.state.depth = f(lodestar.mods_max_resume_depth or 100)]])
      assert.equal("loaded", ev.result, ev.error and ev.error.text)
      assert.equal(100, m:state(name).depth)
    end)
  end)

  describe("running outside the guard", function()
    it("an error object's __tostring never runs in the host", function()
      local obj = 'setmetatable({}, { __tostring = function() mod.state.pwned = true; return "boo" end })'
      local text = refused("error(" .. obj .. ")")
      assert.matches("(error object is a table value)", text, 1, true)
      text = refused('return { name = "EVIL", version = "1", selftest = function() return false, '
        .. obj .. ' end }')
      assert.matches("selftest failed: (error object is a table value)", text, 1, true)
      local name, ev = attack('return { name = "EVIL", version = "1", postprocessors = { p = function() error('
        .. obj .. ') end } }')
      assert.equal("loaded", ev.result)
      local path = lodestar.find_path(grid, 0, 0, 3, 0)
      local out, err = m:postprocess(name .. ".p", path, grid)
      assert.equal(path, out)
      assert.equal("(error object is a table value)", err)
      assert.is_nil(m:state(name).pwned)
    end)

    it("what a mod returns to the host runs no mod code when the host reads it", function()
      -- a post-processor's result whose __index would run in the host, under
      -- the host's string metatable (reaching string.dump and the unbounded find)
      local name, ev = attack([[
return { name = "EVIL", version = "1", postprocessors = { p = function(path)
  local pts = { { x = 0, y = 0 }, { x = 3, y = 0 } }
  return setmetatable(pts, { __index = function() mod.state.pwned = ("").dump ~= nil; return { x = 9, y = 9 } end,
    __len = function() mod.state.pwned = true; return 99 end })
end }, heuristics = { h = function()
  return setmetatable({}, { __lt = function() mod.state.pwned = true; return true end,
    __add = function() mod.state.pwned = true; return 0 end })
end } }]])
      assert.equal("loaded", ev.result)
      local path = lodestar.find_path(grid, 0, 0, 3, 0)
      local out = m:postprocess(name .. ".p", path, grid)
      assert.is_nil(getmetatable(out))
      assert.equal(2, #out)
      assert.is_nil(out[5])
      assert.same({x = 3, y = 0}, out[2])
      assert.is_nil(m:state(name).pwned)
      local h = assert(m:heuristic(name .. ".h"))
      local ok, err = pcall(h, 0, 0, 1, 1)
      assert.is_false(ok)
      assert.matches("heuristic '" .. name .. ".h' returned table (expected a number)", err, 1, true)
      assert.is_nil(m:state(name).pwned)
      assert.equal(HOST.smt_index, getmetatable("").__index)
    end)

    it("smooth.MAX_POINTS, the documented bound, is visible to a mod", function()
      local name, ev = attack('mod.state.max = lodestar.smooth.MAX_POINTS')
      assert.equal("loaded", ev.result)
      assert.equal(lodestar.smooth.MAX_POINTS, m:state(name).max)
    end)

    it("finalizers never run: __gc is refused, and one added later is ignored", function()
      local text = refused('setmetatable({}, { __gc = function() mod.state.pwned = true end })')
      assert.matches("setmetatable: __gc is not allowed in a mod", text, 1, true)
      local name, ev = attack([[
local mt = {}
mod.state.keep = setmetatable({}, mt)
mt.__gc = function() mod.state.pwned = true end
setmetatable({}, setmetatable({}, { __index = { __gc = function() mod.state.pwned = true end } }))
mod.state.keep = nil
mod.state.collect = pcall(collectgarbage, "collect")]])
      assert.equal("loaded", ev.result)
      collectgarbage()
      collectgarbage()
      assert.is_nil(m:state(name).pwned)
      assert.is_false(m:state(name).collect)
    end)

    it("coroutine.yield cannot suspend the host's thread from inside a mod call", function()
      n = n + 1
      local name = "evil_" .. n
      dir.write(name .. "/mod.lua", 'coroutine.yield("pwned")\nreturn { name = "' .. name .. '", version = "1" }')
      local co = coroutine.create(function() return m:poll() end)
      local ok, evs = coroutine.resume(co)
      assert.is_true(ok)
      assert.equal("dead", coroutine.status(co))
      assert.equal("failed", evs[1].result)
      assert.matches("coroutine.yield: a mod may yield only from a coroutine it created", evs[1].error.text,
        1, true)
      -- its own coroutines still yield
      local name2, ev = attack([[
local c = coroutine.wrap(function() coroutine.yield(1); coroutine.yield(2) end)
mod.state.got = c() + c()]])
      assert.equal("loaded", ev.result)
      assert.equal(3, m:state(name2).got)
    end)
  end)

  describe("the environment", function()
    it("load reaches only the mod's globals; no host library is there", function()
      local name, ev = attack([[
local present = {}
for _, k in ipairs{ "io", "debug", "package", "dofile", "loadfile", "loadstring", "module", "newproxy",
    "jit", "getfenv", "setfenv", "gcinfo", "ffi" } do
  if _G[k] ~= nil then present[#present + 1] = k end
end
for _, k in ipairs{ "execute", "exit", "getenv", "remove", "rename", "tmpname", "setlocale" } do
  if os[k] ~= nil then present[#present + 1] = "os." .. k end
end
if string.dump ~= nil then present[#present + 1] = "string.dump" end
local g = load("return _G, lodestar, io")()
mod.state.same_g = g == _G
mod.state.empty = load("return print, _G", "=x", "t", {})() == nil
mod.state.fn_chunk = select(2, load(function() return nil end))
mod.state.bad_name = select(2, load("return 1", {}))
mod.state.present = present]])
      assert.equal("loaded", ev.result)
      local s = m:state(name)
      assert.same({}, s.present)
      assert.is_true(s.same_g)
      assert.is_true(s.empty)
      assert.equal("chunk must be a string", s.fn_chunk)
      assert.equal("load: chunkname must be a string, got table", s.bad_name)
    end)

    it("objects a mod creates keep their shared metatables out of reach", function()
      local name, ev = attack([[
local g = lodestar.grid.from_ascii("..\n..\n")
local gr = lodestar.graph.from_grid(g)
local p = lodestar.find_path(g, 0, 0, 1, 1)
local s = lodestar.search.astar(g)
local d = lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {1, 1}})
local mts = {}
for i, o in ipairs{ g, gr, p, s, d } do
  mts[i] = tostring(getmetatable(o)) .. " " .. tostring(o.__index) .. " " .. tostring(o.__gc)
    .. " " .. tostring(o.load) .. " " .. tostring(o.__name)
end
mod.state.mts = mts
mod.state.sgrid = rawequal(s:grid(), g)
mod.state.tostr = tostring(g):match("^lodestar%.Grid 2x2") ~= nil]])
      assert.equal("loaded", ev.result)
      local s = m:state(name)
      for i = 1, 5 do assert.equal("nil nil nil nil nil", s.mts[i]) end
      assert.is_true(s.sgrid)
      assert.is_true(s.tostr)
    end)

    it("errors from the functions a mod may call name no host file", function()
      local list = {}
      for _, k in ipairs(mods.MOD_API) do list[#list + 1] = ("%q"):format(k) end
      local names = "{" .. table.concat(list, ", ") .. "}"
      local name, ev = attack((([[
local trap = setmetatable({}, { __index = function() return 1 end })
local g = lodestar.grid.from_ascii("...\n...\n")
local argsets = { {}, { trap }, { g }, { g, trap }, { g, 0, 0, 1, 0, trap }, { trap, trap, trap },
  { { { x = 0, y = 0 }, { x = "a", y = 0 } } }, { { { x = 0, y = 0 }, { x = 1, y = 0 } }, trap },
  { "x" }, { 1, 2, 3, 4 }, { { trap } } }
local texts = {}
local function try(f, ...)
  local ok, e = pcall(f, ...)
  if not ok then texts[#texts + 1] = tostring(e) end
  return ok, e
end
local function each(t)
  for _, v in pairs(t) do
    if type(v) == "function" then
      for _, a in ipairs(argsets) do
        local ok, r = try(v, table.unpack(a, 1, 6))
        if ok and type(r) == "function" then try(r, trap, trap, trap); try(r, { { x = 0, y = 0 } }, trap) end
      end
    end
  end
end
local fns = {}
for _, name in ipairs(NAMES) do
  local v = lodestar
  for part in name:gmatch("[^.]+") do v = v[part] end
  fns[#fns + 1] = v
end
each(fns)
mod.state.texts = texts]]):gsub("NAMES", names)))
      assert.equal("loaded", ev.result)
      local texts = m:state(name).texts
      assert.is_true(#texts > 50)
      local file = dir.root .. "/" .. name .. "/mod.lua:"
      for _, t in ipairs(texts) do
        local pos = t:match("^(.-%.lua):%d+:")
        if pos then assert.equal(file, pos .. ":") end
        assert.not_matches("lodestar/[%w_]+%.lua", t)
      end
    end)
  end)
end)

-- The allow-list in code (mods.MOD_API, mods.MOD_METHODS) against docs/mods.md
-- and against what a mod can reach.
describe("mod allow-list", function()
  local function doc_section()
    local f = assert(io.open("docs/mods.md"))
    local text = f:read("*a")
    f:close()
    local sec = text:match("\n### What a mod can call\n(.-)\n##")
    assert.is_string(sec)
    return sec
  end

  it("docs/mods.md lists exactly mods.MOD_API", function()
    local doc = {}
    for name in doc_section():gmatch("\n| `lodestar%.([^`]+)`") do
      if not name:match("^%u") then doc[#doc + 1] = name end
    end
    local code = {}
    for _, k in ipairs(mods.MOD_API) do code[#code + 1] = k end
    table.sort(doc)
    table.sort(code)
    assert.same(code, doc)
  end)

  it("docs/mods.md lists exactly mods.MOD_METHODS, and they are the objects' methods", function()
    local doc = {}
    for tname, list in doc_section():gmatch("\n| `(lodestar%.%u%a+)` | ([^|]+) |") do
      local ms = {}
      for meth in list:gmatch("`([%w_]+)`") do ms[#ms + 1] = meth end
      table.sort(ms)
      doc[tname] = ms
    end
    local code = {}
    for tname, ms in pairs(mods.MOD_METHODS) do
      local c = {}
      for i, v in ipairs(ms) do c[i] = v end
      table.sort(c)
      code[tname] = c
    end
    assert.same(code, doc)
    -- every method each object has is on the list (a new one must be reviewed here)
    local g = lodestar.grid.from_ascii("..\n..\n")
    local objs = {
      ["lodestar.Grid"] = g, ["lodestar.Graph"] = lodestar.graph.from_grid(g),
      ["lodestar.Search"] = lodestar.search.astar(g),
      ["lodestar.DStar"] = lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {1, 1}}),
      ["lodestar.Path"] = lodestar.find_path(g, 0, 0, 1, 1),
      ["lodestar.CostView"] = (function()
        local gl = lodestar.grid.from_ascii("..\n..\n")
        gl:layer_add("mud")
        return gl:cost_view({mud = 1})
      end)(),
      ["lodestar.Navmesh"] = lodestar.navmesh.new{verts = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}},
        polys = {{1, 2, 3}}},
    }
    for tname, o in pairs(objs) do
      local mt = debug.getmetatable(o)
      assert.equal(tname, mt.__name)
      local methods = mt.__index
      if type(methods) == "function" then -- Path: the methods are the upvalue of __index
        local _, up = debug.getupvalue(methods, 1)
        methods = up
      end
      local have = {}
      for k in pairs(methods) do have[#have + 1] = k end
      if tname == "lodestar.Path" then -- fields read through __index
        have[#have + 1] = "cost"; have[#have + 1] = "partial"; have[#have + 1] = "weights"
      end
      table.sort(have)
      -- the mods' methods and the host-only ones, disjoint, make up all of them
      local both, host = {}, {}
      for _, v in ipairs(code[tname]) do both[#both + 1] = v end
      for _, v in ipairs(mods.HOST_METHODS[tname] or {}) do
        host[v] = true
        both[#both + 1] = v
      end
      for _, v in ipairs(code[tname]) do assert.is_nil(host[v], tname .. ":" .. v .. " on both lists") end
      table.sort(both)
      assert.same(both, have)
    end
    for tname in pairs(mods.HOST_METHODS) do assert.is_not_nil(objs[tname], tname) end
  end)

  it("a mod calling a host-only method gets an error, the host can call it", function()
    local base = os.tmpname()
    os.remove(base)
    local root = base .. "-host"
    assert(lfs.mkdir(root))
    assert(lfs.mkdir(root .. "/h"))
    local png = base .. "-mod.png"
    -- each host-only method of each object, called from a mod's post-processor
    local calls = {}
    for tname, ms in pairs(mods.HOST_METHODS) do
      for _, meth in ipairs(ms) do calls[#calls + 1] = ("%q"):format(tname .. ":" .. meth) end
    end
    local f = assert(io.open(root .. "/h/mod.lua", "w"))
    f:write(([[
local CALLS = {%s}
return { name = "h", version = "1", postprocessors = { try = function(path, view)
  local g = lodestar.grid.from_ascii("...\n...\n")
  local s = lodestar.search.astar(g)
  s:start(0, 0, 2, 1)
  s:run()
  local p = s:path()
  local objs = {["lodestar.Grid"] = g, ["lodestar.Search"] = s, ["lodestar.Path"] = p}
  local dd = {begin = function() end, vertex = function() end, finish = function() end}
  local out = {}
  for _, c in ipairs(CALLS) do
    local tname, meth = c:match("^(.-):(.*)$")
    local o = objs[tname]
    local ok, err = pcall(o[meth], o, meth == "picture" and %q or dd)
    out[c] = ok and "ran" or tostring(err)
  end
  return out
end } }]]):format(table.concat(calls, ", "), png))
    f:close()
    local grid = lodestar.grid.from_ascii("..\n")
    local m = mods.new{root = root, grids = {world = grid}, clock = function() return 0 end}
    m:poll()
    local out, err = m:postprocess("h.try", lodestar.find_path(grid, 0, 0, 1, 0), grid)
    assert.is_nil(err)
    local n = 0
    for tname, ms in pairs(mods.HOST_METHODS) do
      for _, meth in ipairs(ms) do
        n = n + 1
        assert.matches(tname:gsub("lodestar%.", ""):lower() .. ":" .. meth .. " is for the host only",
          out[tname .. ":" .. meth], 1, true)
      end
    end
    assert.is_true(n >= 4)
    assert.is_nil(io.open(png, "rb")) -- nothing written
    -- the host, after the mod ran: the same methods work
    local g = lodestar.grid.from_ascii("...\n...\n")
    local s = lodestar.search.astar(g)
    s:start(0, 0, 2, 1)
    s:run()
    assert.is_true(s:picture(png))
    assert.is_true(os.remove(png))
  end)

  it("everything reachable from a mod's environment is on the allow-list", function()
    local base = os.tmpname()
    os.remove(base)
    local root = base .. "-reach"
    assert(lfs.mkdir(root))
    assert(lfs.mkdir(root .. "/r"))
    local f = assert(io.open(root .. "/r/mod.lua", "w"))
    f:write('return { name = "r", version = "1" }')
    f:close()
    local grid = lodestar.grid.from_ascii("..\n")
    local m = mods.new{root = root, grids = {world = grid}, clock = function() return 0 end}
    m:poll()
    local env = m.mods.r.env
    -- what a mod must never reach: the host's file, process and loader
    -- functions, and the host's own tables
    local forbidden = {}
    local function forbid(t, keep)
      for k, v in pairs(t) do if not (keep and keep[k]) then forbidden[v] = k end end
    end
    forbid(io)
    forbid(debug)
    forbid(package)
    forbid(os, {clock = true, time = true, date = true, difftime = true})
    for _, v in ipairs{string.dump, load, loadfile, dofile, require, lodestar.grid.load,
        lodestar.graph.load_dimacs, _G, package.loaded, lodestar, lodestar.core, lodestar.grid,
        string, table, math, coroutine, getmetatable(""), debug.getregistry(), m, m.grids, grid,
        rawget(_G, "loadstring") or false, rawget(_G, "getfenv") or false, rawget(_G, "setfenv") or false} do
      if v then forbidden[v] = true end
    end
    -- walk: raw fields of tables, what a read-only proxy hands out (its __pairs)
    local seen, lod_leaves = {}, {}
    local function walk(v, path)
      if type(v) ~= "table" and type(v) ~= "function" and type(v) ~= "userdata" then return end
      assert.is_nil(forbidden[v], path)
      if type(v) ~= "table" or seen[v] then return end
      seen[v] = true
      local mt = debug.getmetatable(v)
      local iter = mt and mt.__pairs and mt.__pairs(v)
      local k, x = next(v)
      while k ~= nil do
        walk(x, path .. "." .. tostring(k))
        k, x = next(v, k)
      end
      if iter then
        for kk, vv in iter, v, nil do
          local p = path .. "." .. tostring(kk)
          if type(vv) ~= "table" and path:match("^lodestar") then lod_leaves[#lod_leaves + 1] = p end
          if type(vv) == "table" and not debug.getmetatable(vv) and path:match("^lodestar") then
            lod_leaves[#lod_leaves + 1] = p -- a data list
          end
          walk(vv, p)
        end
      end
    end
    walk(env, "env")
    local lod = {}
    for k, v in pairs(env) do if v == env.lodestar then lod[#lod + 1] = k end end
    assert.same({"lodestar"}, lod)
    -- the walk above named the lodestar leaves from "lodestar", not "env.lodestar"
    lod_leaves = {}
    seen = {}
    walk(env.lodestar, "lodestar")
    local got = {}
    for _, p in ipairs(lod_leaves) do got[#got + 1] = p:sub(#"lodestar." + 1) end
    local want = {}
    for _, k in ipairs(mods.MOD_API) do want[#want + 1] = k end
    table.sort(got)
    table.sort(want)
    assert.same(want, got)
    m:close()
    os.remove(root .. "/r/mod.lua")
    lfs.rmdir(root .. "/r")
    lfs.rmdir(root)
  end)
end)
