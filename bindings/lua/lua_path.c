/* SPDX-License-Identifier: MIT */
/*
** lua_path.c — lodestar.Path: cells/nodes, sub, reverse, prune_los, weights, path.new,
** string_pull, grid:polyline_cost.
*/
#include "lua_util.h"

static PathBox *check_pathbox(lua_State *L, int arg) {
  PathBox *b = (PathBox *)luaL_testudata(L, arg, LDS_PATH_MT);
  if (!b) ldsl_type_error(L, arg, LDS_PATH_MT);
  return b;
}

static lds_Path *check_path(lua_State *L, int arg) {
  PathBox *b = check_pathbox(L, arg);
  if (!b->p) luaL_error(L, "attempt to use a freed %s", LDS_PATH_MT);
  return b->p;
}

PathBox *ldsl_new_pathbox(lua_State *L) {
  PathBox *b = (PathBox *)lds_newudata(L, sizeof(PathBox));
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_PATH_MT);
  return b;
}

/* Pushes a new path userdata owning p (p may be NULL: then raises err). */
void ldsl_push_path(lua_State *L, PathBox *b, lds_Path *p, const lds_Error *err) {
  if (!p) luaL_error(L, "%s", err->msg);
  b->p = p;
  b->owned = 1;
}

static int box_path(lua_State *L) {
  ldsl_new_pathbox(L);
  return 1;
}

/* p exists before its box here, so the box is made under lua_pcall: on a
** memory error an owned p is freed before the error goes on. */
void lds_lua_push_path(lua_State *L, lds_Path *p, int owned) {
  PathBox *b;
  if (!p) luaL_error(L, "no path");
  lua_pushcfunction(L, box_path); /* Lua 5.4: a light C function, no allocation */
  if (lua_pcall(L, 0, 1, 0) != 0) {
    if (owned) lds_path_free(p);
    lua_error(L);
  }
  b = (PathBox *)lua_touserdata(L, -1);
  b->p = p;
  b->owned = owned ? 1 : 0;
}

static int path_release(lua_State *L) {
  PathBox *b = (PathBox *)lua_touserdata(L, 1);
  if (b && b->p && b->owned) lds_path_free(b->p);
  if (b) b->p = NULL;
  return 0;
}

static int path_free(lua_State *L) {
  check_pathbox(L, 1);
  return path_release(L);
}

static int path_len(lua_State *L) {
  ldsl_push_u64(L, lds_path_length(check_path(L, 1)));
  return 1;
}

static int path_tostring(lua_State *L) {
  PathBox *b = check_pathbox(L, 1);
  char buf[64];
  if (!b->p)
    lua_pushfstring(L, "%s (freed)", LDS_PATH_MT);
  else
    lua_pushfstring(L, "%s %d %s cost %s%s (%p)", LDS_PATH_MT, (int)lds_path_length(b->p),
                    lds_path_width(b->p) == 0 ? "nodes" : "cells",
                    ldsl_fmt_num(buf, sizeof buf, lds_path_cost(b->p)),
                    (lds_path_flags(b->p) & LDS_PATH_PARTIAL) ? " partial" : "", (void *)b);
  return 1;
}

/* 1-based path index at arg, negative counts from the end (like string.sub). */
static size_t check_index(lua_State *L, lds_Path *p, int arg, double def) {
  double i = ldsl_opt_int(L, arg, def), n = (double)lds_path_length(p);
  if (i < 0) i = n + i + 1;
  char buf[64];
  if (i < 1 || i > n)
    ldsl_arg_error(L, arg, lua_pushfstring(L, "index %s out of range (path has %d cells)",
                                           ldsl_fmt_coord(buf, sizeof buf, ldsl_opt_int(L, arg, def)),
                                           (int)n));
  return (size_t)i - 1;
}

static int path_cell(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  size_t i = check_index(L, p, 2, 1);
  int32_t x, y;
  if (lds_path_width(p) == 0) { /* graph path: the node id */
    ldsl_push_u64(L, (uint64_t)lds_path_node(p, i) + 1);
    return 1;
  }
  lds_path_cell(p, i, &x, &y);
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  return 2;
}

