/* SPDX-License-Identifier: MIT */
/*
** lua_path_cache.c — lodestar.PathCache: the path cache of
** core/lds_path_cache.h for Lua (lodestar.path_cache(grid, opts)):
** per goal and layer-weight set, one shortest-path tree grown backwards
** from the goal by Dijkstra's algorithm and shared by every query heading
** there. cache:find_path answers the queries the core cache accepts from
** the tree (a hit walks it, a miss grows it) and hands every other query to
** lodestar.find_path's search, so each call returns what find_path returns
** for the grid as it is now. The core cache listens to the grid's edits and
** cuts its trees back to the cells they left exact (docs/big-maps.md).
**
** The box follows the hierarchy's pattern (lua_hpa.c): the grid userdata
** anchored in the user value ([1]), the grid box's nsearch counted so that
** grid:free() or its collection keeps the core grid until the cache goes.
** Not on the mod allow-list (a host decides how much memory caches take).
** [Paper: Dijkstra, "A note on two problems in connexion with graphs",
**  Numerische Mathematik 1959]
*/
#include "lua_util.h"

typedef struct CacheBox {
  lds_PathCache *pc;
  GridBox *gb;
  uint32_t max_entries;
  uint64_t searches; /* queries the cache did not take: answered by a search */
} CacheBox;

static const char *const cache_opts[] = {"max_entries", NULL};

/* The box at arg (raises a type error naming the argument otherwise). */
static CacheBox *check_cachebox(lua_State *L, int arg) {
  CacheBox *b = (CacheBox *)luaL_testudata(L, arg, LDS_PATH_CACHE_MT);
  if (!b) ldsl_type_error(L, arg, LDS_PATH_CACHE_MT);
  return b;
}

/* The live cache at arg whose grid is still in use; method names the
** caller in the error raised after grid:free(). */
static CacheBox *check_cache(lua_State *L, int arg, const char *method) {
  CacheBox *b = check_cachebox(L, arg);
  if (!b->pc) luaL_error(L, "attempt to use a freed %s", LDS_PATH_CACHE_MT);
  if (method && b->gb->closed)
    luaL_error(L, "%s:%s: its grid was freed (grid:free()); make a new cache for a live grid",
               LDS_PATH_CACHE_MT, method);
  return b;
}

static void cache_release(CacheBox *b) {
  if (b->pc) lds_path_cache_free(b->pc); /* stops listening to the grid first */
  b->pc = NULL;
  if (b->gb) {
    GridBox *gb = b->gb;
    b->gb = NULL;
    gb->nsearch--;
    if (gb->closed) ldsl_space_release(gb);
  }
}

static int cache_gc(lua_State *L) {
  CacheBox *b = (CacheBox *)lua_touserdata(L, 1);
  if (b) cache_release(b);
  return 0;
}

/* cache:free(): frees the trees now; idempotent. Later calls raise. */
static int cache_free(lua_State *L) {
  cache_release(check_cachebox(L, 1));
  return 0;
}

static int cache_tostring(lua_State *L) {
  CacheBox *b = check_cachebox(L, 1);
  lds_PathCacheStats st;
  if (!b->pc) {
    lua_pushfstring(L, "%s (freed)", LDS_PATH_CACHE_MT);
    return 1;
  }
  lds_path_cache_stats(b->pc, &st);
  lua_pushfstring(L, "%s %d of %d trees (%p)", LDS_PATH_CACHE_MT, (int)st.entries,
                  (int)b->max_entries, (void *)b);
  return 1;
}

