/* SPDX-License-Identifier: MIT */
/*
** lua_graph.c — lodestar.Graph: nodes, edges, coordinates, freezing.
*/
#include "lua_util.h"

/* Node and edge ids are 1-based in Lua — DIMACS files number nodes from 1
** and Lua sequences start at 1, so `nodes[id]` tables and query files line
** up — while the core's are 0-based: every crossing of the binding adds or
** subtracts one, here and in the graph search functions only. */

const char *const ldsl_coords_names[] = {"none", "xy", "xyz", "lonlat", NULL};

lds_Graph *ldsl_check_graph(lua_State *L, int arg) {
  GraphBox *b = ldsl_check_graphbox(L, arg);
  if (!b->g || b->closed) luaL_error(L, "attempt to use a freed %s", LDS_GRAPH_MT);
  return b->g;
}

/* For the calls that need the building state (add_node, add_edge). */
static lds_Graph *check_graph_building(lua_State *L, int arg, const char *what) {
  lds_Graph *g = ldsl_check_graph(L, arg);
  if (lds_graph_frozen(g))
    luaL_error(L, "%s: cannot %s: the graph is frozen (topology and coordinates are fixed)",
               LDS_GRAPH_MT, what);
  return g;
}

/* For the calls that need a frozen graph (neighbours, costs, edge ids). */
static lds_Graph *check_graph_frozen(lua_State *L, int arg, const char *what) {
  lds_Graph *g = ldsl_check_graph(L, arg);
  if (!lds_graph_frozen(g))
    luaL_error(L, "%s: %s needs a frozen graph (call graph:freeze() first)", LDS_GRAPH_MT, what);
  return g;
}

/* A 1-based node id at arg; returns the core's 0-based id. */
uint32_t ldsl_check_node(lua_State *L, const lds_Graph *g, int arg, const char *what) {
  double v = ldsl_check_int(L, arg);
  uint32_t n = lds_graph_node_count(g);
  if (v < 1 || v > (double)n) {
    char buf[64];
    ldsl_fmt_num(buf, sizeof buf, v);
    if (n == 0)
      ldsl_arg_error(L, arg, lua_pushfstring(L, "%s %s out of range (the graph has no nodes)",
                                        what, buf));
    ldsl_arg_error(L, arg, lua_pushfstring(L, "%s %s out of range (expected 1..%d)", what, buf,
                                      (int)n));
  }
  return (uint32_t)v - 1;
}

/* A 1-based edge id at arg (frozen graph); returns the core's id. */
static uint32_t check_edge(lua_State *L, const lds_Graph *g, int arg) {
  double v = ldsl_check_int(L, arg);
  uint32_t m = lds_graph_edge_count(g);
  if (v < 1 || v > (double)m) {
    char buf[64];
    ldsl_fmt_num(buf, sizeof buf, v);
    if (m == 0)
      ldsl_arg_error(L, arg, lua_pushfstring(L, "edge %s out of range (the graph has no edges)",
                                        buf));
    ldsl_arg_error(L, arg, lua_pushfstring(L, "edge %s out of range (expected 1..%d)", buf,
                                      (int)m));
  }
  return (uint32_t)v - 1;
}

/* An edge cost at arg: finite, >= 0 [Units: cost]. */
static double check_edge_cost(lua_State *L, int arg) {
  lua_Number c = ldsl_check_num(L, arg);
  char buf[64];
  if (!(c >= 0) || isinf(c))
    ldsl_arg_error(L, arg, lua_pushfstring(L, "cost %s out of range (expected finite, >= 0)",
                                      ldsl_fmt_num(buf, sizeof buf, c)));
  return c;
}

static void graph_free_obj(void *g) { lds_graph_free((lds_Graph *)g); }

static void graph_describe(lua_State *L, const SpaceBox *b) {
  lua_pushfstring(L, "%s %d nodes %d edges %s %s (%p)", LDS_GRAPH_MT,
                  (int)lds_graph_node_count(b->g), (int)lds_graph_edge_count(b->g),
                  lds_coords_name(lds_graph_coords(b->g)),
                  lds_graph_frozen(b->g) ? "frozen" : "building", (const void *)b);
}

const SpaceKind ldsl_graph_kind = {
    LDS_GRAPH_MT, graph_free_obj,
    "%s: cannot free while a heuristic callback of a search on it runs", graph_describe};

