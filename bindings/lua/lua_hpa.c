/* SPDX-License-Identifier: MIT */
/*
** lua_hpa.c — lodestar.Hierarchy: the cluster hierarchy of core/lds_hpa.h
** (lodestar.hierarchy(grid, opts)) with its one sliced query (start / step /
** prefix / path) and find_path, repair, info. find_path runs on the sliced
** query's object when no sliced query is in progress, else on a second query
** object of its own (created by the first such call), so the sliced query
** goes on undisturbed. The box follows D* Lite's
** pattern: the grid userdata anchored in the user value ([1]), the grid
** box's nsearch counted so grid:free() or its __gc waits for the last
** hierarchy on it. Not on the mod allow-list (a host builds hierarchies).
** [Paper: Botea, Müller & Schaeffer, J. Game Development 1(1), 2004]
*/
#include "lua_util.h"

typedef struct HpaBox {
  lds_Hpa *h;
  lds_HpaQuery *q;  /* the sliced query (h:start), and find_path's when q is not running */
  lds_HpaQuery *fq; /* find_path's while q is running; NULL until needed */
  GridBox *gb;
  int users;  /* schedulers that may run queries on h (ldsl_hpa_use) */
  int closed; /* freed or collected: h lives on until the last user lets go */
} HpaBox;

static const char *const hpa_opts[] = {"band_radius", "cluster_size", "fast_weight", "landmarks",
                                       "level2", "lower_bounds", "optimal_jps", "weights", NULL};
static const char *const mode_names[] = {"fast", "optimal", NULL};

static HpaBox *check_hpabox(lua_State *L, int arg) {
  HpaBox *b = (HpaBox *)luaL_testudata(L, arg, LDS_HIER_MT);
  if (!b) ldsl_type_error(L, arg, LDS_HIER_MT);
  return b;
}

static HpaBox *check_hpa(lua_State *L, int arg) {
  HpaBox *b = check_hpabox(L, arg);
  if (!b->h || b->closed) luaL_error(L, "attempt to use a freed %s", LDS_HIER_MT);
  return b;
}

static void hpa_release(HpaBox *b) {
  if (b->q) lds_hpa_query_free(b->q);
  if (b->fq) lds_hpa_query_free(b->fq);
  b->q = NULL;
  b->fq = NULL;
  b->closed = 1;
  if (b->users > 0) return; /* a scheduler still holds queries on h */
  if (b->h) lds_hpa_free(b->h);
  b->q = NULL;
  b->h = NULL;
  if (b->gb) {
    GridBox *gb = b->gb;
    b->gb = NULL;
    gb->nsearch--;
    if (gb->closed) ldsl_space_release(gb);
  }
}

lds_Hpa *ldsl_hpa_use(lua_State *L, int arg, void **box) {
  HpaBox *b = check_hpa(L, arg);
  b->users++;
  *box = b;
  return b->h;
}

void ldsl_hpa_unuse(void *box) {
  HpaBox *b = (HpaBox *)box;
  if (--b->users == 0 && b->closed) hpa_release(b);
}

lds_Hpa *ldsl_hpa_check(lua_State *L, int arg) { return check_hpa(L, arg)->h; }

static int hpa_gc(lua_State *L) {
  HpaBox *b = (HpaBox *)lua_touserdata(L, 1);
  if (b) hpa_release(b);
  return 0;
}

static int hpa_free(lua_State *L) {
  hpa_release(check_hpabox(L, 1));
  return 0;
}


static int hpa_tostring(lua_State *L) {
  HpaBox *b = check_hpabox(L, 1);
  lds_HpaInfo in;
  if (!b->h) {
    lua_pushfstring(L, "%s (freed)", LDS_HIER_MT);
    return 1;
  }
  lds_hpa_info(b->h, &in);
  lua_pushfstring(L, "%s cluster %d, %d entrances (%p)", LDS_HIER_MT, (int)in.cluster_size,
                  (int)in.entrances, (void *)b);
  return 1;
}

