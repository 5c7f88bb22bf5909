/* SPDX-License-Identifier: MIT */
/*
** lua_search.c — lodestar.Search on grids: options, start, step/run, results, find_path.
*/
#include "lua_util.h"

static const char *const search_opts[] = {"cost", "goal", "h_scale", "heuristic", "partial",
                                          "start", "weight", "weights", NULL};
/* fields of a budget table (s:step, s:run, d:step), in this order */
const char *const ldsl_budget_keys[] = {"budget_us", "max_expansions", NULL};

/* Budget at arg: nil (no limit), an integer (max expansions) or a table
** {max_expansions =, budget_us =} of integers >= 0 (lua_util.h). */
void ldsl_check_budget(lua_State *L, int arg, lds_Budget *bud) {
  int i;
  bud->max_expansions = 0;
  bud->budget_us = 0;
  if (lua_isnoneornil(L, arg)) return;
  if (lua_type(L, arg) == LUA_TNUMBER) {
    double n = lua_tonumber(L, arg);
    char buf[64];
    if (n != floor(n)) /* nan too */
      ldsl_arg_error(L, arg, lua_pushfstring(L, "max_expansions must be an integer >= 0 (0 = no "
                                                "limit; got %s)", ldsl_fmt_num(buf, sizeof buf, n)));
    if (n < 0) ldsl_arg_error(L, arg, "max_expansions must be >= 0 (0 = no limit)");
    if (n > 9007199254740992.0)
      ldsl_arg_error(L, arg, lua_pushfstring(L, "max_expansions %s out of range (expected an "
                                                "integer 0..2^53)", ldsl_fmt_num(buf, sizeof buf, n)));
    bud->max_expansions = (uint64_t)n;
    return;
  }
  if (lua_type(L, arg) != LUA_TTABLE)
    ldsl_type_error(L, arg, "number or table {max_expansions =, budget_us =}");
  ldsl_check_keys(L, arg, "budget field", "budget fields must be strings", ldsl_budget_keys, NULL);
  for (i = 0; i < 2; i++) {
    double v;
    lua_getfield(L, arg, ldsl_budget_keys[i]);
    if (!lua_isnil(L, -1)) {
      v = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 0)
        ldsl_arg_error(L, arg, lua_pushfstring(L, "%s must be an integer >= 0", ldsl_budget_keys[i]));
      if (v > 9007199254740992.0) { /* as an argument (ldsl_check_int); never cast past 2^64 */
        char buf[64];
        ldsl_arg_error(L, arg, lua_pushfstring(L, "%s %s out of range (expected an integer "
                                                  "0..2^53)", ldsl_budget_keys[i],
                                               ldsl_fmt_coord(buf, sizeof buf, v)));
      }
      if (i == 0)
        bud->budget_us = (uint64_t)v;
      else
        bud->max_expansions = (uint64_t)v;
    }
    lua_pop(L, 1);
  }
}


static SearchBox *check_searchbox(lua_State *L, int arg) {
  SearchBox *b = (SearchBox *)luaL_testudata(L, arg, LDS_SEARCH_MT);
  if (!b) ldsl_type_error(L, arg, LDS_SEARCH_MT);
  return b;
}

SearchBox *ldsl_check_search(lua_State *L, int arg) {
  SearchBox *b = check_searchbox(L, arg);
  if (!b->s) luaL_error(L, "attempt to use a freed %s", LDS_SEARCH_MT);
  return b;
}

static void search_release(SearchBox *b) {
  if (b->s && b->fp && b->gb && !b->gb->closed) { /* find_path: back to the grid box */
    GridBox *gb = b->gb;
    if (b->fp == 1) {
      gb->fp_busy = 0;
    } else if (!gb->fp) {
      gb->fp = b->s; /* now the box's */
    } else {
      lds_search_free(b->s);
    }
  } else if (b->s && (b->owned || b->fp == 2)) {
    lds_search_free(b->s);
  } else if (b->s && b->fp == 1 && b->gb) {
    b->gb->fp_busy = 0; /* the grid closed: its release frees gb->fp */
  }
  b->s = NULL;
  b->fp = 0;
  if (b->gb) {
    GridBox *gb = b->gb;
    b->gb = NULL;
    gb->nsearch--;
    if (gb->closed) ldsl_space_release(gb); /* the grid was freed first: finish the job */
  }
  if (b->hb) {
    GraphBox *hb = b->hb;
    b->hb = NULL;
    hb->nsearch--;
    if (hb->closed) ldsl_space_release(hb); /* the graph was freed first: finish the job */
  }
}

