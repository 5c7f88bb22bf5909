/* SPDX-License-Identifier: MIT */
/*
** lua_options.c — search options outside a search: lodestar.core.search_options
** (request_path and mod profiles check their options with it) and
** lds_lua_search_params (the C runtime reads options with it). Both use
** ldsl_parse_search_opts, the parser of find_path and lodestar.search.<algo>,
** so an option is checked the same way and fails with the same message
** everywhere.
*/
#include "lua_util.h"

#include <stdlib.h>

/* Fields of a normalised options table, in the order they are copied. */
static const char *const copied[] = {"heuristic", "weight", "h_scale", "partial", "start", "goal",
                                     NULL};

/* Checks the opts at 1 (nil or a table) for the grid at 2 (nil: layer names
** of opts.weights not checked); pushes the normalised table. The caller
** keeps the grid alive (this function drops it from its own stack). */
static int check_options(lua_State *L) {
  const lds_Grid *g = lua_isnoneornil(L, 2) ? NULL : ldsl_check_grid(L, 2);
  const char *algo = ldsl_take_algorithm(L, 1); /* 1: opts without algorithm, 2: opts */
  lds_SearchParams p;
  lds_Algo a;
  int i, out;
  if (lua_isnil(L, 1)) { /* no opts: 1 and 2 nil */
    lua_settop(L, 1);
    lua_pushnil(L);
  }
  if (lds_algo_parse(algo, &a) != LDS_OK) return ldsl_unknown_algorithm(L, 1, algo, 0);
  ldsl_parse_search_opts(L, 1, &p, g, "algorithm"); /* cost, weights copy */
  lua_newtable(L);
  out = lua_gettop(L);
  if (!lua_isnil(L, 2)) {
    lua_getfield(L, 2, "algorithm");
    if (!lua_isnil(L, -1)) lua_setfield(L, out, "algorithm");
    else lua_pop(L, 1);
    for (i = 0; copied[i]; i++) {
      lua_getfield(L, 1, copied[i]);
      if (!lua_isnil(L, -1) && g && (i == 4 || i == 5)) {
        int32_t x, y;
        ldsl_opt_cell(L, 1, copied[i], g, &x, &y);
      }
      lua_setfield(L, out, copied[i]);
    }
  }
  lua_pushvalue(L, out - 1);
  lua_setfield(L, out, "weights");
  lua_pushvalue(L, out - 2);
  lua_setfield(L, out, "cost");
  return 1;
}

/* lodestar.core.search_options(opts [, grid [, fname]]) -> table
** Checks opts exactly as find_path(grid, ..., opts) does (the keys of a
** search plus `algorithm`; weights against grid's layers when grid is
** given) and returns a new table with the options it set: algorithm,
** heuristic, weight, h_scale, partial, start, goal, weights (a copy),
** cost. Raises find_path's "bad argument" errors; with fname they name
** fname instead ("bad argument #1 to 'request_path' (opts.weight:
** ...)") for callers that check options on behalf of their own function. */
int ldsl_search_options(lua_State *L) {
  const char *fname = "search_options";
  lua_settop(L, 3);
  if (!lua_isnil(L, 3)) fname = ldsl_check_str(L, 3);
  /* under pcall: this frame anchors opts and the grid while check_options
  ** reorders its own stack */
  lua_pushcfunction(L, check_options); /* opts, grid, fname, fn */
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  if (lua_pcall(L, 2, 1, 0) != 0) {
    if (lua_type(L, -1) == LUA_TSTRING) {
      const char *msg = lua_tostring(L, -1);
      const char *paren = strstr(msg, "' (");
      if (strncmp(msg, "bad argument #", 14) == 0 && paren) /* keep the number */
        lua_pushfstring(L, "bad argument #%d to '%s' (%s", atoi(msg + 14), fname, paren + 3);
    }
    return lua_error(L);
  }
  return 1;
}

