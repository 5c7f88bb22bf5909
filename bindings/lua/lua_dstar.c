/* SPDX-License-Identifier: MIT */
/*
** lua_dstar.c — lodestar.DStar: D* Lite on grids (lodestar.search.dstar_lite).
*/
#include "lua_util.h"

/* lodestar.search.dstar_lite(grid, opts): the incremental planner of
** core/lds_dstar.h. The box follows the search's pattern: created with a
** NULL pointer and its metatable first, the grid userdata anchored in the
** user value ([1]), the grid box's nsearch counted so grid:free() or its
** __gc leaves the core grid alive until the last D* Lite on it is freed.
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002] */

typedef struct DStarBox {
  lds_DStar *ds;
  GridBox *gb;   /* the grid's box (anchored in the user value) */
  int subscribed;
} DStarBox;

static const char *const dstar_opts[] = {"goal", "h_scale", "heuristic", "start", "subscribe",
                                         "weights", NULL};

/* Flag bits and their Lua names, in bit order (d:flags()). */
static const struct {
  uint32_t bit;
  const char *name;
} dstar_flag_names[] = {{LDS_DSTAR_START_BLOCKED, "start_blocked"},
                        {LDS_DSTAR_GOAL_BLOCKED, "goal_blocked"},
                        {LDS_DSTAR_UNREACHABLE, "unreachable"},
                        {LDS_DSTAR_REACHABLE_AGAIN, "reachable_again"},
                        {LDS_DSTAR_CHANGES, "changes"},
                        {LDS_DSTAR_NEAR_START, "near_start"},
                        {LDS_DSTAR_REINIT, "reinit"},
                        {LDS_DSTAR_AT_GOAL, "at_goal"}};

static DStarBox *check_dstarbox(lua_State *L, int arg) {
  DStarBox *b = (DStarBox *)luaL_testudata(L, arg, LDS_DSTAR_MT);
  if (!b) ldsl_type_error(L, arg, LDS_DSTAR_MT);
  return b;
}

/* The one check of every method but free/__tostring: a live D* Lite. */
static DStarBox *check_dstar(lua_State *L, int arg) {
  DStarBox *b = check_dstarbox(L, arg);
  if (!b->ds) luaL_error(L, "attempt to use a freed %s", LDS_DSTAR_MT);
  return b;
}

/* Idempotent release shared by :free(), __gc and __close: the D* Lite is
** freed first (it unsubscribes from the still-alive grid), then the grid
** box is told, and finishes a grid:free() that came first. */
static void dstar_release(DStarBox *b) {
  if (b->ds) lds_dstar_free(b->ds);
  b->ds = NULL;
  b->subscribed = 0;
  if (b->gb) {
    GridBox *gb = b->gb;
    b->gb = NULL;
    gb->nsearch--;
    if (gb->closed) ldsl_space_release(gb);
  }
}

static int dstar_gc(lua_State *L) {
  DStarBox *b = (DStarBox *)lua_touserdata(L, 1);
  if (b) dstar_release(b);
  return 0;
}

static int dstar_free(lua_State *L) {
  dstar_release(check_dstarbox(L, 1));
  return 0;
}

static int dstar_tostring(lua_State *L) {
  DStarBox *b = check_dstarbox(L, 1);
  int32_t sx, sy, gx, gy;
  if (!b->ds) {
    lua_pushfstring(L, "%s (freed)", LDS_DSTAR_MT);
    return 1;
  }
  lds_dstar_endpoints(b->ds, &sx, &sy, &gx, &gy);
  lua_pushfstring(L, "%s (%d,%d)->(%d,%d) %s (%p)", LDS_DSTAR_MT, (int)sx, (int)sy, (int)gx,
                  (int)gy, lds_status_name(lds_dstar_status(b->ds)), (void *)b);
  return 1;
}