/* Option `key` of the options table at index 2: an integer lo..hi, or def
** when absent; anything else raises opts.<key>'s error with the value. */
static int opt_int_in(lua_State *L, const char *key, int lo, int hi, int def) {
  int v = def;
  lua_getfield(L, 2, key);
  if (!lua_isnil(L, -1)) {
    double c = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, 2, key, "number");
    if (c != floor(c) || c < lo || c > hi) {
      char buf[64];
      ldsl_opt_error(L, 2, key,
                     lua_pushfstring(L, "%s out of range (expected an integer %d..%d)",
                                     ldsl_fmt_coord(buf, sizeof buf, c), lo, hi));
    }
    v = (int)c;
  }
  lua_pop(L, 1);
  return v;
}

/* opts.fast_weight of the options table at index 2: a number
** 1..LDS_HPA_MAX_FAST_WEIGHT (lds_HpaParams.fast_weight), or def when
** absent; anything else (NaN included) raises opts.fast_weight's error. */
static double opt_fast_weight(lua_State *L, double def) {
  double v = def;
  lua_getfield(L, 2, "fast_weight");
  if (!lua_isnil(L, -1)) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, 2, "fast_weight", "number");
    v = lua_tonumber(L, -1);
    if (!(v >= 1.0 && v <= LDS_HPA_MAX_FAST_WEIGHT))
      ldsl_opt_error(L, 2, "fast_weight",
                     lua_pushfstring(L, "%s out of range (expected a number 1..%d)",
                                     ldsl_fmt_coord(buf, sizeof buf, v), (int)LDS_HPA_MAX_FAST_WEIGHT));
  }
  lua_pop(L, 1);
  return v;
}

/* opts.level2 of the options table at index 2 for clusters of cs cells:
** "auto" (or absent: LDS_HPA_LEVEL2_AUTO), 0 (no second level) or an
** integer 2..K with K^2 x 4 x cs below 65535 and K <= 32 (lds_HpaParams.level2);
** anything else raises opts.level2's error naming the value and the range. */
static int opt_level2(lua_State *L, int cs) {
  int hi = 32, v = LDS_HPA_LEVEL2_AUTO;
  while (hi > 2 && hi * hi * 4 * cs >= 65535) hi--;
  lua_getfield(L, 2, "level2");
  if (lua_type(L, -1) == LUA_TSTRING) {
    if (strcmp(lua_tostring(L, -1), "auto") != 0)
      ldsl_opt_error(L, 2, "level2",
                     lua_pushfstring(L, "invalid option '%s' (expected 'auto', 0 for none or an "
                                        "integer 2..%d)", lua_tostring(L, -1), hi));
  } else if (!lua_isnil(L, -1)) {
    double c = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, 2, "level2", "number or 'auto'");
    if (c != floor(c) || !(c == 0 || (c >= 2 && c <= hi))) {
      char buf[64];
      ldsl_opt_error(L, 2, "level2",
                     lua_pushfstring(L, "%s out of range (expected 'auto', 0 for none or an integer "
                                        "2..%d: level2^2 x 4 x cluster_size %d below 65535)",
                                     ldsl_fmt_coord(buf, sizeof buf, c), hi, cs));
    }
    v = (int)c;
  }
  lua_pop(L, 1);
  return v;
}