static int search_gc(lua_State *L) {
  search_release((SearchBox *)lua_touserdata(L, 1));
  return 0;
}

static int search_free(lua_State *L) {
  SearchBox *b = check_searchbox(L, 1);
  if (b->busy) return luaL_error(L, "%s: cannot free a search from its own %s callback",
                                 LDS_SEARCH_MT, b->hb ? "heuristic" : "edge");
  search_release(b);
  return 0;
}

static int search_tostring(lua_State *L) {
  SearchBox *b = check_searchbox(L, 1);
  if (!b->s)
    lua_pushfstring(L, "%s (freed)", LDS_SEARCH_MT);
  else
    lua_pushfstring(L, "%s %s %s (%p)", LDS_SEARCH_MT, lds_algo_name(b->algo),
                    lds_status_name(lds_search_status(b->s)), (void *)b);
  return 1;
}

/* "bad argument #arg to 'f' (opts.name: ...)" */
int ldsl_opt_error(lua_State *L, int arg, const char *name, const char *what) {
  return ldsl_arg_error(L, arg, lua_pushfstring(L, "opts.%s: %s", name, what));
}

int ldsl_opt_type_error(lua_State *L, int arg, const char *name, const char *expected) {
  return ldsl_opt_error(L, arg, name,
                   lua_pushfstring(L, "%s expected, got %s", expected, ldsl_value_name(L, -1)));
}

/* Reads a {x, y} (or {x=, y=}) field at the top into *x, *y; range-checked. */
void ldsl_opt_cell(lua_State *L, int arg, const char *name, const lds_Grid *g, int32_t *x,
                     int32_t *y) {
  double v[2];
  char buf[2][64];
  int i;
  if (lua_type(L, -1) != LUA_TTABLE) ldsl_opt_type_error(L, arg, name, "table {x, y}");
  for (i = 0; i < 2; i++) {
    lua_getfield(L, -1, i == 0 ? "x" : "y");
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_rawgeti(L, -1, i + 1);
    }
    if (lua_type(L, -1) != LUA_TNUMBER)
      ldsl_opt_error(L, arg, name, lua_pushfstring(L, "expected {x, y} with integer cells (%s is "
                                                      "%s)", i == 0 ? "x" : "y",
                                                   ldsl_value_name(L, -1)));
    v[i] = lua_tonumber(L, -1);
    if (v[i] != floor(v[i]))
      ldsl_opt_error(L, arg, name, lua_pushfstring(L, "expected {x, y} with integer cells (%s is "
                                                      "%s)", i == 0 ? "x" : "y",
                                                   ldsl_fmt_coord(buf[0], sizeof buf[0], v[i])));
    lua_pop(L, 1);
  }
  if (!ldsl_coord_ok(v[0], lds_grid_width(g)) || !ldsl_coord_ok(v[1], lds_grid_height(g)))
    ldsl_opt_error(L, arg, name, lua_pushfstring(L, "cell (%s,%s) outside the %dx%d grid",
                                                 ldsl_fmt_coord(buf[0], sizeof buf[0], v[0]),
                                                 ldsl_fmt_coord(buf[1], sizeof buf[1], v[1]),
                                                 (int)lds_grid_width(g), (int)lds_grid_height(g)));
  *x = (int32_t)v[0];
  *y = (int32_t)v[1];
}

/* Resolves the weights table (user value [3], name -> number) to layer
** indices; called at each start because layers may have moved. */
static void resolve_weights(lua_State *L, SearchBox *b, int uv) {
  const lds_Grid *g = b->gb->g;
  int n = 0;
  memset(b->lw, 0, sizeof b->lw);
  lua_rawgeti(L, uv, 3); /* weights */
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, -2)) { /* weights, name, w */
      const char *name = lua_tostring(L, -2);
      int idx = lds_grid_layer_find(g, name);
      if (idx < 0) luaL_error(L, "opts.weights: the grid has no layer '%s'", name);
      if (idx >= 16) luaL_error(L, "opts.weights: layer '%s' is layer %d (at most 16 layers can "
                                "be weighted)", name, idx + 1);
      b->lw[idx] = lua_tonumber(L, -1);
      if (idx + 1 > n) n = idx + 1;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  b->params.layer_weights = n ? b->lw : NULL;
  b->params.n_layer_weights = n;
}

