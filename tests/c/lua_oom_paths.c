/* SPDX-License-Identifier: MIT */
/*
** lua_oom_paths.c — the path operations of lodestar.core leak nothing when
** Lua runs out of memory in the middle of them. For each operation and each
** n = 1..N, a fresh lua_State whose allocator (which the binding also uses
** for lodestar's own memory) fails every allocation from the n-th after the
** set-up on runs the operation under pcall, and is closed: every byte must be back (a
** temporary path that was not boxed before the failing allocation would
** stay allocated). Lua 5.4 only (LuaJIT's 64-bit build has no custom
** allocators). Built by `make lua` (build/lua54/lua_oom_paths); run by
** tests/spec/21-lua_oom_spec.lua. Usage: lua_oom_paths MODULE_DIR
*/
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Counter {
  size_t live;  /* bytes currently allocated */
  long count;   /* allocations (growths) so far */
  long fail_at; /* 0 = never: fail every allocation from this count on (Lua
                ** retries a failed one after an emergency collection) */
} Counter;

static int passed, failed;

#define CHECK(cond, ...)                                    \
  do {                                                      \
    if (cond)                                               \
      passed++;                                             \
    else {                                                  \
      failed++;                                             \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);  \
      fprintf(stderr, __VA_ARGS__);                         \
      fputc('\n', stderr);                                  \
    }                                                       \
  } while (0)

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  Counter *c = (Counter *)ud;
  size_t old = ptr ? osize : 0; /* with ptr == NULL, osize is a type tag */
  void *q;
  if (nsize == 0) {
    c->live -= old;
    free(ptr);
    return NULL;
  }
  if (nsize > old && ++c->count >= c->fail_at && c->fail_at) return NULL;
  q = realloc(ptr, nsize);
  if (q) c->live = c->live - old + nsize;
  return q;
}

/* the operations; each runs on a grid g and a 5-cell path p of it */
static const char *const ops[] = {
    "return p:reverse(g)", "return p:reverse()", "return p:sub(2, 4, g)", "return p:sub(2, 4)",
    "return p:prune_los(g)", "return lodestar.path.new(g, {{0, 0}, {1, 0}, {2, 0}})",
    "local s = lodestar.search.astar(g); s:start(0, 0, 4, 0); s:run(); return s:path()",
    ("local d = lodestar.search.dstar_lite(g, {start = {0, 0}, goal = {4, 0}}); d:compute(); "
     "return d:path()")};

static const char setup[] = "lodestar = require 'lodestar.core'; g = lodestar.grid.new(5, 2); "
                            "p = lodestar.path.new(g, {{0, 0}, {1, 0}, {2, 0}, {3, 1}, {4, 1}})";

/* One state: set up, fail allocation number n (counted from the start of
** op), run op, close. Returns 1 when op succeeded, 0 on an error, -1 on a
** set-up failure. *leak = bytes still allocated after lua_close. */
static int attempt(const char *moddir, const char *op, long n, size_t *leak, char *msg,
                   size_t msgsz) {
  Counter c = {0, 0, 0};
  lua_State *L = lua_newstate(failing_alloc, &c);
  char code[512];
  int ok;
  if (!L) return -1;
  luaL_openlibs(L);
  snprintf(code, sizeof code, "package.cpath = '%s/?.so;' .. package.cpath; %s", moddir, setup);
  if (luaL_dostring(L, code) != 0) {
    fprintf(stderr, "set-up: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return -1;
  }
  lua_gc(L, LUA_GCCOLLECT, 0);
  lua_gc(L, LUA_GCSTOP, 0); /* the count stays the op's own allocations */
  if (luaL_loadstring(L, op) != 0) {
    lua_close(L);
    return -1;
  }
  c.fail_at = c.count + n;
  ok = lua_pcall(L, 0, 1, 0) == 0;
  c.fail_at = 0;
  snprintf(msg, msgsz, "%s", ok ? "" : lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
  lua_close(L);
  *leak = c.live;
  return ok;
}

int main(int argc, char **argv) {
  size_t i;
  if (argc < 2) {
    fprintf(stderr, "usage: lua_oom_paths MODULE_DIR\n");
    return 2;
  }
  for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    long n;
    int ok = 0;
    for (n = 1; n <= 200 && !ok; n++) {
      size_t leak = 0;
      char msg[256];
      ok = attempt(argv[1], ops[i], n, &leak, msg, sizeof msg);
      if (getenv("OOM_DEBUG")) fprintf(stderr, "%s n=%ld ok=%d leak=%zu %s\n", ops[i], n, ok, leak, msg);
      CHECK(ok >= 0, "%s: set-up failed", ops[i]);
      if (ok < 0) break;
      CHECK(leak == 0, "%s, allocation %ld failing: %zu bytes leaked", ops[i], n, leak);
      CHECK(ok || strstr(msg, "memory") != NULL, "%s, allocation %ld failing: error '%s'",
            ops[i], n, msg);
    }
    CHECK(ok == 1, "%s never succeeded within 200 allocations", ops[i]);
  }
  printf("lua_oom_paths: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