static int path_cells_iter(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  lua_Number i = lua_tonumber(L, 2);
  int32_t x, y;
  if (i < 0 || i >= (lua_Number)lds_path_length(p)) return 0;
  if (lds_path_width(p) == 0) { /* graph path: i, node */
    lua_pushinteger(L, (lua_Integer)i + 1);
    ldsl_push_u64(L, (uint64_t)lds_path_node(p, (size_t)i) + 1);
    return 2;
  }
  lds_path_cell(p, (size_t)i, &x, &y);
  lua_pushinteger(L, (lua_Integer)i + 1);
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  return 3;
}

/* for i, x, y in path:cells() do ... end */
static int path_cells(lua_State *L) {
  check_path(L, 1);
  lua_pushcfunction(L, path_cells_iter);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

/* path:node(i) -> node id of a graph path (1-based ids and indices) */
static int path_node(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  size_t i = check_index(L, p, 2, 1);
  if (lds_path_width(p) != 0)
    return luaL_error(L, "%s: node() is for graph paths (use cell(i) on a grid path)",
                      LDS_PATH_MT);
  ldsl_push_u64(L, (uint64_t)lds_path_node(p, i) + 1);
  return 1;
}

/* for i, node in path:nodes() do ... end (graph paths) */
static int path_nodes(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  if (lds_path_width(p) != 0)
    return luaL_error(L, "%s: nodes() is for graph paths (use cells() on a grid path)",
                      LDS_PATH_MT);
  lua_pushcfunction(L, path_cells_iter); /* yields i, node on graph paths */
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

static int path_totable(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  size_t i, n = lds_path_length(p);
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    int32_t x, y;
    if (lds_path_width(p) == 0) { /* graph path: a list of node ids */
      ldsl_push_u64(L, (uint64_t)lds_path_node(p, i) + 1);
      lua_rawseti(L, -2, (int)i + 1);
      continue;
    }
    lds_path_cell(p, i, &x, &y);
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, x);
    lua_setfield(L, -2, "x");
    lua_pushinteger(L, y);
    lua_setfield(L, -2, "y");
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/* Raises "a grid path expected, got a graph path" against argument 1 (the
** path) when p is a graph path (width 0), which the grid functions would
** otherwise report as a width mismatch against the grid argument. */
static void check_grid_path(lua_State *L, const lds_Path *p) {
  if (lds_path_width(p) == 0) ldsl_arg_error(L, 1, "a grid path expected, got a graph path");
}

/* Keys (their addresses) in a path's user value table: a marker (the table
** is the path's own: on LuaJIT a fresh userdata's environment is the
** globals), the name -> weight table of the query the path was measured
** with (a private copy, never handed out, so post-processing keeps its
** costs), and the costs of the sub-paths its segments replaced (prune_los). */
static const char path_uv_key = 'u', path_weights_key = 'w', path_replaced_key = 'r';

/* Absolute stack index (lua_absindex is not in the 5.1 API). */
static int abs_index(lua_State *L, int i) {
  return i > 0 || i <= LUA_REGISTRYINDEX ? i : lua_gettop(L) + i + 1;
}

/* Pushes field key of the path at pi's own user value table (nil if none). */
static void path_uv_get(lua_State *L, int pi, const char *key) {
  lds_getuv(L, pi);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushlightuserdata(L, (void *)&path_uv_key);
    lua_rawget(L, -2);
    if (lua_toboolean(L, -1)) {
      lua_pop(L, 1);
      lua_pushlightuserdata(L, (void *)key);
      lua_rawget(L, -2);
      lua_remove(L, -2);
      return;
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_pushnil(L);
}

/* Sets field key of the path at pi's user value table (made on first use)
** to the value at vi; nothing when vi is 0 or holds nil. */
static void path_uv_set(lua_State *L, int pi, const char *key, int vi) {
  pi = abs_index(L, pi);
  if (vi == 0 || lua_isnoneornil(L, vi)) return;
  vi = abs_index(L, vi);
  lds_getuv(L, pi);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushlightuserdata(L, (void *)&path_uv_key);
    lua_rawget(L, -2);
    if (!lua_toboolean(L, -1)) { /* not ours (LuaJIT's globals) */
      lua_pop(L, 2);
      lua_pushnil(L);
    } else {
      lua_pop(L, 1);
    }
  }
  if (lua_type(L, -1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 3); /* uv */
    lua_pushlightuserdata(L, (void *)&path_uv_key);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pushvalue(L, -1);
    lds_setuv(L, pi);
  }
  lua_pushlightuserdata(L, (void *)key);
  lua_pushvalue(L, vi);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* Makes the path at pi remember the weights table at wi (name -> number). */
void ldsl_path_remember(lua_State *L, int pi, int wi) {
  if (wi != 0 && lua_type(L, wi) == LUA_TTABLE) path_uv_set(L, pi, &path_weights_key, wi);
}

/* Pushes the weights table the path at pi remembers, or nil. */
static void path_weights_table(lua_State *L, int pi) { path_uv_get(L, pi, &path_weights_key); }

/* Shallow copy of the table at idx, pushed. */
void ldsl_copy_table(lua_State *L, int idx) {
  idx = abs_index(L, idx);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, idx)) { /* copy, k, v */
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}


/* The weights a post-processing call measures with, into w[16] by layer
** index (returns the count for n_layer_weights): opts.weights when the
** table at oi has them (checked as a query's; oi 0: no opts), else those
** the path at pi remembers. Pushes the name -> weight table used (a copy
** of opts.weights, or the path's own) or nil, for the result to remember. */
static int post_weights(lua_State *L, int pi, int oi, const lds_Grid *g, double *w) {
  int n = 0;
  if (oi && !lua_isnoneornil(L, oi)) {
    lua_getfield(L, oi, "weights");
    if (!lua_isnil(L, -1)) {
      n = ldsl_dstar_weights(L, oi, g, w); /* checks names and values, by index */
      ldsl_copy_table(L, -1);
      lua_remove(L, -2);
      return n;
    }
    lua_pop(L, 1);
  }
  memset(w, 0, 16 * sizeof *w);
  if (pi)
    path_weights_table(L, pi);
  else
    lua_pushnil(L);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, -2)) { /* weights, name, w */
      const char *name = lua_tostring(L, -2);
      int idx = lds_grid_layer_find(g, name);
      if (idx < 0 || idx >= 16)
        luaL_error(L, "%s: the grid has no layer '%s' (weighted by the query that found the "
                   "path; pass opts.weights to measure with others)", LDS_PATH_MT, name);
      w[idx] = lua_tonumber(L, -1);
      if (idx + 1 > n) n = idx + 1;
      lua_pop(L, 1);
    }
  }
  return n;
}