/* Reads opts.weights (name -> finite number) into w[] by layer index;
** returns the count to pass as n_layer_weights (highest index + 1). */
int ldsl_dstar_weights(lua_State *L, int arg, const lds_Grid *g, double *w) {
  int n = 0, t;
  memset(w, 0, 16 * sizeof *w);
  lua_getfield(L, arg, "weights");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  if (lua_type(L, -1) != LUA_TTABLE) ldsl_opt_type_error(L, arg, "weights", "table");
  t = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, t)) { /* weights, name, w */
    const char *name = ldsl_weight_entry(L, arg, g);
    int idx = lds_grid_layer_find(g, name);
    if (idx >= 16)
      ldsl_opt_error(L, arg, "weights", lua_pushfstring(L, "layer '%s' is layer %d (at most 16 layers "
                                                   "can be weighted)", name, idx + 1));
    w[idx] = lua_tonumber(L, -1);
    if (idx + 1 > n) n = idx + 1;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return n;
}

/* lodestar.search.dstar_lite(grid, {start = {x, y}, goal = {x, y}
**   [, heuristic = name] [, h_scale = n] [, weights = {layer = w}]
**   [, subscribe = true]}) -> a lodestar.DStar (set up, not yet computed) */
int ldsl_dstar_new(lua_State *L) {
  GridBox *gb = ldsl_check_gridbox(L, 1);
  lds_Grid *g = ldsl_check_grid(L, 1);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  lds_DStarParams p;
  double w[16];
  int32_t sx, sy, gx, gy;
  int subscribe = 1, self, uv;
  DStarBox *b;
  lua_settop(L, 2);
  ldsl_check_table(L, 2);
  lds_dstar_params_init(&p);
  ldsl_check_keys(L, 2, "option", "opts keys must be strings", dstar_opts, NULL);
  lua_getfield(L, 2, "start");
  if (lua_isnil(L, -1)) ldsl_opt_error(L, 2, "start", "required (a table {x, y})");
  ldsl_opt_cell(L, 2, "start", g, &sx, &sy);
  lua_getfield(L, 2, "goal");
  if (lua_isnil(L, -1)) ldsl_opt_error(L, 2, "goal", "required (a table {x, y})");
  ldsl_opt_cell(L, 2, "goal", g, &gx, &gy);
  lua_pop(L, 2);
  lua_getfield(L, 2, "heuristic");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) ldsl_opt_type_error(L, 2, "heuristic", "string");
    if (lds_heuristic_parse(lua_tostring(L, -1), &p.heuristic) != LDS_OK ||
        p.heuristic == LDS_H_EUCLIDEAN)
      ldsl_opt_error(L, 2, "heuristic",
                lua_pushfstring(L, "invalid option '%s' (expected auto, zero, manhattan, octile, "
                                "chebyshev; D* Lite keys must be exact, so no euclidean)",
                                lua_tostring(L, -1)));
  }
  lua_pop(L, 1);
  lua_getfield(L, 2, "h_scale");
  if (!lua_isnil(L, -1)) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, 2, "h_scale", "number");
    p.h_scale = lua_tonumber(L, -1);
    if (!(p.h_scale >= 0.0) || isinf(p.h_scale))
      ldsl_opt_error(L, 2, "h_scale", lua_pushfstring(L, "%s out of range (expected finite, >= 0)",
                                                 ldsl_fmt_num(buf, sizeof buf, p.h_scale)));
  }
  lua_pop(L, 1);
  subscribe = ldsl_opt_boolean(L, 2, "subscribe", subscribe);
  p.n_layer_weights = ldsl_dstar_weights(L, 2, g, w);
  p.layer_weights = p.n_layer_weights ? w : NULL;

  b = (DStarBox *)lds_newudata(L, sizeof(DStarBox)); /* grid, opts, dstar */
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_DSTAR_MT);
  self = lua_gettop(L);
  lua_createtable(L, 1, 0); /* grid, opts, dstar, uv */
  uv = lua_gettop(L);
  lua_pushvalue(L, 1);
  lua_rawseti(L, uv, 1); /* anchor the grid */
  lua_getfield(L, 2, "weights");
  if (!lua_isnil(L, -1)) {
    ldsl_copy_table(L, -1); /* grid, opts, dstar, uv, weights, copy: its paths remember it */
    lua_rawseti(L, uv, 3);
  }
  lua_pop(L, 1);
  lds_setuv(L, self);
  b->gb = gb;
  gb->nsearch++;
  b->ds = lds_dstar_new(&env, g, sx, sy, gx, gy, &p, &err);
  if (!b->ds && err.code == LDS_E_ARG && strstr(err.msg, "under the layer weights"))
    return ldsl_weights_fail(L, 2, 2, NULL, err.msg);
  if (!b->ds) return luaL_error(L, "%s", err.msg);
  if (subscribe) {
    if (lds_dstar_subscribe(b->ds, g) != LDS_OK)
      return luaL_error(L, "%s", lds_dstar_errmsg(b->ds));
    b->subscribed = 1;
  }
  lua_settop(L, self);
  return 1;
}

