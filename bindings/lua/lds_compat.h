/* SPDX-License-Identifier: MIT */
/*
** lds_compat.h — the only place where Lua 5.4 and LuaJIT (Lua 5.1 API)
** differ for the lodestar binding. Defines just what the lua_*.c files use:
**   lds_newudata(L, size)    full userdata with room for one user value
**   lds_setuv(L, idx)        pops a table into the user value of idx
**   lds_getuv(L, idx)        pushes that table (nil if none)
**   luaL_pushfail(L)         nil on both engines
**   lua_rawlen(L, idx)       lua_objlen on 5.1
**   luaL_tolstring(L, i, n)  5.2's: any value as text (its __tostring), pushed
**   LDS_HAS_CLOSE            1 when __close exists (5.4 only)
** The integer check that rejects 2.5 on both engines (LuaJIT's
** luaL_checkinteger truncates) is ldsl_check_int (lua_util.c), written on
** lua_Number so it needs no compat at all; __name is set by hand there too.
** Model: roberto-ieru/LPeg lptypes.h, lunarmodules/luasystem src/compat.h.
*/
#ifndef LDS_COMPAT_H
#define LDS_COMPAT_H

#include <lua.h>
#include <lauxlib.h>

#if LUA_VERSION_NUM == 501
/* LuaJIT / Lua 5.1: the user value is the userdata's environment table. */
#define lds_newudata(L, size) lua_newuserdata(L, size)
#define lds_setuv(L, idx) lua_setfenv(L, idx)
#define lds_getuv(L, idx) lua_getfenv(L, idx)
#define luaL_pushfail(L) lua_pushnil(L)
#define LDS_HAS_CLOSE 0
#define lua_rawlen(L, idx) lua_objlen(L, idx)
/* luaL_tolstring of Lua 5.2+: pushes the value at idx as text (its
** __tostring if it has one) and returns it. Used by the runtime (runtime/). */
static inline const char *lds_tolstring(lua_State *L, int idx, size_t *len) {
  if (idx < 0 && idx > LUA_REGISTRYINDEX) idx = lua_gettop(L) + idx + 1;
  if (luaL_callmeta(L, idx, "__tostring")) {
    if (!lua_isstring(L, -1)) luaL_error(L, "'__tostring' must return a string");
  } else {
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
    case LUA_TSTRING: lua_pushvalue(L, idx); break;
    case LUA_TBOOLEAN: lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false"); break;
    case LUA_TNIL: lua_pushliteral(L, "nil"); break;
    default:
      lua_pushfstring(L, "%s: %p", luaL_typename(L, idx), lua_topointer(L, idx));
      break;
    }
  }
  return lua_tolstring(L, -1, len);
}
#define luaL_tolstring(L, idx, len) lds_tolstring(L, idx, len)
#else
#define lds_newudata(L, size) lua_newuserdatauv(L, size, 1)
#define lds_setuv(L, idx) ((void)lua_setiuservalue(L, idx, 1))
#define lds_getuv(L, idx) ((void)lua_getiuservalue(L, idx, 1))
#ifndef luaL_pushfail
#define luaL_pushfail(L) lua_pushnil(L)
#endif
#define LDS_HAS_CLOSE 1
#endif

#endif