/* lodestar.hierarchy(grid [, {cluster_size = 16, landmarks = 8, lower_bounds
**   = true, optimal_jps = true, level2 = "auto", fast_weight = 1.02,
**   band_radius = 2, weights = {layer = w}}]) ->
**   a lodestar.Hierarchy (built; raises opts.<key>'s error on bad options) */
int ldsl_hpa_new(lua_State *L) {
  GridBox *gb = ldsl_check_gridbox(L, 1);
  lds_Grid *g = ldsl_check_grid(L, 1);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  lds_HpaParams p;
  double w[16];
  int self, uv, wt;
  HpaBox *b;
  lua_settop(L, 2);
  lds_hpa_params_init(&p);
  if (!lua_isnil(L, 2)) {
    ldsl_check_table(L, 2);
    ldsl_check_keys(L, 2, "option", "opts keys must be strings", hpa_opts, NULL);
    p.cluster_size = opt_int_in(L, "cluster_size", 4, LDS_HPA_MAX_CLUSTER, p.cluster_size);
    p.landmarks = opt_int_in(L, "landmarks", 1, LDS_HPA_MAX_LANDMARKS, p.landmarks);
    p.level2 = opt_level2(L, p.cluster_size);
    p.fast_weight = opt_fast_weight(L, p.fast_weight);
    p.band_radius = opt_int_in(L, "band_radius", 0, LDS_HPA_MAX_BAND_RADIUS, p.band_radius);
    p.optimal_jps = ldsl_opt_boolean(L, 2, "optimal_jps", p.optimal_jps);
    p.lower_bounds = ldsl_opt_boolean(L, 2, "lower_bounds", p.lower_bounds);
    p.n_layer_weights = ldsl_dstar_weights(L, 2, g, w);
    p.layer_weights = p.n_layer_weights ? w : NULL;
  }
  /* a copy of opts.weights (name -> number) that its paths remember */
  lua_newtable(L);
  if (p.n_layer_weights > 0) {
    lua_getfield(L, 2, "weights");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, -5);
    }
    lua_pop(L, 1);
  }
  wt = lua_gettop(L);
  b = (HpaBox *)lds_newudata(L, sizeof(HpaBox)); /* grid, opts, box */
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_HIER_MT);
  self = lua_gettop(L);
  lua_createtable(L, 1, 0);
  uv = lua_gettop(L);
  lua_pushvalue(L, 1);
  lua_rawseti(L, uv, 1); /* anchor the grid */
  if (p.n_layer_weights > 0) {
    lua_pushvalue(L, wt);
    lua_rawseti(L, uv, 2); /* the weights its paths remember */
  }
  lds_setuv(L, self);
  b->gb = gb;
  gb->nsearch++;
  b->h = lds_hpa_new(&env, g, &p, &err);
  if (!b->h && err.code == LDS_E_ARG && strstr(err.msg, "under the layer weights"))
    return ldsl_weights_fail(L, 2, 2, NULL, err.msg);
  if (!b->h) return luaL_error(L, "%s", err.msg);
  b->q = lds_hpa_query_new(b->h, &err);
  if (!b->q) return luaL_error(L, "%s", err.msg);
  lua_settop(L, self);
  return 1;
}

/* Raises the core's message m in the hierarchy's words: the internal
** function names ("lds_hpa_query_start: ", "lds_hpa_repair: ") give way to
** the method the caller used, "lodestar.Hierarchy:find_path: a layer of the
** grid was removed since ... build a new hierarchy". */
static int hpa_error(lua_State *L, const char *method, const char *m) {
  m = luaL_gsub(L, m, "lds_hpa_query_start: ", "");
  m = luaL_gsub(L, m, "lds_hpa_repair: ", "");
  return luaL_error(L, "%s:%s: %s", LDS_HIER_MT, method, m);
}

/* Starts query q of h:start or h:find_path (method, for messages); bad
** arguments raise. A failed repair raises too, unless soft: then it pushes
** nil, "lodestar.Hierarchy:<method>: the hierarchy could not be repaired:
** ...", status and returns 3 (0 when the query started). */
static int start_query(lua_State *L, lds_HpaQuery *q, const char *method, bool soft) {
  HpaBox *b = check_hpa(L, 1);
  int32_t c[4];
  lds_HpaMode m = LDS_HPA_FAST;
  lds_Status st;
  ldsl_check_start_goal(L, b->gb->g, 2, c);
  if (!lua_isnoneornil(L, 6)) m = (lds_HpaMode)ldsl_check_option(L, 6, mode_names);
  if (soft && (st = lds_hpa_repair(b->h)) != LDS_OK) {
    const char *why;
    if (st == LDS_E_NOMEM) return luaL_error(L, "%s", lds_hpa_errmsg(b->h));
    why = luaL_gsub(L, lds_hpa_errmsg(b->h), "lds_hpa_repair: ", "");
    lua_pushfstring(L, "%s:%s: the hierarchy could not be repaired: %s", LDS_HIER_MT, method, why);
    return ldsl_push_fail(L, lua_tostring(L, -1), st);
  }
  if (lds_hpa_query_start(q, m, c[0], c[1], c[2], c[3]) != LDS_OK)
    hpa_error(L, method, lds_hpa_query_errmsg(q));
  return 0;
}

/* h:start(sx, sy, gx, gy [, mode]) -> h; mode "fast" (default) or "optimal" */
static int hpa_start(lua_State *L) {
  start_query(L, check_hpa(L, 1)->q, "start", false);
  lua_settop(L, 1);
  return 1;
}

