/* SPDX-License-Identifier: MIT */
/*
** lua_cost_view.c — lodestar.CostView: grid:cost_view(weights) and
** grid:cost_views(), the effective-cost view of one weight set on a grid
** (core/lds_cost_view.h). find_path and the searches with `weights` use the
** grid's view of their weights whether or not Lua holds one; holding it lets
** a game build it under its frame budget (view:build(budget_us)) before the
** first search of a new agent class, see its memory and drop it.
**
** A view box holds one reference to the core view and keeps its grid alive
** (the grid userdata in its user value, the grid box's nsearch counted), so
** grid:free() or the grid's __gc leave the grid to the last view or search.
*/
#include "lua_util.h"

typedef struct ViewBox {
  lds_CostView *v; /* NULL once dropped or collected */
  GridBox *gb;
} ViewBox;

static ViewBox *check_viewbox(lua_State *L, int arg) {
  ViewBox *b = (ViewBox *)luaL_testudata(L, arg, LDS_COST_VIEW_MT);
  if (!b) ldsl_type_error(L, arg, LDS_COST_VIEW_MT);
  return b;
}

static lds_CostView *check_view(lua_State *L, int arg) {
  ViewBox *b = check_viewbox(L, arg);
  if (!b->v) luaL_error(L, "attempt to use a dropped %s", LDS_COST_VIEW_MT);
  return b->v;
}

static void view_release(ViewBox *b) {
  if (b->v) lds_cost_view_release(b->v);
  b->v = NULL;
  if (b->gb) {
    GridBox *gb = b->gb;
    b->gb = NULL;
    gb->nsearch--;
    if (gb->closed) ldsl_space_release(gb); /* the grid was freed first: finish the job */
  }
}

/* Reads the weights table at arg (layer name -> finite number) into w by
** layer index; returns the count (largest index with a nonzero weight + 1:
** 0 when every weight is 0). */
static int check_weights(lua_State *L, int arg, const lds_Grid *g, double w[16]) {
  int n = 0;
  char buf[64];
  if (lua_type(L, arg) != LUA_TTABLE) ldsl_type_error(L, arg, "table");
  memset(w, 0, 16 * sizeof(double));
  lua_pushnil(L);
  while (lua_next(L, arg)) { /* name, weight */
    const char *name;
    int idx;
    double x;
    if (lua_type(L, -2) != LUA_TSTRING)
      ldsl_arg_error(L, arg, "keys must be layer names");
    name = lua_tostring(L, -2);
    if (lua_type(L, -1) != LUA_TNUMBER)
      ldsl_arg_error(L, arg, lua_pushfstring(L, "weight of layer '%s': number expected, got %s",
                                             name, ldsl_value_name(L, -1)));
    x = lua_tonumber(L, -1);
    if (isnan(x) || isinf(x))
      ldsl_arg_error(L, arg, lua_pushfstring(L, "weight of layer '%s' is %s (expected finite)",
                                             name, ldsl_fmt_num(buf, sizeof buf, x)));
    idx = lds_grid_layer_find(g, name);
    if (idx < 0) ldsl_arg_error(L, arg, lua_pushfstring(L, "the grid has no layer '%s'", name));
    if (idx >= 16)
      ldsl_arg_error(L, arg, lua_pushfstring(L, "layer '%s' is layer %d (at most 16 layers can "
                                                "be weighted)", name, idx + 1));
    w[idx] = x;
    if (x != 0.0 && idx + 1 > n) n = idx + 1;
    lua_pop(L, 1);
  }
  return n;
}

/* grid:cost_view(weights) -> view */
int ldsl_grid_cost_view(lua_State *L) {
  GridBox *gb = ldsl_check_gridbox(L, 1);
  lds_Grid *g = ldsl_check_grid(L, 1);
  double w[16];
  int n = check_weights(L, 2, g, w), uv;
  lds_Error err;
  ViewBox *b = (ViewBox *)lds_newudata(L, sizeof(ViewBox));
  b->v = NULL;
  b->gb = NULL;
  luaL_setmetatable(L, LDS_COST_VIEW_MT);
  lua_createtable(L, 1, 0);
  uv = lua_gettop(L);
  lua_pushvalue(L, 1);
  lua_rawseti(L, uv, 1); /* anchor the grid */
  lds_setuv(L, uv - 1);
  b->gb = gb;
  gb->nsearch++;
  b->v = n > 0 ? lds_cost_view_get(g, w, n, &err) : NULL;
  if (!b->v) {
    if (n == 0) return ldsl_arg_error(L, 2, "every weight is 0 (expected one nonzero weight; "
                                            "searches without weights need no view)");
    if (err.code == LDS_E_ARG) return ldsl_arg_error(L, 2, err.msg);
    return luaL_error(L, "%s", err.msg);
  }
  return 1;
}

