-- SPDX-License-Identifier: MIT
-- The mod CPU guard (scripts/lodestar/mods.lua) against mods that try to
-- escape it: coroutine trees, host library code (lodestar.smooth), C library
-- calls (patterns, string.rep, table functions), memory, and a runaway bake
-- on a big map; plus the bounded pattern functions (lodestar.core.pattern)
-- checked against the string library. Time is a fake clock (1 ms a read),
-- so every test is deterministic.
local lodestar = require "lodestar"
local core = require "lodestar.core"
local mods = require "lodestar.mods"
local smooth = require "lodestar.smooth"
local testing = require "lodestar.testing"

local LUA54 = _VERSION == "Lua 5.4" and not rawget(_G, "jit")



local function results(events)
  local out = {}
  for i, e in ipairs(events) do out[i] = e.mod .. ":" .. e.result end
  return out
end

describe("mod CPU guard", function()
  local dir, m, reads

  -- a manager whose clock advances 1 ms at every read
  local function new_manager(opts)
    opts.root = dir.root
    opts.log = function() end
    reads = 0
    opts.clock = opts.clock or function() reads = reads + 1; return reads / 1000 end
    m = mods.new(opts)
    return m
  end

  before_each(function() dir = testing.mods_dir() end)
  after_each(function()
    if m then m:close() end
    m = nil
    dir.close()
  end)

  describe("coroutines", function()
    it("a tree of short coroutines pays for its work", function()
      -- each coroutine runs far fewer instructions than the hook's grain
      dir.write_mod("tree", [[
mod.state.nodes = 0
local function node(d)
  mod.state.nodes = mod.state.nodes + 1
  if d == 0 then return end
  local a = coroutine.create(node)
  coroutine.resume(a, d - 1)
  local b = coroutine.wrap(node)
  b(d - 1)
end
node(14)
return { name = "tree", version = "1" }]])
      new_manager{instruction_limit = 100000, cell_limit = 0}
      local ev = m:poll()
      assert.same({"tree:failed"}, results(ev))
      -- the position the message names is where the count ran out: the mod's
      -- line, or under LuaJIT at times the frame that resumed it
      assert.matches("instruction limit exceeded %(100000 instructions%)", ev[1].error.text)
      local nodes = m:state("tree").nodes
      assert.is_true(nodes < 2 ^ 15 - 1, "all " .. nodes .. " nodes ran")
      assert.is_true(nodes > 100, "stopped too early: " .. nodes)
    end)

    it("a coroutine the host made is guarded when a mod resumes it", function()
      dir.write_mod("res", [[
return { name = "res", version = "1", on = { go = function(co) coroutine.resume(co) end } }]])
      new_manager{instruction_limit = 100000, cell_limit = 0}
      m:poll()
      local n = 0
      local function count() for _ = 1, 1000000 do n = n + 1 end end
      -- LuaJIT: hooks never fire in compiled code; the host's own functions
      -- handed to mods must be interpreted to be guarded (the package's are)
      if rawget(_G, "jit") then jit.off(count) end
      local co = coroutine.create(count)
      local ev = m:emit("go", co)
      assert.same({"res:disabled"}, results(ev))
      assert.matches("limit exceeded", ev[1].error.text, 1, true)
      assert.is_true(n < 1000000, "the host's coroutine ran to its end")
    end)
  end)

  describe("time limit", function()
    it("stops a runaway bake after time_limit_ms, whatever the map size", function()
      dir.write_mod("spin", [[
return { name = "spin", version = "1", layers = { l = function() while true do end end } }]])
      local cost = {}
      for _, size in ipairs{16, 256} do
        local g = lodestar.grid.new(size, size)
        -- the instruction limit alone would allow 1e12 instructions
        new_manager{instruction_limit = 1e8, cell_limit = 2000, time_limit_ms = 5, grids = {world = g}}
        local ev = m:poll()
        assert.same({"spin:failed"}, results(ev))
        assert.matches("/spin/mod.lua:1: time limit exceeded (5 ms) (bake: rule for layer 'spin.l' at (0,0))",
          ev[1].error.text, 1, true)
        cost[#cost + 1] = reads -- ms of the poll: the limit plus the reads around the call
        assert.is_true(reads <= 5 + 8, size .. "x" .. size .. ": " .. reads .. " ms")
        assert.same({}, g:layer_list()) -- nothing half-baked
        m:close()
      end
      assert.equal(cost[1], cost[2])
    end)

    it("a mod's whole (re)load is one call: mod.lua and its bakes share one budget", function()
      -- mod.lua spends about 7 ms (hook firings), the rule the rest
      dir.write_mod("two", [[
local s = 0
for i = 1, 2500 do s = s + i end
return { name = "two", version = "1", layers = { l = function()
  local t = 0
  for i = 1, 1000 do t = t + i end -- about 2 ms a cell
  return 1
end } }]])
      local g = lodestar.grid.new(8, 8)
      new_manager{instruction_limit = 1e8, cell_limit = 0, time_limit_ms = 10, grids = {world = g}}
      local ev = m:poll()
      assert.same({"two:failed"}, results(ev))
      assert.matches("time limit exceeded (10 ms)", ev[1].error.text, 1, true)
      -- 10 ms of budget + 10 reads around the calls; two budgets would be ~27
      assert.is_true(reads <= 20, reads .. " clock reads (ms) in the poll")
    end)

    it("an event handler, a post-processor and a heuristic get the same limit", function()
      dir.write_mod("slow", [[
return { name = "slow", version = "1",
  on = { tick = function() while true do end end },
  postprocessors = { pp = function(p) while true do end end },
  heuristics = { h = function() while true do end end } }]])
      for _, call in ipairs{
        function() return select(2, m:emit("tick")[1].error.text) or m:list()[1].error.text end,
        function() return select(2, m:postprocess("slow.pp", {})) end,
        function() return select(2, pcall(m:heuristic("slow.h"), 0, 0)) end,
      } do
        new_manager{instruction_limit = 1e8, cell_limit = 0, time_limit_ms = 7}
        m:poll()
        local before = reads
        local msg = call()
        assert.matches("time limit exceeded (7 ms)", msg, 1, true)
        assert.is_true(reads - before <= 12, (reads - before) .. " ms")
        m:close()
      end
    end)

    it("a re-bake stopped half-way leaves the layer as it was", function()
      dir.write_mod("re", [[
return { name = "re", version = "1",
  layers = { l = function(x)
    if mod.state.spin then
      if x >= 2 then while true do end end
      return 2
    end
    return 1
  end },
  on = { go = function() mod.state.spin = true; mod.rebake("l") end } }]])
      local g = lodestar.grid.new(4, 1)
      new_manager{instruction_limit = 1e8, cell_limit = 0, time_limit_ms = 5, grids = {world = g}}
      assert.same({"re:loaded"}, results(m:poll()))
      local ev = m:emit("go")
      assert.same({"re:disabled"}, results(ev))
      assert.matches("time limit exceeded (5 ms)", ev[1].error.text, 1, true)
      for x = 0, 3 do assert.equal(1, g:layer_get("re.l", x, 0)) end
    end)

    it("a reload stopped at its second layer writes nothing and runs no old code", function()
      dir.write_mod("two", [[
return { name = "two", version = "1", layers = {
  a = function() mod.state.old_calls = (mod.state.old_calls or 0) + 1; return 1 end,
  b = function() return 1 end } }]])
      local g1, g2 = lodestar.grid.new(3, 1), lodestar.grid.new(3, 1)
      new_manager{instruction_limit = 1e8, cell_limit = 0, time_limit_ms = 5, grids = {g1 = g1, g2 = g2}}
      assert.same({"two:loaded"}, results(m:poll()))
      local calls = m:state("two").old_calls
      assert.equal(6, calls)
      dir.write_mod("two", [[
return { name = "two", version = "2", layers = {
  a = function() return 2 end,
  b = function(x) if mod.grid.name == "g2" then while true do end end return 2 end } }]])
      local ev = m:poll()
      assert.same({"two:failed"}, results(ev))
      assert.matches("time limit exceeded (5 ms)", ev[1].error.text, 1, true)
      for _, g in ipairs{g1, g2} do
        for x = 0, 2 do
          assert.equal(1, g:layer_get("two.a", x, 0))
          assert.equal(1, g:layer_get("two.b", x, 0))
        end
      end
      assert.equal(calls, m:state("two").old_calls) -- not re-baked with the old rules
    end)

    it("a re-bake stopped on the second grid writes no grid", function()
      dir.write_mod("rb", [[
return { name = "rb", version = "1",
  layers = { l = function()
    if mod.state.go then
      if mod.grid.name == "g2" then while true do end end
      return 2
    end
    return 1
  end },
  on = { go = function() mod.state.go = true; mod.rebake("l") end } }]])
      local g1, g2 = lodestar.grid.new(2, 1), lodestar.grid.new(2, 1)
      new_manager{instruction_limit = 1e8, cell_limit = 0, time_limit_ms = 5, grids = {g1 = g1, g2 = g2}}
      m:poll()
      assert.same({"rb:disabled"}, results(m:emit("go")))
      assert.equal(1, g1:layer_get("rb.l", 0, 0))
      assert.equal(1, g2:layer_get("rb.l", 1, 0))
    end)

    it("checks time_limit_ms and memory_limit_kb", function()
      assert.error_matches(function() new_manager{time_limit_ms = 0} end,
        "opts.time_limit_ms must be a finite number > 0", 1, true)
      assert.error_matches(function() new_manager{time_limit_ms = 0 / 0} end,
        "opts.time_limit_ms must be a finite number > 0", 1, true)
      assert.error_matches(function() new_manager{memory_limit_kb = -1} end,
        "opts.memory_limit_kb must be a number > 0", 1, true)
    end)
  end)

  describe("C library calls", function()
    local LIMIT = 100000

    it("a pathological pattern fails fast with a clear error, as a function or a method", function()
      dir.write_mod("pat", [[
local s, p = ("a"):rep(34), ("a*"):rep(8) .. "b"
local ok, err = pcall(string.find, s, p)
mod.state.err = err
return { name = "pat", version = "1", selftest = function() local r = s:find(p); return r end }]])
      new_manager{instruction_limit = 1e8, cell_limit = 0}
      local ev = m:poll()
      assert.equal("pattern too complex: more than 1000000 steps", m:state("pat").err)
      assert.same({"pat:failed"}, results(ev))
      assert.matches("/pat/mod.lua:4: pattern too complex: more than 1000000 steps", ev[1].error.text)
    end)

    it("pattern steps are charged to the instruction limit", function()
      dir.write_mod("scan", [[
local s = ("x"):rep(1000)
for i = 1, 1000 do s:find("x*y") end -- ~2000 steps a call, few instructions
return { name = "scan", version = "1" }]])
      new_manager{instruction_limit = LIMIT, cell_limit = 0}
      local ev = m:poll()
      assert.same({"scan:failed"}, results(ev))
      assert.matches("/scan/mod.lua:2: instruction limit exceeded (100000 instructions)", ev[1].error.text, 1, true)
      -- the host's own string functions are the standard ones again
      assert.equal(string.find, ("").find)
    end)

    it("string.rep, table.concat and table functions are bounded", function()
      dir.write_mod("big", [[
local function try(f) local ok, e = pcall(f); return e end
mod.state.rep = try(function() local r = ("x"):rep(2 ^ 31); return r end)
mod.state.rep2 = try(function() local r = string.rep("ab", 2 ^ 23, ","); return r end)
local s = ("x"):rep(2 ^ 20)
local t = {}
for i = 1, 32 do t[i] = s end
mod.state.concat = try(function() local r = table.concat(t); return r end)
mod.state.gsub = try(function() local r = ("abc"):rep(10):gsub(".", function() return s end); return r end)
mod.state.ok = #table.concat(t, "", 1, 8)
local huge = setmetatable({}, { __len = function() return 2 ^ 40 end })
table.insert(huge, 1, "x")
return { name = "big", version = "1" }]])
      new_manager{instruction_limit = 1e9, cell_limit = 0}
      local ev = m:poll()
      local st = m:state("big")
      assert.matches("^[^:]*/big/mod.lua:2: bad argument #2 to 'rep' %(result of 2147483648 bytes is "
        .. "longer than the limit of 16777216 bytes for a mod%)$", st.rep)
      assert.matches("bad argument #2 to 'rep' (result of 25165823 bytes", st.rep2, 1, true)
      assert.matches("/big/mod.lua:7: bad argument #1 to 'concat' (result longer than the limit of "
        .. "16777216 bytes for a mod)", st.concat, 1, true)
      assert.matches("gsub: result longer than 16777216 bytes", st.gsub, 1, true)
      assert.equal(8 * 2 ^ 20, st.ok)
      if _VERSION == "Lua 5.1" then -- LuaJIT's table.insert ignores __len
        assert.same({"big:loaded"}, results(ev))
      else -- a __len claiming 2^40 elements: the shift is charged before it runs
        assert.same({"big:failed"}, results(ev))
        assert.matches("/big/mod.lua:11: instruction limit exceeded (1000000000 instructions)", ev[1].error.text,
          1, true)
      end
    end)

    it("load compiles at most MAX_CHUNK_BYTES; table.sort is charged n log n", function()
      dir.write_mod("ld", [[
local f, err = load(("x = 1 "):rep(200000))
mod.state.err = err
local t = {}
for i = 1, 10000 do t[i] = -i end
table.sort(t)
return { name = "ld", version = "1" }]])
      -- ~60000 instructions before the sort, 10000 log2 10000 = 132877 charged by it
      new_manager{instruction_limit = 150000, cell_limit = 0}
      local ev = m:poll()
      assert.equal("load: chunk of 1200000 bytes refused (longer than the limit of 1048576 bytes for a mod)",
        m:state("ld").err)
      assert.same({"ld:failed"}, results(ev))
      assert.matches("/ld/mod.lua:5: instruction limit exceeded (150000 instructions)", ev[1].error.text, 1, true)
    end)

    it("one instruction cannot allocate without bound (`s = s .. s`)", function()
      dir.write_mod("hog", [[
local s = "x"
for i = 1, 40 do pcall(function() s = s .. s end) end
return { name = "hog", version = "1" }]])
      new_manager{instruction_limit = 1e8, cell_limit = 0, memory_limit_kb = 8 * 1024}
      local ev = m:poll()
      assert.same({"hog:failed"}, results(ev))
      assert.matches("memory limit exceeded (8192 KB)", ev[1].error.text, 1, true)
      assert.is_false((debug.getregistry()["lodestar.memory_limit"]())) -- lifted after the call
      assert.is_nil(core.memory_limit) -- out of the mods' reach
      assert.equal(2 ^ 24, #("x"):rep(2 ^ 24)) -- the host is not limited
    end)
  end)

  describe("host library code called by mods", function()
    it("smooth.resample refuses to build millions of points", function()
      assert.error_matches(function() smooth.resample({{x = 0, y = 0}, {x = 5000, y = 0}}, 1e-30) end,
        "bad argument #2 to 'resample' (spacing 1e-30 gives more than 1000000 points over a length of "
        .. "5000 cells (smooth.MAX_POINTS; expected spacing >= 0.00500002))", 1, true)
      assert.error_matches(function() smooth.catmull_rom({{x = 0, y = 0}, {x = 1, y = 0}, {x = 2, y = 0}},
        {samples = 1e7}) end, "opts.samples 10000000 gives 20000001 points for 3 cells (more than "
        .. "smooth.MAX_POINTS = 1000000)", 1, true)
      assert.error_matches(function() smooth.postprocessor(1e-9)({{x = 0, y = 0}, {x = 50, y = 0}}) end,
        "bad argument #1 to 'postprocessor step' (spacing 1e-09 gives more than 1000000 points", 1, true)
      assert.equal(500001, #smooth.resample({{x = 0, y = 0}, {x = 5000, y = 0}}, 0.01))
    end)

    it("runs under the guard on both engines (LuaJIT: not compiled)", function()
      dir.write_mod("sm", [[
local pts = lodestar.smooth.resample({{x = 0, y = 0}, {x = 5000, y = 0}}, 0.01)
return { name = "sm", version = "1" }]])
      new_manager{instruction_limit = 100000, cell_limit = 0}
      local ev = m:poll()
      assert.same({"sm:failed"}, results(ev))
      assert.matches("instruction limit exceeded (100000 instructions)", ev[1].error.text, 1, true)
    end)
  end)
end)

describe("grid:bake with defer, grid:bake_commit", function()
  it("bakes into a block and writes it only on commit", function()
    local g = lodestar.grid.new(4, 3)
    local b = g:bake("l", function(x, y) return x + 10 * y end, {1, 1, 3, 2}, true)
    assert.equal("lodestar.Baked", getmetatable(b).__name)
    assert.same({}, g:layer_list())
    assert.equal(6, g:bake_commit("l", b))
    assert.equal(23, g:layer_get("l", 3, 2))
    assert.equal(0, g:layer_get("l", 0, 0))
    local small = lodestar.grid.new(2, 2)
    assert.error_matches(function() small:bake_commit("l", b) end,
      "bad argument #2 to 'bake_commit' (baked rect {1, 1, 3, 2} does not fit the grid (2x2))", 1, true)
    assert.error_matches(function() g:bake_commit("l", {}) end,
      "bad argument #2 to 'bake_commit' (baked layer (grid:bake(layer, fn, rect, true)) expected, got table)",
      1, true)
  end)
end)

describe("lodestar.core.pattern", function()
  local P = core.pattern()

  local function pk(...) return {n = select("#", ...), ...} end
  local function outcome(f, ...)
    local r = pk(pcall(f, ...))
    if not r[1] then -- the function name differs ('string.find' / 'find')
      return {n = 2, false, (tostring(r[2]):gsub("^bad argument #(%d) to '[%w.?]*'", "bad argument #%1"))}
    end
    return r
  end
  local function text(r)
    local t = {}
    for i = 1, r.n do t[i] = tostring(r[i]) end
    return table.concat(t, ", ")
  end

  it("gives what the string library of Lua 5.4 gives", function()
    if not LUA54 then return end -- LuaJIT's string library has 5.1 patterns
    local subjects = {"", "a", "hello world", "  key = value  ", "THE (quick) [brown] fox", "aaa",
      "abc123def456", "x=1, y=2, z=3", "f(a(b)c)d", "\0a\0b", "2024-12-01", "a.b.c", "$^%", "aXbXc"}
    local patterns = {"", "a", "^a", "a$", "^$", ".", "%a+", "%d+", "%s*", "(%w+)", "(%w+)%s*=%s*(%w+)",
      "()a()", "%b()", "%b[]", "%f[%w]%w+", "%f[%W]", "[aeiou]", "[^aeiou]+", "[%a_][%w_]*", "a-b", "a*",
      "a?", ".-b", "(a)(b)?", "(.)%1", "(a*(.)%w(%s*))", "[]]", "[^]]", "[a-c]+", "[%-%+]", "^(%s*).-(%s*)$",
      "%$", "[$^%%]", "%.", "(%d+)-(%d+)-(%d+)", "%u", "%l+", "%p", "%c", "%x+", "%g+", "\0", "%z", "()",
      "(()", "%", "[a", "%1", "(a)%2", "%b", "%f", "%fx", ")", "((a)", "[%", "^^", "$$", "a$b"}
    local n = 0
    for _, s in ipairs(subjects) do
      for _, p in ipairs(patterns) do
        for _, init in ipairs{1, 3, -2, 0, 100} do
          for _, f in ipairs{"find", "match"} do
            assert.equal(text(outcome(string[f], s, p, init)), text(outcome(P[f], s, p, init)),
              ("%s(%q, %q, %d)"):format(f, s, p, init))
            n = n + 1
          end
        end
        assert.equal(text(outcome(string.find, s, p, 1, true)), text(outcome(P.find, s, p, 1, true)))
        for _, r in ipairs{"<%0>", "%1", "%%", "[%2]", 7, "%", {a = "A", hello = false, b = 3},
            function(...) return select("#", ...) .. "" end} do
          for _, max in ipairs{false, 1} do
            assert.equal(text(outcome(string.gsub, s, p, r, max or nil)), text(outcome(P.gsub, s, p, r, max or nil)),
              ("gsub(%q, %q, %s)"):format(s, p, tostring(r)))
            n = n + 1
          end
        end
        local a, b = {}, {}
        local function all(gmatch, out)
          return pcall(function() for x, y in gmatch(s, p) do out[#out + 1] = tostring(x) .. "|" .. tostring(y) end end)
        end
        local oka, okb = all(string.gmatch, a), all(P.gmatch, b)
        assert.equal(oka, okb)
        assert.equal(table.concat(a, ";"), table.concat(b, ";"), ("gmatch(%q, %q)"):format(s, p))
      end
    end
    assert.is_true(n > 20000)
  end)

  it("gives the same results on random patterns", function()
    if not LUA54 then return end
    local pieces = {"a", "b", ".", "%a", "%d", "%W", "[ab]", "[^a]", "[a-c]", "*", "+", "-", "?", "(", ")",
      "()", "%1", "%bab", "%f[a]", "^", "$", "%", "[", "]", " ", "%%"}
    local chars = {"a", "b", "c", "1", " ", "(", ")", "%", "\0"}
    local seed = 12345
    local function rnd(k) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k + 1 end
    local function pick(t, n)
      local o = {}
      for i = 1, rnd(n + 1) - 1 do o[i] = t[rnd(#t)] end
      return table.concat(o)
    end
    for _ = 1, 20000 do
      local s, p, init = pick(chars, 8), pick(pieces, 6), rnd(21) - 11
      assert.equal(text(outcome(string.find, s, p, init)), text(outcome(P.find, s, p, init)),
        ("find(%q, %q, %d)"):format(s, p, init))
      assert.equal(text(outcome(string.gsub, s, p, "<%0>")), text(outcome(P.gsub, s, p, "<%0>")),
        ("gsub(%q, %q)"):format(s, p))
    end
  end)

  it("works the same on both engines (5.4 patterns)", function()
    assert.same({1, 5, "hello"}, {P.find("hello world", "(%w+)")})
    assert.same({"key", "value"}, {P.match("  key = value", "(%w+)%s*=%s*(%w+)")})
    assert.same({"<a>b<a>", 2}, {P.gsub("aba", "a", "<%0>")})
    assert.same({"x", 5}, {P.match("ab x", "%f[%w](%w)()$")})
    assert.equal("(b)", P.match("a(b)c", "%b()"))
    local out = {}
    for k, v in P.gmatch("a=1, b=2", "(%w+)=(%w+)") do out[#out + 1] = k .. v end
    assert.same({"a1", "b2"}, out)
    out = {}
    for w in P.gmatch("one two three", "%a+", 5) do out[#out + 1] = w end -- 5.4's init
    assert.same({"two", "three"}, out)
    assert.equal("A-B", (P.gsub("a-b", "%a", string.upper)))
  end)

  it("stops after max_steps with a clear error and charges the steps", function()
    local charged = 0
    local Q = core.pattern{max_steps = 5000, charge = function(n) charged = charged + n end}
    local ok, err = pcall(Q.find, ("a"):rep(34), ("a*"):rep(8) .. "b")
    assert.is_false(ok)
    assert.matches("pattern too complex: more than 5000 steps$", err)
    assert.equal(5001, charged)
    charged = 0
    assert.same({1, 4}, {Q.find("xxxy", "x*y")})
    assert.is_true(charged > 0 and charged < 100, charged .. " steps")
    local ok2, err2 = pcall(P.find, ("a"):rep(34), ("a*"):rep(8) .. "b") -- default 1e6
    assert.is_false(ok2)
    assert.matches("pattern too complex: more than 1000000 steps$", err2)
    local R = core.pattern{max_len = 10}
    assert.error_matches(function() R.gsub("abcdef", "%w", "%0%0") end, "gsub: result longer than 10 bytes", 1, true)
    assert.error_matches(function() core.pattern(3) end, "bad argument #1 to 'pattern' (table expected, got number)",
      1, true)
  end)
end)