static const char *const post_opts[] = {"weights", NULL};

/* Checks the optional opts table at oi of a post-processing call. */
static void check_post_opts(lua_State *L, int oi) {
  if (lua_isnoneornil(L, oi)) return;
  ldsl_check_table(L, oi);
  ldsl_check_keys(L, oi, "option", "opts keys must be strings", post_opts, NULL);
}

/* Cost of p on the grid at arg (optional), under the weights the path at
** pi remembers: recomputed, else NaN (unknown). */
static double recost(lua_State *L, const lds_Path *p, int arg, int pi) {
  double c, w[16];
  int nw;
  lds_Error err;
  if (lua_isnoneornil(L, arg)) return NAN;
  check_grid_path(L, p);
  nw = post_weights(L, pi, 0, ldsl_check_grid(L, arg), w);
  lua_pop(L, 1);
  if (lds_grid_path_cost_weighted(ldsl_check_grid(L, arg), p, w, nw, &c, &err) != LDS_OK)
    ldsl_weights_fail(L, 0, arg, "path.weights", err.msg);
  return c;
}

static int path_sub(lua_State *L) {
  lds_Path *p = check_path(L, 1), *q;
  size_t i = check_index(L, p, 2, 1), j = check_index(L, p, 3, -1);
  PathBox *b;
  lds_Error err;
  lua_settop(L, 4);
  if (i > j) return ldsl_arg_error(L, 3, "end index before start index");
  b = ldsl_new_pathbox(L);
  q = lds_path_sub(p, i, j, NAN, &err);
  ldsl_push_path(L, b, q, &err);
  path_weights_table(L, 1);
  ldsl_path_remember(L, 5, 6); /* the piece keeps the path's weights */
  lua_pop(L, 1);
  path_uv_get(L, 1, &path_replaced_key);
  if (lua_type(L, -1) == LUA_TTABLE) { /* and the replaced costs of its segments */
    size_t k;
    lua_createtable(L, (int)(j - i), 0);
    for (k = i + 1; k <= j; k++) {
      lua_rawgeti(L, -2, (int)k);
      lua_rawseti(L, -2, (int)(k - i));
    }
    path_uv_set(L, 5, &path_replaced_key, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (!lua_isnoneornil(L, 4)) {
    double c = recost(L, q, 4, 1);
    lds_Path *r = lds_path_sub(q, 0, lds_path_length(q) - 1, c, &err);
    if (!r) return luaL_error(L, "%s", err.msg);
    lds_path_free(q);
    b->p = r;
  }
  return 1;
}

static int path_reverse(lua_State *L) {
  lds_Path *p = check_path(L, 1), *q;
  PathBox *b;
  lds_Error err;
  double c = NAN;
  lds_Path *tmp;
  lua_settop(L, 2);
  if (!lua_isnoneornil(L, 2)) {
    /* the box first: a memory error while boxing, or recost raising on a
    ** bad grid, must find tmp owned by a userdata (freed by its __gc) */
    b = ldsl_new_pathbox(L);
    tmp = lds_path_reverse(p, 0.0, &err);
    ldsl_push_path(L, b, tmp, &err);
    c = recost(L, tmp, 2, 1);
  }
  b = ldsl_new_pathbox(L);
  q = lds_path_reverse(p, c, &err);
  ldsl_push_path(L, b, q, &err);
  path_weights_table(L, 1);
  ldsl_path_remember(L, -2, -1);
  lua_pop(L, 1);
  return 1;
}

/* path:prune_los(grid [, opts]): opts.weights (name -> weight) measure the
** costs, by default the weights of the query that found the path. The
** result remembers the weights it was measured with and, for each of its
** segments, the cost of the sub-path of the original path it replaced
** (path:replaced_costs(); summed through earlier prunings), which smoothing
** may spend. */
int ldsl_path_prune_los(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  lds_Grid *g = ldsl_check_grid(L, 2);
  lds_Error err;
  PathBox *b;
  lds_Path *q;
  double w[16];
  size_t *kept, n, m, k, j;
  int nw, have_in;
  lua_settop(L, 3);
  check_grid_path(L, p);
  check_post_opts(L, 3);
  nw = post_weights(L, 1, 3, g, w); /* path, grid, opts, weights */
  n = lds_path_length(p);
  kept = (size_t *)lds_newudata(L, (n ? n : 1) * sizeof(size_t)); /* 5: scratch, GC'd */
  b = ldsl_new_pathbox(L);                                               /* 6: the pruned path */
  q = lds_path_prune_los_weighted(p, g, w, nw, kept, &err);
  if (!q && err.code == LDS_E_ARG) return ldsl_weights_fail(L, 3, 2, "path.weights", err.msg);
  ldsl_push_path(L, b, q, &err);
  ldsl_path_remember(L, 6, 4);
  path_uv_get(L, 1, &path_replaced_key); /* 7: the input's replaced costs, or nil */
  have_in = lua_type(L, 7) == LUA_TTABLE;
  m = lds_path_length(q);
  lua_createtable(L, m > 1 ? (int)(m - 1) : 0, 0); /* 8 */
  for (k = 0; k + 1 < m; k++) {
    double sum = 0.0;
    for (j = kept[k] + 1; j <= kept[k + 1]; j++) { /* p's segment j: cells j-1 -> j */
      double c = 0.0;
      if (have_in) {
        lua_rawgeti(L, 7, (int)j);
        c = lua_tonumber(L, -1);
        lua_pop(L, 1);
      } else {
        int32_t x0, y0, x1, y1;
        double xy[4];
        lds_path_cell(p, j - 1, &x0, &y0);
        lds_path_cell(p, j, &x1, &y1);
        xy[0] = x0;
        xy[1] = y0;
        xy[2] = x1;
        xy[3] = y1;
        if (lds_grid_polyline_cost(g, xy, 2, w, nw, &c, &err) != LDS_OK)
          return luaL_error(L, "%s", err.msg); /* p's steps were checked: not reached */
      }
      sum += c;
    }
    lua_pushnumber(L, sum);
    lua_rawseti(L, 8, (int)k + 1);
  }
  path_uv_set(L, 6, &path_replaced_key, 8);
  lua_settop(L, 6);
  return 1;
}

/* path:string_pull(grid [, opts]) -> points: the shortest path through the
** corridor of the path's cells (lds_grid_funnel: exact, never longer than
** the path), a list of {x =, y =} cell coordinates (corners at .5) from the
** start centre to the goal centre, with fields length (Euclidean, cells)
** and cost (lds_grid_polyline_cost under opts.weights or the weights the
** path remembers; +inf when the line runs along a blocked cell's side,
** which the cost rule charges as the dearer cell). */
static int path_string_pull(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  lds_Grid *g = ldsl_check_grid(L, 2);
  lds_Error err;
  double *xy, len, cost, w[16];
  size_t n, m, i;
  int nw;
  lua_settop(L, 3);
  check_grid_path(L, p);
  check_post_opts(L, 3);
  nw = post_weights(L, 1, 3, g, w); /* 4: weights or nil */
  n = lds_path_length(p);
  xy = (double *)lds_newudata(L, 4 * (n ? n : 1) * sizeof(double)); /* 5: scratch, GC'd */
  if (lds_grid_funnel(g, p, xy, 2 * (n ? n : 1), &m, &len, &err) != LDS_OK)
    return ldsl_arg_error(L, 1, err.msg);
  if (lds_grid_polyline_cost(g, xy, m, w, nw, &cost, &err) != LDS_OK)
    return ldsl_weights_fail(L, 3, 3, "path.weights", err.msg);
  lua_createtable(L, (int)m, 2);
  for (i = 0; i < m; i++) {
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, xy[2 * i]);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, xy[2 * i + 1]);
    lua_setfield(L, -2, "y");
    lua_rawseti(L, -2, (int)i + 1);
  }
  lua_pushnumber(L, len);
  lua_setfield(L, -2, "length");
  lua_pushnumber(L, cost);
  lua_setfield(L, -2, "cost");
  return 1;
}