/* Raises the error of a failed start. The core checks what only the grid
** can tell (a cell the layer weights make <= 0 or not finite, an edge
** callback an algorithm cannot take): those name the option, opts.weights
** or opts.cost, as an error of argument oi (find_path's opts), or, with
** oi 0 (s:start: the options were the constructor's), in a plain error. */
static void start_error(lua_State *L, SearchBox *b, int oi) {
  const char *m = lds_search_errmsg(b->s), *key = NULL;
  if (strstr(m, "under the layer weights"))
    key = "weights";
  else if (strstr(m, "edge_cost callback"))
    key = "cost";
  if (!key) luaL_error(L, "%s", m);
  if (strncmp(m, "lds_search_start: ", 18) == 0) m += 18;
  if (strstr(m, "edge_cost callback")) /* the C name of opts.cost */
    m = lua_pushfstring(L, "algorithm '%s' takes no cost function (it costs the straight lines "
                           "between waypoints itself)", lds_algo_name(b->algo));
  if (oi) ldsl_opt_error(L, oi, key, m);
  luaL_error(L, "%s: start: opts.%s of the search: %s", LDS_SEARCH_MT, key, m);
}

/* Starts the query (user value table at uv; the options at oi, 0 when
** they are not an argument of this call); raises on LDS_E_ARG. */
static void do_start(lua_State *L, SearchBox *b, int uv, int oi, int32_t sx, int32_t sy,
                     int32_t gx, int32_t gy) {
  lds_Status st;
  if (b->busy) luaL_error(L, "%s: cannot restart a search from its own edge callback",
                          LDS_SEARCH_MT);
  ldsl_callback_guard(L, LDS_SEARCH_MT ":start");
  resolve_weights(L, b, uv);
  lua_pushnil(L);
  lua_rawseti(L, uv, 4); /* forget the last Lua error */
  st = lds_search_start(b->s, &b->params, sx, sy, gx, gy);
  b->started = st >= 0;
  if (st < 0) start_error(L, b, oi);
}

static lds_Status edge_trampoline(void *ud, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                                  double base, double *out);

/* THE parser of search options (find_path, lodestar.search.<algo>,
** search_options, request_path, the C runtime): reads opts at arg (nil or
** a table) over lds_search_params_init into *p, raising "bad argument #arg
** (opts.<key>: ...)" for a wrong key, type or range. extra, as for
** ldsl_check_keys, names one more key the caller took out (find_path's
** "algorithm"). g: the grid whose layers opts.weights must name (NULL: not
** checked). Pushes two values: opts.cost (a function, or nil) and the
** checked copy of opts.weights (or nil); the caller stores them
** (p->algo, p->edge_cost and the layer weights are left as initialised). */
void ldsl_parse_search_opts(lua_State *L, int arg, lds_SearchParams *p, const lds_Grid *g,
                            const char *extra) {
  lds_search_params_init(p);
  if (lua_isnoneornil(L, arg)) {
    lua_pushnil(L);
    lua_pushnil(L);
    return;
  }
  ldsl_check_table(L, arg);
  ldsl_check_keys(L, arg, "option", "opts keys must be strings", search_opts, extra);
  lua_getfield(L, arg, "heuristic");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) ldsl_opt_type_error(L, arg, "heuristic", "string");
    if (lds_heuristic_parse(lua_tostring(L, -1), &p->heuristic) != LDS_OK)
      ldsl_opt_error(L, arg, "heuristic",
                lua_pushfstring(L, "invalid option '%s' (expected auto, zero, manhattan, "
                                "octile, euclidean, chebyshev)", lua_tostring(L, -1)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "weight");
  if (!lua_isnil(L, -1)) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, arg, "weight", "number");
    p->weight = lua_tonumber(L, -1);
    if (!(p->weight >= 1.0) || isinf(p->weight))
      ldsl_opt_error(L, arg, "weight", lua_pushfstring(L, "%s out of range (expected finite, >= 1)",
                                                  ldsl_fmt_num(buf, sizeof buf, p->weight)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "h_scale");
  if (!lua_isnil(L, -1)) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, arg, "h_scale", "number");
    p->h_scale = lua_tonumber(L, -1);
    if (!(p->h_scale >= 0.0) || isinf(p->h_scale))
      ldsl_opt_error(L, arg, "h_scale", lua_pushfstring(L, "%s out of range (expected finite, >= 0)",
                                                   ldsl_fmt_num(buf, sizeof buf, p->h_scale)));
  }
  lua_pop(L, 1);
  p->partial = ldsl_opt_boolean(L, arg, "partial", 0);
  lua_getfield(L, arg, "cost"); /* cost */
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TFUNCTION)
    ldsl_opt_type_error(L, arg, "cost", "function");
  lua_getfield(L, arg, "weights"); /* cost, weights */
  if (!lua_isnil(L, -1)) {
    int t = lua_gettop(L);
    if (lua_type(L, -1) != LUA_TTABLE) ldsl_opt_type_error(L, arg, "weights", "table");
    lua_newtable(L); /* weights, copy */
    lua_pushnil(L);
    while (lua_next(L, t)) { /* weights, copy, name, w */
      ldsl_weight_entry(L, arg, g);
      lua_pushvalue(L, -2);
      lua_insert(L, -2); /* weights, copy, name, name, w */
      lua_rawset(L, t + 1);
    }
    lua_replace(L, t); /* copy */
  }
}

