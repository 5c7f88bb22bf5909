/* SPDX-License-Identifier: MIT */
/*
** lua_util.h — what the files of the Lua module lodestar.core share: the
** boxes and the helpers (prefix ldsl_, internal to the module; the public
** part is lodestar_lua.h). The module exposes grids, searches and paths of
** the C core as full userdata, for Lua 5.4 and LuaJIT 2.1 (5.1 API):
**   lua_util.c     errors that name the argument, argument checks, space boxes
**   lua_module.c   luaopen_lodestar_core, the module table, the names table
**   lua_grid.c, lua_graph.c, lua_path.c, lua_dstar.c   one object each
**   lua_search.c   grid searches, find_path, THE search-option parser
**   lua_scheduler.c  lodestar.Scheduler and lodestar.Request (the C scheduler)
**   lua_cost_view.c  grid:cost_view, lodestar.CostView (shared weighted costs)
**   lua_hpa.c      lodestar.Hierarchy;  lua_path_cache.c  lodestar.PathCache
**   lua_search_graph.c  graph searches;  lua_options.c  search_options
**   lua_text.c     objects from text (maps, pictures, scenarios, DIMACS)
**   lds_pattern.c, lds_guard.c  bounded patterns, the memory guard
**
** Each binding checks its arguments, calls one core function and turns the
** status into Lua values (STYLE 12). Conventions, for every function here:
**  - coordinates are cells, 0-based, (0,0) top-left, as in the C core and the
**    Moving AI files; indices *into a path* are 1-based like any Lua sequence;
**  - wrong types or ranges raise "bad argument #n to 'f' (...)" with the same
**    text on both engines; misuse of an object raises; expected failures
**    (file not found, malformed map) return nil, message, status name;
**  - Lua callbacks (bake rules, edge costs) never unwind C core frames: edge
**    costs run under lua_pcall inside the step, bake rules before any core
**    call touches the layer.
**
** Userdata boxes (STYLE 14): the box is created with a NULL pointer and its
** metatable set *before* the core object is made, so a Lua memory error
** cannot leak one; __gc, __close and :free() share one idempotent release.
** A search keeps its grid alive through its user value (a table:
** [1] grid userdata, [2] edge callback, [3] weights by layer name,
** [4] message of the Lua error that ended the query); a graph search keeps
** its graph the same way ([1] graph userdata, [5] custom heuristic).
** Graph node and edge ids are 1-based in Lua (see lua_graph.c).
*/
#ifndef LDS_LUA_UTIL_H
#define LDS_LUA_UTIL_H

#include "lds.h"

#include "lds_compat.h"
#include "lodestar_lua.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct SpaceKind;

/* The box of a search space, a grid (lodestar.Grid) or a graph
** (lodestar.Graph): one life cycle for both (create, lend, free, gc,
** tostring in lua_util.c), the kind telling them apart. */
typedef struct SpaceBox {
  void *g;     /* lds_Grid * (a Grid) or lds_Graph * (a Graph) */
  const struct SpaceKind *kind;
  int owned;   /* 0: lent by the host, never freed here */
  int closed;  /* :free() or __gc ran; the core object may live on for searches */
  int nsearch; /* live searches (and D* Lite planners) on it */
  int busy;    /* > 0 while a Lua callback on it runs (bake rule, edge or heuristic callback) */
  /* grids: the search find_path reuses (lua_search.c), owned by the box and
  ** freed with the grid; not counted in nsearch. fp_busy: a find_path call
  ** holds it (a nested call, from a callback, makes its own search) */
  lds_Search *fp;
  int fp_busy;
} SpaceBox;
typedef SpaceBox GridBox;
typedef SpaceBox GraphBox;

/* What differs between the kinds of space box. */
typedef struct SpaceKind {
  const char *tname;           /* metatable name */
  void (*free_obj)(void *g);   /* frees the core object */
  const char *busy_free;       /* the refusal of :free() while busy (%s: tname) */
  void (*describe)(lua_State *L, const SpaceBox *b); /* pushes tostring of a live box */
} SpaceKind;