/* The body of lds_lua_search_params under lua_pcall: 1 opts, 2 grid
** (light userdata), 3 params, 4 weights (light userdata). */
static int params_body(lua_State *L) {
  const lds_Grid *g = (const lds_Grid *)lua_touserdata(L, 2);
  lds_SearchParams *p = (lds_SearchParams *)lua_touserdata(L, 3), q;
  double *w = (double *)lua_touserdata(L, 4);
  lua_settop(L, 1);
  lua_pushnil(L); /* 2: no grid userdata; the layer names are checked below */
  lua_pushcfunction(L, check_options);
  lua_insert(L, 1);
  lua_call(L, 2, 1); /* 1: normalised opts */
  lua_getfield(L, 1, "cost");
  if (!lua_isnil(L, -1))
    return luaL_error(L, "bad argument #1 to '?' (opts.cost: not supported here (the scheduler "
                      "runs searches without Lua callbacks))");
  lua_pop(L, 1);
  ldsl_parse_search_opts(L, 1, &q, NULL, "algorithm"); /* values only: checked above */
  lua_pop(L, 2);
  lua_getfield(L, 1, "algorithm");
  if (!lua_isnil(L, -1)) lds_algo_parse(lua_tostring(L, -1), &p->algo);
  lua_getfield(L, 1, "heuristic");
  if (!lua_isnil(L, -1)) p->heuristic = q.heuristic;
  lua_getfield(L, 1, "weight");
  if (!lua_isnil(L, -1)) p->weight = q.weight;
  lua_getfield(L, 1, "h_scale");
  if (!lua_isnil(L, -1)) p->h_scale = q.h_scale;
  lua_getfield(L, 1, "partial");
  if (!lua_isnil(L, -1)) p->partial = q.partial;
  lua_settop(L, 1);
  lua_getfield(L, 1, "weights");
  if (lua_type(L, -1) == LUA_TTABLE) {
    int n = 0;
    memset(w, 0, 16 * sizeof(double));
    lua_pushnil(L);
    while (lua_next(L, -2)) { /* weights, name, value */
      const char *name = lua_tostring(L, -2);
      int li = lds_grid_layer_find(g, name);
      if (li < 0) return luaL_error(L, "bad argument #1 to '?' (opts.weights: the grid has no "
                                    "layer '%s')", name);
      if (li >= 16)
        return luaL_error(L, "bad argument #1 to '?' (opts.weights: layer '%s' is layer %d (at "
                          "most 16 layers can be weighted))", name, li + 1);
      w[li] = lua_tonumber(L, -1);
      if (li + 1 > n) n = li + 1;
      lua_pop(L, 1);
    }
    p->layer_weights = n ? w : NULL;
    p->n_layer_weights = n;
  }
  return 0;
}

const char *lds_lua_search_params(lua_State *L, int idx, const lds_Grid *g, lds_SearchParams *p,
                                  double *w) {
  lds_SearchParams tmp = *p;
  const char *msg;
  if (idx < 0 && idx > LUA_REGISTRYINDEX) idx = lua_gettop(L) + idx + 1;
  lua_pushcfunction(L, params_body);
  lua_pushvalue(L, idx);
  lua_pushlightuserdata(L, (void *)(uintptr_t)g);
  lua_pushlightuserdata(L, &tmp);
  lua_pushlightuserdata(L, w);
  if (lua_pcall(L, 4, 0, 0) == 0) {
    *p = tmp;
    return NULL;
  }
  msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error object is not a string";
  if (strncmp(msg, "bad argument #", 14) == 0 && strstr(msg, "' (")) { /* the text in (...) */
    const char *in = strstr(msg, "' (") + 3;
    size_t n = strlen(in);
    lua_pushlstring(L, in, n > 0 && in[n - 1] == ')' ? n - 1 : n);
    lua_remove(L, -2);
    msg = lua_tostring(L, -1);
  }
  return msg;
}