/* lodestar.path_cache(grid [, {max_entries = 16}]) -> a lodestar.PathCache.
** max_entries: trees kept at most, an integer 1..1024 (one per goal and
** weight set in use; the least recently used one is reused for a new goal).
** Memory: 16 bytes per padded cell for each tree, allocated on its first
** query through the Lua state's allocator, plus its open list. Raises for a
** bad grid or option (naming it), and for a grid of 2^27 padded cells or
** more. The cache keeps its grid alive. */
int ldsl_path_cache_new(lua_State *L) {
  GridBox *gb = ldsl_check_gridbox(L, 1);
  lds_Grid *g = ldsl_check_grid(L, 1);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  CacheBox *b;
  int self;
  double n = 16;
  lua_settop(L, 2);
  if (!lua_isnil(L, 2)) {
    ldsl_check_table(L, 2);
    ldsl_check_keys(L, 2, "option", "opts keys must be strings", cache_opts, NULL);
    lua_getfield(L, 2, "max_entries");
    if (!lua_isnil(L, -1)) {
      char buf[64];
      if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, 2, "max_entries", "number");
      n = lua_tonumber(L, -1);
      if (n != floor(n) || !(n >= 1 && n <= 1024))
        ldsl_opt_error(L, 2, "max_entries",
                       lua_pushfstring(L, "%s out of range (expected an integer 1..1024)",
                                       ldsl_fmt_coord(buf, sizeof buf, n)));
    }
    lua_pop(L, 1);
  }
  b = (CacheBox *)lds_newudata(L, sizeof(CacheBox)); /* grid, opts, box */
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_PATH_CACHE_MT);
  self = lua_gettop(L);
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, 1);
  lua_rawseti(L, -2, 1); /* anchor the grid */
  lds_setuv(L, self);
  b->pc = lds_path_cache_new(&env, g, (uint32_t)n, &err);
  if (!b->pc) {
    if (err.code == LDS_E_ARG) return ldsl_arg_error(L, 1, err.msg); /* grid too large */
    return luaL_error(L, "%s", err.msg);
  }
  b->gb = gb;
  gb->nsearch++;
  b->max_entries = (uint32_t)n;
  lua_settop(L, self);
  return 1;
}

/* The query of cache:find_path / cache:accepts at 2..6 (sx, sy, gx, gy,
** opts: find_path's): checks the cells and options with find_path's
** messages, fills *p (layer weights resolved by name into lw [Shape: 16])
** and the cells. Leaves on the stack, from 6: the options without
** `algorithm` and, when opts is a table, the original at 7, then opts.cost
** and the checked weights copy (at the top). Returns 1 when the core cache
** can answer the query (lds_path_cache_accepts), 0 when a search must. */
static int read_query(lua_State *L, const CacheBox *b, lds_SearchParams *p, double *lw,
                      int32_t *c) {
  const lds_Grid *g = b->gb->g;
  const char *algo;
  lds_Algo a;
  int wi, n = 0, ok = 1;
  ldsl_check_start_goal(L, g, 2, c);
  algo = ldsl_take_algorithm(L, 6);
  if (lds_algo_parse(algo, &a) != LDS_OK) ldsl_unknown_algorithm(L, 6, algo, 0);
  ldsl_parse_search_opts(L, 6, p, g, "algorithm"); /* ..., cost, weights */
  p->algo = a;
  if (!lua_isnil(L, -2)) ok = 0; /* an edge callback: a search calls it */
  if (lua_istable(L, 6)) { /* opts.start / opts.goal: checked as find_path checks them */
    int32_t x, y;
    int has_start, has_goal;
    lua_getfield(L, 6, "start");
    has_start = !lua_isnil(L, -1);
    if (has_start) ldsl_opt_cell(L, 6, "start", g, &x, &y);
    lua_getfield(L, 6, "goal");
    has_goal = !lua_isnil(L, -1);
    if (has_goal) ldsl_opt_cell(L, 6, "goal", g, &x, &y);
    lua_pop(L, 2);
    if (has_start != has_goal) ldsl_arg_error(L, 6, "opts.start and opts.goal go together");
  }
  wi = lua_gettop(L);
  memset(lw, 0, 16 * sizeof *lw);
  if (lua_type(L, wi) == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, wi)) { /* names were checked against g's layers */
      int idx = lds_grid_layer_find(g, lua_tostring(L, -2));
      if (idx < 0 || idx >= 16)
        ok = 0; /* the search raises its error for this layer */
      else {
        lw[idx] = lua_tonumber(L, -1);
        if (idx + 1 > n) n = idx + 1;
      }
      lua_pop(L, 1);
    }
  }
  p->layer_weights = n ? lw : NULL;
  p->n_layer_weights = n;
  return ok && lds_path_cache_accepts(b->pc, p, c[0], c[1], c[2], c[3]);
}