extern const SpaceKind ldsl_grid_kind, ldsl_graph_kind;

typedef struct SearchBox {
  lds_Search *s;
  GridBox *gb; /* the grid's box; the grid userdata is anchored in the user value */
  GraphBox *hb; /* or the graph's box (graph searches; gb is then NULL) */
  int owned;
  int busy;    /* inside step: re-entry and free are refused */
  int started; /* 1 once a start succeeded; 0 before it and after a failed start */
  int fp;      /* find_path: 1 = s is the grid box's reused search (gb->fp), 2 = s
               ** becomes it at release when the box has none */
  lds_Algo algo;
  lds_SearchParams params;
  double lw[16];  /* layer weights by layer index, rebuilt at each start */
  /* edge callback trampoline state (valid during a step only) */
  lua_State *L;
  int cb_idx;     /* stack index of the callback function */
  int cb_failed;  /* 1: the callback raised (error object left on the stack) */
  const char *cb_badtype; /* 2: it returned this type */
  int32_t cb_edge[4];
  /* custom Lua heuristic trampoline state (graphs; valid during start/step) */
  int h_idx;      /* stack index of the heuristic function */
  int h_failed;   /* 1: raised (error object on the stack), 2: not a number, 3: bad value */
  const char *h_badtype;
  uint32_t h_node;
  double h_val;
} SearchBox;

typedef struct PathBox {
  lds_Path *p;
  int owned;
} PathBox;


#define LDS_BAKED_MT "lodestar.Baked"
#define LDS_COST_VIEW_MT "lodestar.CostView"
#define LDS_HIER_MT "lodestar.Hierarchy" /* lodestar.hierarchy (lua_hpa.c) */
/* lua_hpa.c, for the scheduler's hierarchy requests (lua_scheduler.c): the
** core hierarchy of the lodestar.Hierarchy at arg (raises when it is not
** one, or freed); ldsl_hpa_use also counts one user, *box its handle for
** ldsl_hpa_unuse: h:free() and the collection of h keep the core hierarchy
** until its last user let it go (a scheduler frees its queries on h first). */
lds_Hpa *ldsl_hpa_check(lua_State *L, int arg);
lds_Hpa *ldsl_hpa_use(lua_State *L, int arg, void **box);
/* Pushes the layer weights (name -> number) the hierarchy at arg was built
** with, a table its paths remember, or nil when it has none. */
void ldsl_hpa_push_weights(lua_State *L, int arg);
void ldsl_hpa_unuse(void *box);
/* lua_navmesh.c, for the scheduler's mesh requests (lua_scheduler.c): the
** core mesh of the lodestar.Navmesh at arg (raises when it is not one, or
** freed); ldsl_navmesh_use also counts one user, *box its handle for
** ldsl_navmesh_unuse: mesh:free() and the collection of the mesh keep the
** core mesh until its last user let it go. */
lds_Navmesh *ldsl_navmesh_check(lua_State *L, int arg);
lds_Navmesh *ldsl_navmesh_use(lua_State *L, int arg, void **box);
void ldsl_navmesh_unuse(void *box);
/* mesh:find_path's options (algorithm, area_costs, blocked_areas,
** snap_radius, height_tol, partial, thorough) of the table at arg into *p,
** the area costs into costs [Shape: 256]; other keys are not looked at.
** Raises "opts.KEY: ..." naming the value on bad input. */
void ldsl_navmesh_read_opts(lua_State *L, int arg, lds_NavParams *p, double *costs);
/* Pushes the table mesh:find_path returns: the points {x =, y =, z =}
** [Shape: 3 * n doubles], length, cost, partial, algorithm, corridor
** (1-based polygon ids). */
void ldsl_navmesh_push_path(lua_State *L, const double *pts, size_t n, double length, double cost,
                            bool partial, lds_NavAlgo algo, const uint32_t *corr, size_t nc);
