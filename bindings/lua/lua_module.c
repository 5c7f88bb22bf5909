/* SPDX-License-Identifier: MIT */
/*
** lua_module.c — luaopen_lodestar_core: the module table, metatables, the names
** table of arg_error, option lists.
*/
#include "lua_util.h"
#include "lds_guard.h"
#include "lds_pattern.h"

static int m_status_name(lua_State *L) {
  lua_pushstring(L, lds_status_name((lds_Status)ldsl_check_int(L, 1)));
  return 1;
}

static int m_heuristic_distance(lua_State *L) {
  lds_Heuristic h;
  const char *name = ldsl_check_str(L, 1);
  if (lds_heuristic_parse(name, &h) != LDS_OK)
    return ldsl_arg_error(L, 1, lua_pushfstring(L, "invalid option '%s'", name));
  {
    double d[2];
    int i;
    for (i = 0; i < 2; i++) { /* cell offsets: at most a grid side, never wrapped to 32 bits */
      char buf[64];
      d[i] = ldsl_check_int(L, i + 2);
      if (fabs(d[i]) > LDS_GRID_MAX_SIDE)
        ldsl_arg_error(L, i + 2, lua_pushfstring(L, "%s %s out of range (expected -%d..%d cells)",
                                                 i ? "dy" : "dx",
                                                 ldsl_fmt_coord(buf, sizeof buf, d[i]),
                                                 LDS_GRID_MAX_SIDE, LDS_GRID_MAX_SIDE));
    }
    lua_pushnumber(L, lds_heuristic_distance(h, (int32_t)d[0], (int32_t)d[1]));
  }
  return 1;
}

/* lodestar.prune_los(path, grid): path:prune_los(grid) as a post-processor
** function. Its own C function, so a bad grid is argument #2 here and #1 in
** the method (arg_error tells them apart by the function). */
static int m_prune_los(lua_State *L) { return ldsl_path_prune_los(L); }

static const luaL_Reg module_funcs[] = {{"find_path", ldsl_find_path},
                                        {"heuristic_distance", m_heuristic_distance},
                                        {"hierarchy", ldsl_hpa_new},
                                        {"path_cache", ldsl_path_cache_new},
                                        {"prune_los", m_prune_los},
                                        {"search_options", ldsl_search_options},
                                        {"status_name", m_status_name},
                                        {NULL, NULL}};

static void push_names(lua_State *L, const char *(*name)(int), int max) {
  int i, n = 0;
  lua_newtable(L);
  for (i = 0; i < max; i++) {
    const char *s = name(i);
    if (!s) break;
    lua_pushstring(L, s);
    lua_rawseti(L, -2, ++n);
  }
}

static const char *algo_name_i(int i) { return lds_algo_name((lds_Algo)i); }
static const char *heur_name_i(int i) { return lds_heuristic_name((lds_Heuristic)i); }
static const char *diag_name_i(int i) { return lds_diagonal_name((lds_Diagonal)i); }

/* Pushes this state's names table (arg_error), creating it on first use. */
static int push_names_table(lua_State *L) {
  lua_pushlightuserdata(L, (void *)&ldsl_names_key);
  lua_rawget(L, LUA_REGISTRYINDEX); /* names */
  if (lua_type(L, -1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L); /* names */
    lua_newtable(L); /* names, mt */
    lua_pushstring(L, "k");
    lua_setfield(L, -2, "__mode"); /* a re-opened module's old closures may go */
    lua_setmetatable(L, -2);
    lua_pushlightuserdata(L, (void *)&ldsl_names_key);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
  }
  return lua_gettop(L);
}

/* Adds the methods of the metatable tname (its __index table) to names. */
static void add_method_names(lua_State *L, int names, const char *tname, const luaL_Reg *meth) {
  luaL_getmetatable(L, tname);  /* mt */
  lua_getfield(L, -1, "__index"); /* mt, methods */
  ldsl_add_names(L, names, lua_gettop(L), meth, ":");
  lua_pop(L, 2);
}

/* Adds methods to the metatable tname's __index table. */
static void add_methods(lua_State *L, const char *tname, const luaL_Reg *meth) {
  luaL_getmetatable(L, tname);
  lua_getfield(L, -1, "__index");
  luaL_setfuncs(L, meth, 0);
  lua_pop(L, 2);
}