/* Parses opts at arg into b->params and the user value table at uv
** (ldsl_parse_search_opts; the grid is b's). */
static void parse_opts(lua_State *L, int arg, SearchBox *b, int uv, const char *extra) {
  lds_SearchParams *p = &b->params;
  ldsl_parse_search_opts(L, arg, p, b->gb->g, extra); /* cost, weights copy */
  p->algo = b->algo;
  if (!lua_isnil(L, -1))
    lua_rawseti(L, uv, 3);
  else
    lua_pop(L, 1);
  if (!lua_isnil(L, -1)) {
    lua_rawseti(L, uv, 2);
    p->edge_cost = edge_trampoline;
    p->edge_ud = b;
  } else {
    lua_pop(L, 1);
  }
}

/* Pushes a new search on the grid at gi with the opts at oi (nil or a
** table; stack indices of the calling function, so argument errors name
** its arguments), for algorithm algo_name; starts it when opts has
** start and goal. extra: as for parse_opts. reuse (find_path): take the
** grid box's search when it is free, and leave this one to the box at
** release. Returns the box; the search is at the top. */
static SearchBox *new_search(lua_State *L, int gi, int oi, const char *algo_name,
                             const char *extra, int reuse) {
  GridBox *gb = ldsl_check_gridbox(L, gi);
  lds_Grid *g = ldsl_check_grid(L, gi);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  SearchBox *b;
  int self, uv;
  b = (SearchBox *)lds_newudata(L, sizeof(SearchBox)); /* ..., search */
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_SEARCH_MT);
  self = lua_gettop(L);
  lds_algo_parse(algo_name, &b->algo);
  lua_createtable(L, 4, 0); /* ..., search, uv */
  uv = lua_gettop(L);
  lua_pushvalue(L, gi);
  lua_rawseti(L, uv, 1); /* anchor the grid */
  lua_pushvalue(L, uv);
  lds_setuv(L, self);
  b->gb = gb;
  gb->nsearch++;
  parse_opts(L, oi, b, uv, extra);
  if (reuse && gb->fp && !gb->fp_busy && lds_search_grid(gb->fp) == g) {
    /* find_path: the grid box's search (its node records and open list are
    ** reused; a start makes them fresh in O(1)) */
    b->s = gb->fp;
    b->fp = 1;
    gb->fp_busy = 1;
    b->owned = 0;
  } else {
    b->s = lds_search_new(&env, g, &err);
    if (!b->s) luaL_error(L, "%s", err.msg);
    b->fp = reuse ? 2 : 0;
    b->owned = !reuse;
  }
  if (!lua_isnoneornil(L, oi)) {
    int32_t sx = 0, sy = 0, gx = 0, gy = 0;
    int has_start, has_goal;
    lua_getfield(L, oi, "start");
    has_start = !lua_isnil(L, -1);
    if (has_start) ldsl_opt_cell(L, oi, "start", g, &sx, &sy);
    lua_getfield(L, oi, "goal");
    has_goal = !lua_isnil(L, -1);
    if (has_goal) ldsl_opt_cell(L, oi, "goal", g, &gx, &gy);
    lua_pop(L, 2);
    if (has_start != has_goal) ldsl_arg_error(L, oi, "opts.start and opts.goal go together");
    if (has_start) do_start(L, b, uv, oi, sx, sy, gx, gy);
  }
  lua_settop(L, self);
  return b;
}