/* Pushes the table of a best path so far (mesh:partial_path,
** req:partial_path): the points, length, partial and algorithm, without
** cost and corridor (neither is known while a search runs). */
void ldsl_navmesh_push_so_far(lua_State *L, const double *pts, size_t n, double length,
                              bool partial, lds_NavAlgo algo);

#define ldsl_new_gridbox(L) ldsl_space_new((L), &ldsl_grid_kind)
#define ldsl_new_graphbox(L) ldsl_space_new((L), &ldsl_graph_kind)
#define ldsl_check_gridbox(L, arg) ldsl_space_check((L), (arg), &ldsl_grid_kind)
#define ldsl_check_graphbox(L, arg) ldsl_space_check((L), (arg), &ldsl_graph_kind)

/* lua_util.c */
SpaceBox *ldsl_space_new(lua_State *L, const SpaceKind *kind);
SpaceBox *ldsl_space_check(lua_State *L, int arg, const SpaceKind *kind);
void ldsl_space_release(SpaceBox *b);
int ldsl_space_free(lua_State *L, const SpaceKind *kind);
int ldsl_space_gc(lua_State *L);
int ldsl_space_tostring(lua_State *L, const SpaceKind *kind);
void ldsl_add_names(lua_State *L, int names, int t, const luaL_Reg *l, const char *prefix);
int ldsl_arg_error(lua_State *L, int arg, const char *extramsg);
double ldsl_check_int(lua_State *L, int arg);
void ldsl_check_keys(lua_State *L, int arg, const char *what, const char *nonstring, const char *const keys[], const char *extra);
lua_Number ldsl_check_num(lua_State *L, int arg);
int ldsl_check_option(lua_State *L, int arg, const char *const lst[]);
const char *ldsl_check_str(lua_State *L, int arg);
void ldsl_check_table(lua_State *L, int arg);
void ldsl_create_meta(lua_State *L, const char *tname, const luaL_Reg *meth, const luaL_Reg *metameth);
const char *ldsl_fmt_num(char *buf, size_t size, double v);
/* v as written: integers in full (never wrapped to 32 bits), else as
** ldsl_fmt_num; for the values of coordinate and index errors. */
const char *ldsl_fmt_coord(char *buf, size_t size, double v);
/* 1 when v is an integer in 0..n-1 [cells] (not nan, inf or a fraction). */
int ldsl_coord_ok(double v, int32_t n);
/* Checks one entry of a `weights` option walk (name at -2, weight at -1;
** the layer exists when g is given) and returns the name (lua_util.c). */
const char *ldsl_weight_entry(lua_State *L, int arg, const lds_Grid *g);
/* Raises the core's message about layer weights as an error of opts.weights
** at oi (or "FALLBACK: ..." at arg when the options there set none), other
** messages as errors of argument arg (lua_util.c). */
int ldsl_weights_fail(lua_State *L, int oi, int arg, const char *fallback, const char *msg);
lds_Env ldsl_lua_env(lua_State *L);
extern const char ldsl_names_key;
double ldsl_opt_int(lua_State *L, int arg, double def);
int ldsl_push_fail(lua_State *L, const char *msg, lds_Status st);
/* Raises "<what>: Lua callbacks nest too deep (...)" when the C stack of
** this thread holds more than LDSL_CALLBACK_STACK bytes between the
** outermost lodestar call that ran a Lua callback and here: called before
** every call from the module into Lua code a user gave (hooks, edge costs,
** rules, handlers), so a callback that calls lodestar again, without end,
** gets a Lua error on both engines (LuaJIT has no C-stack limit of its own
** for Lua -> C -> Lua recursion and would crash the host). */
void ldsl_callback_guard(lua_State *L, const char *what);
#define LDSL_CALLBACK_STACK (1024 * 1024)
void ldsl_push_u64(lua_State *L, uint64_t v);
/* Pushes a table {expansions, pushes, peak_open, elapsed_us} of *st (counts,
** microseconds), sized for `extra` more fields the caller sets. */
void ldsl_push_stats(lua_State *L, const lds_Stats *st, int extra);
int ldsl_type_error(lua_State *L, int arg, const char *expected);
/* Boolean option / optional boolean argument: nil -> dflt, a boolean -> its
** value, anything else raises an argument error naming the option (opts.NAME)
** or the argument, "boolean expected, got T". */
int ldsl_opt_boolean(lua_State *L, int arg, const char *name, int dflt);
int ldsl_arg_boolean(lua_State *L, int arg, int dflt);
const char *ldsl_value_name(lua_State *L, int idx);

