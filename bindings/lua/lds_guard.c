/* SPDX-License-Identifier: MIT */
/*
** lds_guard.c — a memory limit on a lua_State, for lodestar.mods: the count
** hook cannot see a single instruction that allocates gigabytes (`s = s ..
** s` forty times fits between two hook calls), so the allocator itself
** refuses growth past the limit while a mod runs. See lds_guard.h.
*/
#include <lauxlib.h>
#include <lua.h>

#include "lds_compat.h"
#include "lds_guard.h"

typedef struct MemGuard {
  lua_Alloc f; /* the allocator wrapped */
  void *ud;
  size_t total;   /* bytes allocated in the state now */
  size_t limit;   /* 0 = none */
  lua_Integer refused;
} MemGuard;

/* Registry key of the MemGuard userdata (its address is unique) */
static const char guard_key = 'm';

static void *guard_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  MemGuard *g = (MemGuard *)ud;
  size_t old = ptr ? osize : 0; /* for a new block osize is a type tag */
  void *r;
  if (g->limit && nsize > old && g->total - old + nsize > g->limit) {
    g->refused++;
    return NULL; /* Lua collects and retries, then raises its memory error */
  }
  r = g->f(g->ud, ptr, osize, nsize);
  if (r || nsize == 0) g->total = g->total - old + nsize;
  return r;
}

/* __gc of the MemGuard userdata: the state closes; its later frees go to
** the wrapped allocator directly (it made every block). Core objects that
** captured guard_alloc (lodestar objects made while a limit was in place,
** lua_util.c) may be finalized after this, still through guard_alloc: it
** keeps forwarding, with no limit (the userdata's memory outlives every
** finalizer of lua_close). */
static int guard_gc(lua_State *L) {
  MemGuard *g = (MemGuard *)lua_touserdata(L, 1);
  void *ud;
  if (lua_getallocf(L, &ud) == guard_alloc && ud == g) lua_setallocf(L, g->f, g->ud);
  g->limit = 0;
  return 0;
}

static MemGuard *get_guard(lua_State *L) {
  MemGuard *g;
  lua_pushlightuserdata(L, (void *)&guard_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  g = (MemGuard *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (g) return g;
  g = (MemGuard *)lua_newuserdata(L, sizeof *g); /* guard */
  g->f = NULL;
  g->limit = 0;
  g->refused = 0;
  lua_newtable(L); /* guard, mt */
  lua_pushcfunction(L, guard_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_pushlightuserdata(L, (void *)&guard_key);
  lua_pushvalue(L, -2);
  lua_rawset(L, LUA_REGISTRYINDEX); /* guard */
  lua_pop(L, 1);
  g->f = lua_getallocf(L, &g->ud);
  g->total = (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB, 0);
  lua_setallocf(L, guard_alloc, g);
  return g;
}

static int memory_limit(lua_State *L) {
  MemGuard *g = get_guard(L);
  size_t before = g->limit;
  lua_Integer refused = g->refused;
  if (lua_type(L, 1) == LUA_TNUMBER) {
    lua_Number n = lua_tonumber(L, 1);
    if (!(n >= 0)) return luaL_error(L, "bad argument #1 to 'memory_limit' (bytes must be >= 0)");
    g->limit = n < 1 ? 1 : n >= (lua_Number)((size_t)-1) ? (size_t)-1 : (size_t)n;
  } else if (lua_type(L, 1) == LUA_TBOOLEAN && !lua_toboolean(L, 1)) {
    g->limit = 0;
  } else if (!lua_isnoneornil(L, 1)) {
    return luaL_error(L, "bad argument #1 to 'memory_limit' (number or false expected, got %s)",
                      luaL_typename(L, 1));
  }
  if (!lua_isnone(L, 1)) g->refused = 0;
  if (before)
    lua_pushnumber(L, (lua_Number)before);
  else
    lua_pushboolean(L, 0);
  lua_pushinteger(L, refused);
  lua_pushnumber(L, (lua_Number)g->total);
  return 3;
}

/* Registry key of the sandbox flag (a boolean) */
static const char sandbox_key = 's';

int lds_guard_in_sandbox(lua_State *L) {
  int on;
  lua_pushlightuserdata(L, (void *)&sandbox_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  on = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return on;
}

static int sandbox(lua_State *L) {
  int was = lds_guard_in_sandbox(L);
  if (!lua_isnone(L, 1)) {
    lua_pushlightuserdata(L, (void *)&sandbox_key);
    lua_pushboolean(L, lua_toboolean(L, 1));
    lua_rawset(L, LUA_REGISTRYINDEX);
  }
  lua_pushboolean(L, was);
  return 1;
}

void lds_guard_open(lua_State *L) {
  lua_pushcfunction(L, memory_limit);
  lua_setfield(L, LUA_REGISTRYINDEX, "lodestar.memory_limit");
  lua_pushcfunction(L, sandbox);
  lua_setfield(L, LUA_REGISTRYINDEX, "lodestar.sandbox");
}