/* lodestar.graph.new([coords]) — coords "none" | "xy" (default) | "xyz" | "lonlat" */
static int graph_new(lua_State *L) {
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  lds_Coords kind = LDS_COORDS_XY;
  GraphBox *b;
  if (!lua_isnoneornil(L, 1)) {
    kind = (lds_Coords)ldsl_check_option(L, 1, ldsl_coords_names);
  }
  b = ldsl_new_graphbox(L);
  b->g = lds_graph_new(&env, kind, &err);
  if (!b->g) return luaL_error(L, "%s", err.msg);
  b->owned = 1;
  return 1;
}

/* lodestar.graph.from_grid(grid) -> frozen graph, node id = y*width + x + 1 */
static int graph_from_grid(lua_State *L) {
  lds_Grid *grid = ldsl_check_grid(L, 1);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  GraphBox *b = ldsl_new_graphbox(L);
  b->g = lds_graph_from_grid(&env, grid, &err);
  if (!b->g) return luaL_error(L, "%s", err.msg);
  b->owned = 1;
  return 1;
}

static int graph_free(lua_State *L) { return ldsl_space_free(L, &ldsl_graph_kind); }

static int graph_tostring(lua_State *L) { return ldsl_space_tostring(L, &ldsl_graph_kind); }

/* g:add_node([x, y [, z]]) -> id. Coordinates by the graph's kind: none —
** no arguments; xy, lonlat — x, y (lonlat: longitude, latitude in degrees);
** xyz — x, y [, z = 0]. */
static int graph_add_node(lua_State *L) {
  lds_Graph *g = check_graph_building(L, 1, "add a node");
  lds_Coords kind = lds_graph_coords(g);
  double x = 0, y = 0, z = 0;
  uint32_t id;
  lds_Status st;
  char buf[64];
  int top = lua_gettop(L);
  if (kind == LDS_COORDS_NONE) {
    if (top >= 2 && !lua_isnil(L, 2))
      return ldsl_arg_error(L, 2, "the graph has coords 'none' (expected no coordinates)");
  } else {
    x = ldsl_check_num(L, 2);
    y = ldsl_check_num(L, 3);
    if (kind == LDS_COORDS_XYZ)
      z = lua_isnoneornil(L, 4) ? 0.0 : ldsl_check_num(L, 4);
    else if (!lua_isnoneornil(L, 4))
      return ldsl_arg_error(L, 4, lua_pushfstring(L, "the graph has coords '%s' (expected no z)",
                                             lds_coords_name(kind)));
    if (!isfinite(x))
      return ldsl_arg_error(L, 2, lua_pushfstring(L, "x %s out of range (expected finite)",
                                             ldsl_fmt_num(buf, sizeof buf, x)));
    if (!isfinite(y))
      return ldsl_arg_error(L, 3, lua_pushfstring(L, "y %s out of range (expected finite)",
                                             ldsl_fmt_num(buf, sizeof buf, y)));
    if (!isfinite(z))
      return ldsl_arg_error(L, 4, lua_pushfstring(L, "z %s out of range (expected finite)",
                                             ldsl_fmt_num(buf, sizeof buf, z)));
    if (kind == LDS_COORDS_LONLAT && (x < -180.0 || x > 180.0))
      return ldsl_arg_error(L, 2, lua_pushfstring(L, "longitude %s out of range (expected "
                                             "-180..180)", ldsl_fmt_num(buf, sizeof buf, x)));
    if (kind == LDS_COORDS_LONLAT && (y < -90.0 || y > 90.0))
      return ldsl_arg_error(L, 3, lua_pushfstring(L, "latitude %s out of range (expected "
                                             "-90..90)", ldsl_fmt_num(buf, sizeof buf, y)));
  }
  st = lds_graph_add_node(g, x, y, z, &id);
  if (st != LDS_OK) return luaL_error(L, "%s", lds_graph_errmsg(g)); /* limit, nomem */
  ldsl_push_u64(L, (uint64_t)id + 1);
  return 1;
}

/* g:add_edge(a, b, cost) — directed a -> b; self-loops and parallel edges kept */
static int graph_add_edge(lua_State *L) {
  lds_Graph *g = check_graph_building(L, 1, "add an edge");
  uint32_t a = ldsl_check_node(L, g, 2, "node"), bn = ldsl_check_node(L, g, 3, "node");
  double c = check_edge_cost(L, 4);
  if (lds_graph_add_edge(g, a, bn, c) != LDS_OK)
    return luaL_error(L, "%s", lds_graph_errmsg(g)); /* limit, nomem */
  return 0;
}