/* lodestar.search.<algo>(grid [, opts]) — upvalue 1: the algorithm name. */
int ldsl_search_new(lua_State *L) {
  lua_settop(L, 2);
  if (ldsl_check_space(L, 1)) /* lodestar.search.<algo>(graph [, opts]) */
    ldsl_new_graph_search(L, 1, 2, lua_tostring(L, lua_upvalueindex(1)), NULL);
  else
    new_search(L, 1, 2, lua_tostring(L, lua_upvalueindex(1)), NULL, 0);
  return 1;
}

/* s:start(sx, sy, gx, gy) */
static int search_start(lua_State *L) {
  SearchBox *b = ldsl_check_search(L, 1);
  int32_t c[4];
  if (b->hb) return ldsl_search_start_graph(L, b); /* s:start(start, goal) on graphs */
  ldsl_check_start_goal(L, b->gb->g, 2, c);
  lua_settop(L, 5);
  lds_getuv(L, 1);
  do_start(L, b, 6, 0, c[0], c[1], c[2], c[3]);
  lua_settop(L, 1);
  return 1;
}

/* The edge callback under lua_pcall: a Lua error never crosses the core's
** C frames. On error the error object stays on the stack (no allocation
** here), the step ends with LDS_E_CALLBACK, and step_common reports it. */
static lds_Status edge_trampoline(void *ud, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                                  double base, double *out) {
  SearchBox *b = (SearchBox *)ud;
  lua_State *L = b->L;
  int t;
  lua_pushvalue(L, b->cb_idx);
  lua_pushinteger(L, x0);
  lua_pushinteger(L, y0);
  lua_pushinteger(L, x1);
  lua_pushinteger(L, y1);
  lua_pushnumber(L, base);
  if (lua_pcall(L, 5, 1, 0) != 0) {
    b->cb_failed = 1;
    b->cb_edge[0] = x0, b->cb_edge[1] = y0, b->cb_edge[2] = x1, b->cb_edge[3] = y1;
    return LDS_E_CALLBACK;
  }
  t = lua_type(L, -1);
  if (t == LUA_TNUMBER) {
    *out = lua_tonumber(L, -1);
  } else if (t == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
    *out = INFINITY; /* false forbids the move */
  } else {
    b->cb_failed = 2;
    b->cb_badtype = lua_typename(L, t); /* static string */
    b->cb_edge[0] = x0, b->cb_edge[1] = y0, b->cb_edge[2] = x1, b->cb_edge[3] = y1;
    lua_pop(L, 1);
    return LDS_E_CALLBACK;
  }
  lua_pop(L, 1);
  return LDS_OK;
}

