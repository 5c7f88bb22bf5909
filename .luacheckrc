-- SPDX-License-Identifier: MIT
-- luacheck configuration: `make lint` runs `luacheck scripts mods tests/spec tests/bench examples/love`
-- from the repository root (Debian package lua-check).
--
-- The package, the specs and the mods run under Lua 5.4 and LuaJIT, so the
-- standard globals are those of either engine (code guards the differences:
-- `table.unpack or unpack`, `rawget(_G, "jit")`).
std = "lua54+luajit"

-- The Lua code is written to 120 columns (the C code to 100).
max_line_length = 120

-- busted specs: describe, it, assert.same, spy, ... (.busted lists both roots)
files["tests/spec"] = {std = "+busted"}

-- A mod's files (mod.lua and what it requires) run in the sandbox that
-- make_env in scripts/lodestar/mods.lua builds, not with the host's globals:
-- only what it provides is declared here, so `io.open` or `debug` in a mod is
-- a warning (it would be nil at run time). The union of Lua 5.4 and LuaJIT:
-- the sandbox copies the host engine's string, table, math, coroutine.
local function lib(names)
  local fields = {}
  for name in names:gmatch("%S+") do fields[name] = {} end
  return {fields = fields}
end

stds.lodestar_mod = {
  read_globals = {
    -- the safe base library
    "assert", "error", "ipairs", "next", "pairs", "select", "tonumber", "tostring", "type",
    "rawequal", "rawget", "rawset", "rawlen", "unpack", "_VERSION", "_G",
    "getmetatable", "setmetatable", "collectgarbage", "pcall", "xpcall", "load", "print", "require",
    -- copies of the standard libraries (string without dump)
    string = lib("byte char find format gfind gmatch gsub len lower match pack packsize rep reverse sub"
      .. " unpack upper"),
    table = lib "clear concat foreach foreachi getn insert maxn move new pack remove sort unpack",
    math = lib("abs acos asin atan atan2 ceil cos cosh deg exp floor fmod frexp huge ldexp log log10 max"
      .. " maxinteger min mininteger mod modf pi pow rad random randomseed sin sinh sqrt tan tanh"
      .. " tointeger type ult"),
    coroutine = lib "close create isyieldable resume running status wrap yield",
    utf8 = lib "char charpattern codepoint codes len offset", -- Lua 5.4 only
    bit = lib "arshift band bnot bor bswap bxor lshift rol ror rshift tobit tohex", -- LuaJIT only
    os = lib "clock time date difftime",
    -- the lodestar package, read-only (a proxy that refuses writes)
    "lodestar",
    -- this mod (docs/mods.md, "What a mod sees"); mod.state is the mod's own
    -- table, kept across reloads
    mod = {
      fields = {
        name = {}, version = {}, dir = {}, log = {}, rebake = {}, grids = {},
        grid = {other_fields = true},
        state = {read_only = false, other_fields = true},
      },
    },
  },
}

files["mods"] = {std = "lodestar_mod"}
-- the LÖVE example runs on LÖVE's LuaJIT, which defines the global `love`
-- (the game sets love.load, love.update, ...); its mod is a sandboxed mod
files["examples/love"] = {std = "luajit", globals = {"love"}}
files["examples/love/mods"] = {std = "lodestar_mod"}
-- the mods' specs run under busted in the host, like tests/spec
files["mods/*/spec"] = {std = "lua54+luajit+busted"}