/* path:set_weights(weights | nil) -> path: the layer weights the path is
** measured with from now on (what a query's paths remember), for paths
** whose query ran elsewhere (a runtime request); a copy is kept. Clears the
** replaced costs (they were measured under the old weights). */
static int path_set_weights(lua_State *L) {
  check_path(L, 1);
  lua_settop(L, 2);
  if (!lua_isnil(L, 2)) {
    ldsl_check_table(L, 2);
    lua_pushnil(L);
    while (lua_next(L, 2)) { /* weights, name, w */
      char buf[64];
      if (lua_type(L, -2) != LUA_TSTRING) ldsl_arg_error(L, 2, "keys must be layer names");
      if (lua_type(L, -1) != LUA_TNUMBER)
        ldsl_arg_error(L, 2, lua_pushfstring(L, "weight of layer '%s': number expected, got %s",
                                        lua_tostring(L, -2), ldsl_value_name(L, -1)));
      if (isnan(lua_tonumber(L, -1)) || isinf(lua_tonumber(L, -1)))
        ldsl_arg_error(L, 2, lua_pushfstring(L, "weight of layer '%s' is %s (expected finite)",
                                        lua_tostring(L, -2),
                                        ldsl_fmt_num(buf, sizeof buf, lua_tonumber(L, -1))));
      lua_pop(L, 1);
    }
    ldsl_copy_table(L, 2); /* path, weights, copy */
  } else {
    lua_pushboolean(L, 0); /* path, nil, false: "none" */
  }
  path_uv_set(L, 1, &path_weights_key, 3);
  lua_pushboolean(L, 0);
  path_uv_set(L, 1, &path_replaced_key, 4);
  lua_settop(L, 1);
  return 1;
}