/* pushes {layer name = weight} of view v (layers by index on grid g) */
static void push_weights(lua_State *L, const lds_CostView *v, const lds_Grid *g) {
  int n, i;
  const double *w = lds_cost_view_weights(v, &n);
  lua_newtable(L);
  for (i = 0; i < n; i++) {
    const char *name = lds_grid_layer_name(g, i);
    if (w[i] == 0.0 || !name) continue;
    lua_pushnumber(L, w[i]);
    lua_setfield(L, -2, name);
  }
}

/* grid:cost_views() -> {{weights =, bytes =, ready =, scale =}, ...} */
int ldsl_grid_cost_views(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int i, n = lds_cost_views_count(g);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lds_CostView *v = lds_cost_views_at(g, i);
    if (!v) break;
    lua_createtable(L, 0, 4);
    push_weights(L, v, g);
    lua_setfield(L, -2, "weights");
    ldsl_push_u64(L, lds_cost_view_mem_used(v));
    lua_setfield(L, -2, "bytes");
    lua_pushboolean(L, lds_cost_view_ready(v));
    lua_setfield(L, -2, "ready");
    if (lds_cost_view_ready(v)) {
      lua_pushnumber(L, lds_cost_view_scale(v));
      lua_setfield(L, -2, "scale");
    }
    lds_cost_view_release(v);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* view:ready() -> boolean */
static int view_ready(lua_State *L) {
  lua_pushboolean(L, lds_cost_view_ready(check_view(L, 1)));
  return 1;
}

/* view:build([budget_us]) -> ready, cells | nil, message, status */
static int view_build(lua_State *L) {
  lds_CostView *v = check_view(L, 1);
  double us = ldsl_opt_int(L, 2, 0);
  lds_Budget b;
  uint64_t c0 = lds_cost_view_cells_done(v);
  lds_Status st;
  char buf[64];
  if (us < 0) {
    ldsl_fmt_num(buf, sizeof buf, us);
    return ldsl_arg_error(L, 2, lua_pushfstring(L, "budget %s out of range (expected >= 0 "
                                                   "microseconds; 0 or nil: to the end)", buf));
  }
  b.max_expansions = 0;
  b.budget_us = us > 1e15 ? UINT64_C(1000000000000000) : (uint64_t)us; /* 31 years: no limit */
  st = lds_cost_view_build_step(v, &b);
  if (st < 0) return ldsl_push_fail(L, lds_cost_view_errmsg(v), st);
  lua_pushboolean(L, st == LDS_OK);
  ldsl_push_u64(L, lds_cost_view_cells_done(v) - c0);
  return 2;
}

/* view:bytes() -> number */
static int view_bytes(lua_State *L) {
  ldsl_push_u64(L, lds_cost_view_mem_used(check_view(L, 1)));
  return 1;
}

/* view:scale() -> number | nil (not ready) */
static int view_scale(lua_State *L) {
  lds_CostView *v = check_view(L, 1);
  if (lds_cost_view_ready(v))
    lua_pushnumber(L, lds_cost_view_scale(v));
  else
    lua_pushnil(L);
  return 1;
}

/* view:cost(x, y) -> number (math.huge when blocked) | nil (not built yet) */
static int view_cost(lua_State *L) {
  lds_CostView *v = check_view(L, 1);
  ViewBox *b = check_viewbox(L, 1);
  int32_t x, y;
  double c;
  ldsl_check_xy(L, (const lds_Grid *)b->gb->g, 2, &x, &y);
  c = lds_cost_view_cost(v, x, y);
  if (isnan(c) && !lds_cost_view_ready(v)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, c);
  return 1;
}

/* view:weights() -> {layer name = weight} */
static int view_weights(lua_State *L) {
  lds_CostView *v = check_view(L, 1);
  push_weights(L, v, (const lds_Grid *)check_viewbox(L, 1)->gb->g);
  return 1;
}

/* view:drop(): the grid forgets the view, this object lets it go */
static int view_drop(lua_State *L) {
  ViewBox *b = check_viewbox(L, 1);
  if (b->v) lds_cost_view_drop(b->v);
  view_release(b);
  return 0;
}

static int view_gc(lua_State *L) {
  view_release((ViewBox *)lua_touserdata(L, 1));
  return 0;
}

static int view_tostring(lua_State *L) {
  ViewBox *b = check_viewbox(L, 1);
  if (!b->v)
    lua_pushfstring(L, "%s (dropped)", LDS_COST_VIEW_MT);
  else
    lua_pushfstring(L, "%s %s (%p)", LDS_COST_VIEW_MT,
                    lds_cost_view_ready(b->v) ? "ready" : "building", (const void *)b);
  return 1;
}

const luaL_Reg ldsl_view_meth[] = {{"build", view_build},   {"bytes", view_bytes},
                                   {"cost", view_cost},     {"drop", view_drop},
                                   {"ready", view_ready},   {"scale", view_scale},
                                   {"weights", view_weights}, {NULL, NULL}};

const luaL_Reg ldsl_view_metameth[] = {
    {"__close", view_gc}, {"__gc", view_gc}, {"__tostring", view_tostring}, {NULL, NULL}};
