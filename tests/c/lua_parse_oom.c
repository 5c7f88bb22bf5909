/* SPDX-License-Identifier: MIT */
/*
** lua_parse_oom.c — the constructors that read text (grid.parse,
** scenario.parse / scenario.load, graph.parse_dimacs, grid.from_ascii and
** grid.from_rows with a legend) under an allocator that fails every
** allocation from the n-th on, for n = 1, 2, ... until the call succeeds:
** each failure is a Lua error or a nil, msg, "nomem" return, never a crash,
** and nothing leaks (the core allocates through the state's allocator, so
** after lua_close every byte must be back). Built per engine by `make lua`
** (build/lua54/parse_oom, build/luajit/parse_oom); run by
** tests/spec/34-parse_oom_spec.lua. Usage: parse_oom MODULE_DIR SRC_DIR
*/
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Counter {
  size_t live;
  unsigned long count;   /* allocations (new blocks and growth) so far */
  unsigned long fail_at; /* 0 = never: refuse allocation number fail_at and later */
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

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  Counter *c = (Counter *)ud;
  size_t old = ptr ? osize : 0; /* with ptr == NULL, osize is a type tag */
  if (nsize == 0) {
    if (ptr) c->live -= osize;
    free(ptr);
    return NULL;
  }
  if (nsize > old) {
    c->count++;
    if (c->fail_at && c->count >= c->fail_at) return NULL;
  }
  ptr = realloc(ptr, nsize);
  if (ptr) c->live = c->live - old + nsize;
  return ptr;
}

/* Sweeps the function global `name` (no arguments; returns a true value on
** success): for n = 1.. runs it with allocation n and later failing, until
** it succeeds. Returns the number of failing runs (-1 if it never succeeds
** within the limit, or a run failed in an unexpected way). */
static long sweep(lua_State *L, Counter *c, const char *name) {
  unsigned long n;
  long failures = 0;
  for (n = 1; n < 200000; n++) {
    int st, ok;
    lua_settop(L, 0);
    lua_getglobal(L, name);
    c->count = 0;
    c->fail_at = n;
    st = lua_pcall(L, 0, 2, 0);
    c->fail_at = 0;
    if (st == 0 && lua_toboolean(L, 1)) {
      lua_settop(L, 0);
      lua_gc(L, LUA_GCCOLLECT, 0);
      return failures;
    }
    if (st == 0) { /* nil, msg: the core's out-of-memory report */
      ok = lua_type(L, 2) == LUA_TSTRING && strstr(lua_tostring(L, 2), "out of memory") != NULL;
    } else { /* a Lua error: "not enough memory" or a message naming the memory */
      ok = st == LUA_ERRMEM ||
           (lua_type(L, -1) == LUA_TSTRING && strstr(lua_tostring(L, -1), "memory") != NULL);
    }
    if (!ok) {
      fprintf(stderr, "%s at n=%lu: status %d, %s\n", name, n, st,
              lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(no message)");
      return -1;
    }
    failures++;
    lua_settop(L, 0);
    lua_gc(L, LUA_GCCOLLECT, 0);
  }
  return -1;
}

int main(int argc, char **argv) {
  Counter c = {0, 0, 0};
  const char *moddir = argc > 1 ? argv[1] : "build/lua54";
  const char *src = argc > 2 ? argv[2] : ".";
  char code[8192];
  static const char *const names[] = {"grid_parse", "scen_parse", "scen_load", "dimacs",
                                      "ascii",      "from_rows",  NULL};
  int i;
  lua_State *L = lua_newstate(failing_alloc, &c);
  if (!L) {
    printf("parse_oom: 0 passed, 1 failed (no state)\n");
    return 1;
  }
  luaL_openlibs(L);
  snprintf(code, sizeof code,
           "package.cpath = '%s/?.so;' .. package.cpath\n"
           "local l = require 'lodestar.core'\n"
           "local function read(p) local f = assert(io.open(p, 'rb')) local t = f:read('*a') "
           "f:close() return t end\n"
           "local map = read('%s/tests/data/arena.map')\n"
           "local scen = read('%s/tests/data/arena.map.scen')\n"
           "local scen_path = '%s/tests/data/arena.map.scen'\n"
           "local gr = 'p sp 4 5\\na 1 2 7\\na 2 3 1\\na 1 3 9\\na 3 4 2\\na 4 1 3\\n'\n"
           "local co = 'p aux sp co 4\\nv 1 1 1\\nv 2 2 1\\nv 3 2 2\\nv 4 1 2\\n'\n"
           "local legend = {['~'] = {cost = 5, layers = {water = 1, mud = 2}}, ['='] = 0.5,\n"
           "  ['#'] = 'blocked', [','] = {terrain = 'm', layers = {mud = 3}}}\n"
           "local pic = ('S~~=,,#.\\n'):rep(8)\n"
           "local rows = {} for k = 1, 8 do rows[k] = 'S~~=,,#.' end\n"
           "function grid_parse() return l.grid.parse(map, 'arena.map') end\n"
           "function scen_parse() local s, m = l.scenario.parse(scen, 'arena.map.scen') "
           "if s then assert(#s == 160 and s[160].map == 'arena.map') end return s, m end\n"
           "function scen_load() return l.scenario.load(scen_path) end\n"
           "function dimacs() return l.graph.parse_dimacs(gr, co, 'a.gr', 'a.co') end\n"
           "function ascii() local g, m = l.grid.from_ascii(pic, {legend = legend}) "
           "if g then assert(#g:layer_list() == 2 and g:layer_get('mud', 4, 0) == 3) end "
           "return g, m end\n"
           "function from_rows() return l.grid.from_rows(rows, {legend = legend}) end\n",
           moddir, src, src, src);
  if (luaL_loadstring(L, code) != 0 || lua_pcall(L, 0, 0, 0) != 0) {
    fprintf(stderr, "setup: %s\n", lua_tostring(L, -1));
    printf("parse_oom: 0 passed, 1 failed\n");
    return 1;
  }
  for (i = 0; names[i]; i++) {
    long f = sweep(L, &c, names[i]);
    char what[96];
    snprintf(what, sizeof what, "%s: every failing allocation fails cleanly (%ld runs)", names[i],
             f);
    CHECK(f > 0, what);
  }
  lua_close(L);
  CHECK(c.live == 0, "closing the state freed every byte, lodestar's included");
  printf("parse_oom: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