/* g:freeze() -> g (idempotent) */
static int graph_freeze(lua_State *L) {
  lds_Graph *g = ldsl_check_graph(L, 1);
  lds_Error err;
  if (lds_graph_freeze(g, &err) != LDS_OK) return luaL_error(L, "%s", err.msg);
  lua_settop(L, 1);
  return 1;
}

static int graph_frozen(lua_State *L) {
  lua_pushboolean(L, lds_graph_frozen(ldsl_check_graph(L, 1)));
  return 1;
}

/* Pushes {node = n, cost = c, edge = e} (1-based ids). */
static void push_adj(lua_State *L, uint32_t node, double cost, uint32_t edge) {
  lua_createtable(L, 0, 3);
  ldsl_push_u64(L, (uint64_t)node + 1);
  lua_setfield(L, -2, "node");
  lua_pushnumber(L, cost);
  lua_setfield(L, -2, "cost");
  ldsl_push_u64(L, (uint64_t)edge + 1);
  lua_setfield(L, -2, "edge");
}

/* g:neighbours(n) -> {{node =, cost =, edge =}, ...} in edge-id order */
static int graph_neighbours(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "neighbours");
  uint32_t u = ldsl_check_node(L, g, 2, "node"), i, n, first;
  const uint32_t *dst;
  const double *cost;
  n = lds_graph_out_edges(g, u, &dst, &cost, &first);
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    push_adj(L, dst[i], cost[i], first + i);
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/* g:in_neighbours(n) -> {{node = source, cost =, edge =}, ...} */
static int graph_in_neighbours(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "in_neighbours");
  uint32_t v = ldsl_check_node(L, g, 2, "node"), i, n;
  const uint32_t *src, *edges;
  n = lds_graph_in_edges(g, v, &src, &edges);
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    push_adj(L, src[i], lds_graph_edge_cost(g, edges[i]), edges[i]);
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/* g:find_edge(a, b) -> edge id of the first a -> b, or nil */
static int graph_find_edge(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "find_edge");
  uint32_t a = ldsl_check_node(L, g, 2, "node"), bn = ldsl_check_node(L, g, 3, "node");
  uint32_t e = lds_graph_find_edge(g, a, bn);
  if (e == LDS_GRAPH_NONE)
    lua_pushnil(L);
  else
    ldsl_push_u64(L, (uint64_t)e + 1);
  return 1;
}

/* g:edge(e) -> from, to, cost */
static int graph_edge(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "edge");
  uint32_t e = check_edge(L, g, 2), a = 0, bn = 0;
  lds_graph_edge_ends(g, e, &a, &bn);
  ldsl_push_u64(L, (uint64_t)a + 1);
  ldsl_push_u64(L, (uint64_t)bn + 1);
  lua_pushnumber(L, lds_graph_edge_cost(g, e));
  return 3;
}

/* Cost edits from inside a heuristic callback would change costs under the
** running step (which reads them in place): refused, like free. */
static void check_graph_idle(lua_State *L, int arg) {
  if (ldsl_check_graphbox(L, arg)->busy)
    luaL_error(L, "%s: cannot change costs while a heuristic callback of a search on it runs",
               LDS_GRAPH_MT);
}

/* g:set_edge_cost(a, b, cost): the first edge a -> b (lowest edge id) */
static int graph_set_edge_cost(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "set_edge_cost");
  uint32_t a = ldsl_check_node(L, g, 2, "node"), bn = ldsl_check_node(L, g, 3, "node"), e;
  double c = check_edge_cost(L, 4);
  check_graph_idle(L, 1);
  e = lds_graph_find_edge(g, a, bn);
  if (e == LDS_GRAPH_NONE)
    return ldsl_arg_error(L, 3, lua_pushfstring(L, "no edge %d -> %d", (int)a + 1, (int)bn + 1));
  if (lds_graph_set_edge_cost_id(g, e, c) != LDS_OK)
    return luaL_error(L, "%s", lds_graph_errmsg(g));
  return 0;
}