/* cache:find_path(sx, sy, gx, gy [, opts]) -> path | nil, "no_path" | nil,
** message, status: what lodestar.find_path(grid, sx, sy, gx, gy, opts)
** returns for the grid as it is now, in cells (0-based) and cost units.
** opts are find_path's (algorithm, heuristic, weight, h_scale, partial,
** weights, cost), checked with its messages. A query the core cache takes
** (lds_path_cache_accepts: A*, Dijkstra, JPS or JPS+ with the automatic
** h_scale, the auto/zero/octile heuristic, no cost callback, no partial,
** start and goal distinct and passable, the goal not blocked by a weighted
** layer) is answered from the tree of its goal and weights: the same cost
** as the search (optimal), though among equal-cost paths not necessarily
** the same cells. Every other query runs find_path's search. The path is
** the caller's and remembers opts.weights. Bad arguments raise. */
static int cache_find_path(lua_State *L) {
  CacheBox *b = check_cache(L, 1, "find_path");
  lds_SearchParams p;
  double lw[16];
  int32_t c[4];
  lds_Path *path = NULL;
  lds_Error err;
  int has_opts;
  lua_settop(L, 6);
  has_opts = lua_type(L, 6) == LUA_TTABLE;
  if (read_query(L, b, &p, lw, c)) {
    lds_Status st = lds_path_cache_query(b->pc, &p, c[0], c[1], c[2], c[3], 0, NULL, &path, &err);
    if (st == LDS_FOUND) {
      int wi = lua_gettop(L);
      lds_lua_push_path(L, path, 1);
      ldsl_path_remember(L, -1, wi);
      return 1;
    }
    if (st == LDS_NO_PATH) {
      luaL_pushfail(L);
      lua_pushstring(L, "no_path");
      return 2;
    }
    /* LDS_E_ARG (a weighted cell cost <= 0: the search names the cell) or
    ** LDS_E_NOMEM: the search answers */
  }
  b->searches++;
  if (has_opts) { /* find_path sees the options as given */
    lua_pushvalue(L, 7);
    lua_replace(L, 6);
  }
  lua_settop(L, 6);
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 1);
  lua_replace(L, 1); /* grid, sx, sy, gx, gy, opts: argument numbers as find_path's */
  lua_settop(L, 6);
  return ldsl_find_path(L);
}

/* cache:accepts(sx, sy, gx, gy [, opts]) -> boolean: whether find_path
** with these arguments would be answered by the cache (true) or by a
** search (false), for the grid as it is now. Raises as find_path does. */
static int cache_accepts(lua_State *L) {
  CacheBox *b = check_cache(L, 1, "accepts");
  lds_SearchParams p;
  double lw[16];
  int32_t c[4];
  lua_settop(L, 6);
  lua_pushboolean(L, read_query(L, b, &p, lw, c));
  return 1;
}

void ldsl_push_path_cache_stats(lua_State *L, const lds_PathCache *pc) {
  lds_PathCacheStats st;
  lds_path_cache_stats(pc, &st);
  lua_createtable(L, 0, 12);
#define SETI(name, v)              \
  ldsl_push_u64(L, (uint64_t)(v)); \
  lua_setfield(L, -2, name)
  SETI("answered", st.answered);
  SETI("hits", st.hits);
  SETI("misses", st.grown);
  SETI("expansions", st.expansions);
  SETI("invalidated", st.resets);
  SETI("truncated", st.truncations);
  SETI("evictions", st.evictions);
  SETI("entries", st.entries);
  SETI("bytes", st.bytes);
#undef SETI
}

/* cache:stats() -> {answered, hits, misses, searches, expansions,
** invalidated, truncated, evictions, entries, max_entries, bytes}: queries
** answered by the cache (hits: without expanding a cell; misses: after
** growing a tree), queries answered by a search instead, cells the trees
** settled, edits that changed a tree, per tree (invalidated; of which
** truncated cut a subtree out of it), trees reused for another goal, trees
** in use and at most, and the bytes the cache holds. Counts since
** creation; works after grid:free(). */
static int cache_stats(lua_State *L) {
  CacheBox *b = check_cache(L, 1, NULL);
  ldsl_push_path_cache_stats(L, b->pc);
  ldsl_push_u64(L, b->searches);
  lua_setfield(L, -2, "searches");
  ldsl_push_u64(L, b->max_entries);
  lua_setfield(L, -2, "max_entries");
  return 1;
}

/* cache:clear() -> cache: forgets every tree (their memory is kept). */
static int cache_clear(lua_State *L) {
  CacheBox *b = check_cache(L, 1, NULL);
  lds_path_cache_clear(b->pc);
  lua_settop(L, 1);
  return 1;
}

/* cache:grid() -> the grid userdata */
static int cache_grid(lua_State *L) {
  check_cache(L, 1, NULL);
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

const luaL_Reg ldsl_path_cache_meth[] = {{"accepts", cache_accepts}, {"clear", cache_clear},
                                         {"find_path", cache_find_path}, {"free", cache_free},
                                         {"grid", cache_grid},           {"stats", cache_stats},
                                         {NULL, NULL}};

const luaL_Reg ldsl_path_cache_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", cache_gc},
#endif
    {"__gc", cache_gc},
    {"__tostring", cache_tostring},
    {NULL, NULL}};
