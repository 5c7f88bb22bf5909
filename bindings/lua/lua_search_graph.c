/* SPDX-License-Identifier: MIT */
/*
** lua_search_graph.c — lodestar.Search on graphs: graph options, custom Lua heuristics,
** find_path on a graph.
*/
#include "lua_util.h"

static const char *const graph_search_opts[] = {"goal", "h_scale", "heuristic", "partial",
                                                "start", "weight", NULL};

/* The custom heuristic under lua_pcall, as edge_trampoline: a Lua error
** never crosses the core's C frames. Node ids go to Lua 1-based. On any
** failure it records why and returns NaN, which the core rejects: the start
** or step then ends with LDS_E_CALLBACK and heur_report writes the message.
** The error object of a raising heuristic stays on the stack (no allocation
** here). */
static double node_h_trampoline(void *ud, uint32_t node, uint32_t goal) {
  SearchBox *b = (SearchBox *)ud;
  lua_State *L = b->L;
  double v;
  int t;
  if (b->h_failed) return NAN;
  lua_pushvalue(L, b->h_idx);
  ldsl_push_u64(L, (uint64_t)node + 1); /* integers on 5.4 */
  ldsl_push_u64(L, (uint64_t)goal + 1);
  b->h_node = node;
  if (lua_pcall(L, 2, 1, 0) != 0) {
    b->h_failed = 1;
    return NAN;
  }
  t = lua_type(L, -1);
  if (t != LUA_TNUMBER) {
    b->h_failed = 2;
    b->h_badtype = lua_typename(L, t); /* static string */
    lua_pop(L, 1);
    return NAN;
  }
  v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (!(v >= 0.0) || isinf(v)) {
    b->h_failed = 3;
    b->h_val = v;
    return NAN;
  }
  return v;
}

/* Writes the message of a failed heuristic to uv[4] (the error object of
** a raising one is at the top of the stack). */
void ldsl_heur_report(lua_State *L, SearchBox *b, int uv) {
  const char *lmsg;
  char buf[64];
  if (b->h_failed == 1)
    lmsg = lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER
               ? lua_tostring(L, -1)
               : lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
  else if (b->h_failed == 2)
    lmsg = lua_pushfstring(L, "returned %s (expected a number >= 0)", b->h_badtype);
  else
    lmsg = lua_pushfstring(L, "returned %s (expected finite, >= 0)",
                           ldsl_fmt_num(buf, sizeof buf, b->h_val));
  lua_pushfstring(L, "heuristic callback failed at node %d: %s", (int)b->h_node + 1, lmsg);
  lua_rawseti(L, uv, 4);
}

/* "grid or graph" arguments (STYLE 13): both metatables carry the marker
** field LDS_SPACE_FIELD ("grid" / "graph"). Returns 1 for a graph, 0 for a
** grid; raises "lodestar.Grid or lodestar.Graph expected, got ..." else. */
int ldsl_check_space(lua_State *L, int arg) {
  int space = -1;
  if (lua_type(L, arg) == LUA_TUSERDATA && lua_getmetatable(L, arg)) { /* mt */
    lua_getfield(L, -1, LDS_SPACE_FIELD);                              /* mt, marker */
    if (lua_type(L, -1) == LUA_TSTRING)
      space = strcmp(lua_tostring(L, -1), "graph") == 0  ? 1
              : strcmp(lua_tostring(L, -1), "grid") == 0 ? 0
                                                          : -1;
    lua_pop(L, 2);
  }
  if (space < 0) ldsl_type_error(L, arg, LDS_GRID_MT " or " LDS_GRAPH_MT);
  return space;
}

/* Reads a node id field (opts.start / opts.goal) at the top; 0-based. */
static uint32_t opt_node(lua_State *L, int arg, const char *name, const lds_Graph *g) {
  double v;
  char buf[64];
  if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, arg, name, "number (a node id)");
  v = lua_tonumber(L, -1);
  if (v != floor(v)) ldsl_opt_error(L, arg, name, "number has no integer representation");
  if (v < 1 || v > (double)lds_graph_node_count(g))
    ldsl_opt_error(L, arg, name, lua_pushfstring(L, "node %s out of range (expected 1..%d)",
                                            ldsl_fmt_num(buf, sizeof buf, v),
                                            (int)lds_graph_node_count(g)));
  return (uint32_t)v - 1;
}