/* path:replaced_costs() -> list | nil: for a path made by prune_los, [i] is
** the cost of the sub-path of the original path that segment i (cells i ->
** i+1) replaced; nil for other paths. A fresh copy. */

/* Point i of the list at index tab: {x=, y=} or {x, y}. 1 with *x, *y set;
** 0 when x or y is not a number; -1 when the item is not a table. The
** stack is as before. */
static int point_xy(lua_State *L, int tab, int i, double *x, double *y) {
  int ok;
  lua_rawgeti(L, tab, i);
  if (lua_type(L, -1) != LUA_TTABLE) {
    lua_pop(L, 1);
    return -1;
  }
  lua_getfield(L, -1, "x");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_rawgeti(L, -1, 1);
  }
  lua_getfield(L, -2, "y");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_rawgeti(L, -2, 2);
  }
  ok = lua_type(L, -1) == LUA_TNUMBER && lua_type(L, -2) == LUA_TNUMBER; /* item, x, y */
  if (ok) {
    *x = lua_tonumber(L, -2);
    *y = lua_tonumber(L, -1);
  }
  lua_pop(L, 3);
  return ok;
}

static int path_replaced_costs(lua_State *L) {
  check_path(L, 1);
  path_uv_get(L, 1, &path_replaced_key);
  if (lua_type(L, -1) == LUA_TTABLE)
    ldsl_copy_table(L, -1);
  else
    lua_pushnil(L); /* none (false after set_weights) */
  return 1;
}