/* Steps the search at index 1 with budget bud; pushes status [, message]. */
static int step_common(lua_State *L, SearchBox *b, const lds_Budget *bud) {
  GridBox *gb = b->gb;
  lds_Status st;
  int uv, base;
  if (b->busy) return luaL_error(L, "%s: cannot step a search from its own %s callback",
                                 LDS_SEARCH_MT, b->hb ? "heuristic" : "edge");
  ldsl_callback_guard(L, LDS_SEARCH_MT ":step");
  lds_getuv(L, 1);
  uv = lua_gettop(L);
  if (gb && gb->closed && !gb->g) return luaL_error(L, "attempt to use a freed %s", LDS_GRID_MT);
  if (b->params.edge_cost) {
    lua_rawgeti(L, uv, 2); /* uv, fn */
    b->cb_idx = lua_gettop(L);
    luaL_checkstack(L, 10, "edge callback");
  }
  if (b->params.node_h) { /* graphs: the custom heuristic */
    lua_rawgeti(L, uv, 5); /* uv, fn */
    b->h_idx = lua_gettop(L);
    luaL_checkstack(L, 10, "heuristic callback");
  }
  base = lua_gettop(L);
  b->L = L;
  b->cb_failed = 0;
  b->h_failed = 0;
  b->busy = 1;
  if (gb) gb->busy++;
  if (b->hb) b->hb->busy++;
  st = lds_search_step(b->s, bud); /* nothing below may raise until busy is reset */
  if (b->hb) b->hb->busy--;
  if (gb) gb->busy--;
  b->busy = 0;
  if (st == LDS_E_CALLBACK && b->h_failed) ldsl_heur_report(L, b, uv);
  if (st == LDS_E_CALLBACK && b->cb_failed) {
    const char *lmsg;
    if (b->cb_failed == 1) {
      lmsg = lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER
                 ? lua_tostring(L, -1)
                 : lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
    } else {
      lmsg = lua_pushfstring(L, "returned %s (expected a number, or false to forbid the move)",
                             b->cb_badtype);
    }
    lua_pushfstring(L, "edge callback failed at (%d,%d)->(%d,%d): %s", (int)b->cb_edge[0],
                    (int)b->cb_edge[1], (int)b->cb_edge[2], (int)b->cb_edge[3], lmsg);
    lua_rawseti(L, uv, 4);
  }
  lua_settop(L, base);
  lua_pushstring(L, lds_status_name(st));
  if (st < 0) {
    lua_rawgeti(L, uv, 4);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_pushstring(L, lds_search_errmsg(b->s));
    }
    return 2;
  }
  return 1;
}

/* s:step([budget]) -> status [, message]; budget as ldsl_check_budget */
static int search_step(lua_State *L) {
  SearchBox *b = ldsl_check_search(L, 1);
  lds_Budget bud;
  ldsl_check_budget(L, 2, &bud);
  lua_settop(L, 1);
  return step_common(L, b, &bud);
}

/* s:run{budget_us = , max_expansions = } -> status [, message] */
static int search_run(lua_State *L) {
  SearchBox *b = ldsl_check_search(L, 1);
  lds_Budget bud;
  bud.max_expansions = 0;
  bud.budget_us = 0;
  if (!lua_isnoneornil(L, 2)) {
    int i;
    ldsl_check_table(L, 2);
    ldsl_check_keys(L, 2, "budget field", "budget fields must be strings", ldsl_budget_keys, NULL);
    for (i = 0; i < 2; i++) {
      double v;
      lua_getfield(L, 2, ldsl_budget_keys[i]);
      if (!lua_isnil(L, -1)) {
        v = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 0)
          ldsl_arg_error(L, 2, lua_pushfstring(L, "%s must be an integer >= 0", ldsl_budget_keys[i]));
        if (i == 0)
          bud.budget_us = (uint64_t)v;
        else
          bud.max_expansions = (uint64_t)v;
      }
      lua_pop(L, 1);
    }
  }
  lua_settop(L, 1);
  return step_common(L, b, &bud);
}

static int search_status(lua_State *L) {
  SearchBox *b = ldsl_check_search(L, 1);
  lua_pushstring(L, lds_status_name(lds_search_status(b->s)));
  return 1;
}

static int search_errmsg(lua_State *L) {
  SearchBox *b = ldsl_check_search(L, 1);
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 4);
  if (lua_isnil(L, -1)) lua_pushstring(L, lds_search_errmsg(b->s));
  return 1;
}

static int search_cost(lua_State *L) {
  SearchBox *b = ldsl_check_search(L, 1);
  double c = lds_search_cost(b->s);
  if (c < 0)
    lua_pushnil(L);
  else
    lua_pushnumber(L, c);
  return 1;
}

static int path_result(lua_State *L, int partial) {
  SearchBox *b = ldsl_check_search(L, 1);
  lds_Error err;
  PathBox *pb = ldsl_new_pathbox(L);
  lds_Path *p = partial == 2   ? lds_search_jump_points(b->s, &err)
                : partial == 1 ? lds_search_partial_path(b->s, &err)
                               : lds_search_path(b->s, &err);
  if (!p) {
    if (err.code == LDS_E_NOMEM) return luaL_error(L, "%s", err.msg);
    return ldsl_push_fail(L, err.msg, err.code);
  }
  pb->p = p;
  pb->owned = 1;
  if (b->gb) { /* a grid search: the path remembers the query's weights (uv[3]) */
    lds_getuv(L, 1);
    lua_rawgeti(L, -1, 3); /* path, uv, weights */
    ldsl_path_remember(L, -3, -1);
    lua_pop(L, 2);
  }
  return 1;
}