/* h:step([budget]) -> status [, message] */
static int hpa_step(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  lds_Budget bud;
  lds_Status st;
  ldsl_check_budget(L, 2, &bud);
  st = lds_hpa_query_step(b->q, &bud);
  lua_pushstring(L, lds_status_name(st));
  if (st < 0) {
    lua_pushstring(L, lds_hpa_query_errmsg(b->q));
    return 2;
  }
  return 1;
}

void ldsl_hpa_push_weights(lua_State *L, int arg) {
  lds_getuv(L, arg);
  if (lua_istable(L, -1))
    lua_rawgeti(L, -1, 2);
  else
    lua_pushnil(L);
  lua_remove(L, -2);
}

/* Pushes p (owned by the new Path; it remembers the weights of the
** hierarchy at 1). When p is NULL: nil and query q's status ("running",
** "no_path"), or, when the query ended in an error (or none was started),
** nil, message, status as the rest of the module fails (err: the core's
** answer for p). */
static int push_query_path(lua_State *L, const lds_HpaQuery *q, lds_Path *p, const lds_Error *err) {
  if (!p) {
    lds_Status st = lds_hpa_query_status(q);
    const char *m = lds_hpa_query_errmsg(q);
    if (err->code == LDS_E_NOMEM) return luaL_error(L, "%s", err->msg);
    if (st >= 0) {
      lua_pushnil(L);
      lua_pushstring(L, lds_status_name(st));
      return 2;
    }
    return ldsl_push_fail(L, *m ? m : err->msg, st);
  }
  lds_lua_push_path(L, p, 1);
  ldsl_hpa_push_weights(L, 1);
  ldsl_path_remember(L, -2, lua_gettop(L));
  lua_pop(L, 1);
  return 1;
}

/* h:path() -> path, or nil, status ("running", "no_path"), or nil,
** message, status after an error (or before any start: "state") */
static int hpa_path(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  lds_Error err;
  lds_Path *p = lds_hpa_query_path(b->q, &err);
  return push_query_path(L, b->q, p, &err);
}

/* h:prefix() -> path (the final prefix, flagged partial while running), or
** as h:path() when there is none: nil, "running" for an optimal-mode query
** before it is found (that mode has no prefix) */
static int hpa_prefix(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  lds_Error err;
  lds_Path *p = lds_hpa_query_prefix(b->q, &err);
  return push_query_path(L, b->q, p, &err);
}

/* h:find_path(sx, sy, gx, gy [, mode]) -> path, or nil, "no_path", or nil,
** message, status when the query ends in an error (as lodestar.find_path),
** a failed repair among them; bad arguments raise. Runs on b->q unless the
** sliced query there is in progress (running): then on b->fq, created by
** the first such call, and the sliced query is left as it was. */
static int hpa_find_path(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  lds_HpaQuery *q = b->q;
  lds_Status st;
  lds_Error err;
  lds_Path *p;
  int n;
  if (lds_hpa_query_status(b->q) == LDS_RUNNING) {
    if (!b->fq && !(b->fq = lds_hpa_query_new(b->h, &err))) return luaL_error(L, "%s", err.msg);
    q = b->fq;
  }
  if ((n = start_query(L, q, "find_path", true)) != 0) return n;
  st = lds_hpa_query_step(q, NULL);
  if (st == LDS_NO_PATH) {
    lua_pushnil(L);
    lua_pushstring(L, "no_path");
    return 2;
  }
  if (st != LDS_FOUND) return ldsl_push_fail(L, lds_hpa_query_errmsg(q), st);
  p = lds_hpa_query_path(q, &err);
  return push_query_path(L, q, p, &err);
}

/* h:status() -> status name */
static int hpa_status(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  lua_pushstring(L, lds_status_name(lds_hpa_query_status(b->q)));
  return 1;
}

/* h:cost() -> cost of the path found, or nil */
static int hpa_cost(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  double c = lds_hpa_query_cost(b->q);
  if (c < 0)
    lua_pushnil(L);
  else
    lua_pushnumber(L, c);
  return 1;
}