/* lua_grid.c */
extern const luaL_Reg ldsl_baked_metameth[];
lds_Grid *ldsl_check_grid(lua_State *L, int arg);
/* Cell coordinates at args ix, ix+1, checked against the grid: numbers,
** integers in the grid, else an argument error naming x or y with the
** value as given ("x 4294967296 out of range (expected 0..7)"). */
void ldsl_check_xy(lua_State *L, const lds_Grid *g, int ix, int32_t *x, int32_t *y);
/* The start and goal of a grid query at args ix..ix+3 into c[0..3] (sx, sy,
** gx, gy), checked as ldsl_check_xy does, the errors naming the arguments
** as the API does ("gx 20 out of range (expected 0..15)"). */
void ldsl_check_start_goal(lua_State *L, const lds_Grid *g, int ix, int32_t *c);
extern const luaL_Reg ldsl_grid_funcs[];
extern const luaL_Reg ldsl_grid_metameth[];
extern const luaL_Reg ldsl_grid_meth[];

/* lua_cost_view.c */
int ldsl_grid_cost_view(lua_State *L);
int ldsl_grid_cost_views(lua_State *L);
extern const luaL_Reg ldsl_view_meth[];
extern const luaL_Reg ldsl_view_metameth[];

/* lua_text.c */
int ldsl_graph_load_dimacs(lua_State *L);
int ldsl_graph_parse_dimacs(lua_State *L);
int ldsl_grid_from_ascii(lua_State *L);
int ldsl_grid_from_rows(lua_State *L);
int ldsl_grid_load(lua_State *L);
int ldsl_grid_parse(lua_State *L);
extern const luaL_Reg ldsl_scenario_funcs[];

/* lua_graph.c */
lds_Graph *ldsl_check_graph(lua_State *L, int arg);
uint32_t ldsl_check_node(lua_State *L, const lds_Graph *g, int arg, const char *what);
extern const char *const ldsl_coords_names[];
extern const luaL_Reg ldsl_graph_funcs[];
extern const luaL_Reg ldsl_graph_metameth[];
extern const luaL_Reg ldsl_graph_meth[];

/* lua_grid_mesh.c: grid:to_navmesh (upvalue 1: navmesh.new), grid:outline */
int ldsl_grid_to_navmesh(lua_State *L);
int ldsl_grid_outline(lua_State *L);

/* lua_navmesh.c */
#define LDS_NAVMESH_MT "lodestar.Navmesh"
extern const luaL_Reg ldsl_navmesh_funcs[];
extern const luaL_Reg ldsl_navmesh_meth[];
extern const luaL_Reg ldsl_navmesh_metameth[];

/* lua_path.c */
void ldsl_copy_table(lua_State *L, int idx);
int ldsl_grid_polyline_cost(lua_State *L);
/* grid:component and grid:connected (lua_components.c) */
int ldsl_grid_component(lua_State *L);
int ldsl_grid_connected(lua_State *L);
PathBox *ldsl_new_pathbox(lua_State *L);
extern const luaL_Reg ldsl_path_funcs[];
int ldsl_path_index(lua_State *L);
extern const luaL_Reg ldsl_path_metameth[];
extern const luaL_Reg ldsl_path_meth[];
int ldsl_path_prune_los(lua_State *L);
void ldsl_path_remember(lua_State *L, int pi, int wi);
void ldsl_push_path(lua_State *L, PathBox *b, lds_Path *p, const lds_Error *err);