static int search_path(lua_State *L) { return path_result(L, 0); }
static int search_partial_path(lua_State *L) { return path_result(L, 1); }
/* s:jump_points(): the sparse path of a JPS/JPS+ search (start, jump points,
** goal); for other algorithms the full path. nil, msg, code when none. */
static int search_jump_points(lua_State *L) { return path_result(L, 2); }

static int search_stats(lua_State *L) {
  SearchBox *b = ldsl_check_search(L, 1);
  lds_Stats st;
  lds_search_stats(b->s, &st);
  ldsl_push_stats(L, &st, 1);
  ldsl_push_u64(L, lds_search_mem_used(b->s));
  lua_setfield(L, -2, "mem_bytes");
  return 1;
}

static int search_grid(lua_State *L) {
  if (!ldsl_check_search(L, 1)->gb) { /* a graph search: see s:graph() */
    lua_pushnil(L);
    return 1;
  }
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

static int search_algorithm(lua_State *L) {
  SearchBox *b = check_searchbox(L, 1);
  lua_pushstring(L, lds_algo_name(b->algo));
  return 1;
}

/* s:algorithm_used() -> name | nil. The algorithm that actually runs the
** current (or last) query, one of lodestar.algorithms, which can differ from
** s:algorithm(): "jps" and "jps+" fall back to "astar" where JPS would not
** be optimal (a 4-connected grid, the "never" or "allow_one_blocked"
** diagonal rule, a cell cost other than 1, a non-zero layer weight, an edge
** callback; see docs/search.md, "Jump Point Search"), and "jps+" runs "jps" on
** an "always" grid. Decided by s:start from the grid as it is then; later
** edits take effect at the next start. Other algorithms (and graph searches)
** return s:algorithm(). nil before the first start and after a start that
** raised (no query is set up). Raises only for a non-search argument or a
** freed search. (lds_search_algo_used) */
static int search_algorithm_used(lua_State *L) {
  SearchBox *b = ldsl_check_search(L, 1);
  if (!b->started) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushstring(L, lds_algo_name(lds_search_algo_used(b->s)));
  return 1;
}

/* Algorithms that run on graphs (the others need a grid). */
int ldsl_graph_algo(lds_Algo a) {
  return a == LDS_ALGO_ASTAR || a == LDS_ALGO_DIJKSTRA || a == LDS_ALGO_WASTAR ||
         a == LDS_ALGO_GREEDY;
}

/* Raises "bad argument #oi (opts.algorithm: unknown algorithm 'x' (expected
** astar, ...))", listing the names the core knows (graphs: those that run on
** graphs), so the list follows lds_algo_name. */
int ldsl_unknown_algorithm(lua_State *L, int oi, const char *algo, int graph) {
  luaL_Buffer b;
  int i, n = 0;
  lua_pushfstring(L, "unknown algorithm '%s' (expected ", algo);
  luaL_buffinit(L, &b);
  for (i = 0; i < 64 && lds_algo_name((lds_Algo)i); i++) {
    if (graph && !ldsl_graph_algo((lds_Algo)i)) continue;
    if (n++) luaL_addstring(&b, ", ");
    luaL_addstring(&b, lds_algo_name((lds_Algo)i));
  }
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  lua_concat(L, 2);
  return ldsl_opt_error(L, oi, "algorithm", lua_tostring(L, -1));
}

/* find_path's options: takes the `algorithm` field out of the table at oi.
** Afterwards oi holds a copy of opts without it and oi + 1 the original (which
** keeps the returned string alive); nil opts stay nil. Returns the name
** ("astar" by default). */
const char *ldsl_take_algorithm(lua_State *L, int oi) {
  const char *algo = "astar";
  lua_settop(L, oi);
  if (lua_isnil(L, oi)) return algo;
  ldsl_check_table(L, oi);
  lua_getfield(L, oi, "algorithm");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) ldsl_opt_type_error(L, oi, "algorithm", "string");
    algo = lua_tostring(L, -1); /* kept alive by opts */
  }
  lua_pop(L, 1);
  lua_newtable(L); /* oi + 1: opts without 'algorithm' */
  lua_pushnil(L);
  while (lua_next(L, oi)) {
    if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "algorithm") == 0) {
      lua_pop(L, 1);
      continue;
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, oi + 1);
  }
  lua_insert(L, oi); /* oi: the copy, oi + 1: the original */
  return algo;
}