/* Parses the opts of a graph search at arg into b->params and uv; extra as
** for parse_opts. */
static void parse_graph_opts(lua_State *L, int arg, SearchBox *b, int uv, const char *extra) {
  lds_SearchParams *p = &b->params;
  lds_Coords kind = lds_graph_coords(b->hb->g);
  char buf[64];
  lds_search_params_init(p);
  p->algo = b->algo;
  if (lua_isnoneornil(L, arg)) return;
  ldsl_check_table(L, arg);
  lua_getfield(L, arg, "cost");
  lua_getfield(L, arg, "weights");
  if (!lua_isnil(L, -2) || !lua_isnil(L, -1))
    ldsl_arg_error(L, arg, lua_pushfstring(L, "option '%s' is for grid searches (on a graph, change "
                                  "costs with graph:set_edge_cost)",
                                  lua_isnil(L, -2) ? "weights" : "cost"));
  lua_pop(L, 2);
  ldsl_check_keys(L, arg, "option", "opts keys must be strings", graph_search_opts, extra);
  lua_getfield(L, arg, "heuristic");
  if (lua_type(L, -1) == LUA_TFUNCTION) {
    lua_pushvalue(L, -1);
    lua_rawseti(L, uv, 5);
    p->heuristic = LDS_H_CUSTOM;
    p->node_h = node_h_trampoline;
    p->node_h_ud = b;
  } else if (!lua_isnil(L, -1)) {
    const char *h;
    if (lua_type(L, -1) != LUA_TSTRING) ldsl_opt_type_error(L, arg, "heuristic", "string or function");
    h = lua_tostring(L, -1);
    if (lds_heuristic_parse(h, &p->heuristic) != LDS_OK ||
        (p->heuristic != LDS_H_AUTO && p->heuristic != LDS_H_ZERO &&
         p->heuristic != LDS_H_EUCLIDEAN && p->heuristic != LDS_H_GREAT_CIRCLE &&
         p->heuristic != LDS_H_CUSTOM))
      ldsl_opt_error(L, arg, "heuristic",
                lua_pushfstring(L, "invalid option '%s' on a graph (expected auto, zero, "
                                "euclidean, great_circle, or a function(node, goal))", h));
    if (p->heuristic == LDS_H_CUSTOM)
      ldsl_opt_error(L, arg, "heuristic", "'custom' is given as the function itself: heuristic = "
                "function(node, goal) ... end");
    if (p->heuristic == LDS_H_EUCLIDEAN && kind != LDS_COORDS_XY && kind != LDS_COORDS_XYZ)
      ldsl_opt_error(L, arg, "heuristic", lua_pushfstring(L, "'euclidean' needs a graph with coords "
                                                     "'xy' or 'xyz' (this one has '%s')",
                                                     lds_coords_name(kind)));
    if (p->heuristic == LDS_H_GREAT_CIRCLE && kind != LDS_COORDS_LONLAT)
      ldsl_opt_error(L, arg, "heuristic", lua_pushfstring(L, "'great_circle' needs a graph with "
                                                     "coords 'lonlat' (this one has '%s')",
                                                     lds_coords_name(kind)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "weight");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, arg, "weight", "number");
    p->weight = lua_tonumber(L, -1);
    if (!(p->weight >= 1.0) || isinf(p->weight))
      ldsl_opt_error(L, arg, "weight", lua_pushfstring(L, "%s out of range (expected finite, >= 1)",
                                                  ldsl_fmt_num(buf, sizeof buf, p->weight)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "h_scale");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, arg, "h_scale", "number");
    p->h_scale = lua_tonumber(L, -1);
    if (!(p->h_scale >= 0.0) || isinf(p->h_scale))
      ldsl_opt_error(L, arg, "h_scale", lua_pushfstring(L, "%s out of range (expected finite, >= 0)",
                                                   ldsl_fmt_num(buf, sizeof buf, p->h_scale)));
  }
  lua_pop(L, 1);
  p->partial = ldsl_opt_boolean(L, arg, "partial", 0);
}

/* Starts a graph query (0-based ids; user value table at uv). A custom
** heuristic runs here already (the core evaluates it on the start node): if
** it fails, the query ends with status "callback" and its message, as in a
** step. Raises on argument errors only. */
static void do_start_graph(lua_State *L, SearchBox *b, int uv, uint32_t start, uint32_t goal) {
  lds_Status st;
  int top = lua_gettop(L);
  if (b->busy) luaL_error(L, "%s: cannot restart a search from its own heuristic callback",
                          LDS_SEARCH_MT);
  ldsl_callback_guard(L, LDS_SEARCH_MT ":start");
  lua_pushnil(L);
  lua_rawseti(L, uv, 4); /* forget the last Lua error */
  if (b->params.node_h) {
    lua_rawgeti(L, uv, 5); /* ..., fn */
    b->h_idx = lua_gettop(L);
    luaL_checkstack(L, 10, "heuristic callback");
  }
  b->L = L;
  b->h_failed = 0;
  b->busy = 1;
  b->hb->busy++;
  st = lds_search_start_nodes(b->s, &b->params, start, goal); /* no raising until busy is reset */
  b->started = st >= 0;
  b->hb->busy--;
  b->busy = 0;
  if (st == LDS_E_CALLBACK && b->h_failed) ldsl_heur_report(L, b, uv);
  lua_settop(L, top);
  if (st < 0 && st != LDS_E_CALLBACK) luaL_error(L, "%s", lds_search_errmsg(b->s));
}