/* grid:polyline_cost(points [, opts]) -> cost: the exact cost of the
** polyline through points (a list of {x=, y=} or {x, y}, any real cell
** coordinates, or a grid lodestar.Path) under opts.weights (a Path: by
** default the weights of its query); math.huge when it crosses a blocked
** cell. See core/lds_postprocess.h, "Cost of a path". */
int ldsl_grid_polyline_cost(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  lds_Error err;
  double w[16], c, *xy;
  size_t n, i;
  int nw, is_path = luaL_testudata(L, 2, LDS_PATH_MT) != NULL;
  lua_settop(L, 3);
  check_post_opts(L, 3);
  if (is_path) {
    lds_Path *p = check_path(L, 2);
    check_grid_path(L, p);
    if (lds_path_width(p) != lds_grid_width(g))
      return ldsl_arg_error(L, 2, lua_pushfstring(L, "path width %d does not match the grid (width %d)",
                                             (int)lds_path_width(p), (int)lds_grid_width(g)));
    n = lds_path_length(p);
    xy = (double *)lds_newudata(L, (n ? n : 1) * 2 * sizeof(double)); /* scratch, GC'd */
    for (i = 0; i < n; i++) {
      int32_t x, y;
      lds_path_cell(p, i, &x, &y);
      xy[2 * i] = x;
      xy[2 * i + 1] = y;
    }
  } else {
    if (lua_type(L, 2) != LUA_TTABLE) return ldsl_type_error(L, 2, "lodestar.Path or list of {x=, y=}");
    n = lua_rawlen(L, 2);
    xy = (double *)lds_newudata(L, (n ? n : 1) * 2 * sizeof(double)); /* scratch, GC'd */
    for (i = 0; i < n; i++) {
      int got = point_xy(L, 2, (int)i + 1, &xy[2 * i], &xy[2 * i + 1]);
      if (got < 0)
        return ldsl_arg_error(L, 2, lua_pushfstring(L, "point %d is not a table", (int)i + 1));
      if (got == 0)
        return ldsl_arg_error(L, 2, lua_pushfstring(L, "point %d has no numbers x, y", (int)i + 1));
    }
  }
  nw = post_weights(L, is_path ? 2 : 0, 3, g, w);
  if (lds_grid_polyline_cost(g, xy, n, w, nw, &c, &err) != LDS_OK)
    return ldsl_weights_fail(L, 3, 2, is_path ? "path.weights" : NULL, err.msg);
  lua_pushnumber(L, c);
  return 1;
}