/* g:set_edge_cost_id(e, cost): one edge by id (parallel edges) */
static int graph_set_edge_cost_id(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "set_edge_cost_id");
  uint32_t e = check_edge(L, g, 2);
  double c = check_edge_cost(L, 3);
  check_graph_idle(L, 1);
  if (lds_graph_set_edge_cost_id(g, e, c) != LDS_OK)
    return luaL_error(L, "%s", lds_graph_errmsg(g));
  return 0;
}

static int graph_h_scale(lua_State *L) {
  lua_pushnumber(L, lds_graph_h_scale(ldsl_check_graph(L, 1)));
  return 1;
}

static int graph_version(lua_State *L) {
  ldsl_push_u64(L, lds_graph_version(ldsl_check_graph(L, 1)));
  return 1;
}

static int graph_node_count(lua_State *L) {
  ldsl_push_u64(L, lds_graph_node_count(ldsl_check_graph(L, 1)));
  return 1;
}

static int graph_edge_count(lua_State *L) {
  ldsl_push_u64(L, lds_graph_edge_count(ldsl_check_graph(L, 1)));
  return 1;
}

static int graph_coords_kind(lua_State *L) {
  lua_pushstring(L, lds_coords_name(lds_graph_coords(ldsl_check_graph(L, 1))));
  return 1;
}

/* g:coords(n) -> x, y (xy, lonlat) | x, y, z (xyz) | nothing (none) */
static int graph_coords(lua_State *L) {
  lds_Graph *g = ldsl_check_graph(L, 1);
  uint32_t n = ldsl_check_node(L, g, 2, "node");
  double x, y, z;
  lds_Coords kind = lds_graph_coords(g);
  if (kind == LDS_COORDS_NONE || !lds_graph_node_coords(g, n, &x, &y, &z)) return 0;
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  if (kind != LDS_COORDS_XYZ) return 2;
  lua_pushnumber(L, z);
  return 3;
}

/* g:distance(a, b) -> the coordinate heuristic's distance (metres for lonlat) */
static int graph_distance(lua_State *L) {
  lds_Graph *g = ldsl_check_graph(L, 1);
  uint32_t a = ldsl_check_node(L, g, 2, "node"), bn = ldsl_check_node(L, g, 3, "node");
  lua_pushnumber(L, lds_graph_distance(g, a, bn));
  return 1;
}

/* g:mem_used() -> bytes, node_bytes, edge_bytes */
static int graph_mem_used(lua_State *L) {
  size_t nb = 0, eb = 0, all = lds_graph_mem_used(ldsl_check_graph(L, 1), &nb, &eb);
  ldsl_push_u64(L, all);
  ldsl_push_u64(L, nb);
  ldsl_push_u64(L, eb);
  return 3;
}

const luaL_Reg ldsl_graph_funcs[] = {{"from_grid", graph_from_grid},
                                       {"load_dimacs", ldsl_graph_load_dimacs},
                                       {"parse_dimacs", ldsl_graph_parse_dimacs},
                                       {"new", graph_new},
                                       {NULL, NULL}};

const luaL_Reg ldsl_graph_meth[] = {
    {"add_edge", graph_add_edge},
    {"add_node", graph_add_node},
    {"coords_kind", graph_coords_kind},
    {"coords", graph_coords},
    {"distance", graph_distance},
    {"edge", graph_edge},
    {"edge_count", graph_edge_count},
    {"find_edge", graph_find_edge},
    {"free", graph_free},
    {"freeze", graph_freeze},
    {"frozen", graph_frozen},
    {"h_scale", graph_h_scale},
    {"in_neighbours", graph_in_neighbours},
    {"mem_used", graph_mem_used},
    {"neighbours", graph_neighbours},
    {"node_count", graph_node_count},
    {"set_edge_cost", graph_set_edge_cost},
    {"set_edge_cost_id", graph_set_edge_cost_id},
    {"version", graph_version},
    /* deprecated aliases, kept for one release (docs/lua-api.md, "Deprecated names") */
    {"coord_kind", graph_coords_kind},
    {"in_neighbors", graph_in_neighbours},
    {"neighbors", graph_neighbours},
    {NULL, NULL}};

const luaL_Reg ldsl_graph_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", ldsl_space_gc},
#endif
    {"__gc", ldsl_space_gc},
    {"__tostring", graph_tostring},
    {NULL, NULL}};