/* s:start(start, goal) on a graph search (node ids) */
int ldsl_search_start_graph(lua_State *L, SearchBox *b) {
  const lds_Graph *g = b->hb->g; /* alive while the search is (nsearch) */
  uint32_t s0 = ldsl_check_node(L, g, 2, "start"), t0 = ldsl_check_node(L, g, 3, "goal");
  lua_settop(L, 3);
  lds_getuv(L, 1); /* 4: uv */
  do_start_graph(L, b, 4, s0, t0);
  lua_settop(L, 1);
  return 1;
}

/* Pushes and returns "algorithm 'NAME' runs on grids only (...)". */
static const char *push_grids_only(lua_State *L, const char *algo_name) {
  return lua_pushfstring(L, "algorithm '%s' runs on grids only (expected astar, dijkstra, "
                         "wastar or greedy on a graph)", algo_name);
}

/* Pushes a new search on the graph at hi with the opts at oi, as new_search
** does for grids; starts it when opts has start and goal. */
SearchBox *ldsl_new_graph_search(lua_State *L, int hi, int oi, const char *algo_name,
                                   const char *extra) {
  GraphBox *hb = ldsl_check_graphbox(L, hi);
  lds_Graph *g = ldsl_check_graph(L, hi);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  lds_Algo algo = LDS_ALGO_ASTAR;
  SearchBox *b;
  int self, uv;
  lds_algo_parse(algo_name, &algo);
  if (!ldsl_graph_algo(algo)) ldsl_arg_error(L, hi, push_grids_only(L, algo_name));
  if (!lds_graph_frozen(g))
    ldsl_arg_error(L, hi, "the graph is not frozen (call graph:freeze() first)");
  b = (SearchBox *)lds_newudata(L, sizeof(SearchBox)); /* ..., search */
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_SEARCH_MT);
  self = lua_gettop(L);
  b->algo = algo;
  lua_createtable(L, 5, 0); /* ..., search, uv */
  uv = lua_gettop(L);
  lua_pushvalue(L, hi);
  lua_rawseti(L, uv, 1); /* anchor the graph */
  lua_pushvalue(L, uv);
  lds_setuv(L, self);
  b->hb = hb;
  hb->nsearch++;
  parse_graph_opts(L, oi, b, uv, extra);
  b->s = lds_search_new_graph(&env, g, &err);
  if (!b->s) luaL_error(L, "%s", err.msg);
  b->owned = 1;
  if (!lua_isnoneornil(L, oi)) {
    uint32_t s0 = 0, t0 = 0;
    int has_start, has_goal;
    lua_getfield(L, oi, "start");
    has_start = !lua_isnil(L, -1);
    if (has_start) s0 = opt_node(L, oi, "start", g);
    lua_getfield(L, oi, "goal");
    has_goal = !lua_isnil(L, -1);
    if (has_goal) t0 = opt_node(L, oi, "goal", g);
    lua_pop(L, 2);
    if (has_start != has_goal) ldsl_arg_error(L, oi, "opts.start and opts.goal go together");
    if (has_start) do_start_graph(L, b, uv, s0, t0);
  }
  lua_settop(L, self);
  return b;
}

/* lodestar.find_path(graph, start, goal [, opts]) — find_path's graph form */
int ldsl_find_path_graph(lua_State *L) {
  lds_Graph *g = ldsl_check_graph(L, 1);
  uint32_t s0 = ldsl_check_node(L, g, 2, "start"), t0 = ldsl_check_node(L, g, 3, "goal");
  const char *algo = ldsl_take_algorithm(L, 4);
  SearchBox *b;
  lds_Algo a;
  if (lds_algo_parse(algo, &a) != LDS_OK) return ldsl_unknown_algorithm(L, 4, algo, 1);
  /* the name came from the options, not from the graph (argument #1) */
  if (!ldsl_graph_algo(a)) return ldsl_opt_error(L, 4, "algorithm", push_grids_only(L, algo));
  b = ldsl_new_graph_search(L, 1, 4, algo, "algorithm"); /* top: search */
  lds_getuv(L, -1);
  do_start_graph(L, b, lua_gettop(L), s0, t0);
  lua_pop(L, 1);
  return ldsl_find_path_finish(L, b);
}

int ldsl_search_graph(lua_State *L) {
  SearchBox *b = ldsl_check_search(L, 1);
  if (!b->hb) {
    lua_pushnil(L);
    return 1;
  }
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

int ldsl_search_h_scale(lua_State *L) {
  lua_pushnumber(L, lds_search_h_scale(ldsl_check_search(L, 1)->s));
  return 1;
}