/* path.cost (nil when unknown), path.partial, then the methods */
int ldsl_path_index(lua_State *L) {
  const char *k = lua_tostring(L, 2);
  lds_Path *p;
  if (k && strcmp(k, "weights") == 0) { /* a copy: the path's own table stays private */
    check_path(L, 1);
    path_weights_table(L, 1);
    if (lua_type(L, -1) == LUA_TTABLE)
      ldsl_copy_table(L, -1);
    else
      lua_pushnil(L); /* none (false after set_weights(nil)) */
    return 1;
  }
  if (!k || (strcmp(k, "cost") != 0 && strcmp(k, "partial") != 0)) { /* methods work on freed paths */
    check_pathbox(L, 1);
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    return 1;
  }
  p = check_path(L, 1);
  if (strcmp(k, "cost") == 0) {
    double c = lds_path_cost(p);
    if (isnan(c))
      lua_pushnil(L);
    else
      lua_pushnumber(L, c);
    return 1;
  }
  lua_pushboolean(L, (lds_path_flags(p) & LDS_PATH_PARTIAL) != 0);
  return 1;
}

/* lodestar.path.new(grid, cells [, partial]) — cells = {{x=,y=} or {x,y}, ...};
** consecutive cells must be adjacent by a legal move or see each other. */
static int path_new(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  size_t n, i;
  uint32_t *ids;
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  lds_Path *tmp;
  PathBox *b;
  double c;
  int partial;
  ldsl_check_table(L, 2);
  partial = ldsl_arg_boolean(L, 3, 0);
  n = lua_rawlen(L, 2);
  ids = (uint32_t *)lds_newudata(L, (n ? n : 1) * sizeof(uint32_t)); /* scratch, GC'd */
  for (i = 0; i < n; i++) {
    double x, y;
    int got = point_xy(L, 2, (int)i + 1, &x, &y);
    if (got < 0)
      return ldsl_arg_error(L, 2, lua_pushfstring(L, "cell %d is not a table", (int)i + 1));
    if (got == 0)
      return ldsl_arg_error(L, 2, lua_pushfstring(L, "cell %d has no integer x, y", (int)i + 1));
    if (!ldsl_coord_ok(x, lds_grid_width(g)) || !ldsl_coord_ok(y, lds_grid_height(g))) {
      char bx[64], by[64];
      return ldsl_arg_error(L, 2, lua_pushfstring(L, "cell %d (%s,%s) is %s the %dx%d grid",
                                                  (int)i + 1, ldsl_fmt_coord(bx, sizeof bx, x),
                                                  ldsl_fmt_coord(by, sizeof by, y),
                                                  x == floor(x) && y == floor(y)
                                                      ? "outside"
                                                      : "not an integer cell of",
                                                  (int)lds_grid_width(g), (int)lds_grid_height(g)));
    }
    ids[i] = (uint32_t)y * (uint32_t)lds_grid_width(g) + (uint32_t)x;
  }
  b = ldsl_new_pathbox(L);
  tmp = lds_path_new(&env, ids, n, lds_grid_width(g), 0.0, partial ? LDS_PATH_PARTIAL : 0, &err);
  ldsl_push_path(L, b, tmp, &err);
  if (lds_grid_path_cost(g, tmp, &c, &err) != LDS_OK) { /* the cells' fault: no C name */
    const char *m = err.msg, *cc = strstr(m, ": ");
    return ldsl_arg_error(L, 2, strncmp(m, "lds_", 4) == 0 && cc ? cc + 2 : m);
  }
  b->p = lds_path_new(&env, ids, n, lds_grid_width(g), c, partial ? LDS_PATH_PARTIAL : 0, &err);
  lds_path_free(tmp);
  if (!b->p) return luaL_error(L, "%s", err.msg);
  return 1;
}

const luaL_Reg ldsl_path_funcs[] = {{"new", path_new}, {NULL, NULL}};

const luaL_Reg ldsl_path_meth[] = {
    {"cell", path_cell},
    {"cells", path_cells},
    {"free", path_free},
    {"node", path_node},
    {"nodes", path_nodes},
    {"prune_los", ldsl_path_prune_los},
    {"replaced_costs", path_replaced_costs},
    {"reverse", path_reverse},
    {"set_weights", path_set_weights},
    {"string_pull", path_string_pull},
    {"sub", path_sub},
    {"totable", path_totable},
    {NULL, NULL}};

const luaL_Reg ldsl_path_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", path_release},
#endif
    {"__gc", path_release},
    {"__len", path_len},
    {"__tostring", path_tostring},
    {NULL, NULL}};