/* lua_search.c */
extern const char *const ldsl_budget_keys[];
/* Reads the budget at arg into *bud: nil or 0 = no limit, an integer >= 0 =
** max_expansions, or a table {max_expansions =, budget_us =} (integers >= 0,
** other keys refused). Raises an argument error naming what was expected.
** Shared by s:step, d:step (the one budget shape of lds_Budget). */
void ldsl_check_budget(lua_State *L, int arg, lds_Budget *bud);
SearchBox *ldsl_check_search(lua_State *L, int arg);
int ldsl_find_path(lua_State *L);
int ldsl_find_path_finish(lua_State *L, SearchBox *b);
int ldsl_graph_algo(lds_Algo a);
void ldsl_opt_cell(lua_State *L, int arg, const char *name, const lds_Grid *g, int32_t *x, int32_t *y);
int ldsl_opt_error(lua_State *L, int arg, const char *name, const char *what);
int ldsl_opt_type_error(lua_State *L, int arg, const char *name, const char *expected);
extern const luaL_Reg ldsl_search_metameth[];
extern const luaL_Reg ldsl_search_meth[];
int ldsl_search_new(lua_State *L);
const char *ldsl_take_algorithm(lua_State *L, int oi);
int ldsl_unknown_algorithm(lua_State *L, int oi, const char *algo, int graph);

void ldsl_parse_search_opts(lua_State *L, int arg, lds_SearchParams *p, const lds_Grid *g,
                            const char *extra);

/* lua_debug_draw.c: grid:draw, search:draw, search:picture, path:draw (host-only) */
extern const luaL_Reg ldsl_grid_draw_meth[];
extern const luaL_Reg ldsl_search_draw_meth[];
extern const luaL_Reg ldsl_path_draw_meth[];

/* lua_options.c */
int ldsl_search_options(lua_State *L);

/* lua_search_graph.c */
int ldsl_check_space(lua_State *L, int arg);
int ldsl_find_path_graph(lua_State *L);
void ldsl_heur_report(lua_State *L, SearchBox *b, int uv);
SearchBox *ldsl_new_graph_search(lua_State *L, int hi, int oi, const char *algo_name, const char *extra);
int ldsl_search_graph(lua_State *L);
int ldsl_search_h_scale(lua_State *L);
int ldsl_search_start_graph(lua_State *L, SearchBox *b);

/* lua_scheduler.c */
#define LDS_REQUEST_MT "lodestar.Request"
extern const luaL_Reg ldsl_scheduler_funcs[];
extern const luaL_Reg ldsl_scheduler_meth[];
extern const luaL_Reg ldsl_scheduler_metameth[];
extern const luaL_Reg ldsl_request_meth[];
extern const luaL_Reg ldsl_request_metameth[];

/* lua_dstar.c */
extern const luaL_Reg ldsl_dstar_metameth[];
extern const luaL_Reg ldsl_dstar_meth[];
/* lua_hpa.c: lodestar.hierarchy and the lodestar.Hierarchy methods */
int ldsl_hpa_new(lua_State *L);
extern const luaL_Reg ldsl_hpa_meth[];
extern const luaL_Reg ldsl_hpa_metameth[];
int ldsl_dstar_new(lua_State *L);
/* lua_path_cache.c: lodestar.path_cache and the lodestar.PathCache methods */
#define LDS_PATH_CACHE_MT "lodestar.PathCache"
int ldsl_path_cache_new(lua_State *L);
extern const luaL_Reg ldsl_path_cache_meth[];
extern const luaL_Reg ldsl_path_cache_metameth[];
/* Pushes the counters of pc as the table of cache:stats() without its
** binding-side fields (searches, max_entries): answered, hits, misses,
** expansions, invalidated, truncated, evictions, entries, bytes. Shared by
** cache:stats() and sched:path_cache_stats(). */
void ldsl_push_path_cache_stats(lua_State *L, const lds_PathCache *pc);
int ldsl_dstar_weights(lua_State *L, int arg, const lds_Grid *g, double *w);

#endif