/* find_path's results for the started search b on top of the stack: runs it
** to the end, then path | nil, "no_path" | nil, message, status; the search
** is released at once, not at the next GC (a grid's goes back to its box for
** the next find_path; a graph's is freed). */
int ldsl_find_path_finish(lua_State *L, SearchBox *b) {
  lds_Status st;
  lua_replace(L, 1); /* step_common works on index 1 */
  lua_settop(L, 1);
  step_common(L, b, NULL); /* search, uv[, fn], status [, msg] */
  st = lds_search_status(b->s);
  if (st == LDS_FOUND || (st == LDS_NO_PATH && b->params.partial)) {
    lds_Error err;
    PathBox *pb = ldsl_new_pathbox(L);
    lds_Path *p = lds_search_path(b->s, &err);
    /* no partial path (a blocked start): no_path, as without partial */
    if (p || st != LDS_NO_PATH || err.code != LDS_E_STATE) {
      ldsl_push_path(L, pb, p, &err);
      lds_getuv(L, 1);
      lua_rawgeti(L, -1, 3); /* ..., path, uv, weights: the path remembers them */
      ldsl_path_remember(L, -3, -1);
      lua_pop(L, 2);
      search_release(b);
      return 1;
    }
    lua_pop(L, 1);
  }
  search_release(b);
  if (st == LDS_NO_PATH) {
    luaL_pushfail(L);
    lua_pushstring(L, "no_path");
    return 2;
  }
  luaL_pushfail(L); /* errors always push status, message */
  lua_pushvalue(L, -2);
  lua_pushstring(L, lds_status_name(st));
  return 3;
}

/* lodestar.find_path(grid, sx, sy, gx, gy [, opts]) -> path | nil, "no_path"
** | nil, message, status. opts as for a search, plus `algorithm`. */
int ldsl_find_path(lua_State *L) {
  lds_Grid *g;
  int32_t sx, sy, gx, gy;
  const char *algo;
  SearchBox *b;
  lds_Algo a;
  if (ldsl_check_space(L, 1)) return ldsl_find_path_graph(L); /* find_path(graph, start, goal [, opts]) */
  g = ldsl_check_grid(L, 1);
  {
    int32_t c[4];
    ldsl_check_start_goal(L, g, 2, c);
    sx = c[0];
    sy = c[1];
    gx = c[2];
    gy = c[3];
  }
  algo = ldsl_take_algorithm(L, 6);
  if (lds_algo_parse(algo, &a) != LDS_OK) return ldsl_unknown_algorithm(L, 6, algo, 0);
  b = new_search(L, 1, 6, algo, "algorithm", 1); /* top: search (the grid's reused one) */
  lds_getuv(L, -1);
  do_start(L, b, lua_gettop(L), 6, sx, sy, gx, gy);
  lua_pop(L, 1);
  return ldsl_find_path_finish(L, b);
}

const luaL_Reg ldsl_search_meth[] = {
    {"algorithm", search_algorithm},
    {"algorithm_used", search_algorithm_used},
    {"cost", search_cost},
    {"errmsg", search_errmsg},
    {"free", search_free},
    {"graph", ldsl_search_graph},
    {"grid", search_grid},
    {"h_scale", ldsl_search_h_scale},
    {"jump_points", search_jump_points},
    {"partial_path", search_partial_path},
    {"path", search_path},
    {"run", search_run},
    {"start", search_start},
    {"stats", search_stats},
    {"status", search_status},
    {"step", search_step},
    {NULL, NULL}};

const luaL_Reg ldsl_search_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", search_gc},
#endif
    {"__gc", search_gc},
    {"__tostring", search_tostring},
    {NULL, NULL}};
