/* SPDX-License-Identifier: MIT */
/*
** lua_two_states.c — two lua_States in one process load lodestar.core and
** share nothing: each state's grids and searches are charged to its own
** allocator, searches interleave without interference, and closing one
** state leaves the other working; in a third state with a memory limit
** a grid too big for it is nil, message, "nomem" (an expected failure, as
** for the loaders), a search too big raises the core's message, and
** nothing leaks. Built per engine by `make lua`
** (build/lua54/two_states, build/luajit/two_states); run by
** tests/spec/08-states_spec.lua. Usage: two_states MODULE_DIR
*/
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Counter {
  size_t live;
  size_t limit; /* 0 = none: refuse growth beyond this many live bytes */
} Counter;

static int passed, failed;

#define CHECK(cond, what)                                   \
  do {                                                      \
    if (cond)                                               \
      passed++;                                             \
    else {                                                  \
      failed++;                                             \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, what); \
    }                                                       \
  } while (0)

static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  Counter *c = (Counter *)ud;
  if (nsize == 0) {
    if (ptr) c->live -= osize;
    free(ptr);
    return NULL;
  }
  {
    void *old = ptr; /* with ptr == NULL, osize is a type tag, not a size */
    if (c->limit && c->live - (old ? osize : 0) + nsize > c->limit) return NULL;
    ptr = realloc(ptr, nsize);
    if (ptr) c->live = c->live - (old ? osize : 0) + nsize;
  }
  return ptr;
}

/* Runs a chunk; returns its first result as a number (or -1 on error). */
static double run(lua_State *L, const char *code) {
  double v;
  if (luaL_loadstring(L, code) != 0 || lua_pcall(L, 0, 1, 0) != 0) {
    fprintf(stderr, "lua error: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    return -1;
  }
  v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

/* Runs a chunk that must return a string; compares it with `want`. */
static int run_str(lua_State *L, const char *code, const char *want) {
  int ok;
  if (luaL_loadstring(L, code) != 0 || lua_pcall(L, 0, 1, 0) != 0) {
    fprintf(stderr, "lua error: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    return 0;
  }
  ok = lua_tostring(L, -1) && strstr(lua_tostring(L, -1), want) != NULL;
  if (!ok) fprintf(stderr, "got \"%s\", want \"%s\"\n", lua_tostring(L, -1), want);
  lua_pop(L, 1);
  return ok;
}

static lua_State *open_state(Counter *c, const char *moddir) {
  char code[4096];
  lua_State *L;
  L = lua_newstate(counting_alloc, c); /* the binding charges lodestar memory here too */
  luaL_openlibs(L);
  snprintf(code, sizeof code, "package.cpath = '%s/?.so;' .. package.cpath; "
           "lodestar = require 'lodestar.core'; return 1", moddir);
  run(L, code);
  return L;
}

int main(int argc, char **argv) {
  Counter ca = {0}, cb = {0};
  lua_State *A, *B;
  size_t before;
  const char *moddir = argc > 1 ? argv[1] : "build/lua54";
  A = open_state(&ca, moddir);
  B = open_state(&cb, moddir);
  CHECK(run(A, "return lodestar and 1 or 0") == 1, "module loads in state A");
  CHECK(run(B, "return lodestar and 1 or 0") == 1, "module loads in state B");
  CHECK(run(A, "return debug.getregistry()['lodestar.Grid'] ~= nil and 1 or 0") == 1,
        "A has its own metatable");
  /* a big grid in A is charged to A's allocator only */
  before = cb.live;
  {
    size_t a0 = ca.live;
    run(A, "g = lodestar.grid.new(512, 512); return 1");
    CHECK(ca.live - a0 > 512 * 512 * 6, "A's grid memory comes from A's allocator");
    CHECK(cb.live == before, "B's allocator saw nothing");
  }
  run(B, "g = lodestar.grid.new(64, 64); for y = 0, 62 do g:set_blocked(32, y, true) end; return 1");
  /* interleaved sliced searches */
  run(A, "s = lodestar.search.astar(g, {start = {0, 0}, goal = {511, 511}}); return 1");
  run(B, "s = lodestar.search.astar(g, {start = {0, 0}, goal = {63, 0}}); return 1");
  {
    int i;
    for (i = 0; i < 200; i++) {
      run(A, "s:step(50) return 1");
      run(B, "s:step(7) return 1");
    }
  }
  run(A, "s:run() return 1");
  run(B, "s:run() return 1");
  CHECK(run(A, "return s:cost()") > 722.0 && run(A, "return s:cost()") < 723.0,
        "A's search found 511*sqrt2");
  CHECK(run(B, "return #s:path()") > 64, "B's search went around its wall");
  CHECK(run(B, "return select(1, g:size())") == 64, "B sees its own grid");
  CHECK(run(A, "return select(1, g:size())") == 512, "A sees its own grid");
  /* closing A leaves B working */
  lua_close(A);
  CHECK(ca.live == 0, "closing A freed all of A's memory, lodestar's included");
  run(B, "s:start(0, 0, 63, 63) return 1");
  CHECK(run(B, "return s:run() == 'found' and 1 or 0") == 1, "B still searches after A closed");
  lua_close(B);

  /* a state with a memory limit: a grid that does not fit is nil, message,
  ** "nomem"; a search that does not fit raises the core's message; nothing
  ** leaks (create-then-fill) */
  {
    Counter cc = {0, 0};
    lua_State *C = open_state(&cc, moddir);
    size_t base;
    run(C, "collectgarbage() collectgarbage() return 1");
    base = cc.live;
    cc.limit = base + 2u * 1024u * 1024u;
    CHECK(run_str(C, "local g, e, st = lodestar.grid.new(1000, 1000) "
                     "return tostring(g) .. ' ' .. st .. ' ' .. e",
                  "nil nomem lds_grid_new: out of memory for a 1000x1000 grid (7024024 bytes)"),
          "grid too big for the limit: nil, the core message, nomem");
    CHECK(run_str(C, "local g0 = assert(lodestar.grid.new(500, 500)) local g, e, st = g0:clone() "
                     "return tostring(g) .. ' ' .. st .. ' ' .. e",
                  "nil nomem lds_grid_clone: out of memory for a 500x500 grid"),
          "a clone too big for the limit (the 1.8 MB grid fits once): nil, the message, nomem");
    run(C, "collectgarbage() collectgarbage() return 1");
    CHECK(run_str(C, "local g = lodestar.grid.new(300, 300) "
                     "local ok, e = pcall(lodestar.search.astar, g) return tostring(e)",
                  "lds_search_new: out of memory"),
          "search too big for the limit: error with the core message");
    run(C, "collectgarbage() collectgarbage() return 1");
    CHECK(cc.live <= base + 4096, "nothing leaked after the failures");
    CHECK(run_str(C, "return tostring(lodestar.find_path(lodestar.grid.new(8, 8), 0, 0, 7, 7).cost)",
                  "9.899"),
          "the state still works");
    cc.limit = 0;
    lua_close(C);
    CHECK(cc.live == 0, "closing C freed everything");
  }
  printf("two_states: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