int luaopen_lodestar_core(lua_State *L) {
  int i, names;
  ldsl_create_meta(L, LDS_GRID_MT, ldsl_grid_meth, ldsl_grid_metameth);
  ldsl_create_meta(L, LDS_GRAPH_MT, ldsl_graph_meth, ldsl_graph_metameth);
  /* the "grid or graph" marker (check_space) */
  luaL_getmetatable(L, LDS_GRID_MT);
  lua_pushstring(L, "grid");
  lua_setfield(L, -2, LDS_SPACE_FIELD);
  luaL_getmetatable(L, LDS_GRAPH_MT);
  lua_pushstring(L, "graph");
  lua_setfield(L, -2, LDS_SPACE_FIELD);
  lua_pop(L, 2);
  ldsl_create_meta(L, LDS_SEARCH_MT, ldsl_search_meth, ldsl_search_metameth);
  ldsl_create_meta(L, LDS_DSTAR_MT, ldsl_dstar_meth, ldsl_dstar_metameth);
  ldsl_create_meta(L, LDS_HIER_MT, ldsl_hpa_meth, ldsl_hpa_metameth);
  ldsl_create_meta(L, LDS_PATH_CACHE_MT, ldsl_path_cache_meth, ldsl_path_cache_metameth);
  ldsl_create_meta(L, LDS_PATH_MT, NULL, ldsl_path_metameth);
  ldsl_create_meta(L, LDS_BAKED_MT, NULL, ldsl_baked_metameth);
  ldsl_create_meta(L, LDS_SCHEDULER_MT, ldsl_scheduler_meth, ldsl_scheduler_metameth);
  ldsl_create_meta(L, LDS_REQUEST_MT, ldsl_request_meth, ldsl_request_metameth);
  ldsl_create_meta(L, LDS_COST_VIEW_MT, ldsl_view_meth, ldsl_view_metameth);
  ldsl_create_meta(L, LDS_NAVMESH_MT, ldsl_navmesh_meth, ldsl_navmesh_metameth);
  names = push_names_table(L); /* names */
  add_methods(L, LDS_GRID_MT, ldsl_grid_draw_meth); /* host-only drawing (lua_debug_draw.c) */
  add_methods(L, LDS_SEARCH_MT, ldsl_search_draw_meth);
  add_method_names(L, names, LDS_GRID_MT, ldsl_grid_meth);
  add_method_names(L, names, LDS_GRID_MT, ldsl_grid_draw_meth);
  add_method_names(L, names, LDS_GRAPH_MT, ldsl_graph_meth);
  add_method_names(L, names, LDS_SEARCH_MT, ldsl_search_meth);
  add_method_names(L, names, LDS_SEARCH_MT, ldsl_search_draw_meth);
  add_method_names(L, names, LDS_DSTAR_MT, ldsl_dstar_meth);
  add_method_names(L, names, LDS_SCHEDULER_MT, ldsl_scheduler_meth);
  add_method_names(L, names, LDS_REQUEST_MT, ldsl_request_meth);
  add_method_names(L, names, LDS_COST_VIEW_MT, ldsl_view_meth);
  add_method_names(L, names, LDS_NAVMESH_MT, ldsl_navmesh_meth);
  add_method_names(L, names, LDS_HIER_MT, ldsl_hpa_meth);
  add_method_names(L, names, LDS_PATH_CACHE_MT, ldsl_path_cache_meth);
  /* Path: __index is a function (fields cost/partial), methods as upvalue */
  luaL_getmetatable(L, LDS_PATH_MT); /* names, mt */
  lua_newtable(L);                   /* names, mt, methods */
  luaL_setfuncs(L, ldsl_path_meth, 0);
  luaL_setfuncs(L, ldsl_path_draw_meth, 0);
  ldsl_add_names(L, names, lua_gettop(L), ldsl_path_meth, ":");
  ldsl_add_names(L, names, lua_gettop(L), ldsl_path_draw_meth, ":");
  lua_pushcclosure(L, ldsl_path_index, 1); /* names, mt, index */
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1); /* names */

  lua_newtable(L); /* names, M */
  luaL_setfuncs(L, module_funcs, 0);
  ldsl_add_names(L, names, lua_gettop(L), module_funcs, "");
  lua_newtable(L); /* names, M, grid */
  luaL_setfuncs(L, ldsl_grid_funcs, 0);
  ldsl_add_names(L, names, lua_gettop(L), ldsl_grid_funcs, "");
  lua_setfield(L, -2, "grid");
  lua_newtable(L); /* names, M, graph */
  luaL_setfuncs(L, ldsl_graph_funcs, 0);
  ldsl_add_names(L, names, lua_gettop(L), ldsl_graph_funcs, "");
  lua_setfield(L, -2, "graph");
  lua_newtable(L); /* names, M, navmesh */
  luaL_setfuncs(L, ldsl_navmesh_funcs, 0);
  ldsl_add_names(L, names, lua_gettop(L), ldsl_navmesh_funcs, ""); /* "new", as grid.new */
  { /* grid:to_navmesh builds its mesh through navmesh.new (its upvalue); grid:outline */
    static const luaL_Reg grid_mesh_meth[] = {
        {"outline", ldsl_grid_outline}, {"to_navmesh", ldsl_grid_to_navmesh}, {NULL, NULL}};
    luaL_getmetatable(L, LDS_GRID_MT); /* names, M, navmesh, mt */
    lua_getfield(L, -1, "__index");    /* ..., mt, methods */
    lua_getfield(L, -3, "new");
    lua_pushcclosure(L, ldsl_grid_to_navmesh, 1);
    lua_setfield(L, -2, "to_navmesh");
    lua_pushcfunction(L, ldsl_grid_outline);
    lua_setfield(L, -2, "outline");
    ldsl_add_names(L, names, lua_gettop(L), grid_mesh_meth, ":");
    lua_pop(L, 2); /* names, M, navmesh */
  }
  lua_setfield(L, -2, "navmesh");
  lua_newtable(L); /* names, M, path */
  luaL_setfuncs(L, ldsl_path_funcs, 0);
  ldsl_add_names(L, names, lua_gettop(L), ldsl_path_funcs, "");
  lua_setfield(L, -2, "path");
  lua_newtable(L); /* names, M, scenario */
  luaL_setfuncs(L, ldsl_scenario_funcs, 0);
  ldsl_add_names(L, names, lua_gettop(L), ldsl_scenario_funcs, "");
  lua_setfield(L, -2, "scenario");
  lua_newtable(L); /* names, M, scheduler */
  luaL_setfuncs(L, ldsl_scheduler_funcs, 0);
  ldsl_add_names(L, names, lua_gettop(L), ldsl_scheduler_funcs, "");
  lua_setfield(L, -2, "scheduler");
  /* search constructors: one per algorithm the core names, so new kinds
  ** (jps, jps+, ...) appear as soon as lds_algo_name knows them */
  lua_newtable(L); /* names, M, search */
  for (i = 0; i < 64; i++) {
    const char *name = lds_algo_name((lds_Algo)i);
    if (!name) break;
    lua_pushstring(L, name);
    lua_pushcclosure(L, ldsl_search_new, 1); /* names, M, search, new */
    lua_pushvalue(L, -1);
    lua_pushstring(L, name);
    lua_rawset(L, names);
    lua_setfield(L, -2, name);
  }
  lua_pushcfunction(L, ldsl_dstar_new); /* D* Lite: its own object, lodestar.DStar */
  lua_pushvalue(L, -1);
  lua_pushstring(L, "dstar_lite");
  lua_rawset(L, names);
  lua_setfield(L, -2, "dstar_lite");
  lua_setfield(L, -2, "search"); /* names, M */
  push_names(L, algo_name_i, 64);
  lua_setfield(L, -2, "algorithms");
  push_names(L, heur_name_i, 64);
  lua_setfield(L, -2, "heuristics");
  push_names(L, diag_name_i, 4);
  lua_setfield(L, -2, "diagonal_rules");
  lua_newtable(L); /* names, M, coords kinds */
  for (i = 0; ldsl_coords_names[i]; i++) {
    lua_pushstring(L, ldsl_coords_names[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "coords_kinds");
  lua_pushstring(L, lds_version());
  lua_setfield(L, -2, "_VERSION");
  lua_pushstring(L, "lodestar.core");
  lua_setfield(L, -2, "_NAME");
  lds_pattern_open(L); /* M.pattern: bounded find/match/gmatch/gsub (lds_pattern.c) */
  lds_guard_open(L);   /* registry["lodestar.memory_limit"] (lds_guard.c) */
  lua_remove(L, names); /* M */
  return 1;
}