/* h:repair() -> microseconds the repair took (0 when nothing changed) */
static int hpa_repair(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  lds_HpaInfo in;
  uint64_t before;
  lds_hpa_info(b->h, &in);
  before = in.repairs;
  if (lds_hpa_repair(b->h) != LDS_OK) return hpa_error(L, "repair", lds_hpa_errmsg(b->h));
  lds_hpa_info(b->h, &in);
  ldsl_push_u64(L, in.repairs == before ? 0 : in.last_repair_us);
  return 1;
}

/* h:refresh() -> microseconds: applies the pending edits, then rebuilds the
** oldest second-level cluster a repair left stale (lds_hpa_refresh); 0 when
** none was stale (an edit's repair is timed by h:repair) */
static int hpa_refresh(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  lds_HpaInfo in;
  uint32_t stale;
  if (lds_hpa_repair(b->h) != LDS_OK) return hpa_error(L, "refresh", lds_hpa_errmsg(b->h));
  lds_hpa_info(b->h, &in);
  stale = in.level2_stale;
  if (lds_hpa_refresh(b->h) != LDS_OK) return hpa_error(L, "refresh", lds_hpa_errmsg(b->h));
  lds_hpa_info(b->h, &in);
  ldsl_push_u64(L, stale ? in.last_repair_us : 0);
  return 1;
}

/* h:info() -> {cluster_size, clusters_x, clusters_y, entrances, intra_edges,
**   bytes, bytes_per_cell, build_us, repairs, last_repair_us,
**   last_repair_clusters, total_repair_us, landmarks, landmark_bytes,
**   level2, level2_entrances, level2_bytes, level2_build_us, level2_stale,
**   fast_weight, band_radius}
**   (cells, bytes, microseconds; level2 0 without a second level) */
static int hpa_info(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  lds_HpaInfo in;
  lds_hpa_info(b->h, &in);
  lua_createtable(L, 0, 21);
#define SETI(name, v)          \
  ldsl_push_u64(L, (uint64_t)(v)); \
  lua_setfield(L, -2, name)
  SETI("cluster_size", in.cluster_size);
  SETI("clusters_x", in.clusters_x);
  SETI("clusters_y", in.clusters_y);
  SETI("entrances", in.entrances);
  SETI("intra_edges", in.intra_edges);
  SETI("bytes", in.bytes);
  SETI("build_us", in.build_us);
  SETI("repairs", in.repairs);
  SETI("last_repair_us", in.last_repair_us);
  SETI("last_repair_clusters", in.last_repair_clusters);
  SETI("total_repair_us", in.total_repair_us);
  SETI("landmarks", in.landmarks);
  SETI("landmark_bytes", in.landmark_bytes);
  SETI("level2", in.level2);
  SETI("level2_entrances", in.level2_entrances);
  SETI("level2_bytes", in.level2_bytes);
  SETI("level2_build_us", in.level2_build_us);
  SETI("band_radius", in.band_radius);
  SETI("level2_stale", in.level2_stale);
#undef SETI
  lua_pushnumber(L, in.bytes_per_cell);
  lua_setfield(L, -2, "bytes_per_cell");
  lua_pushnumber(L, in.fast_weight);
  lua_setfield(L, -2, "fast_weight");
  return 1;
}

/* h:stats() -> {expansions, pushes, peak_open, elapsed_us} of the current query */
static int hpa_stats(lua_State *L) {
  HpaBox *b = check_hpa(L, 1);
  lds_Stats st;
  lds_hpa_query_stats(b->q, &st);
  ldsl_push_stats(L, &st, 0);
  return 1;
}

static int hpa_grid(lua_State *L) {
  check_hpa(L, 1);
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

const luaL_Reg ldsl_hpa_meth[] = {{"cost", hpa_cost},     {"find_path", hpa_find_path},
                                  {"free", hpa_free},     {"grid", hpa_grid},
                                  {"info", hpa_info},     {"path", hpa_path},
                                  {"prefix", hpa_prefix}, {"refresh", hpa_refresh},
                                  {"repair", hpa_repair},
                                  {"start", hpa_start},   {"stats", hpa_stats},
                                  {"status", hpa_status}, {"step", hpa_step},
                                  {NULL, NULL}};

const luaL_Reg ldsl_hpa_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", hpa_gc},
#endif
    {"__gc", hpa_gc},
    {"__tostring", hpa_tostring},
    {NULL, NULL}};