/* d:step([budget]) -> status [, message] */
static int dstar_step(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  lds_Budget bud;
  lds_Status st;
  ldsl_check_budget(L, 2, &bud);
  st = lds_dstar_step(b->ds, &bud);
  lua_pushstring(L, lds_status_name(st));
  if (st < 0) {
    lua_pushstring(L, lds_dstar_errmsg(b->ds));
    return 2;
  }
  return 1;
}

/* d:compute([budget]): deprecated alias of d:step (its own C function, so
** an error names the method that was called) */
static int dstar_compute(lua_State *L) { return dstar_step(L); }

/* d:move_start(x, y) -> d */
static int dstar_move_start(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  int32_t x, y;
  ldsl_check_xy(L, b->gb->g, 2, &x, &y);
  lds_dstar_move_start(b->ds, x, y); /* in bounds: cannot fail */
  lua_settop(L, 1);
  return 1;
}

/* d:update(x, y) -> d */
static int dstar_update(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  int32_t x, y;
  ldsl_check_xy(L, b->gb->g, 2, &x, &y);
  lds_dstar_update(b->ds, x, y);
  lua_settop(L, 1);
  return 1;
}

/* d:update_rect(x0, y0, x1, y1) -> d (inclusive corners) */
static int dstar_update_rect(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  int32_t x0, y0, x1, y1;
  ldsl_check_xy(L, b->gb->g, 2, &x0, &y0);
  ldsl_check_xy(L, b->gb->g, 4, &x1, &y1);
  if (x1 < x0)
    return ldsl_arg_error(L, 4, lua_pushfstring(L, "x1 %d < x0 %d (empty rectangle)", (int)x1,
                                           (int)x0));
  if (y1 < y0)
    return ldsl_arg_error(L, 5, lua_pushfstring(L, "y1 %d < y0 %d (empty rectangle)", (int)y1,
                                           (int)y0));
  lds_dstar_update_rect(b->ds, x0, y0, x1, y1);
  lua_settop(L, 1);
  return 1;
}

/* d:path() -> lodestar.Path | nil, message, status */
static int dstar_path(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  lds_Error err;
  PathBox *pb = ldsl_new_pathbox(L);
  lds_Path *p = lds_dstar_path(b->ds, &err);
  if (!p) {
    if (err.code == LDS_E_NOMEM) return luaL_error(L, "%s", err.msg);
    return ldsl_push_fail(L, err.msg, err.code);
  }
  pb->p = p;
  pb->owned = 1;
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 3); /* d, path, uv, weights: the path remembers them */
  ldsl_path_remember(L, -3, -1);
  lua_pop(L, 2);
  return 1;
}

/* d:next() -> x, y | nil, message, status */
static int dstar_next(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  int32_t x, y;
  if (lds_dstar_next(b->ds, &x, &y) != LDS_OK)
    return ldsl_push_fail(L, lua_pushfstring(L, "no path (status %s)",
                                        lds_status_name(lds_dstar_status(b->ds))),
                     LDS_E_STATE);
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  return 2;
}

static int dstar_cost(lua_State *L) {
  double c = lds_dstar_cost(check_dstar(L, 1)->ds);
  if (c < 0)
    lua_pushnil(L);
  else
    lua_pushnumber(L, c);
  return 1;
}

static int dstar_status(lua_State *L) {
  lua_pushstring(L, lds_status_name(lds_dstar_status(check_dstar(L, 1)->ds)));
  return 1;
}

static int dstar_errmsg(lua_State *L) {
  lua_pushstring(L, lds_dstar_errmsg(check_dstar(L, 1)->ds));
  return 1;
}

/* d:flags() -> {start_blocked = bool, ...} (every name present) */
static int dstar_flags(lua_State *L) {
  uint32_t f = lds_dstar_flags(check_dstar(L, 1)->ds);
  size_t i, n = sizeof dstar_flag_names / sizeof dstar_flag_names[0];
  lua_createtable(L, 0, (int)n);
  for (i = 0; i < n; i++) {
    lua_pushboolean(L, (f & dstar_flag_names[i].bit) != 0);
    lua_setfield(L, -2, dstar_flag_names[i].name);
  }
  return 1;
}

/* d:stats() -> table of cumulative counters */
static int dstar_stats(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  lds_DStarStats st;
  lds_dstar_counters(b->ds, &st);
  lua_createtable(L, 0, 11);
#define DS_FIELD(name)        \
  ldsl_push_u64(L, st.name);       \
  lua_setfield(L, -2, #name)
  DS_FIELD(expansions);
  DS_FIELD(rhs_updates);
  DS_FIELD(g_updates);
  DS_FIELD(pushes);
  DS_FIELD(queue_size);
  DS_FIELD(peak_queue);
  ldsl_push_u64(L, st.peak_queue); /* the common lds_Stats name */
  lua_setfield(L, -2, "peak_open");
  DS_FIELD(cells_changed);
  DS_FIELD(replans);
  DS_FIELD(elapsed_us);
#undef DS_FIELD
  ldsl_push_u64(L, lds_dstar_mem_used(b->ds));
  lua_setfield(L, -2, "mem_bytes");
  return 1;
}

/* d:endpoints() -> sx, sy, gx, gy */
static int dstar_endpoints(lua_State *L) {
  int32_t sx, sy, gx, gy;
  lds_dstar_endpoints(check_dstar(L, 1)->ds, &sx, &sy, &gx, &gy);
  lua_pushinteger(L, sx);
  lua_pushinteger(L, sy);
  lua_pushinteger(L, gx);
  lua_pushinteger(L, gy);
  return 4;
}

static int dstar_subscribed(lua_State *L) {
  lua_pushboolean(L, check_dstar(L, 1)->subscribed);
  return 1;
}

static int dstar_grid(lua_State *L) {
  check_dstar(L, 1);
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

const luaL_Reg ldsl_dstar_meth[] = {
    {"compute", dstar_compute}, /* deprecated alias of step */
    {"cost", dstar_cost},
    {"endpoints", dstar_endpoints},
    {"errmsg", dstar_errmsg},
    {"flags", dstar_flags},
    {"free", dstar_free},
    {"grid", dstar_grid},
    {"move_start", dstar_move_start},
    {"next", dstar_next},
    {"path", dstar_path},
    {"stats", dstar_stats},
    {"status", dstar_status},
    {"step", dstar_step},
    {"subscribed", dstar_subscribed},
    {"update", dstar_update},
    {"update_rect", dstar_update_rect},
    {NULL, NULL}};

const luaL_Reg ldsl_dstar_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", dstar_gc},
#endif
    {"__gc", dstar_gc},
    {"__tostring", dstar_tostring},
    {NULL, NULL}};
